"""The HF backend's GPU paths through a whole run, on the CPU: many questions to an MC
forward, fixed-shape greedy decoding, whole chunks of samples per call. What they write is
what the CPU paths write (MC scores within float rounding, the same answers)."""

from __future__ import annotations

import json

import pytest

from mlbench.backends import hf
from mlbench.backends.hf import GPU_SAMPLES_PER_CALL, HFBackend
from mlbench.backends.packed_batches import BatchedScorer
from mlbench.backends.static_decode import StaticDecoder
from tests.cli.test_cli import run_model

FLAGS = (
    "--task truthfulqa_multi --lang en,es --mode all --sample --limit 6 --max-new-tokens 24 --no-cache -M device=cpu"
)


def samples(out, model, lang: str) -> dict[str, dict]:
    path = out / model.name / "truthfulqa_multi" / f"samples_{lang}.jsonl"
    return {row["id"]: row for row in map(json.loads, path.read_text().splitlines())}


@pytest.fixture(scope="module")
def cpu_run(tiny_model, tmp_path_factory):
    out = tmp_path_factory.mktemp("cpu-paths")
    result = run_model(tiny_model, out, FLAGS)
    assert result.exit_code == 0, result.output
    return out


def test_the_gpu_paths_write_what_the_cpu_paths_write(tiny_model, cpu_run, tmp_path, monkeypatch):
    monkeypatch.setattr(hf, "batches_whole_calls", lambda device: True)
    backend = HFBackend(str(tiny_model), device="cpu")
    assert isinstance(backend.decoder, StaticDecoder) and isinstance(backend.scorer.batched, BatchedScorer)
    assert backend.samples_per_call == GPU_SAMPLES_PER_CALL
    result = run_model(tiny_model, tmp_path, FLAGS)
    assert result.exit_code == 0, result.output
    assert "tokens/s generated" in result.output
    for lang in ("en", "es"):
        ours, theirs = samples(tmp_path, tiny_model, lang), samples(cpu_run, tiny_model, lang)
        assert ours.keys() == theirs.keys() and len(ours) == 6
        for qid, row in ours.items():
            other = theirs[qid]
            assert row["outputs"]["generation"] == other["outputs"]["generation"]
            for field in ("mc1_loglikelihoods", "mc2_loglikelihoods"):
                assert row["outputs"][field] == pytest.approx(other["outputs"][field], abs=1e-5)
            assert row["metrics"]["mc1"] == other["metrics"]["mc1"]


def test_the_rehearsal_runs_the_gpu_paths_and_says_so(tiny_model, cpu_run, tmp_path):
    """-M rehearse_gpu=true: the same answers through the batched MC path and the static
    decoder under the checked capture; results.json names both, and when the model worked."""
    result = run_model(tiny_model, tmp_path, FLAGS + " -M rehearse_gpu=true")
    assert result.exit_code == 0, result.output
    config = json.loads((tmp_path / tiny_model.name / "truthfulqa_multi" / "results.json").read_text())["config"]
    assert config["mc_batches"] == "questions batched"
    decoding = config["decoding"]
    assert decoding["decoder"] == "static" and decoding["path"] == "checked capture (CPU rehearsal)"
    assert decoding["recorded"] >= 1 and decoding["replayed"] > decoding["recorded"]
    for lang in ("en", "es"):
        work = config["model_work_unix"][lang]
        assert work["samples"] == 6 and 0 < work["start"] <= work["end"]
        ours, theirs = samples(tmp_path, tiny_model, lang), samples(cpu_run, tiny_model, lang)
        assert {q: r["outputs"]["generation"] for q, r in ours.items()} == {
            q: r["outputs"]["generation"] for q, r in theirs.items()
        }
    assert config["model_work_unix"]["en"]["end"] <= config["model_work_unix"]["es"]["start"]


def test_chunks_tokenized_ahead_write_what_the_cpu_paths_write(tiny_model, cpu_run, tmp_path):
    """Chunks of 2 samples on the GPU paths: each chunk's texts are tokenized while the one
    before it is scored, and the answers and scores are the CPU paths' all the same."""
    result = run_model(tiny_model, tmp_path, FLAGS + " -M rehearse_gpu=true --chunk-size 2")
    assert result.exit_code == 0, result.output
    config = json.loads((tmp_path / tiny_model.name / "truthfulqa_multi" / "results.json").read_text())["config"]
    # 3 chunks per language, an MC and a generation call each: every call but the run's
    # first two found its texts ready (Spanish's first chunk during English's last).
    assert config["tokenized_ahead"] == 2 * 2 * 3 - 2
    for lang in ("en", "es"):
        ours, theirs = samples(tmp_path, tiny_model, lang), samples(cpu_run, tiny_model, lang)
        assert ours.keys() == theirs.keys() and len(ours) == 6
        for qid, row in ours.items():
            assert row["outputs"]["generation"] == theirs[qid]["outputs"]["generation"]
            for field in ("mc1_loglikelihoods", "mc2_loglikelihoods"):
                assert row["outputs"][field] == pytest.approx(theirs[qid]["outputs"][field], abs=1e-5)


def test_the_cpu_paths_say_what_they_are(tiny_model, cpu_run):
    config = json.loads((cpu_run / tiny_model.name / "truthfulqa_multi" / "results.json").read_text())["config"]
    assert config["mc_batches"] == "one question"
    assert config["decoding"] == {"decoder": "shrinking batch", "path": "eager"}
    assert "tokenized_ahead" not in config  # the CPU's cores are the model's


def test_the_rehearsal_of_an_eager_gpu_run(tiny_model):
    """-M enforce_eager=true with the rehearsal: the static decoder, stepped in Python."""
    backend = HFBackend(str(tiny_model), device="cpu", rehearse_gpu=True, enforce_eager=True)
    assert isinstance(backend.decoder, StaticDecoder)
    assert backend.decoding() == {"decoder": "static", "path": "eager"}


def test_transformers_never_imports_torchvision(tiny_model, tmp_path):
    """A Llama config's validators import transformers' video utilities, which import
    torchvision when it is there (4.8 s on a GPU machine's image): mlbench makes
    transformers see it as absent. A stand-in torchvision that fails on import proves it."""
    import subprocess
    import sys

    stub = tmp_path / "site"
    (stub / "torchvision").mkdir(parents=True)
    (stub / "torchvision" / "__init__.py").write_text("raise ImportError('torchvision was imported')\n")
    (stub / "torchvision-0.99.0.dist-info").mkdir()
    (stub / "torchvision-0.99.0.dist-info" / "METADATA").write_text("Name: torchvision\nVersion: 0.99.0\n")
    code = (
        "import sys; from mlbench.backends.hf import HFBackend; "
        f"HFBackend({str(tiny_model)!r}, device='cpu'); print('torchvision' in sys.modules)"
    )
    import os

    env = {**os.environ, "PYTHONPATH": f"{stub}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-1500:]
    assert done.stdout.strip().splitlines()[-1] == "False"
