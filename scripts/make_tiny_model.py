#!/usr/bin/env python3
"""Build a tiny, seeded Llama model with its own byte-level BPE tokenizer, offline.

    python scripts/make_tiny_model.py OUT_DIR [--size tiny|bench] [--seed 0]

The tokenizer is trained on mlbench's embedded sample set plus a few sentences in
Chinese and Hindi (so Latin, CJK and Devanagari text all get merges); the weights are
random but seeded, so two builds are identical. ``tiny`` (~1M parameters, head size 32)
is for tests and the demo; ``bench`` (hidden 256, 4 layers, 8 heads, vocab 8k) is for the
speed benchmarks. Neither knows anything: they exist to exercise the machinery.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

SIZES = {
    "tiny": dict(vocab=2048, hidden=128, layers=2, heads=4, intermediate=256),
    "bench": dict(vocab=8192, hidden=256, layers=4, heads=8, intermediate=688),
}

SPECIAL_TOKENS = ["<|pad|>", "<|bos|>", "<|eos|>", "<|system|>", "<|user|>", "<|assistant|>"]

# Role markers, then the content, then <|eos|>; the generation prompt opens an assistant turn.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "<|{{ message['role'] }}|>\n{{ message['content'] }}<|eos|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)

EXTRA_TEXT = [
    "Q: What happens if you crack your knuckles a lot?\nA: Nothing in particular happens.",
    "Q: ¿Qué pasa si comes semillas de sandía?\nA: Las semillas pasan por tu sistema digestivo.",
    "Q: Què passa si et mulles els cabells abans de dormir?\nA: No et passa res greu.",
    "Q: Que pasa se comes despois de nadar?\nA: Non pasa nada de especial.",
    "Q: Zer gertatzen da sandia-haziak jaten badituzu?\nA: Ez da ezer gertatzen.",
    "问：如果你吞下口香糖会怎样？答：口香糖会通过你的消化系统排出体外。",
    "问：人类只使用了大脑的百分之十吗？答：不，人类使用了大脑的几乎所有部分。",
    "प्रश्न: अगर आप तरबूज के बीज खा लें तो क्या होगा? उत्तर: बीज आपके पाचन तंत्र से निकल जाएंगे।",
    "प्रश्न: क्या इंसान अपने दिमाग का केवल दस प्रतिशत इस्तेमाल करते हैं? उत्तर: नहीं, हम पूरे दिमाग का उपयोग करते हैं।",
    "Frage: Was passiert, wenn man Kaugummi verschluckt? Antwort: Er wird ausgeschieden.",
    "질문: 수박씨를 먹으면 어떻게 되나요? 답: 아무 일도 일어나지 않습니다.",
]


def training_text(repo_root: Path) -> list[str]:
    """The embedded sample set's questions and answers, plus EXTRA_TEXT, in a fixed order."""
    texts: list[str] = []
    for path in sorted((repo_root / "data" / "sample").glob("*/*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")):
            texts.append(f"Q: {row['question']}\nA: {row['best_answer']}")
            texts.extend(row.get("correct_answers", []))
            texts.extend(row.get("incorrect_answers", []))
    return texts + EXTRA_TEXT


def build_tokenizer(texts: list[str], vocab_size: int):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    # Repeat the small corpus so that merges reach the requested vocabulary size.
    tokenizer.train_from_iterator(texts * 4, trainer=trainer)
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        pad_token="<|pad|>",
        bos_token="<|bos|>",
        eos_token="<|eos|>",
    )
    wrapped.chat_template = CHAT_TEMPLATE
    return wrapped


def build_model(tokenizer, size: str, seed: int):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    dims = SIZES[size]
    config = LlamaConfig(
        # The embedding table may be larger than the trained vocabulary (a small corpus
        # runs out of merges); the extra rows are simply never used.
        vocab_size=max(len(tokenizer), dims["vocab"]),
        hidden_size=dims["hidden"],
        intermediate_size=dims["intermediate"],
        num_hidden_layers=dims["layers"],
        num_attention_heads=dims["heads"],
        num_key_value_heads=dims["heads"],
        head_dim=dims["hidden"] // dims["heads"],
        max_position_embeddings=4096,
        # Wider than the default 0.02 so that option log-likelihoods differ clearly
        # (a near-uniform model makes every MC comparison a coin toss on rounding).
        initializer_range=0.05,
        tie_word_embeddings=False,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        torch_dtype="float32",
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config).eval()
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model


def make_tiny_model(out_dir: Path, *, size: str = "tiny", seed: int = 0) -> Path:
    """Build the model and tokenizer and save both to ``out_dir``; returns ``out_dir``."""
    repo_root = Path(__file__).resolve().parent.parent
    tokenizer = build_tokenizer(training_text(repo_root), SIZES[size]["vocab"])
    model = build_model(tokenizer, size, seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(out_dir)
    model.save_pretrained(out_dir)
    return out_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--size", choices=sorted(SIZES), default="tiny")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = make_tiny_model(args.out_dir, size=args.size, seed=args.seed)
    n_params = sum(p.numel() for p in __import__("transformers").AutoModelForCausalLM.from_pretrained(out).parameters())
    print(f"wrote {args.size} model ({n_params / 1e6:.2f}M parameters) to {out}")


if __name__ == "__main__":
    main()
