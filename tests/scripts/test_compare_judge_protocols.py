"""scripts/compare_judge_protocols.py: the two TruthfulQA-Multi judge protocols on one run,
the labels that differ counted per language from the two judged copies."""

import importlib.util
import json
import sys
from pathlib import Path

from tests.cli.test_cli import run_cli, run_model

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_judge_protocols.py"


def _script():
    spec = importlib.util.spec_from_file_location("compare_judge_protocols", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_labels_that_differ_are_counted_from_both_copies(
    tiny_model, fixture_datasets, tmp_path, monkeypatch, capsys
):
    flags = "--task truthfulqa_multi --mode gen --lang en,es --limit 3 --max-new-tokens 8 --no-cache --data-dir"
    result = run_model(tiny_model, tmp_path / "out", flags, fixture_datasets)
    assert result.exit_code == 0, result.output
    run = tmp_path / "out" / tiny_model.name / "truthfulqa_multi"
    script = _script()
    judged = []

    def judge_here(copy, model, kind, protocol, langs, extra):
        # `mlbench judge` in this process: the test session's pins of the fixture's files hold here
        settings = [part for setting in extra for part in ("-J", setting)]
        result = run_cli("judge", copy, "--judge", model, "-J", f"kind={kind}", "-J", f"protocol={protocol}", *settings)
        assert result.exit_code == 0, result.output
        judged.append(protocol)
        return 1.0

    monkeypatch.setattr(script, "judge", judge_here)
    # The tiny model's template writes no marker the script reads: it judges as a base model.
    monkeypatch.setattr(
        sys,
        "argv",
        [
            "compare",
            str(run),
            "--judge",
            str(tiny_model),
            "-J",
            "chat_template=false",
            "--work",
            str(tmp_path / "work"),
        ],
    )
    script.main()
    out = capsys.readouterr().out
    assert judged == ["trained", "authors"]
    labels = {}
    for protocol in ("trained", "authors"):
        for lang in ("en", "es"):
            lines = (tmp_path / "work" / protocol / run.name / f"samples_{lang}.jsonl").read_text().splitlines()
            labels[protocol, lang] = {r["id"]: r["judges"]["truth"]["label"] for r in map(json.loads, lines)}
    for lang in ("en", "es"):
        trained, authors = labels["trained", lang], labels["authors", lang]
        differ = sum(trained[i] != authors[i] for i in trained)
        yes = sum(label == "yes" for label in trained.values())
        assert f"| {lang} | 3 | {differ} ({differ / 3:.1%}) | {yes} ({yes / 3:.1%}) |" in out
    assert "protocol" not in json.loads((run / "results.json").read_text())["config"].get("judges", {})
