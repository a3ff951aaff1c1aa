"""Tiny judge models of the classes the TruthfulQA-Multi authors' judge script knows, built
from the tiny model's tokenizer: a Llama-class judge (the tiny model's weights) and a
Gemma-2-class one (seeded random weights), each with a chat template of its class's layout
(written for the tests) that starts with BOS, and a tokenizer whose default puts BOS in
front of every text, as Llama 3's and Gemma's do. The script then sends two BOS."""

from __future__ import annotations

import shutil
from pathlib import Path

# Each starts with BOS and ends with the open turn the script's output markers split on.
LLAMA_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<|hdr|>{{ m['role'] }}\n\n{{ m['content'] }}<|eos|>{% endfor %}"
    "{% if add_generation_prompt %}<|hdr|>assistant\n\n{% endif %}"
)
GEMMA_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<turn>{{ 'model' if m['role'] == 'assistant' else m['role'] }}\n"
    "{{ m['content'] }}<|eos|>\n{% endfor %}{% if add_generation_prompt %}<turn>model\n{% endif %}"
)


def _tokenizer(tiny_model: Path, template: str):
    from tokenizers import processors
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    bos = tokenizer.bos_token
    tokenizer._tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A", pair=f"{bos} $A $B", special_tokens=[(bos, tokenizer.bos_token_id)]
    )
    tokenizer.chat_template = template
    return tokenizer


def llama_judge(tiny_model: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("config.json", "generation_config.json", "model.safetensors"):
        shutil.copy(tiny_model / name, folder / name)
    _tokenizer(tiny_model, LLAMA_TEMPLATE).save_pretrained(folder)
    return folder


def gemma2_judge(tiny_model: Path, folder: Path) -> Path:
    import torch
    from transformers import Gemma2Config, Gemma2ForCausalLM

    tokenizer = _tokenizer(tiny_model, GEMMA_TEMPLATE)
    config = Gemma2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=32,
        max_position_embeddings=2048,
        sliding_window=512,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    torch.manual_seed(0)
    model = Gemma2ForCausalLM(config).eval()
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
