"""A declared benchmark's prompts from its authors' task files (``[templates]``): the code
source it reads them from, the ``-T prompt`` option, one sample per question and template,
and each template's prompt, option delimiter and generation settings."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from mlbench.benchmarks.declarative.spec import BenchmarkSpec
from mlbench.benchmarks.declarative.templates import ALL_TEMPLATES, TemplateSpec
from mlbench.benchmarks.options import check_choices, option
from mlbench.data.catalog import PinnedFile, Source
from mlbench.data.source import QUESTION_LABEL, TEMPLATE_LABEL, DataSource, templated_id
from mlbench.data.untrusted.lm_eval_task import FunctionRef, LmEvalTask, read_lm_eval_task
from mlbench.data.untrusted.python_source import UpstreamCode
from mlbench.data.untrusted.upstream import UpstreamFiles
from mlbench.errors import MlbenchError
from mlbench.records import ChatMessage, Prompt, Sample
from mlbench.records.budgets import listing
from mlbench.records.jsontypes import JsonObject

if TYPE_CHECKING:
    from collections.abc import Callable

    from _typeshed import DataclassInstance

_MARK = "\x00"  # stands in for the question to find where the shared primer ends


def code_source(spec: BenchmarkSpec) -> Source | None:
    """The authors' repository that ``spec``'s templates are read from, pinned file by file."""
    if spec.templates is None:
        return None
    templates = spec.templates
    files = tuple(PinnedFile(path, digest) for path, digest in templates.files)
    notes = f"the prompt templates of {spec.name} ({listing(templates.names)}), read as data"
    return Source(f"{spec.name}-code", (spec.name,), "github", templates.repo, templates.commit,
                  templates.license, files, notes=notes)  # fmt: skip


def upstream_files(spec: BenchmarkSpec) -> UpstreamFiles:
    assert spec.templates is not None
    paths = tuple(p for p, _ in spec.templates.files)
    return UpstreamFiles(spec.name, f"{spec.name}-code", spec.name, paths, instead="")


def template_options(spec: BenchmarkSpec) -> type:
    """The options dataclass of a benchmark with templates: ``prompt``, one of its template
    names or ``all`` (default: the first)."""
    assert spec.templates is not None
    names = spec.templates.names
    name = spec.name

    def check(self: DataclassInstance) -> None:
        check_choices(self, name)

    helptext = f"The prompt template: {listing(names)} (the authors'), or all (one sample per template)."
    prompt = option(names[0], helptext, choices=(*names, ALL_TEMPLATES))
    return dataclasses.make_dataclass(
        f"{name}_options", [("prompt", str, prompt)], frozen=True, namespace={"__post_init__": check}
    )


def chosen_templates(templates: TemplateSpec, prompt: str) -> tuple[str, ...]:
    return templates.names if prompt == ALL_TEMPLATES else (prompt,)


def template_samples(samples: list[Sample], chosen: tuple[str, ...]) -> list[Sample]:
    """One sample per question and template: under one template the question keeps its id;
    under several, ``<id>@<template>``, each labelled with its template and question."""
    if len(chosen) == 1:
        return [replace(s, meta={**s.meta, TEMPLATE_LABEL: chosen[0]}) for s in samples]
    return [
        replace(s, id=templated_id(s.id, name), meta={**s.meta, TEMPLATE_LABEL: name, QUESTION_LABEL: s.id})
        for name in chosen
        for s in samples
    ]


@dataclass
class TaskFiles:
    """The task files of one benchmark, read (and their hashes checked) once each."""

    spec: BenchmarkSpec

    def __post_init__(self) -> None:
        self.files = upstream_files(self.spec)
        self.read: dict[tuple[str, str], LmEvalTask] = {}
        self.modules: dict[tuple[str, str], UpstreamCode] = {}  # each Python file found and hashed once

    def check(
        self, data: DataSource, lang: str, chosen: tuple[str, ...], modes: tuple[str, ...], first: Sample | None
    ) -> None:
        """Every file ``lang`` needs is found, pinned and readable, each ``!function``
        there is what Python would call, and each template renders ``first`` (the
        language's first question): before the model loads."""
        for mode in modes:
            for template in chosen:
                task = self.task(data, mode, template, lang)
                if isinstance(task.doc_to_text, FunctionRef):
                    self._code(data, task.doc_to_text.module).function(task.doc_to_text.name, called=True)
                if first is not None:
                    self.prompt(data, task, first, chat=False, system=None)

    def task(self, data: DataSource, mode: str, template: str, lang: str) -> LmEvalTask:
        assert self.spec.templates is not None
        path = self.spec.templates.path(mode, template, self.spec.values(lang))
        key = _where(data, path)
        if key not in self.read:
            self.read[key] = read_lm_eval_task(path, self._reader(data))
            if self.read[key].num_fewshot:
                raise MlbenchError(f"{path}: num_fewshot {self.read[key].num_fewshot}; mlbench reads zero-shot tasks")
        return self.read[key]

    def prompt(self, data: DataSource, task: LmEvalTask, sample: Sample, *, chat: bool, system: str | None) -> Prompt:
        """The template's prompt for ``sample``; the part every question shares (a primer
        ending in a blank line) is marked as such."""
        text = task.render(sample_doc(sample), lambda path: self._code(data, path))
        if chat:
            turns = [ChatMessage("system", system)] if system else []
            return Prompt(messages=(*turns, ChatMessage("user", text)), shared_prefix=len(turns))
        marked = task.render(sample_doc(sample, _MARK), lambda path: self._code(data, path))
        cut = marked.find(_MARK)
        blank = marked.rfind("\n\n", 0, cut) if cut > 0 else -1
        shared = blank + 2 if blank >= 0 and text.startswith(marked[: blank + 2]) else 0
        if system:
            return Prompt(text=f"{system}\n\n{text}", shared_prefix=len(system) + 2 + shared)
        return Prompt(text=text, shared_prefix=shared)

    def _code(self, data: DataSource, path: str) -> UpstreamCode:
        if path not in self.files.paths:
            raise MlbenchError(f"{self.spec.path}: {path} is read by a template but not pinned in upstream.files")
        key = _where(data, path)
        if key not in self.modules:
            self.modules[key] = self.files.code(data, path)
        return self.modules[key]

    def _reader(self, data: DataSource) -> Callable[[str], str]:
        def read(path: str) -> str:
            if path not in self.files.paths:
                raise MlbenchError(f"{self.spec.path}: {path} is read by a template but not pinned in upstream.files")
            return self.files.text(data, path)

        return read


def _where(data: DataSource, path: str) -> tuple[str, str]:
    """A file's key in the caches: the copy it comes from (a --data-dir, or the data cache) and its path."""
    return (str(data.path) if data.path else data.kind, path)


def sample_doc(sample: Sample, question: str | None = None) -> JsonObject:
    """The document a template sees: the row's question and its option lists, in the
    hub's TruthfulQA layout (``mc1_targets``, ``mc2_targets``: choices and labels)."""
    mc1 = sample.mc1_choices or ()
    doc: JsonObject = {
        "question": sample.question if question is None else question,
        # Labels: the first option is the correct one.
        "mc1_targets": {"choices": list(mc1), "labels": [int(i == 0) for i in range(len(mc1))]},
    }
    if sample.mc2_choices is not None:
        doc["mc2_targets"] = {"choices": list(sample.mc2_choices), "labels": list(sample.mc2_labels or ())}
    return doc
