"""What `mlbench tasks NAME` shows of one benchmark: its languages, its modes (what each
makes the model produce and the metrics it writes), its own options (`-T key=value`, with
the values each accepts when they are a fixed set), its judges, and where its data comes
from, with the sizes the catalog knows. A user's benchmark (``--include``) wrote most of
it: each text is shown through ``errors.terminal_text`` (control characters as escapes,
cut short)."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from mlbench.benchmarks.base import Mode, Task
from mlbench.cli.layout import KEY_INDENT, Column, Listing, key_value
from mlbench.data.alignment import translation_text
from mlbench.data.catalog import Source, data_licence
from mlbench.errors import terminal_text
from mlbench.metrics.judged import COMBINED_METRICS, JUDGE_METRICS, KIND_METRICS
from mlbench.records.options import describe_options

# What each kind of mode output is, for a reader who has not read tasks/base.py.
PRODUCES = {
    "answers": "answers (surface checks, judges)",
    "loglikelihoods": "option log-likelihoods",
    "samples": "sampled answers, compared with each other",
    "labels": "Yes/No labels",
}


def task_details(task: Task, sources: list[Source]) -> RenderableType:
    """The whole description of ``task`` as one renderable, drawn at the console's width:
    each listing a table where it fits whole, else a block per record."""
    head = Text.assemble((terminal_text(task.name), "bold"), f" — {terminal_text(task.title)}")
    facts: list[tuple[str, str | list[str]]] = [
        (f"languages ({len(task.languages)})", list(task.languages)),
        ("few-shot default", str(task.default_fewshot)),
        ("judges (--judge, default kinds)", list(task.default_judge_kinds)),
    ]
    if len(task.judge_protocols) > 1:  # -J protocol, the first the default
        facts.append(
            ("judge protocols (-J protocol)", [f"{task.judge_protocols[0]} (default)", *task.judge_protocols[1:]])
        )
    if task.headline_metrics:
        facts.append(("headline metrics", list(task.headline_metrics)))
    facts.append(("prompts", prompt_files(task)))
    if task.alignment is not None:  # a translation of TruthfulQA: how it pairs with the others
        facts.append(("aligned (report --align tqa_index)", task.alignment.how))
        if task.alignment.translation:
            facts.append(("translation", translation_text(task.alignment)))
    facts.append(("licence (its data's)", data_licence(task.name) or "not stated"))
    parts: list[RenderableType] = [head, _Facts(facts), modes_table(task), options_table(task)]
    parts.append(sources_table(task, sources))
    return Group(*parts)


class _Facts:
    """``key: value`` lines at the console's width, a list wrapping between its items."""

    def __init__(self, facts: list[tuple[str, str | list[str]]]) -> None:
        self.facts = [(key, terminal_text(v) if isinstance(v, str) else [*map(terminal_text, v)]) for key, v in facts]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        lines = [line for key, value in self.facts for line in key_value(key, value, width)]
        yield Text("\n".join(line.removeprefix(KEY_INDENT) for line in lines))


def mode_metrics(task: Task, mode: Mode) -> list[str]:
    """What ``mode`` writes: its metrics, the surface checks, and what judging adds."""
    metrics = list(mode.metrics)
    if mode.writes_answers:
        metrics.append("surface checks")
    judged = judge_metrics(task)
    if judged and mode.writes_answers:
        metrics.append(f"after judging: {', '.join(judged)}")
    return metrics


def judge_metrics(task: Task) -> list[str]:
    """The metrics judging adds to ``task``'s answers: those of its default judge kinds, its
    headline's judge metrics (with the ones they are made of) and its own combined ones."""
    wanted = {metric for kind in task.default_judge_kinds for metric in KIND_METRICS.get(kind, ())}
    wanted |= {metric for metric in task.headline_metrics if metric in JUDGE_METRICS}
    wanted |= {part for metric in set(wanted) for part in COMBINED_METRICS.get(metric, ())}
    return [m for m in JUDGE_METRICS if m in wanted] + list(task.combined_metric_names)


def modes_table(task: Task) -> Listing:
    listing = Listing("modes (--mode)", [Column("mode", no_wrap=True), Column("produces"), Column("metrics")])
    for mode in task.modes:
        listing.add(mode.name, PRODUCES.get(mode.produces, mode.produces), ", ".join(mode_metrics(task, mode)) or "-")
    return listing


def options_table(task: Task) -> RenderableType:
    if task.options_type is None:
        return Text("options: none of its own (the shared ones: `mlbench run --help`)")
    return typed_options_table(task.options_type, "options (-T KEY=VALUE, or [options] in --config FILE)")


# Options are prose (their help) and lists of values: a block each reads at every width.
STACKED = 10**6


def typed_options_table(kind: type, title: str) -> Listing:
    """The fields of an options dataclass (a task's -T, a backend's -M): a block per option,
    its type, default, the values it accepts when they are a fixed set, and its help."""
    columns = [Column("option", no_wrap=True), Column("type"), Column("default"), Column("accepts"), Column("help")]
    listing = Listing(title, columns, table_from=STACKED)
    for item in describe_options(kind):
        # A type that is the list of choices (``authors|clean``) already says what it accepts.
        accepts = list(item.choices) if item.choices and "|".join(item.choices) not in item.type else None
        listing.add(item.name, item.type, item.default, accepts, item.help)
    return listing


def prompt_files(task: Task) -> str | list[str]:
    """Where the task's prompt templates are, as a reader of the project finds them: their
    paths (a list, which wraps between paths), or a sentence where there are none."""
    if not task.prompt_files:
        return task.prompt_origin or "none (built in code or in the benchmark's own file)"
    return prompt_paths(task)


def prompt_paths(task: Task) -> list[str]:
    """The task's prompt templates, each as ``prompt_files`` names them."""
    return [f"{_prompt_folder(task)}/{name}" for name in _prompt_names(task)]


def _prompt_folder(task: Task) -> str:
    folder = task.prompt_dir
    return f"prompts/{folder.name}" if folder.parent.name == "prompts" else str(folder)


def _prompt_names(task: Task) -> list[str]:
    return [name if "." in name else f"{name}.txt" for name in task.prompt_files]


def sources_table(task: Task, sources: list[Source]) -> RenderableType:
    mine = [s for s in sources if task.name in s.tasks]
    if not mine:
        return Text(f"data: {terminal_text(task.hub_id)}")
    columns = [Column(c, no_wrap=c in ("source", "revision")) for c in ("source", "home", "revision", "files", "size")]
    listing = Listing("data (`mlbench data fetch NAME`; or --data-dir DIR)", [*columns, Column("license")])
    for source in mine:
        revision = source.revision[:12] if source.pinned_commit else source.revision
        files = str(len(source.files)) if source.files else "every data file"
        listing.add(source.name, source.home_url(), revision, files, _size(source), source.license)
    return listing


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
