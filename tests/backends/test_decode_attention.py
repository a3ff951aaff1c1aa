"""The static decoder's attention (decode_attention.py): grouped-query heads folded into
the query give what transformers' SDPA attention gives after copying the key heads."""

from __future__ import annotations

import pytest
import torch
from transformers.integrations.sdpa_attention import sdpa_attention_forward

from mlbench.backends.decode_attention import ATTENTION_NAME, attention_for, folded_sdpa


class Module(torch.nn.Module):
    def __init__(self, groups: int) -> None:
        super().__init__()
        self.num_key_value_groups = groups
        self.is_causal = True


@pytest.mark.parametrize("queries", [1, 5])
@pytest.mark.parametrize("heads,kv_heads", [(8, 2), (4, 4), (9, 3)])
def test_folded_heads_equal_repeated_keys(queries, heads, kv_heads):
    generator = torch.Generator().manual_seed(heads * 10 + queries)
    rows, keys, dim = 3, 40, 32
    query = torch.randn(rows, heads, queries, dim, generator=generator)
    key = torch.randn(rows, kv_heads, keys, dim, generator=generator)
    value = torch.randn(rows, kv_heads, keys, dim, generator=generator)
    mask = torch.rand(rows, 1, queries, keys, generator=generator) > 0.3
    mask[..., 0] = True
    ours, _ = folded_sdpa(Module(heads // kv_heads), query, key, value, mask, scaling=0.17)
    theirs, _ = sdpa_attention_forward(Module(heads // kv_heads), query, key, value, mask, scaling=0.17)
    assert ours.shape == theirs.shape == (rows, queries, heads, dim)
    assert torch.allclose(ours, theirs, atol=1e-6)


def test_the_models_attention_is_put_back(hf_backend):
    config = hf_backend.model.config
    before = config._attn_implementation
    with pytest.raises(RuntimeError):
        with attention_for(hf_backend.model):
            assert config._attn_implementation == ATTENTION_NAME
            raise RuntimeError
    assert config._attn_implementation == before
