"""The surface checks of the answers a run writes, wherever a task keeps them.

A task's modes say which write answers and where each sits in its outputs (``Mode.answer``);
the pipeline never guesses from mode names or output keys. Where the answer is saved says
where its ``surface`` block goes: the answer at the top of the outputs is the sample's
answer, and its block is the sample's ``surface`` (judges read it there); an answer inside
a block of the outputs (MSQAD's ``outputs.adversarial``) gets its block beside it.
"""

from __future__ import annotations

import threading

from mlbench.benchmarks.base import Task
from mlbench.metrics.names import at
from mlbench.metrics.surface import SURFACE_METRICS, surface_block, surface_metrics
from mlbench.records.jsontypes import JsonObject, JsonValue


def checks_answers(task: Task, modes: tuple[str, ...]) -> bool:
    """Whether some mode of ``modes`` writes answers that get the surface checks."""
    return any(task.mode(mode).writes_answers for mode in modes)


def warm_up_in_background(task: Task, modes: tuple[str, ...]) -> None:
    """Load what the surface checks read (the o200k_base encoding, the language identifier's
    model: about 0.8 s) in a thread while the model loads, when ``modes`` write answers.
    Loading is all it does: a check made before it ends loads what it needs itself."""
    if checks_answers(task, modes):
        sample = "A sentence long enough for the language identifier to read it."
        threading.Thread(target=surface_block, args=(sample, "en"), daemon=True).start()


def surface_metric_names(task: Task, modes: tuple[str, ...]) -> list[str]:
    """The surface metrics of a run in table order (by base name; see ``metric_names``)."""
    return list(SURFACE_METRICS) if checks_answers(task, modes) else []


def surface_name(task: Task, metric: str, mode: str) -> str:
    """A mode's surface metric under its saved name. A task with one checked answer per
    sample keeps the plain names; one with several (MSQAD's direct and adversarial
    responses) names each mode's: ``wrong_language@adversarial``. The rule reads the task,
    not the run's modes, so a task's names are the same in every run."""
    return at(metric, mode) if len(task.answer_modes) > 1 else metric


def check_answer(task: Task, mode: str, outputs: JsonObject, lang: str) -> tuple[JsonObject | None, dict[str, float]]:
    """Surface-check the answer ``mode`` wrote into ``outputs`` (what ``Task.score``
    returned): the block to save as the sample's ``surface`` (None when the answer sits
    inside a block of the outputs: its block is put beside it there), and the metrics.
    A mode that writes no answer, or outputs without the answer, give (None, {})."""
    declared = task.mode(mode)
    if not declared.writes_answers:
        return None, {}
    path = declared.answer
    holder: JsonValue = outputs
    for key in path[:-1]:
        holder = holder.get(key) if isinstance(holder, dict) else None
    if not isinstance(holder, dict):
        return None, {}
    answer = holder.get(path[-1])
    if not isinstance(answer, str):
        return None, {}
    block = surface_block(answer, lang)
    metrics = {surface_name(task, name, mode): value for name, value in surface_metrics(block, lang).items()}
    if len(path) > 1:
        holder["surface"] = block
        return None, metrics
    return block, metrics
