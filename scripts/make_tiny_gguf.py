#!/usr/bin/env python3
"""Write a Llama model folder (e.g. the tiny model of make_tiny_model.py) as one GGUF file.

    python scripts/make_tiny_gguf.py MODEL_DIR OUT.gguf [--architecture llama]

The file follows llama.cpp's layout (tensor names, the rotary permutation of the query
and key weights, the byte-level BPE vocabulary and merges, special token ids, the chat
template), with every tensor in float32, so loading it back gives the same weights and
the same token ids as the folder. It exists to test mlbench's GGUF loading without a
download; ``--architecture`` writes a file that names another architecture, for the
error a reader must give on one it cannot read.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

# transformers' Llama parameter names → llama.cpp's, per layer ({i}) and for the whole model.
LAYER_TENSORS = {
    "input_layernorm": "attn_norm",
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "post_attention_layernorm": "ffn_norm",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}
MODEL_TENSORS = {"model.embed_tokens": "token_embd", "model.norm": "output_norm", "lm_head": "output"}
# GGUF token types (llama.cpp's llama_token_type).
NORMAL, CONTROL = 1, 3


def rotary_permute(weights, n_heads: int):
    """llama.cpp stores query/key rows interleaved per rotary pair; transformers' GGUF
    loader undoes exactly this."""
    rows = weights.shape[0]
    return weights.reshape(n_heads, 2, rows // n_heads // 2, *weights.shape[1:]).swapaxes(1, 2).reshape(weights.shape)


def write_gguf(model_dir: Path, out: Path, *, architecture: str = "llama", add_bos: bool = False) -> Path:
    """``model_dir`` as the GGUF file ``out``. ``add_bos`` sets llama.cpp's flag for
    prepending BOS (the folder's own tokenizer adds none)."""
    import gguf
    from safetensors.numpy import load_file

    config = json.loads((model_dir / "config.json").read_text())
    tokenizer = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))
    tokenizer_config = json.loads((model_dir / "tokenizer_config.json").read_text(encoding="utf-8"))
    tensors = load_file(str(model_dir / "model.safetensors"))

    writer = gguf.GGUFWriter(str(out), architecture)
    writer.add_name(model_dir.name)
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_block_count(config["num_hidden_layers"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_head_count(config["num_attention_heads"])
    writer.add_head_count_kv(config["num_key_value_heads"])
    writer.add_rope_dimension_count(config["head_dim"])
    writer.add_rope_freq_base(float(config.get("rope_theta") or config["rope_parameters"]["rope_theta"]))
    writer.add_layer_norm_rms_eps(config["rms_norm_eps"])
    writer.add_vocab_size(config["vocab_size"])
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)

    vocab = tokenizer["model"]["vocab"]
    special = {t["content"]: t["id"] for t in tokenizer["added_tokens"]}
    tokens = [""] * config["vocab_size"]
    for text, index in {**vocab, **special}.items():
        tokens[index] = text
    # Rows the small corpus never filled stay in the embedding table; name them, unused.
    tokens = [text or f"[PAD{index}]" for index, text in enumerate(tokens)]
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types([CONTROL if i in special.values() else NORMAL for i in range(len(tokens))])
    writer.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in tokenizer["model"]["merges"]])
    for name, add in (("bos_token", writer.add_bos_token_id), ("eos_token", writer.add_eos_token_id),
                      ("pad_token", writer.add_pad_token_id)):  # fmt: skip
        add(special[tokenizer_config[name]])
    writer.add_add_bos_token(add_bos)
    template = model_dir / "chat_template.jinja"
    if template.is_file():
        writer.add_chat_template(template.read_text(encoding="utf-8"))

    heads, kv_heads = config["num_attention_heads"], config["num_key_value_heads"]
    for name, array in tensors.items():
        stem = name.removesuffix(".weight")
        if stem in MODEL_TENSORS:
            target = MODEL_TENSORS[stem]
        else:
            layer, rest = stem.removeprefix("model.layers.").split(".", 1)
            target = f"blk.{layer}.{LAYER_TENSORS[rest]}"
        if stem.endswith("q_proj"):
            array = rotary_permute(array, heads)
        elif stem.endswith("k_proj"):
            array = rotary_permute(array, kv_heads)
        writer.add_tensor(f"{target}.weight", array.astype("float32"))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--architecture", default="llama")
    args = parser.parse_args()
    print(f"wrote {write_gguf(args.model_dir, args.out, architecture=args.architecture)}")


if __name__ == "__main__":
    main()
