"""What ``--resume`` checks before it continues a language's saved samples, and what it
brings up to date in them: samples scored from other data are refused, as are samples a
limited run drew by the rule before ``--limit`` drew TruthfulQA's rows; samples whose
TruthfulQA row the data now gives otherwise are given it (a row is no part of a prompt)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mlbench.data.alignment import TQA_INDEX_LABEL, aligned_labels, realign
from mlbench.data.source import subset
from mlbench.engine.checks import run_dir_of
from mlbench.engine.plan import PlannedLanguage, PlannedTask, RunConfig
from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord
from mlbench.results import read_samples, rewrite_samples, samples_path


def check_resumed_data(config: RunConfig, item: PlannedTask, chash: str) -> None:
    """--resume over samples scored from other data (a data file edited since) would mix
    two datasets in one result: one line instead. Lines from before the data was hashed
    are taken as they are. So is a limited run's draw: samples drawn by --limit's rule
    before it drew TruthfulQA's rows do not resume into the new draw."""
    if not config.resume:
        return
    for planned_lang in item.languages:
        path = samples_path(run_dir_of(config, item.task.name), planned_lang.lang)
        saved = read_samples(path, chash, repair=False)
        changed = sum(1 for r in saved.values() if r.data_hash and r.data_hash != planned_lang.data_hash)
        if changed:
            raise MlbenchError(
                f"{item.task.name} {planned_lang.lang}: the data changed since {changed} saved samples were "
                f"scored from it; --resume would mix the two, so run it again with --overwrite"
            )
        where = f"{item.task.name} {planned_lang.lang}"
        if TQA_INDEX_LABEL in planned_lang.unknown_labels and any(_row(r.labels) for r in saved.values()):
            if config.limit is not None:  # the draw went by rows this run cannot know
                raise MlbenchError(
                    f"{where}: the {len(saved):,} saved samples were drawn by --limit from TruthfulQA's rows, which "
                    "this run cannot read (the authors' map or TruthfulQA's English is not at hand): bring it back, "
                    "or run it again with --overwrite"
                )
            continue
        if config.limit is not None:
            _check_draw(saved, planned_lang, config, where)


def _check_draw(saved: dict[str, SampleRecord], planned_lang: PlannedLanguage, config: RunConfig, where: str) -> None:
    """A limited run's saved samples outside this run's draw by TruthfulQA's rows are
    refused where they were drawn by another rule: under rows the data no longer gives
    (an ``[align]`` edited since: the rows drawn are others now), or by ids alone, the
    rule of versions before rows were drawn (``subset(by_row=False)``)."""
    drawn = {s.id for s in planned_lang.samples}
    if not saved or set(saved) <= drawn:
        return
    rows_now = {s.id: aligned_labels(s.meta) for s in planned_lang.data.samples}
    if any(_row(r.labels) and _row(r.labels) != _row(rows_now.get(i, {})) for i, r in saved.items()):
        raise MlbenchError(
            f"{where}: the {len(saved):,} saved samples were drawn by --limit from other TruthfulQA rows than the "
            "data gives now (an [align] edited since), so this draw holds other questions: run it again with "
            "--overwrite"
        )
    pool = config.asked(planned_lang.lang, planned_lang.data.samples)
    by_id = {s.id for s in subset(pool, config.limit, config.seed, by_row=False)}
    if by_id != drawn and set(saved) <= by_id:
        raise MlbenchError(
            f"{where}: the {len(saved):,} saved samples were drawn by the --limit rule of earlier versions "
            "(question ids); --limit now draws TruthfulQA's rows, the same in every translation, so they do not "
            "resume into this draw: run it again with --overwrite"
        )


def _row(labels: dict[str, str]) -> str | None:
    return labels.get(TQA_INDEX_LABEL)


def realign_saved(
    path: Path, done: dict[str, SampleRecord], planned_lang: PlannedLanguage, where: str, say: Callable[[str], object]
) -> None:
    """Give the saved samples ``done`` (of the file ``path``) the TruthfulQA rows the data
    gives now, rewriting the file before a new sample is appended; ``say`` hears of it (a
    warning: the files change, so it is said even under -q)."""
    derived = {s.id: aligned_labels(s.meta) for s in planned_lang.samples}
    for sample_id, labels in derived.items():  # what this run cannot know stays as saved
        saved = done[sample_id].labels if sample_id in done else {}
        labels.update({name: saved[name] for name in planned_lang.unknown_labels if name in saved})
    realigned = realign(done, derived)
    if realigned:
        say(realigned.line(where))
        rewrite_samples(path, done.values())
