#!/usr/bin/env python3
"""The GPU benchmark's model: a seeded random-init Llama whose greedy answers two harnesses
agree on, even in bfloat16.

    python scripts/bench_gpu_model.py OUT --tokenizer DIR [--size full|tiny|8b|8b-tiny] [--device cuda]
        [--dtype bfloat16|float32] [--seed 1234]

``full`` is ~1.17 B parameters (TinyLlama's shape: hidden 2048, 22 layers, 32 query and 4
key/value heads) over the tokenizer's vocabulary (SmolLM2's: 49,152 tokens); ``tiny`` is a
2-layer model of the same vocabulary for the CPU rehearsal. ``8b`` is Llama-3.1-8B's shape
(hidden 4096, 32 layers, 32 query and 8 key/value heads, MLP 14,336), ~7.4 B parameters
over the same vocabulary (Llama's own 128,256 tokens would add 0.6 B to the embedding and
head, not to the work per token); ``8b-tiny`` keeps its head ratio (4 query heads per
key/value head) and MLP ratio (3.5) at the tiny size, for the rehearsal of the 8 B steps.

A network at the usual random init gives near-uniform logits: the top two differ by less
than bfloat16 rounding, and two harnesses that batch or pad differently pick different
tokens. So the weights are shaped: the residual stream is mostly the current token's
embedding (each layer adds a few percent), and the head gives every token one designated
successor a logit of about 20 while the rest are N(0, 2.5^2) (their maximum is about 11).
Successors follow one random cycle through the "word" tokens (a space and a lowercase
word); every other token leads into it. One word in ``END_EVERY`` leads out of the cycle
instead: half of them to end-of-sequence, half to "." and then "\n\n" (TruthfulQA-Multi's
stop string ".\n\n"), so a walk ends after a varied number of steps (about a third of
walks still reach a 256-token budget): a batch's rows end at different steps, and the
decoder's row ending, compaction and re-recording of smaller shapes all run. The walk
after ":" and after "?" is made to end with end-of-sequence as its 192nd token: a
TruthfulQA-Multi generation prompt ends with its question (no "A:" after it), so every
answer of the benchmark's generation starts there and keeps most of its budget's work.
(Until 2026-11-28 only the walk after ":" was, and the answers took the walk after "?",
which left the cycle at its 99th token: the 99-token answers of the first H200 run.) The
margin of each argmax is several nats: what the harnesses compute, not rounding, decides
the answer. The layers still make every logit depend on the context, so MC
log-likelihoods are real work. (A walk depends only on the token it starts from: every
answer is the same walk, so the checks that need rows to end at different steps use
prompts ending in different tokens: bench_gpu_checks.py.)

Prints one JSON line (parameters, vocabulary, seconds) and a teacher-forced self-check: how
often the designed successor is the argmax, and the smallest top-two margin.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SHAPES = {
    "full": dict(hidden_size=2048, num_hidden_layers=22, num_attention_heads=32, num_key_value_heads=4,
                 intermediate_size=5632),
    "tiny": dict(hidden_size=256, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                 intermediate_size=512),
    "8b": dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
               intermediate_size=14336),
    "8b-tiny": dict(hidden_size=256, num_hidden_layers=4, num_attention_heads=8, num_key_value_heads=2,
                    intermediate_size=896),
}  # fmt: skip
DESIGNED_LOGIT = 20.0
OTHER_LOGIT_SD = 2.5
LAYER_OUT_SD = 0.0015  # o_proj and down_proj: each layer adds a few percent to the residual
# ... in the ``full`` shape. A wider or deeper model adds more per layer (a row of o_proj
# sums hidden_size inputs) and over more layers: its sd is scaled down so that all layers
# together add what ``full``'s do, and its answers keep their margins.
END_EVERY = 232  # (1 - 1/232) ** 256 = 1/3: a third of walks run to a 256-token budget
ANSWER_STEPS = 192  # the tokens of the walk after ":" and "?", its end-of-sequence included
WORD = re.compile(r"^Ġ[a-z]{3,12}$")  # byte-level BPE: a space and a lowercase word


def build(out: Path, tokenizer_dir: Path, size: str, device: str, dtype: str, seed: int) -> None:
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    started = time.time()
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    vocab = len(tokenizer)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    config = LlamaConfig(
        vocab_size=vocab,
        max_position_embeddings=4096,
        rms_norm_eps=1e-5,
        tie_word_embeddings=False,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=pad,
        **SHAPES[size],
    )
    torch.manual_seed(seed)
    with torch.device(device):
        model = LlamaForCausalLM(config)
    generator = torch.Generator(device=device).manual_seed(seed)

    def normal(shape: tuple[int, ...], sd: float) -> Any:
        return torch.randn(shape, generator=generator, device=device) * sd

    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if parameter.dim() == 1:
                parameter.fill_(1.0)
            elif "embed_tokens" in name:
                parameter.copy_(normal(parameter.shape, 1.0))
            elif name.endswith(("o_proj.weight", "down_proj.weight")):
                parameter.copy_(normal(parameter.shape, layer_out_sd(size)))
            elif "lm_head" not in name:
                parameter.copy_(normal(parameter.shape, 0.02))
        successor = designed_successors(tokenizer, generator, device)
        set_head(model, successor, normal)
    model = model.to(getattr(torch, dtype))
    model.generation_config.pad_token_id = pad
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    # The design, for the checks that pick prompts by where their walks end.
    (out / "designed_successors.json").write_text(json.dumps(successor.tolist()))
    parameters = sum(p.numel() for p in model.parameters())
    print(json.dumps({"params": parameters, "size": size, "dtype": dtype, "vocab": vocab,
                      "seconds": round(time.time() - started, 1)}))  # fmt: skip
    self_check(model, tokenizer, successor.tolist(), device)


def layer_out_sd(size: str) -> float:
    """LAYER_OUT_SD for ``full`` and ``tiny`` (the recorded runs' models); for the 8 B
    shapes, scaled to ``full``'s total by sqrt(MLP width x layers), the widest sum a layer
    adds to the residual (down_proj's) and how many do (o_proj's sum is narrower: a rough
    scale, which the teacher-forced self-check and the harnesses' comparison judge)."""
    if size in ("full", "tiny"):
        return LAYER_OUT_SD
    shape, full = SHAPES[size], SHAPES["full"]
    reach = shape["intermediate_size"] * shape["num_hidden_layers"]
    return LAYER_OUT_SD * math.sqrt(full["intermediate_size"] * full["num_hidden_layers"] / reach)


def designed_successors(tokenizer: Any, generator: Any, device: str) -> Any:
    """Each token's designed next token: one random cycle through the word tokens, and
    every other token into a random place of it (special tokens have none: -1); one word
    in ``END_EVERY`` leads to end-of-sequence or to ".", which leads to "\n\n"."""
    import torch

    vocab = len(tokenizer)
    pieces = tokenizer.convert_ids_to_tokens(list(range(vocab)))
    specials = set(tokenizer.all_special_ids)
    words = [i for i, piece in enumerate(pieces) if piece and WORD.match(piece) and i not in specials]
    if len(words) < 500:  # not a byte-level BPE: any plain ASCII word piece
        words = [i for i, p in enumerate(pieces) if p and re.match(r"^\W?[A-Za-z]{2,}$", p) and i not in specials]
    word_set = set(words)
    cycle = torch.tensor(words, device=device)[torch.randperm(len(words), generator=generator, device=device)]
    successor = torch.full((vocab,), -1, dtype=torch.long, device=device)
    successor[cycle] = cycle.roll(-1)
    others = torch.tensor([i for i in range(vocab) if i not in word_set and i not in specials], device=device)
    successor[others] = cycle[torch.randint(len(cycle), (len(others),), generator=generator, device=device)]
    period, blank = tokenizer.convert_tokens_to_ids(["."]), tokenizer.convert_tokens_to_ids(["ĊĊ"])
    ends = [tokenizer.eos_token_id]
    if period[0] is not None and blank[0] is not None and blank[0] != tokenizer.unk_token_id:
        successor[period[0]] = blank[0]
        ends.append(period[0])
    # The walk every answer takes (after the question's "?", or after "A:") runs
    # ANSWER_STEPS tokens, then ends: the benchmark's generation keeps most of its
    # budget's work, and its rows end too.
    colon, question_mark = tokenizer.convert_tokens_to_ids([":", "?"])
    if question_mark is not None and question_mark != tokenizer.unk_token_id:
        successor[question_mark] = successor[colon]
    after_colon = int((cycle == successor[colon]).nonzero())
    own = (torch.arange(len(cycle), device=device) - after_colon) % len(cycle)
    elsewhere = (own >= ANSWER_STEPS).nonzero().squeeze(1)
    chosen = torch.randperm(len(elsewhere), generator=generator, device=device)[: len(cycle) // END_EVERY]
    exits = elsewhere[chosen]
    for i, end in enumerate(ends):
        successor[cycle[exits[i :: len(ends)]]] = end
    successor[cycle[(after_colon + ANSWER_STEPS - 2) % len(cycle)]] = tokenizer.eos_token_id
    return successor


def set_head(model: Any, successor: Any, normal: Callable[[tuple[int, ...], float], Any]) -> None:
    """The output layer: N(0, 2.5^2)-sized logits for every token, plus about 20 for each
    token's designed successor (the row loses its random part along the source's
    embedding, so the designed logit is about 20 itself)."""
    d = model.config.hidden_size
    embed = model.model.embed_tokens.weight
    unit = embed / embed.pow(2).mean(-1, keepdim=True).sqrt()
    head = normal((embed.shape[0], d), OTHER_LOGIT_SD / math.sqrt(d))
    sources = (successor >= 0).nonzero().squeeze(1)
    targets = successor[sources]
    along = (head[targets] * unit[sources]).sum(-1, keepdim=True) / d
    head.index_add_(0, targets, (DESIGNED_LOGIT / d - along) * unit[sources])
    model.lm_head.weight.copy_(head)


def self_check(model: Any, tokenizer: Any, successor: list[int], device: str) -> None:
    """Teacher-forced over a few question-shaped prompts: the designed walk after each, how
    often the argmax is the designed token, the smallest and median top-two margins."""
    import torch

    hits = total = 0
    margins: list[float] = []
    with torch.no_grad():
        for question in ("Q: Why do veins appear blue?\nA:", "Q: Where did fortune cookies originate?\nA:"):
            prompt = tokenizer(question, add_special_tokens=False)["input_ids"]
            walk, token = [], prompt[-1]
            for _ in range(64):
                token = successor[token]
                if token < 0:  # after end-of-sequence
                    break
                walk.append(token)
            ids = torch.tensor([prompt + walk[:-1]], device=device)
            logits = model(ids).logits[0, len(prompt) - 1 :].float()
            top = logits.topk(2, dim=-1)
            hits += sum(int(a == b) for a, b in zip(top.indices[:, 0].tolist(), walk))
            total += len(walk)
            margins += (top.values[:, 0] - top.values[:, 1]).tolist()
    margins.sort()
    print(json.dumps({"designed_argmax": f"{hits}/{total}", "margin_min": round(margins[0], 2),
                      "margin_median": round(margins[len(margins) // 2], 2)}))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--tokenizer", type=Path, required=True)
    parser.add_argument("--size", choices=sorted(SHAPES), default="full")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--dtype", choices=("bfloat16", "float32"), default="bfloat16")
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args()
    build(args.out, args.tokenizer, args.size, args.device, args.dtype, args.seed)


if __name__ == "__main__":
    main()
