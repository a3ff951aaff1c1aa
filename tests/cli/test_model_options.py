"""-M and -J: each backend's typed options, the judge's, and how a judge inherits a run's."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mlbench.backends.options import (
    BACKEND_OPTIONS,
    HfOptions,
    OpenAIOptions,
    VllmOptions,
    backend_keys,
    backend_values,
)
from mlbench.backends.registry import ModelOptions, model_spec
from mlbench.cli.main import app
from mlbench.cli.settings import judge_config, model_options
from mlbench.errors import MlbenchError
from mlbench.records.options import settings_from_pairs

runner = CliRunner()


def settings(*pairs: str, flag: str = "-M"):
    return settings_from_pairs(pairs, flag)


def test_each_backend_takes_its_own_keys_typed():
    values = backend_values("vllm", settings("max_model_len=4096", "enforce_eager=true"))
    assert values == {"max_model_len": 4096, "enforce_eager": True}
    assert backend_values("hf", settings("batch_size=8", "device=cpu")) == {"batch_size": 8, "device": "cpu"}
    assert backend_values("openai", settings("base_url=http://x/v1", "request_timeout=2.5")) == {
        "base_url": "http://x/v1",
        "request_timeout": 2.5,
    }
    # vLLM's own arguments pass through as JSON text; a GGUF file is a key like the others.
    assert backend_values("vllm", settings("vllm.swap_space=8", "gguf_file=m.gguf")) == {
        "gguf_file": "m.gguf",
        "model_args": (("swap_space", "8"),),
    }
    listed = {k for kind in BACKEND_OPTIONS.values() for k in kind.model_fields if k != "model_args"}
    assert set(backend_keys("auto")) == listed


@pytest.mark.parametrize(
    ("backend", "pairs", "message"),
    [
        (
            "hf",
            ("max_model_len=5",),
            "-M max_model_len: backend hf has no option 'max_model_len' (backend vllm takes it);"
            " valid: trust_remote_code",
        ),
        ("openai", ("device=cpu",), "backend openai has no option 'device'"),
        ("vllm", ("max_model_len=many",), "-M max_model_len: 'many' is not a whole number"),
        ("vllm", ("gpu_memory_utilization=1.5",), "gpu_memory_utilization must be between 0.01 and 1.0"),
        ("hf", ("batch_size=0",), "batch_size must be 'auto' or a positive integer"),
        ("openai", ("max_concurrency=0",), "max_concurrency must be at least 1"),
    ],
)
def test_a_bad_key_or_value_is_one_line(backend, pairs, message):
    with pytest.raises(MlbenchError, match=message.replace("(", r"\(").replace(")", r"\)")):
        backend_values(backend, settings(*pairs))


def test_model_options_are_the_same_whatever_the_spelling():
    typed = model_options("m", "vllm", "bfloat16", 3, settings("tensor_parallel_size=2", "max_model_len=64"))
    assert (typed.model, typed.backend, typed.dtype, typed.seed) == ("m", "vllm", "bfloat16", 3)
    assert typed.options == VllmOptions(tensor_parallel_size=2, max_model_len=64)
    assert typed == model_spec("m", "vllm", dtype="bfloat16", seed=3, tensor_parallel_size=2, max_model_len=64)


def test_a_judge_after_a_run_inherits_what_its_backend_can_use_and_j_wins(tmp_path):
    run = model_spec("m", "hf", dtype="bfloat16", seed=4, batch_size=8, enforce_eager=True)
    plain = judge_config(tmp_path, "j", settings("kind=truth,info", "backend=hf", flag="-J"), run=run)
    assert plain.kinds == ("truth", "info")
    judged = (plain.judge.model, plain.judge.dtype, plain.judge.options, plain.judge.seed)
    assert judged == ("j", "bfloat16", HfOptions(batch_size=8, enforce_eager=True), 4)
    given = settings("backend=hf", "batch_size=2", "seed=9", "scoring=generate", flag="-J")
    changed = judge_config(tmp_path, "j", given, run=run)
    assert (changed.judge.options.batch_size, changed.judge.seed, changed.scoring) == (2, 9, "generate")
    vllm_run = model_spec("m", "vllm", max_model_len=512, quantization="awq")
    on_vllm = judge_config(tmp_path, "j", settings("backend=vllm", flag="-J"), run=vllm_run)
    assert on_vllm.judge.options == VllmOptions(max_model_len=512)  # the engine's limit, not the model's weights
    alone = judge_config(tmp_path, "j", settings("backend=hf", "dtype=float32", flag="-J"))
    assert (alone.judge.backend, alone.judge.dtype, alone.judge.options) == ("hf", "float32", HfOptions())
    with pytest.raises(MlbenchError, match="-J backend=openai needs -J base_url=URL"):
        judge_config(tmp_path, "j", settings("backend=openai", flag="-J"))
    with pytest.raises(MlbenchError, match="-J scoring: 'words' is not one of auto, logprob, generate"):
        judge_config(tmp_path, "j", settings("scoring=words", flag="-J"))


def test_j_without_a_judge_and_the_backends_command(tiny_model, tmp_path):
    result = runner.invoke(app, ["run", "-m", str(tiny_model), "-t", "veritasqa", "--sample", "-J", "kind=truth",
                                 "-o", str(tmp_path)])  # fmt: skip
    assert result.exit_code == 2 and "-J sets the judge's options: it needs --judge MODEL" in result.stderr
    listed = runner.invoke(app, ["backends"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0 and all(name in listed.output for name in ("hf", "vllm", "openai"))
    one = runner.invoke(app, ["backends", "vllm"], env={"COLUMNS": "200"})
    assert one.exit_code == 0 and "gpu_memory_utilization" in one.output and "vllm.NAME=VALUE" in one.output
    bad = runner.invoke(app, ["backends", "tpu"])
    assert bad.exit_code == 2 and "--backend must be one of hf, vllm, openai" in bad.stderr


def test_run_file_tables_reach_the_model_and_the_judge(tiny_model, tmp_path, monkeypatch):
    import mlbench.cli.run as run_command

    class Stop(Exception):
        pass

    seen = {}

    def fake_judge_config(path, judge, settings, **kwargs):
        seen.update(judge=judge, settings=[(s.key, s.value) for s in settings], run=kwargs["run"])
        raise Stop

    monkeypatch.setattr(run_command, "observed", lambda output, quiet, work: work(None))
    monkeypatch.setattr(run_command, "judge_config", fake_judge_config)
    run_file = tmp_path / "run.toml"
    run_file.write_text(f'task = "veritasqa"\nsample = true\nmode = "gen"\n[model]\nname = "{tiny_model}"\n'
                        'batch_size = 2\n[judge]\nname = "J"\nkind = "truth"\nbatch_size = 1\n')  # fmt: skip
    with pytest.raises(Stop):
        runner.invoke(app, ["run", "--config", str(run_file), "-J", "scoring=generate", "-o", str(tmp_path)],
                      catch_exceptions=False)  # fmt: skip
    assert seen["judge"] == "J" and seen["run"].options.batch_size == 2 and seen["run"].model == str(tiny_model)
    # The table's keys first, then the command line's: the later wins.
    assert seen["settings"] == [("kind", "truth"), ("batch_size", 1), ("scoring", "generate")]


def test_a_gguf_judge_named_by_folder_and_file_is_one_path(tmp_path):
    run = ModelOptions("m", backend="hf")
    after_run = judge_config(tmp_path, "judges", settings("gguf_file=j.gguf", "backend=hf", flag="-J"), run=run)
    alone = judge_config(tmp_path, "judges", settings("gguf_file=j.gguf", "backend=hf", flag="-J"))
    assert after_run.judge.model == alone.judge.model == str(Path("judges") / "j.gguf")
    assert after_run.judge.options == alone.judge.options == HfOptions()


def test_auto_refuses_what_the_backend_it_chose_does_not_take(monkeypatch):
    monkeypatch.setattr("mlbench.backends.options.gpu_visible", lambda: False)  # a CPU machine: hf
    with pytest.raises(MlbenchError, match=r"-M batch_size: backend openai does not take it \(it takes base_url"):
        model_spec("m", "auto", base_url="http://x/v1", batch_size=2)
    with pytest.raises(MlbenchError, match="-J max_concurrency, request_timeout: backend hf does not take them"):
        model_spec("m", "auto", flag="-J", max_concurrency=4, request_timeout=5.0)
    lazy = model_options("m", "auto", "auto", 0, settings("vllm.swap_space=4"))  # read: any backend's key
    with pytest.raises(MlbenchError, match=r"-M vllm\.\*: backend hf does not take it"):
        _ = lazy.options  # checked against the backend once it is known
    assert model_spec("m", "auto", max_concurrency=8).runs_on == "hf"  # a default given is no setting
    assert model_spec("m", "auto", batch_size=4).options == HfOptions(batch_size=4)  # what hf takes passes


def test_a_judge_inherits_only_what_its_backend_takes(tmp_path):
    served_run = model_spec("m", "openai", base_url="http://x/v1", max_concurrency=4, request_timeout=9.0)
    local = judge_config(tmp_path, "j", settings("backend=hf", flag="-J"), run=served_run)
    assert local.judge.options == HfOptions()  # hf takes neither
    served = judge_config(tmp_path, "j", settings("backend=openai", "base_url=http://y/v1", flag="-J"), run=served_run)
    assert served.judge.options == OpenAIOptions(base_url="http://y/v1", max_concurrency=4, request_timeout=9.0)
    local_run = model_spec("m", "hf", batch_size=8, device="cpu")
    served = judge_config(tmp_path, "j", settings("backend=openai", "base_url=http://x/v1", flag="-J"), run=local_run)
    assert served.judge.options == OpenAIOptions(base_url="http://x/v1")  # a server takes neither


def test_judge_mistakes_are_found_before_any_model_runs(tmp_path):
    from mlbench.engine.judging import check_judge_config

    knd = r"-J knd: the judge has no option 'knd' \(did you mean kind\?\); valid: kind, backend"
    with pytest.raises(MlbenchError, match=knd):
        judge_config(tmp_path, "j", settings("knd=truth", flag="-J"))
    with pytest.raises(MlbenchError, match="unknown judge kind 'truht'"):
        check_judge_config(judge_config(tmp_path, "j", settings("kind=truht", "backend=hf", flag="-J")))
    with pytest.raises(MlbenchError, match="-J quantization: backend hf does not take it"):
        check_judge_config(judge_config(tmp_path, "j", settings("quantization=awq", flag="-J"), run=ModelOptions("m")))


def test_the_tables_follow_columns_when_piped(monkeypatch):
    from mlbench.cli.app import wide_console

    monkeypatch.setenv("COLUMNS", "80")
    assert wide_console().width == 80
    monkeypatch.delenv("COLUMNS")
    assert wide_console().width == 100  # a log file: tables that fit it, else a block per record


def test_one_file_drives_the_run_and_its_judging_job(tmp_path, monkeypatch):
    import mlbench.cli.judge as judge_command

    seen = {}
    import mlbench.engine.judging
    import mlbench.engine.preflight

    monkeypatch.setattr(mlbench.engine.preflight, "check_judge", lambda options: seen.setdefault("judge", options))
    monkeypatch.setattr(judge_command, "observed", lambda path, quiet, work: seen.setdefault("path", path))
    run_file = tmp_path / "run.toml"
    run_file.write_text('tasks = ["veritasqa"]\nlangs = ["en"]\nlimit = 3\n[model]\nname = "m"\nbatch_size = 2\n'
                        '[judge]\nname = "j"\nkind = "truth"\nbackend = "hf"\n')  # fmt: skip
    result = runner.invoke(app, ["judge", str(tmp_path), "--config", str(run_file)])
    assert result.exit_code == 0, result.output
    assert seen["path"] == tmp_path and seen["judge"].model == "j" and seen["judge"].backend == "hf"
    bad = run_file.read_text().replace("limit = 3", "limit = 3\ncolour = 1")
    run_file.write_text(bad)
    refused = runner.invoke(app, ["judge", str(tmp_path), "--config", str(run_file)])
    assert refused.exit_code != 0 and "unknown key 'colour'" in refused.output


def test_a_passthrough_cannot_respell_a_typed_option_or_a_flag():
    for name, hint in (("model", "use --model"), ("dtype", "use --dtype"), ("max_model_len", "use -M max_model_len")):
        with pytest.raises(MlbenchError, match=f"-M vllm.{name}: {name} is not passed through; {hint}"):
            backend_values("vllm", settings(f"vllm.{name}=x"))
    with pytest.raises(MlbenchError, match="backend vllm has no option 'batch_size'"):
        backend_values("vllm", settings("batch_size=8"))  # vLLM batches by itself: not silently ignored


def test_a_judge_never_inherits_the_models_key_or_its_trust_in_remote_code(tmp_path):
    run = model_spec("m", "openai", base_url="https://vendor/v1", api_key_env="VENDOR_KEY")
    judge = judge_config(
        tmp_path, "j", settings("backend=openai", "base_url=http://127.0.0.1:8000/v1", flag="-J"), run=run
    )
    assert judge.judge.options == OpenAIOptions(base_url="http://127.0.0.1:8000/v1")
    trusting = judge_config(
        tmp_path, "j", settings("backend=hf", flag="-J"), run=model_spec("m", trust_remote_code=True)
    )
    assert trusting.judge.options.trust_remote_code is False


def test_auto_names_the_backend_it_would_run_and_lists_only_its_keys(monkeypatch):
    monkeypatch.setattr("mlbench.backends.options.gpu_visible", lambda: False)  # a CPU machine: hf
    with pytest.raises(MlbenchError) as refused:
        backend_values("auto", settings("batchsize=2"))
    hf = ", ".join(backend_keys("hf"))
    assert str(refused.value) == (
        f"-M batchsize: backend hf (auto) has no option 'batchsize' (did you mean batch_size?); valid: {hf}"
        " (mlbench backends NAME)"
    )
    with pytest.raises(MlbenchError, match=r"backend openai \(auto\) has no option 'batchsize'; valid: base_url,"):
        backend_values("auto", settings("base_url=http://x/v1", "batchsize=2"))
