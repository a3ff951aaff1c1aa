"""What `mlbench tasks NAME` shows of one benchmark: its languages, its modes (what each
makes the model produce and the metrics it writes), its own options (`-T key=value`),
its judges, and where its data comes from, with the sizes the catalog knows."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from mlbench.benchmarks.base import Mode, Task
from mlbench.data.catalog import Source
from mlbench.records.options import describe_options

# What each kind of mode output is, for a reader who has not read tasks/base.py.
PRODUCES = {
    "answers": "answers (surface checks, judges)",
    "loglikelihoods": "option log-likelihoods",
    "samples": "sampled answers, compared with each other",
    "labels": "Yes/No labels",
}


def task_details(task: Task, sources: list[Source]) -> RenderableType:
    """The whole description of ``task`` as one renderable."""
    head = Text.assemble((task.name, "bold"), f" — {task.title}")
    facts = [
        f"languages ({len(task.languages)}): {', '.join(task.languages)}",
        f"few-shot default: {task.default_fewshot}",
        f"judges (--judge, default kinds): {', '.join(task.default_judge_kinds)}",
    ]
    if task.headline_metrics:
        facts.append(f"headline metrics: {', '.join(task.headline_metrics)}")
    facts.append(prompt_files(task))
    parts: list[RenderableType] = [head, *map(Text, facts), modes_table(task), options_table(task)]
    parts.append(sources_table(task, sources))
    return Group(*parts)


def _metrics(task: Task, mode: Mode) -> str:
    metrics = list(mode.metrics)
    if mode.writes_answers:
        metrics.append("surface checks")
    if task.combined_metric_names and mode.writes_answers:
        metrics.append(f"after judging: {', '.join(task.combined_metric_names)}")
    return ", ".join(metrics) or "-"


def modes_table(task: Task) -> Table:
    table = Table(title="modes (--mode)", title_justify="left")
    table.add_column("mode", no_wrap=True)
    table.add_column("produces")
    table.add_column("metrics")
    for mode in task.modes:
        table.add_row(mode.name, PRODUCES.get(mode.produces, mode.produces), _metrics(task, mode))
    return table


def options_table(task: Task) -> RenderableType:
    if task.options_type is None:
        return Text("options: none of its own (the shared ones: `mlbench run --help`)")
    return typed_options_table(task.options_type, "options (-T KEY=VALUE, or [options] in --config FILE)")


def typed_options_table(kind: type, title: str) -> Table:
    """The fields of an options dataclass (a task's -T, a backend's -M) as a table."""
    table = Table(title=escape(title), title_justify="left")
    for column in ("option", "type", "default"):
        table.add_column(column, no_wrap=column != "default")
    table.add_column("help")
    for item in describe_options(kind):
        table.add_row(item.name, item.type, item.default, item.help)
    return table


def prompt_files(task: Task) -> str:
    """Where the task's prompt templates are, as a reader of the project finds them."""
    if not task.prompt_files:
        return "prompts: none (built in code or in the benchmark's own file)"
    folder = task.prompt_dir
    shown = f"prompts/{folder.name}" if folder.parent.name == "prompts" else str(folder)
    names = [name if "." in name else f"{name}.txt" for name in task.prompt_files]
    return f"prompts: {shown}/{{{', '.join(names)}}}"


def sources_table(task: Task, sources: list[Source]) -> RenderableType:
    mine = [s for s in sources if task.name in s.tasks]
    if not mine:
        return Text(f"data: {task.hub_id}")
    table = Table(title="data (`mlbench data fetch NAME`; or --data-dir DIR)", title_justify="left")
    for column in ("source", "home", "revision", "files", "size", "license"):
        table.add_column(column, no_wrap=column in ("source", "revision"))
    for source in mine:
        revision = source.revision[:12] if source.pinned_commit else source.revision
        files = str(len(source.files)) if source.files else "every data file"
        table.add_row(source.name, source.home_url(), revision, files, _size(source), source.license)
    return table


def _size(source: Source) -> str:
    rows = source.rows if source.rows is not None else _file_rows(source)
    parts = [f"{rows:,} rows" if rows is not None else "", f"{source.size_mb:g} MB" if source.size_mb else ""]
    return ", ".join(p for p in parts if p) or "unknown"


def _file_rows(source: Source) -> int | None:
    """The rows of every file, when the catalog knows each one's."""
    rows = [f.rows for f in source.files]
    return sum(r for r in rows if r is not None) if rows and None not in rows else None


def print_task(console: Console, task: Task, sources: list[Source]) -> None:
    console.print(task_details(task, sources))
