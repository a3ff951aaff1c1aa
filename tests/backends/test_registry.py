import pytest

from mlbench.backends import options as backend_options
from mlbench.backends.data_parallel import _balance, replica_devices
from mlbench.backends.registry import model_spec, resolve_backend
from mlbench.errors import MlbenchError


@pytest.mark.parametrize(
    ("vllm_installed", "gpu", "expected"), [(True, True, "vllm"), (True, False, "hf"), (False, True, "hf")]
)
def test_auto_picks_vllm_only_with_vllm_and_a_gpu(monkeypatch, vllm_installed, gpu, expected):
    monkeypatch.setattr(backend_options.importlib.util, "find_spec", lambda name: object() if vllm_installed else None)
    monkeypatch.setattr(backend_options, "gpu_visible", lambda: gpu)
    assert resolve_backend("auto") == expected
    assert model_spec("m", "auto").runs_on == expected  # the model's options are its backend's, once resolved


def test_auto_with_a_base_url_is_the_server_backend():
    assert resolve_backend("auto", "http://h/v1") == "openai"
    assert model_spec("m", "auto", base_url="http://h/v1").runs_on == "openai"


def test_explicit_backend_is_kept_and_unknown_is_refused():
    assert resolve_backend("vllm") == "vllm"
    with pytest.raises(MlbenchError, match="unknown backend 'tgi'"):
        model_spec("m", "tgi")


def test_replicas_get_disjoint_gpu_groups():
    assert [replica_devices(r, 2, "4,5,6,7") for r in range(2)] == ["4,5", "6,7"]
    assert [replica_devices(r, 1, None) for r in range(3)] == ["0", "1", "2"]
    with pytest.raises(MlbenchError, match="replica 1 needs 2 GPU"):
        replica_devices(1, 2, "0,1,2")


def test_balance_keeps_groups_whole_and_evens_the_load():
    groups = [[0, 1, 2, 3], [4, 5], [6, 7], [8]]
    shards = _balance(groups, 2)
    assert sorted(i for shard in shards for i in shard) == list(range(9))
    assert sorted(map(len, shards)) == [4, 5]
    for group in groups:
        assert any(set(group) <= set(shard) for shard in shards)


def test_replicas_decoding_is_merged_as_what_ran():
    """Under data parallelism results.json's decoding is every replica's, asked at the end:
    one replica that fell back to eager makes the run's path eager."""
    from mlbench.backends.data_parallel import merged_decoding

    graphs = {"decoder": "static", "path": "CUDA graphs", "recorded": 3}
    fallen = {"decoder": "static", "path": "eager", "fallback": "operation not permitted", "recorded": 0}
    assert merged_decoding([graphs, fallen]) == {**fallen, "recorded": 3}
    assert merged_decoding([{"decoder": "static", "path": "not used"}, graphs]) == graphs
    assert merged_decoding([graphs, graphs]) == {**graphs, "recorded": 6}
    assert merged_decoding([]) == {}


def test_a_model_spec_is_its_values_not_the_order_they_were_given_in():
    one = model_spec("m", "hf", batch_size=4, device="cpu")
    other = model_spec("m", "hf", device="cpu", batch_size=4)
    assert one == other and hash(one) == hash(other)
    assert one != model_spec("m", "hf", device="cpu", batch_size=8)


def test_a_gguf_file_given_as_an_option_becomes_the_model_path_wherever_the_spec_is_made(tmp_path):
    # Made here, not through the command line's parser: the file still names the model.
    spec = model_spec(str(tmp_path), "hf", gguf_file="m.gguf", device="cpu")
    assert spec.model == str(tmp_path / "m.gguf")
    assert "gguf_file" not in dict(spec.given)
    with pytest.raises(MlbenchError, match="already a GGUF file"):
        model_spec(str(tmp_path / "x.gguf"), "hf", gguf_file="m.gguf")
