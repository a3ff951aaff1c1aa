"""Every listing at 80 and 120 columns, and piped: no line wider than the console, no name
cut to ``cal…`` or broken over two lines, and a table only where it fits whole."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mlbench.benchmarks import all_tasks, get_task
from mlbench.benchmarks.msqad.loader import TOPICS
from mlbench.cli.app import PIPED_WIDTH
from mlbench.cli.console import summary
from mlbench.cli.main import app
from mlbench.data.catalog import SOURCES
from mlbench.records import LanguageResult, MetricValue, RunResult
from mlbench.records.options import option_names
from tests.report.many_languages import LANGS32

runner = CliRunner()
WIDTHS = (80, 120)


def shown(args: list[str], columns: int | None) -> str:
    """What the command prints at ``columns`` (None: piped, $COLUMNS unset)."""
    result = runner.invoke(app, args, env={"COLUMNS": str(columns) if columns else None})
    assert result.exit_code == 0, result.output
    return result.stdout


def assert_readable(text: str, width: int, names: list[str]) -> None:
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width, "\n".join(line for line in lines if len(line) > width)
    assert "…" not in text
    for name in names:  # whole on one line, not cut nor wrapped
        assert any(name in line for line in lines), name


def task_names() -> list[str]:
    return [task.name for task in all_tasks()]


@pytest.mark.parametrize("columns", [*WIDTHS, None])
def test_tasks_names_every_task_whole(columns):
    text = shown(["tasks"], columns)
    assert_readable(text, columns or PIPED_WIDTH, task_names())
    assert "mlbench tasks NAME" in " ".join(text.split()) and "For scripts: --json." in text


@pytest.mark.parametrize("columns", [*WIDTHS, None])
def test_data_list_names_every_source_whole(columns):
    text = shown(["data", "list"], columns)
    assert_readable(text, columns or PIPED_WIDTH, sorted(SOURCES))
    for source in SOURCES.values():
        assert source.license in text and source.repo in text
    # Narrower than 120 columns: a block per source, its facts as ``key: value`` lines.
    assert text.count("  cached: ") == len(SOURCES)


def test_data_list_is_a_table_where_it_fits_whole():
    text = shown(["data", "list"], 200)
    assert_readable(text, 200, sorted(SOURCES))
    assert "  cached: " not in text and "┃ source" in text


@pytest.mark.parametrize("columns", [*WIDTHS, None])
@pytest.mark.parametrize("name", ["msqad", "xlinghealth", "truthfulqa_multi", "m_truthfulqa", "calmqa"])
def test_tasks_name_shows_every_option_and_value_whole(name, columns):
    task = get_task(name)
    text = shown(["tasks", name], columns)
    names = [task.name, *option_names(task.options_type), *(mode.name for mode in task.modes)]
    names += [s.name for s in SOURCES.values() if name in s.tasks]
    assert_readable(text, columns or PIPED_WIDTH, names)


@pytest.mark.parametrize("columns", WIDTHS)
def test_tasks_msqad_lists_the_seventeen_topics_and_the_refusal_detectors(columns):
    text = shown(["tasks", "msqad"], columns)
    assert len(TOPICS) == 17
    assert_readable(text, columns, list(TOPICS))
    accepts = [line for line in text.splitlines() if line.strip().startswith("accepts:")]
    assert accepts[0].split("accepts: ")[1].startswith("Arms, Children's Rights,")
    # The refusal detectors are its type; not repeated as what it accepts.
    assert any(line.strip() == "type: nli|patterns|judge" for line in text.splitlines())
    assert len(accepts) == 1


def test_the_help_of_an_option_wraps_at_the_width_not_a_word_a_line():
    lines = shown(["tasks", "msqad"], 80).splitlines()
    start = lines.index("refusal")
    help_lines = [line for line in lines[start : start + 7] if "help:" in line or line.startswith("      ")]
    assert len(help_lines) == 2 and all(len(line) > 50 for line in help_lines[:1]), help_lines


# -- the run summary -----------------------------------------------------------------------

LONG_MODEL = "some-organisation-with-a-long-name/a-model-whose-name-alone-is-longer-than-eighty-columns-7b-it"


def _run_32_languages() -> RunResult:
    value = MetricValue(0.5, 0.4, 0.6, 0.05)
    languages = {lang: LanguageResult(lang, 817, {"mc1": value, "mc2": value}) for lang in LANGS32}
    return RunResult(LONG_MODEL, "m_truthfulqa", {}, languages)


@pytest.mark.parametrize("width", [*WIDTHS, PIPED_WIDTH])
def test_the_run_summary_of_32_languages_fits_and_keeps_the_model_name_whole(width):
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    for part in summary(_run_32_languages(), ["mc1", "mc2"], get_task("m_truthfulqa").headline_metrics, console):
        console.print(part)
    text = console.export_text()
    assert_readable(text, width, [])
    assert LONG_MODEL in text.replace("\n", "")  # folded over two lines, never cut
    rows = [line for line in text.splitlines() if line.split()[1:2] == ["817"]]
    assert len(rows) == 32


@pytest.mark.parametrize("columns", [*WIDTHS, None])
def test_the_surface_command_keeps_every_interval_whole(tmp_path, columns):
    """Ten surface columns of ``share [low, high]`` fit no 80-column table: a block per
    language then, each metric's value and interval whole on its line."""
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        '{"lang": "eu", "answer": "Sorry, I cannot translate that. Could you ask in English?"}\n'
        '{"lang": "en", "answer": "Planes board from the back to keep the aisle free."}\n',
        encoding="utf-8",
    )
    text = shown(["surface", str(answers)], columns)
    assert_readable(text, columns or PIPED_WIDTH, ["eu", "en"])  # (a table's headings may wrap)
    assert text.count("[0.000, 0.000]") + text.count("[1.000, 1.000]") >= 10  # every interval whole


@pytest.mark.parametrize("columns", ["0", "5"])
def test_a_nonsense_columns_is_ignored(columns):
    # COLUMNS=0 used to print nothing at all, and exit 0.
    result = runner.invoke(app, ["tasks"], env={"COLUMNS": columns})
    assert result.exit_code == 0
    assert_readable(result.stdout, PIPED_WIDTH, task_names())


@pytest.mark.parametrize("args", [["tasks"], ["tasks", "truthfulqa_multi"], ["data", "list"]])
def test_piped_lines_have_no_trailing_spaces(args):
    text = shown(args, None)
    assert text.strip() and [line for line in text.splitlines() if line != line.rstrip()] == []


def test_a_task_lists_its_prompt_files_and_judge_metrics_as_lists():
    text = shown(["tasks", "truthfulqa_multi"], 80)
    # Each prompt file whole on a line (the list wraps between paths, no braces).
    for name in ("shot.txt", "question.txt", "gen_question.txt", "gen_answer.txt"):
        assert any(f"prompts/truthfulqa_multi/{name}" in line for line in text.splitlines()), name
    assert "{" not in text
    assert "prompts: prompts/msqad/prompts.toml" in shown(["tasks", "msqad"], 80)
    # The headline's judge metric is in its mode's metrics, with what it is made of.
    from mlbench.cli.task_info import mode_metrics

    task = get_task("truthfulqa_multi")
    gen = next(mode for mode in task.modes if mode.name == "gen")
    assert mode_metrics(task, gen)[-1] == "after judging: truthful, informative, truthful_informative"


def test_an_option_says_its_default_once():
    msqad, openai = shown(["tasks", "msqad"], 100), shown(["backends", "openai"], 100)
    assert "default: all" in msqad and "(default: all)" not in msqad
    assert "default: OPENAI_API_KEY" in openai and "default: required" in openai and "(needed)" not in openai
    refusal = msqad.split("\nrefusal\n", 1)[1].split("\nnli_model", 1)[0]
    assert "type: nli|patterns|judge" in refusal and "accepts:" not in refusal  # the type is the choices
