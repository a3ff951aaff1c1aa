"""Build a tiny random NLI (sequence-classification) model for tests: an XLM-RoBERTa
shape like the paper's refusal classifier, with contradiction/neutral/entailment labels
and a byte-level BPE tokenizer trained on a few KB of text. Its predictions are noise;
it exists to test the plumbing (pairs, batching, label lookup, thresholds) offline.

    python scripts/make_tiny_nli_model.py OUT_DIR [--seed 0]
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

LABELS = {0: "contradiction", 1: "neutral", 2: "entailment"}


def _tiny_model_script():
    spec = importlib.util.spec_from_file_location("make_tiny_model", Path(__file__).with_name("make_tiny_model.py"))
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def make_tiny_nli_model(out_dir: Path, *, seed: int = 0) -> Path:
    import torch
    from tokenizers import processors
    from transformers import XLMRobertaConfig, XLMRobertaForSequenceClassification

    script = _tiny_model_script()
    repo_root = Path(__file__).resolve().parent.parent
    tokenizer = script.build_tokenizer(script.training_text(repo_root), 2048)
    bos, eos = tokenizer.bos_token, tokenizer.eos_token
    # <s> premise </s></s> hypothesis </s>, as XLM-R encodes a pair.
    tokenizer.backend_tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, tokenizer.bos_token_id), (eos, tokenizer.eos_token_id)],
    )
    tokenizer.model_input_names = ["input_ids", "attention_mask"]
    tokenizer.model_max_length = 512
    tokenizer.chat_template = None
    config = XLMRobertaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,  # head size 32
        intermediate_size=128,
        max_position_embeddings=514 + tokenizer.pad_token_id,
        type_vocab_size=1,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        id2label=LABELS,
        label2id={v: k for k, v in LABELS.items()},
        initializer_range=0.5,  # wide weights, so that the probabilities spread out
    )
    torch.manual_seed(seed)
    model = XLMRobertaForSequenceClassification(config).eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(out_dir)
    model.save_pretrained(out_dir)
    return out_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"wrote a tiny NLI model to {make_tiny_nli_model(args.out_dir, seed=args.seed)}")


if __name__ == "__main__":
    main()
