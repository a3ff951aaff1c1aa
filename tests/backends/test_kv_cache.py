"""The KV cache reaches the model as a Cache object, under the keyword its transformers reads."""

from __future__ import annotations

import inspect

import torch
from transformers import DynamicCache

from mlbench.backends.kv_cache import cache_keyword, prefilled_cache


class _RenamedForward:
    def forward(self, input_ids=None, cache=None, use_cache=None):  # transformers >= 5.24
        return None


class _OldForward:
    def forward(self, input_ids=None, past_key_values=None, use_cache=None):  # transformers 5.19
        return None


def test_the_keyword_follows_the_models_forward_signature():
    assert cache_keyword(_RenamedForward()) == "cache"
    assert cache_keyword(_OldForward()) == "past_key_values"


def test_the_installed_transformers_models_get_the_name_they_document():
    from transformers import LlamaConfig, LlamaForCausalLM

    model = LlamaForCausalLM(
        LlamaConfig(
            vocab_size=16,
            hidden_size=32,
            intermediate_size=32,
            num_hidden_layers=1,
            num_attention_heads=1,
            num_key_value_heads=1,
        )
    )
    assert cache_keyword(model) in inspect.signature(LlamaForCausalLM.forward).parameters


def test_a_prefilled_cache_copies_the_prefix_and_leaves_it_untouched():
    keys = [torch.arange(8.0).reshape(1, 1, 2, 4), torch.ones(1, 1, 2, 4)]
    values = [torch.zeros(1, 1, 2, 4), torch.full((1, 1, 2, 4), 2.0)]
    states = list(zip(keys, values))
    cache = prefilled_cache(states)
    assert isinstance(cache, DynamicCache)  # model code that checks for one finds it
    assert len(cache.layers) == 2 and cache.get_seq_length() == 2
    cache.layers[0].update(torch.ones(1, 1, 1, 4), torch.ones(1, 1, 1, 4))
    assert cache.layers[0].keys.shape[-2] == 3
    assert keys[0].shape[-2] == 2 and torch.equal(keys[0], torch.arange(8.0).reshape(1, 1, 2, 4))
    assert torch.equal(cache.layers[1].values, values[1])


def test_without_a_prefix_the_cache_is_empty():
    assert prefilled_cache(None).get_seq_length() == 0
