"""Every `mlbench ...` command shown in README.md and docs/*.md is one the CLI takes: the
command exists, each option exists and parses (click's own parser, behind the typer app),
and the values with a fixed set (tasks, modes, languages, backends, dtypes, report formats,
data sources, -T/-M/-J keys) are checked by the functions `mlbench` itself checks them with.
Placeholders (MODEL, DIR, <model>, …) stand for any value. The TOML run files the docs
show are read by the run-file reader, and `--config run.toml` is checked with them."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer

from mlbench.benchmarks import get_task, include_files
from mlbench.cli import config as run_file
from mlbench.cli.main import app
from mlbench.cli.settings import model_options, split_list, task_own_options
from mlbench.errors import MlbenchError
from mlbench.records.options import OptionSetting, key_name, settings_from_pairs

# own_registry (autouse): a benchmark a docs command includes (examples/capitals) is forgotten
# afterwards, so later tests may include their own copy under the same name.
from tests.benchmarks.test_include import own_registry  # noqa: F401
from tests.docs.doc_commands import (
    REPO,
    DocCommand,
    command_args,
    doc_commands,
    is_placeholder,
    shell_lines,
    synopsis_variants,
)

COMMANDS = doc_commands()
TOML_BLOCK = re.compile(r"```toml\n(.*?)```", re.S)


def _is_a(error: BaseException, name: str) -> bool:
    # typer ships its own copy of click: its exception classes are known by name (as cli/main.py does).
    return any(kind.__name__ == name for kind in type(error).__mro__)


def run_files(tmp_path: Path) -> list[Path]:
    """The TOML run files of docs/options.md, written out."""
    blocks = TOML_BLOCK.findall((REPO / "docs" / "options.md").read_text(encoding="utf-8"))
    files = []
    for index, block in enumerate(blocks):
        files.append(tmp_path / f"run{index}.toml")
        files[-1].write_text(block, encoding="utf-8")
    return files


def parsed(args: tuple[str, ...], elided: bool = False) -> tuple[str, Any]:
    """The command's name and click context, parsed as `mlbench` parses it; a usage error
    raises. A line that elides the rest (`...`) gets its missing required options as placeholders."""
    command: Any = typer.main.get_command(app)
    names: list[str] = []
    rest = list(args)
    while rest and hasattr(command, "commands") and rest[0] in command.commands:
        names.append(rest[0])
        command = command.commands[rest.pop(0)]
    if hasattr(command, "commands") and rest and not rest[0].startswith("-"):
        raise LookupError(f"no command {' '.join([*names, rest[0]])}; valid: {', '.join(command.commands)}")
    if elided:
        given = set(rest)
        for param in command.params:
            if param.required and param.param_type_name == "option" and not given & set(param.opts):
                rest += [param.opts[0], param.name.upper()]
    with contextlib.redirect_stdout(io.StringIO()):  # --version prints
        return " ".join(names), command.make_context(" ".join(names) or "mlbench", rest, resilient_parsing=False)


def values(text: str | None) -> list[str]:
    return [part for part in split_list(text or "") if not is_placeholder(part)]


def file_settings(context: Any, key: str) -> list[OptionSetting]:
    return list(context.meta.get(key, []))


def check_run(context: Any) -> None:
    params = context.params
    tasks = values(params["task"])
    for name in tasks:
        task = get_task(name)
        if params["mode"] != "all" and not is_placeholder(params["mode"]):
            task.mode(params["mode"])
        langs = values(params["lang"])
        unknown = [lang for lang in langs if lang != "all" and lang not in task.languages]
        assert not unknown, f"{name} has no language {', '.join(unknown)}"
    task_pairs = [pair for pair in params["task_option"] or [] if not is_placeholder(pair.partition("=")[2])]
    placeholder_keys = [pair.partition("=")[0] for pair in params["task_option"] or [] if pair not in task_pairs]
    settings = [*file_settings(context, run_file.FILE_TASKS), *settings_from_pairs(task_pairs)]
    if tasks:
        options = task_own_options(tuple(tasks), settings)
        for key in placeholder_keys:
            assert any(hasattr(own, key_name(key)) for own in options.values()), f"no task of the run takes -T {key}"
    model_pairs, judge_pairs = params["model_option"] or [], params["judge_option"] or []
    model_settings = file_settings(context, run_file.FILE_MODEL) + settings_from_pairs(model_pairs, "-M")
    model_options(params["model"] or "MODEL", params["backend"], params["dtype"], params["seed"], model_settings)
    check_judge_settings(file_settings(context, run_file.FILE_JUDGE) + settings_from_pairs(judge_pairs, "-J"))


def check_judge_settings(settings: list[OptionSetting]) -> None:
    from mlbench.backends.options import backend_values
    from mlbench.judges.options import split_judge_settings

    own, rest = split_judge_settings(settings)
    backend_values(own.backend, rest, "-J")


def check_judge(context: Any) -> None:
    check_judge_settings(settings_from_pairs(context.params["judge_option"] or [], "-J"))


def check_tasks(context: Any) -> None:
    name = context.params.get("name")
    if name and not is_placeholder(name):
        get_task(name)


def check_backends(context: Any) -> None:
    from mlbench.backends.registry import BACKENDS

    name = context.params.get("name")
    assert name is None or is_placeholder(name) or name in BACKENDS, f"no backend {name}; valid: {BACKENDS}"


def check_report(context: Any) -> None:
    from mlbench.report import FORMATS

    unknown = [fmt for fmt in values(context.params["fmt"]) if fmt not in FORMATS]
    assert not unknown, f"no report format {', '.join(unknown)}; valid: {', '.join(FORMATS)}"


def check_data_names(context: Any) -> None:
    from mlbench.cli.data import discover_benchmarks
    from mlbench.data.catalog import sources_of

    discover_benchmarks(context.params.get("include"))
    names = context.params.get("names") or ([context.params["name"]] if context.params.get("name") else [])
    sources_of([name for name in names if not is_placeholder(name)])


CHECKS: dict[str, Callable[[Any], None]] = {
    "run": check_run,
    "judge": check_judge,
    "tasks": check_tasks,
    "backends": check_backends,
    "report": check_report,
    "data fetch": check_data_names,
    "data verify": check_data_names,
    "data path": check_data_names,
}


def with_run_file(args: tuple[str, ...], files: list[Path]) -> tuple[str, ...]:
    """`--config run.toml` stands for the docs' own run file (the first one they show)."""
    return tuple(
        str(files[0]) if (before, word) == ("--config", "run.toml") else word
        for before, word in zip(("",) + args, args)
    )


def check(command: DocCommand, files: list[Path]) -> None:
    for args in synopsis_variants(with_run_file(command.args, files)):
        include = [REPO / args[i + 1] for i, word in enumerate(args[:-1]) if word == "--include"]
        include_files([path for path in include if not is_placeholder(path.name)])
        try:
            name, context = parsed(args, elided=bool({"...", "…"} & set(command.args)))
        except LookupError as error:
            pytest.fail(f"{command.where}: `mlbench {' '.join(args)}`: {error}")
        except BaseException as error:  # click's Exit (from --version) is no error
            if _is_a(error, "Exit") and getattr(error, "exit_code", 1) == 0:
                continue
            if _is_a(error, "UsageError") or _is_a(error, "ClickException"):
                message = " ".join(error.format_message().split())
                pytest.fail(f"{command.where}: `mlbench {' '.join(args)}`: {message}")
            raise
        try:
            CHECKS.get(name, lambda context: None)(context)
        except (MlbenchError, AssertionError) as error:
            pytest.fail(f"{command.where}: `mlbench {' '.join(args)}`: {error}")


def test_the_docs_show_commands_of_every_kind():
    shown = {command.args[0] for command in COMMANDS if command.args}
    assert {"run", "judge", "report", "explore", "tasks", "data", "agree", "surface", "import"} <= shown
    assert len(COMMANDS) >= 60


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command.where)
def test_each_command_in_the_docs_is_taken_by_the_cli(command, tmp_path):
    check(command, run_files(tmp_path))


@pytest.mark.parametrize("index", range(len(TOML_BLOCK.findall((REPO / "docs" / "options.md").read_text("utf-8")))))
def test_each_run_file_in_the_docs_is_read_by_the_cli(index, tmp_path):
    files = run_files(tmp_path)
    assert len(files) >= 2
    check(DocCommand(REPO / "docs" / "options.md", 1, "", ("run", "--config", str(files[index]))), files)


@pytest.mark.parametrize(
    "line, expected",
    [
        ("mlbench run --model M --task truthfulqa_multi --lang en --bogus", "No such option: --bogus"),
        ("mlbench run --model M --task truthfulqa_multi --lang en --limit abc", "abc"),
        ("mlbench run --model M --task nosuch --lang en", "nosuch"),
        ("mlbench run --model M --task veritasqa --lang xx", "no language xx"),
        ("mlbench run --model M --task msqad --lang en --mode mc", "mode mc"),
        ("mlbench run --model M --task msqad --lang en -T refusal_limit=3", "refusal_limit"),
        ("mlbench run --model M --task veritasqa --lang en --backend hf -M base_url=URL", "base_url"),
        ("mlbench run --model M --task veritasqa --lang en --backend tpu", "tpu"),
        ("mlbench run --model M --task veritasqa --lang en --judge J -J kind_of=truth", "kind_of"),
        ("mlbench report results --format pdf", "pdf"),
        ("mlbench data fetch nosuchsource", "nosuchsource"),
        ("mlbench nosuchcommand", "nosuchcommand"),
        ("mlbench run --model M --lang en", "Missing option '--task'"),
        ("mlbench run --config nosuch.toml", "nosuch.toml"),
    ],
)
def test_a_command_the_cli_refuses_fails_the_check(line, expected, tmp_path):
    page = tmp_path / "page.md"
    page.write_text(f"# A page\n\n```bash\n{line}\n```\n", encoding="utf-8")
    command = DocCommand(REPO / "docs" / "page.md", 4, line, tuple(line.split()[1:]))
    with pytest.raises(pytest.fail.Exception, match=re.escape(expected)) as failed:
        check(command, run_files(tmp_path))
    assert "docs/page.md:4" in str(failed.value)


def test_commands_are_read_from_every_kind_of_block():
    page = """
```console
$ HF_HUB_OFFLINE=1 mlbench run --model M \\
    --task veritasqa --lang en   # a comment
mlbench: results in results/ (table.md, results.json)
$ ls "$(mlbench data path msqad)"
```

```toml
model = "not a command"
```

```
mlbench tasks | head -3
mlbench: error: output, not a command
```
"""
    found = [args for _, line, language in shell_lines(page) for args in command_args(line, language)]
    assert found == [
        ["run", "--model", "M", "--task", "veritasqa", "--lang", "en"],
        ["data", "path", "msqad"],
        ["tasks"],
    ]
    assert [number for number, _, _ in shell_lines(page)][:1] == [3]


def test_a_synopsis_stands_for_each_of_its_alternatives():
    variants = synopsis_variants(("run", "[--mode", "direct|adversarial]", "[-T", "refusal=nli|patterns|judge]", "…"))
    assert variants == [
        ("run", "--mode", "direct", "-T", "refusal=nli"),
        ("run", "--mode", "adversarial", "-T", "refusal=patterns"),
        ("run", "--mode", "direct", "-T", "refusal=judge"),
    ]
    assert is_placeholder("MODEL") and is_placeholder("T1,T2") and is_placeholder("<model>")
    assert not is_placeholder("truthfulqa_multi") and not is_placeholder("en,es")
