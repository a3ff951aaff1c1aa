import json

from transformers import AutoModelForCausalLM, AutoTokenizer


def test_tiny_model_shape_and_tokenizer(tiny_model):
    config = json.loads((tiny_model / "config.json").read_text())
    assert config["architectures"] == ["LlamaForCausalLM"]
    assert config["hidden_size"] // config["num_attention_heads"] >= 32
    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    n_params = sum(p.numel() for p in model.parameters())
    assert 0.5e6 < n_params < 2e6
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    for text in ("Zer gertatzen da?", "人类只使用了大脑", "अगर आप तरबूज"):
        ids = tokenizer.encode(text)
        assert tokenizer.decode(ids) == text
        assert len(ids) < len(text.encode()), "merges should cover Latin, CJK and Devanagari"
    rendered = tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}], tokenize=False, add_generation_prompt=True
    )
    assert rendered.endswith("<|assistant|>\n")


def test_build_is_deterministic(make_tiny_model, tiny_model, tmp_path):
    again = make_tiny_model(tmp_path / "again", size="tiny", seed=0)
    assert (again / "model.safetensors").read_bytes() == (tiny_model / "model.safetensors").read_bytes()
    assert (again / "tokenizer.json").read_text() == (tiny_model / "tokenizer.json").read_text()
