"""What `mlbench run` and `mlbench judge` print: a line per stage, one summary per task that
fits 80 columns, and a last line with where the results are and how long it took; --quiet,
--version, and the refusal to overwrite results without --resume or --overwrite."""

from __future__ import annotations

import io
import json
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mlbench.cli.console import RichObserver, duration, final_line, summary, written_tables
from mlbench.cli.main import app
from mlbench.records import LanguageResult, MetricValue, RunResult

runner = CliRunner()
FINAL = re.compile(r"^mlbench: table in (?P<table>\S+/table\.md) — (?P<time>\d+\.\d s|\d+ min \d\d s)$")


def run_cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def mc_run(model: Path, out: Path, *extra: object):
    """VeritasQA MC on the embedded sample set: a few seconds on the tiny model."""
    return run_cli(
        "run", "--model", model, "--task", "veritasqa", "--mode", "mc", "--sample", "--limit", "3",
        "--output", out, "--no-cache", *extra,
    )  # fmt: skip


def test_version_prints_the_installed_version():
    result = run_cli("--version")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"mlbench {version('mlbench')}\n"


def test_a_run_ends_with_its_summary_and_one_line_saying_where_and_how_long(tiny_model, tmp_path):
    result = mc_run(tiny_model, tmp_path / "out", "--lang", "en,gl")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    final = FINAL.match(lines[-1])
    assert final, lines[-1]
    assert final["table"] == f"{tmp_path / 'out' / tiny_model.name / 'veritasqa' / 'table.md'}"
    assert "veritasqa: en, gl done in" in result.stdout  # one line for the stage, not a bar per language
    # One summary, once: languages as rows, the headline metrics as columns, means only.
    assert result.stdout.count(f"veritasqa — {tiny_model}") == 1
    header = next(line for line in lines if line.startswith("lang "))
    assert header.split() == ["lang", "n", "mc1", "mc2"]
    assert any(re.fullmatch(r"gl†\s+3\s+\d\.\d{3}\s+\d\.\d{3}", line) for line in lines)
    assert "[" not in "".join(lines[:-1])  # no intervals in the terminal: they are in table.md
    run_dir = tmp_path / "out" / tiny_model.name / "veritasqa"
    assert "| mc1 |" in (run_dir / "table.md").read_text()


def test_quiet_prints_only_the_last_line(tiny_model, tmp_path):
    result = mc_run(tiny_model, tmp_path, "--lang", "en", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and FINAL.match(lines[0]), result.stdout
    assert (tmp_path / tiny_model.name / "veritasqa" / "results.json").exists()


def test_a_rerun_without_resume_is_refused_and_overwrite_replaces(tiny_model, tmp_path):
    first = mc_run(tiny_model, tmp_path, "--lang", "en")
    assert first.exit_code == 0, first.output
    run_dir = tmp_path / tiny_model.name / "veritasqa"
    before = (run_dir / "samples_en.jsonl").read_text()

    again = mc_run(tiny_model, tmp_path, "--lang", "en")
    assert again.exit_code == 2
    assert again.stderr == (
        f"mlbench: error: {run_dir} already holds results: pass --resume to continue them or --overwrite to "
        "start again\n"
    )
    assert (run_dir / "samples_en.jsonl").read_text() == before  # nothing was touched

    # Another language of the same model and task is another job's folder share: no refusal.
    other = mc_run(tiny_model, tmp_path, "--lang", "gl")
    assert other.exit_code == 0, other.output

    both = mc_run(tiny_model, tmp_path, "--lang", "en", "--resume", "--overwrite")
    assert both.exit_code == 2 and "choose one" in both.stderr

    # --overwrite starts the language again: 2 questions now, not 3 plus 2.
    replaced = mc_run(tiny_model, tmp_path, "--lang", "en", "--overwrite", "--limit", "2")
    assert replaced.exit_code == 0, replaced.output
    assert len((run_dir / "samples_en.jsonl").read_text().splitlines()) == 2
    results = json.loads((run_dir / "results.json").read_text())["results"]
    assert results["en"]["n-samples"] == 2 and results["gl"]["n-samples"] == 3  # gl kept


def test_the_negative_switches_still_work_but_not_with_their_positive(tiny_model, tmp_path):
    both = mc_run(tiny_model, tmp_path, "--lang", "en", "--chat-template", "--no-chat-template")
    assert both.exit_code == 2
    assert both.stderr == "mlbench: error: --chat-template and --no-chat-template contradict each other: give one\n"
    off = mc_run(tiny_model, tmp_path, "--lang", "en", "--no-chat-template")
    assert off.exit_code == 0, off.output


def test_judge_ends_with_its_summary_and_last_line(tiny_model, tmp_path):
    ran = run_cli(
        "run", "--model", tiny_model, "--task", "truthfulqa_multi", "--lang", "en", "--mode", "gen", "--sample",
        "--limit", "2", "--max-new-tokens", "4", "--output", tmp_path, "--no-cache", "--quiet",
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    judge = ("judge", tmp_path, "--judge", tiny_model, "-J", "kind=truth", "--no-cache")
    judged = run_cli(*judge, "-J", "chat_template=false")
    assert judged.exit_code == 0, judged.output
    lines = judged.stdout.splitlines()
    assert (
        FINAL.match(lines[-1])
        and FINAL.match(lines[-1])["table"] == f"{tmp_path / tiny_model.name / 'truthfulqa_multi' / 'table.md'}"
    )
    assert "truthfulqa_multi · truth judge: en done in" in judged.stdout
    assert judged.stdout.count(f"truthfulqa_multi — {tiny_model}") == 1
    results = json.loads((tmp_path / tiny_model.name / "truthfulqa_multi" / "results.json").read_text())
    assert results["config"]["judges"]["truth"]["chat"] is False  # the hidden --no-… name still works
    again = run_cli(*judge, "-J", "chat_template=true", "--resume")
    assert again.exit_code == 0, again.output
    results = json.loads((tmp_path / tiny_model.name / "truthfulqa_multi" / "results.json").read_text())
    assert results["config"]["judges"]["truth"]["chat"] is True


def test_switch_reads_a_listed_name_and_its_hidden_negative():
    from mlbench.cli.settings import switch
    from mlbench.errors import MlbenchError

    assert [switch(None, False, "x"), switch(True, False, "x"), switch(None, True, "x")] == [None, True, False]
    assert switch(False, True, "x") is False
    with pytest.raises(MlbenchError, match="--x and --no-x contradict each other"):
        switch(True, True, "x")


# -- the summary table ---------------------------------------------------------------


def _value(x: float) -> MetricValue:
    return MetricValue(x, x - 0.1, x + 0.1, 0.05)


def _xlinghealth_run(failed: int = 0) -> RunResult:
    """XLingHealth in its four languages with every headline metric at five temperatures:
    eleven headline columns, far more than 80 columns hold."""
    temperatures = ("0", "0.25", "0.5", "0.75", "1")
    metrics = {"correctness_contradictory": _value(0.123456)}
    for t in temperatures:
        metrics[f"sim_sent@{t}"] = _value(0.87654)
        metrics[f"verify_f1@{t}"] = _value(0.5)
    languages = {
        lang: LanguageResult(lang, 1234, dict(metrics), {"failed": failed} if failed else {})
        for lang in ("en", "es", "zh", "hi")
    }
    return RunResult("org/some-rather-long-model-name-7b-instruct", "xlinghealth", {}, languages)


def _render(run: RunResult, width: int) -> list[str]:
    from mlbench.benchmarks import get_task

    console = Console(width=width, record=True, color_system=None, file=io.StringIO())

    for part in summary(run, [], get_task(run.task).headline_metrics, console):
        console.print(part)
    return console.export_text().splitlines()


@pytest.mark.parametrize("console_width", [80, 200])
@pytest.mark.parametrize("failed", [0, 7])
def test_a_wide_summary_drops_columns_rather_than_wrapping(console_width, failed):
    lines = _render(_xlinghealth_run(failed), console_width)
    assert max(map(len, lines)) <= 80, "\n".join(lines)
    header = next(line for line in lines if line.startswith("lang "))
    columns = header.split()
    assert columns[:3] == ["lang", "n", "failed"] if failed else columns[:2] == ["lang", "n"]
    # Every headline metric at its first setting before a second setting of any.
    assert {"contradicts", "sim_sent@0", "verify_f1@0"} <= set(columns)
    shown = len(columns) - (3 if failed else 2)
    assert 2 <= shown < 11
    # No cell wraps: each language is one row with a value in every column.
    for lang in ("en", "es", "zh", "hi"):
        rows = [line for line in lines if line.split()[:1] == [lang]]
        assert len(rows) == 1 and len(rows[0].split()) == len(columns), rows
    assert "…" not in "\n".join(lines)
    assert f"{11 - shown} more headline column(s) there too." in "\n".join(lines)


def test_a_summary_shows_n_a_for_a_language_without_a_metric():
    run = _xlinghealth_run()
    del run.languages["hi"].metrics["correctness_contradictory"]
    hi = next(line for line in _render(run, 80) if line.startswith("hi "))
    assert hi.split()[2] == "n/a"


def test_a_run_without_its_headline_metrics_shows_its_first_metrics():
    metrics = {name: _value(0.5) for name in ("a", "b", "c", "d", "e", "f")}
    run = RunResult("m", "no-such-task", {}, {"en": LanguageResult("en", 3, metrics)})
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    for part in summary(run, ["a", "b", "c", "d", "e", "f"], (), console):
        console.print(part)
    header = next(line for line in console.export_text().splitlines() if line.startswith("lang "))
    assert header.split() == ["lang", "n", "a", "b", "c", "d"]


def test_durations_and_the_final_line():
    assert [duration(s) for s in (0.04, 17.94, 59.96, 245, 3599.6, 7380)] == [
        "0.0 s", "17.9 s", "1 min 00 s", "4 min 05 s", "1 h 00 min", "2 h 03 min"
    ]  # fmt: skip
    demo = Path("results-demo/tiny-model")
    one, two = demo / "truthfulqa_multi" / "table.md", demo / "veritasqa" / "table.md"
    assert final_line(Path("results-demo"), 17.94, [one]) == (
        "mlbench: table in results-demo/tiny-model/truthfulqa_multi/table.md — 17.9 s"
    )
    assert final_line(Path("results-demo"), 1, [one, two]) == (
        "mlbench: tables in results-demo/tiny-model/{truthfulqa_multi,veritasqa}/table.md — 1.0 s"
    )
    other = Path("results-demo/gemma/veritasqa/table.md")
    assert final_line(Path("results-demo"), 1, [one, other]) == (
        "mlbench: tables in results-demo/: tiny-model/truthfulqa_multi/table.md, gemma/veritasqa/table.md — 1.0 s"
    )
    assert final_line(Path("out/"), 1) == "mlbench: results in out/ — 1.0 s"  # nothing finished


def test_the_last_line_finds_each_runs_table_from_any_folder_judge_is_given(tmp_path):
    run = tmp_path / "out" / "org__model" / "veritasqa"
    run.mkdir(parents=True)
    (run / "table.md").write_text("| mc1 |")
    table = run / "table.md"
    for given in (tmp_path / "out", tmp_path / "out" / "org__model", run):
        assert written_tables(given, [("org/model", "veritasqa")]) == [table]
    assert written_tables(tmp_path / "out", [("org/model", "msqad")]) == []


# -- the observer ----------------------------------------------------------------------


def _observer(quiet: bool = False) -> tuple[RichObserver, Console]:
    console = Console(width=80, record=True, color_system=None, force_terminal=False, file=io.StringIO())
    return RichObserver(console, quiet=quiet), console


def test_a_language_done_before_a_resume_is_reported_as_such():
    observer, console = _observer()
    observer.start("veritasqa", "en", 4, 4)  # finished by an earlier run
    advance = observer.start("veritasqa", "es", 4, 1)
    advance(3)
    judge = observer.start("veritasqa · truth judge", "es", 4, 0)
    judge(4)
    observer.finish(_xlinghealth_run(), [])
    text = console.export_text()
    assert "mlbench: veritasqa: es done in " in text and text.count("en done before") == 1
    assert "mlbench: veritasqa · truth judge: es done in " in text
    observer.start("veritasqa", "en", 4, 4)
    observer.finish(_xlinghealth_run(), [])
    assert console.export_text().splitlines() == ["mlbench: veritasqa: en done before"]


def test_the_stage_line_gives_the_tokens_generated_per_second_of_generation():
    observer, console = _observer()
    observer.start("veritasqa", "en", 4, 0)(4)
    observer.start("veritasqa", "es", 4, 0)(4)
    observer.generated("veritasqa", "en", 3000, 1.0)
    observer.generated("veritasqa", "es", 1000, 0.5)
    observer.generated("veritasqa", "es", 1000, 0.5)
    observer.generated("calmqa", "es", 99, 1.0)  # no such bar: nothing
    observer.finish(_xlinghealth_run(), [])
    text = console.export_text().rstrip()
    assert "mlbench: veritasqa: en, es done in " in text and text.endswith(" · 2,500 tokens/s generated")


def test_quiet_observer_prints_nothing():
    observer, console = _observer(quiet=True)
    observer.note("this run generates 8 texts")
    observer.start("veritasqa", "en", 2, 0)(2)
    observer.finish(_xlinghealth_run(), [])
    observer.print_summaries()
    assert console.export_text() == ""


def test_summaries_print_each_task_once_with_its_latest_result():
    observer, console = _observer()
    run = _xlinghealth_run()
    observer.finish(run, [])
    rejudged = _xlinghealth_run(failed=2)
    observer.finish(rejudged, [])  # the judge rebuilt the same run
    observer.print_summaries()
    text = console.export_text()
    assert text.count("xlinghealth — ") == 1 and "failed" in text
