"""The Task a declarative benchmark file describes (see ``spec``): MC1/MC2 and
BLEU exactly as TruthfulQA-Multi scores them, with the file's own prompt templates. The
surface checks, judges and the cross-language report come with the ``gen`` mode's answers
and the shared ids, as for every benchmark."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import ClassVar, Literal

from mlbench.benchmarks.base import GEN, MC, LanguageData, Mode, Scored, Task, TaskOptions, require_primer
from mlbench.benchmarks.declarative.authors import (
    authors_data_warnings,
    authors_references,
    fallback_reference,
    left_out_counts,
    mc2_left_out,
    mc2_true_count,
    unsorted_mc2_warning,
)
from mlbench.benchmarks.declarative.data import check_parallel, language_files, primer_name, read_language, read_primer
from mlbench.benchmarks.declarative.lm_eval_import import lm_eval_names, logged_doc_difference, logged_sample_id
from mlbench.benchmarks.declarative.prompts import (
    TaskFiles,
    chosen_templates,
    code_source,
    template_options,
    template_samples,
)
from mlbench.benchmarks.declarative.spec import BenchmarkSpec
from mlbench.benchmarks.declarative.templates import ALL_TEMPLATES
from mlbench.benchmarks.options import own_options
from mlbench.benchmarks.qa_prompt import render_qa_prompt, score_answer_bleu
from mlbench.benchmarks.truthful_mc import (
    distinct_options,
    lists_an_answer_twice,
    option_requests,
    repeated_answers_warning,
    score_mc1_mc2,
)
from mlbench.data.catalog import Source
from mlbench.data.source import QUESTION_LABEL, TEMPLATE_LABEL
from mlbench.data.untrusted.lm_eval_task import LmEvalTask
from mlbench.errors import MlbenchError
from mlbench.metrics import mc_metrics
from mlbench.metrics.rouge import ROUGE_METRIC_NAMES, rouge_metrics, rouge_script_note
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt, Sample
from mlbench.records.json_shapes import json_list, json_number
from mlbench.records.jsontypes import JsonObject

_MODES = {"mc": MC, "gen": GEN}
# The languages of a benchmark's data folder read so far in this process, each as a run
# asks for it: (TOML, data folder) → language → data.
_CORPORA: dict[tuple[Path, Path], dict[str, LanguageData]] = {}


class DeclarativeTask(Task):
    """Subclassed once per benchmark file by ``declarative_task``."""

    spec: ClassVar[BenchmarkSpec]
    task_files: ClassVar[TaskFiles | None] = None  # with [templates]: the authors' task files
    prompt_files = ()  # the templates are in the TOML file, hashed in ``settings``
    headline_metrics = ("mc1", "mc2", "bleu_acc", "truthful")

    def _root(self, options: TaskOptions, *, fetch: bool = True, lang: str | None = None) -> Path | None:
        """Where the data files are: beside the TOML (a ``data`` benchmark), in the data
        cache (a hub source, fetched on first use: with ``lang``, only that language's
        files), or under --data-dir (either layout)."""
        if options.source.kind == "local":
            assert options.source.path is not None
            # One folder may hold several benchmarks' copies: DIR/<task>/ or DIR/<dataset>/
            # (the hub name's last part, shared by tasks that read one dataset) when there.
            if self.spec.source is not None:
                for name in (self.name, self.spec.source.repo.split("/")[-1]):
                    if (options.source.path / name).is_dir():
                        return options.source.path / name
            return options.source.path
        if options.source.kind != "hub":
            raise MlbenchError(self._no_source(options.source.kind == "sample"))
        if self.spec.source is None or not fetch:
            return None
        from mlbench.data.store import source_folder

        return source_folder(self.name, wanted=None if lang is None else partial(language_files, self.spec, lang))

    def _no_source(self, sample: bool) -> str:
        """Why --sample or --data-file does not fit, and what does."""
        from mlbench.data.source import SAMPLE_TASKS

        why = (
            f"{self.name} has no embedded sample set (--sample covers: {', '.join(SAMPLE_TASKS)})"
            if sample
            else f"{self.name} does not read --data-file"
        )
        flag = "--sample" if sample else "--data-file"
        instead = (
            f"fetch {self.spec.source.repo}" if self.spec.source else f"read the files {self.spec.path.name} names"
        )
        return f"{why}; drop {flag} to {instead}, or give --data-dir DIR with a copy"

    def available_languages(self, options: TaskOptions) -> tuple[str, ...]:
        found = self.spec.discover_languages(self._root(options, fetch=False))
        if not found:
            where = self.spec.data_path("{lang}", self._root(options))
            raise MlbenchError(f"{self.name}: no data file matches {where}")
        return found

    def validate(self, options: TaskOptions) -> None:
        self._root(options, fetch=False)
        if self.spec.templates is not None and self.fewshot(options):
            raise MlbenchError(f"{self.name} is zero-shot: its templates are the authors' prompts (drop --fewshot)")

    def check_languages(self, data: dict[str, LanguageData], options: TaskOptions) -> None:
        # The languages of the run: a language run on its own needs no other's file.
        ids = {lang: language.question_ids() for lang, language in data.items()}
        check_parallel(self.spec, ids, self._root(options, fetch=False))

    def _templates(self, options: TaskOptions) -> tuple[str, ...]:
        """The templates this run asks for (-T prompt); () without [templates]."""
        if self.spec.templates is None or self.options_type is None:
            return ()
        return chosen_templates(self.spec.templates, own_options(options, self.options_type).prompt)

    def data_warnings(self, lang: str, samples: list[Sample], modes: tuple[str, ...]) -> list[str]:
        note = rouge_script_note(lang) if self.spec.rouge and "gen" in modes else None
        return self._data_warnings(lang, samples, modes) + ([f"{self.name} {lang}: {note}"] if note else [])

    def _data_warnings(self, lang: str, samples: list[Sample], modes: tuple[str, ...]) -> list[str]:
        # Option lists are scored as listed, repeats and empty options included, as the
        # reference does: said once per language, never silently.
        metric = "MC2" if "mc2" in self.spec.mc_metrics else "MC1"
        if self.task_files is not None:  # what the authors' code makes of the data, kind by kind
            fallback = fallback_reference(self.spec.no_comment_reference, lang)
            return authors_data_warnings(
                self.name, lang, samples, fallback=fallback, mc2_true=self.spec.mc2_true, mc_metric=metric
            )
        if "gen" in modes and self.spec.answers_as_listed:
            twice = sum(lists_an_answer_twice(s.correct_answers, s.incorrect_answers) for s in samples)
            return repeated_answers_warning(self.name, lang, twice, len(samples), "the authors' code", "BLEU")
        if "mc" not in modes or not self.spec.columns.mc1_choices:
            return []
        repeated = sum(lists_an_answer_twice(s.mc2_choices or ()) for s in samples)
        lines = repeated_answers_warning(self.name, lang, repeated, len(samples), "the data's option lists", metric)
        if self.spec.mc2_true == "before_first_false":
            lines += unsorted_mc2_warning(self.name, lang, samples)
        empty = sum(any(not o.strip() for o in (*(s.mc1_choices or ()), *(s.mc2_choices or ()))) for s in samples)
        if empty:
            lines.append(f"{self.name} {lang}: {empty} of {len(samples)} questions have an empty option (scored)")
        return lines

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        root = self._root(options, lang=lang)
        key = (self.spec.path, root or self.spec.folder)
        corpus = _CORPORA.setdefault(key, {})
        if lang not in corpus:
            # Only the language asked for: a run of German needs the German file alone (a
            # parallel benchmark's languages are checked together in ``check_languages``).
            rows = read_language(self.spec, lang, root)
            parts = rows.parts()
            corpus[lang] = LanguageData(rows.samples, read_primer(self.spec, lang, root), left_out_counts(parts), parts)
        data = corpus[lang]
        if self.task_files is not None:  # each template's files found and checked now
            chosen = self._templates(options)
            first = data.samples[0] if data.samples else None
            self.task_files.check(options.source, lang, chosen, self.spec.modes, first)
            return replace(data, samples=template_samples(data.samples, chosen))
        shots = self.fewshot(options)
        if shots > len(data.primer):  # now, not after the model has loaded
            where = primer_name(self.spec, lang, root)
            raise MlbenchError(f"{self.name} {lang}: {shots}-shot but {where} has {len(data.primer)} rows")
        return data

    def settings(self, options: TaskOptions) -> JsonObject:
        if self.task_files is not None:  # the templates run, and where their text comes from
            upstream = self.task_files.files.record()
            return {**self.spec.settings(), "prompt": list(self._templates(options)), "upstream": upstream}
        return self.spec.settings()

    def mode_settings(self, mode: str, options: TaskOptions) -> JsonObject:
        # What BLEU reads under the authors' task files: in the hash, so that --resume never
        # mixes it with samples scored on the cleaned answer before.
        if mode == "gen" and self._bleu_on() == "generation":
            return {"bleu_on": "generation"}
        return {}

    def _bleu_on(self) -> Literal["answer", "generation"]:
        """The authors' task files are scored by their process_results, on the completion
        as generated (no "A:" label or reasoning block taken off first); mlbench's own
        prompts, on the clean answer."""
        return "generation" if self.task_files is not None else "answer"

    def sample_group(self, sample: Sample) -> str | None:
        group = sample.meta.get("group")  # a text when there is one (``Columns.group``'s)
        return group if isinstance(group, str) else None

    def option_marks(self, sample: Sample) -> dict[str, bool]:
        marks = super().option_marks(sample)
        true_before = mc2_true_count(sample.mc2_labels or (), self.spec.mc2_true)
        if true_before is not None:  # what MC2 counted true, not the data's labels (they may differ)
            marks.update({o.strip(): i < true_before for i, o in enumerate(sample.mc2_choices or ())})
            if sample.mc1_choices:
                marks[sample.mc1_choices[0].strip()] = True
        return marks

    def lm_eval_sample_id(self, lang: str, doc: JsonObject, position: int | None) -> str | None:
        return logged_sample_id(self.spec, lang, doc, position)

    def lm_eval_doc_difference(self, sample: Sample, doc: JsonObject, mode: str) -> str | None:
        return logged_doc_difference(self.spec, sample, doc, mode)

    def with_templates(self, options: TaskOptions, templates: tuple[str, ...]) -> TaskOptions:
        if self.options_type is None or self.spec.templates is None:
            return options
        names = self.spec.templates.names
        if len(templates) != 1 and set(templates) != set(names):  # -T prompt takes one, or all
            raise ValueError(f"{self.name}: templates {templates} are neither one nor all of {names}")
        return replace(options, own=self.options_type(prompt=templates[0] if len(templates) == 1 else ALL_TEMPLATES))

    def _prompt(self, sample: Sample, data: LanguageData, options: TaskOptions, mode: str) -> Prompt:
        if self.task_files is not None:
            task = self._task_file(sample, options, mode)
            chat, system = options.chat_template, options.system_prompt
            return self.task_files.prompt(options.source, task, sample, chat=chat, system=system)
        primer = require_primer(self.name, data, self.fewshot(options), sample.lang)
        return render_qa_prompt(
            self.spec.shot_template,
            self.spec.question_template,
            sample.question,
            primer,
            chat=options.chat_template,
            system_prompt=options.system_prompt,
        )

    def _task_file(self, sample: Sample, options: TaskOptions, mode: str) -> LmEvalTask:
        """The authors' task file of ``mode`` under the sample's template, in its language."""
        assert self.task_files is not None
        template = str(sample.meta[TEMPLATE_LABEL])
        return self.task_files.task(options.source, mode, template, sample.lang)

    def mc_requests(self, sample: Sample, data: LanguageData, options: TaskOptions) -> list[LoglikelihoodRequest]:
        prompt = self._prompt(sample, data, options, "mc")
        if self.task_files is not None and not options.chat_template:  # the template's own delimiter
            delimiter = self._task_file(sample, options, "mc").target_delimiter
            return [LoglikelihoodRequest(prompt, delimiter + option) for option in distinct_options(sample)]
        return option_requests(prompt, sample, options.chat_template)

    def score_mc(self, sample: Sample, results: list[LoglikelihoodResult]) -> Scored:
        true_before = mc2_true_count(sample.mc2_labels or (), self.spec.mc2_true)
        scored, metrics = score_mc1_mc2(sample, results, true_before)
        if mc2_left_out(sample, self.spec.mc2_true):  # named at load; its MC1 stands
            del metrics["mc2"]
        if "mc1_norm" in self.spec.mc_metrics:  # lm-eval's acc_norm: log-likelihood per character
            lls = json_list(scored["mc1_loglikelihoods"], "MC1's log-likelihoods")
            normed = [
                json_number(ll, "a log-likelihood") / max(len(c), 1) for ll, c in zip(lls, sample.mc1_choices or ())
            ]
            one = len(normed) == 1  # a list of one option: lm-eval's argmax picks it
            metrics["mc1_norm"] = 1.0 if one else mc_metrics(normed[:1], normed[1:], mc1_ties="correct")["mc1"]
        metrics = {name: metrics[name] for name in self.spec.mc_metrics if name in metrics}
        # The choices are saved too: a declared benchmark's data may change under its name.
        outputs: JsonObject = {
            "mc1_choices": list(sample.mc1_choices or ()),
            "mc1_loglikelihoods": scored["mc1_loglikelihoods"],
            "mc2_choices": list(sample.mc2_choices or ()),
            "mc2_loglikelihoods": scored["mc2_loglikelihoods"],
            "mc2_labels": scored["mc2_labels"],
        }
        if true_before is not None:  # MC2 split at the first false label: the data's labels did not decide
            outputs["mc2_true_options"] = true_before
        return outputs, metrics

    def gen_request(self, sample: Sample, data: LanguageData, options: TaskOptions) -> GenerationRequest:
        prompt = self._prompt(sample, data, options, "gen")
        stop, budget = self.spec.stop, self.spec.max_new_tokens
        if self.task_files is not None:  # the template's own stop texts and length
            task = self._task_file(sample, options, "gen")
            stop, budget = task.until, task.max_new_tokens
        return GenerationRequest(prompt, max_new_tokens=options.max_new_tokens or budget, stop=stop)

    def score_gen(self, sample: Sample, generation: Generation) -> Scored:
        true_refs, false_refs = authors_references(sample, self.spec.no_comment_reference)
        outputs, metrics = score_answer_bleu(generation, true_refs, false_refs, bleu_on=self._bleu_on())
        if self.spec.rouge:  # on the text BLEU reads, as the authors' process_results scores both
            scored = generation.text if self._bleu_on() == "generation" else str(outputs["answer"])
            metrics |= rouge_metrics(scored, true_refs, false_refs)
        return outputs, metrics


def declarative_task(spec: BenchmarkSpec) -> type[DeclarativeTask]:
    """A Task class for ``spec`` (registered by ``mlbench.benchmarks.include``)."""
    slice_fields = tuple(label for label, _ in spec.labels)
    attributes = {
        "__module__": __name__,
        "__qualname__": f"DeclarativeTask[{spec.path}]",  # names the file in a clash of names
        "__doc__": f"{spec.title} (declared in {spec.path}).",
        "spec": spec,
        "name": spec.name,
        "title": spec.title,
        "languages": spec.discover_languages(),
        "modes": tuple(_mode(spec, mode) for mode in spec.modes),
        "hub_id": spec.source.repo if spec.source else str(spec.path),
        "parallel": spec.parallel,
        "lm_eval_tasks": lm_eval_names(spec),
        "default_fewshot": spec.shots if spec.shots is not None else _primer_size(spec),
        "default_judge_kinds": spec.judges,
        "headline_metrics": _headline(spec),
        "slice_fields": slice_fields,
        "alignment": spec.align.alignment if spec.align is not None else None,
        "prompt_dir": spec.folder,
    }
    if spec.templates is not None:
        origin = f"the authors' task files, {spec.templates.repo} @ {spec.templates.commit[:8]} (`mlbench data list`)"
        attributes |= {
            "prompt_origin": origin,
            "options_type": template_options(spec),
            "task_files": TaskFiles(spec),
            "slice_fields": (*slice_fields, TEMPLATE_LABEL, QUESTION_LABEL),
            "default_fewshot": 0,
        }
    return type(f"Declarative_{spec.name}", (DeclarativeTask,), attributes)


def data_sources(spec: BenchmarkSpec, *, shipped: bool) -> list[Source]:
    """What the benchmark adds to the catalog: its hub data, and the authors' repository
    its templates come from."""
    found = [hub_data_source(spec, shipped=shipped), code_source(spec)]
    return [source for source in found if source is not None]


def hub_data_source(spec: BenchmarkSpec, *, shipped: bool) -> Source | None:
    """The data source a hub benchmark adds to the catalog under its own name (for
    ``mlbench data``, and the run's fetch); a user's names its file, which ``mlbench data``
    needs as ``--include`` to know it."""
    if spec.source is None:
        return None
    hub = spec.source
    extra = {} if shipped else {"include": str(spec.path)}
    notes = f"config {hub.config}, split {hub.split}; declared in {spec.path.name}"
    return Source(spec.name, (spec.name,), "hub", hub.repo, hub.revision, hub.license, notes=notes, extra=extra)


def _headline(spec: BenchmarkSpec) -> tuple[str, ...]:
    """What leads the tables: the MC metrics the file scores, BLEU accuracy and the judged
    truthfulness of generated answers."""
    mc = spec.mc_metrics if "mc" in spec.modes else ()
    return (*mc, *(("bleu_acc", "truthful") if "gen" in spec.modes else ()))


def _mode(spec: BenchmarkSpec, name: str) -> Mode:
    """The mode ``name`` of ``spec``: MC with the metrics the file asks for, generation
    with ROUGE beside BLEU where it asks for it."""
    if name == "mc":
        return replace(_MODES[name], metrics=spec.mc_metrics)
    return replace(GEN, metrics=(*GEN.metrics, *ROUGE_METRIC_NAMES)) if spec.rouge else GEN


def _primer_size(spec: BenchmarkSpec) -> int:
    """Every primer row is a shot by default: the primer of the first language decides."""
    if spec.examples:
        return len(spec.examples)
    languages = spec.discover_languages()
    if spec.primer is None or not languages:
        return 0
    return len(read_primer(spec, languages[0]))
