"""The data of a declarative benchmark: one JSONL or CSV file per language, read row by
row by ``mlbench.data.questions`` (the reader ``--data-file`` shares), and checked to be
parallel across languages.
"""

from __future__ import annotations

from pathlib import Path

from mlbench.benchmarks.declarative_spec import BenchmarkSpec
from mlbench.data.questions import check_new_id, question_sample, read_rows, text_field
from mlbench.errors import MlbenchError
from mlbench.records import Sample

SHOWN_IDS = 5  # ids listed in an error; the rest are counted


def read_samples(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> list[Sample]:
    """One language's questions; a repeated id is an error naming both rows."""
    path = spec.data_path(lang, root)
    samples: list[Sample] = []
    seen: dict[str, str] = {}
    for where, row in read_rows(path, f"{spec.name} {lang} data"):
        sample = question_sample(row, lang, spec.columns, where)
        check_new_id(seen, sample.id, where)
        samples.append(sample)
    if not samples:
        raise MlbenchError(f"{path}: no questions")
    return samples


def read_primer(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> list[tuple[str, str]]:
    """One language's few-shot pairs (question, best answer), in file order."""
    path = spec.primer_path(lang, root)
    if path is None:
        return []
    pairs = []
    for where, row in read_rows(path, f"{spec.name} {lang} few-shot primer"):
        question = text_field(row, spec.columns.question, where)
        answer = text_field(row, spec.columns.best_answer, where)
        assert question is not None and answer is not None
        pairs.append((question, answer))
    return pairs


def check_parallel(spec: BenchmarkSpec, samples: dict[str, list[Sample]], root: Path | None = None) -> None:
    """Every language has the ids of the first one: the report pairs questions by id."""
    if not spec.parallel or len(samples) < 2:
        return
    first, *others = samples
    reference = {s.id for s in samples[first]}
    for lang in others:
        ids = {s.id for s in samples[lang]}
        missing, extra = _listed(reference - ids), _listed(ids - reference)
        if missing or extra:
            parts = [f"missing ids {missing}" if missing else "", f"extra ids {extra}" if extra else ""]
            raise MlbenchError(
                f"{spec.data_path(lang, root)} is not parallel to {spec.data_path(first, root)}: "
                f"{'; '.join(p for p in parts if p)} (or set parallel = false in {spec.path.name})"
            )


def _listed(ids: set[str]) -> str:
    shown = sorted(ids)[:SHOWN_IDS]
    more = f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else ""
    return ", ".join(shown) + more
