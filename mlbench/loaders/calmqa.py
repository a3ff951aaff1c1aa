"""CaLMQA questions: the HF dataset ``shanearora/CaLMQA`` or a local flattening of the
release, ``DIR/calmqa/questions.jsonl`` (one question per line; schema in the shared
datasets' README).

Both schemas are mapped to one row shape in ``normalize_row``, the only place that knows
the field names: ``id, lang, kind, question, question_english, category, references``.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from mlbench.errors import MlbenchError
from mlbench.jsonlines import json_objects
from mlbench.languages import LANGUAGES
from mlbench.loaders.source import DataSource, load_from_hub, require_file
from mlbench.schema import Sample

HUB_ID = "shanearora/CaLMQA"
KINDS = ("specific", "agnostic")

# The hub's column → our field. (The local file keeps the release's own names.)
HUB_COLUMNS = {
    "language": "language",
    "question_type": "kind",
    "question": "question",
    "question_english": "question_english",
    "answer": "answer",
}
# Language names as the release writes them → ISO code (others come from languages.py).
NAME_ALIASES = {"baluchi": "bal", "rundi": "rn", "setswana": "tn", "chinese (simplified)": "zh"}


def language_code(name: str) -> str | None:
    """``"Kirundi"`` → ``"rn"``; a code is returned as it is."""
    lowered = name.strip().lower()
    if lowered in LANGUAGES:
        return lowered
    by_name = {lang.name.lower(): code for code, lang in LANGUAGES.items()}
    return by_name.get(lowered) or NAME_ALIASES.get(lowered)


def question_kind(value: str) -> str | None:
    """``culturally_specific`` / ``culturally specific`` → ``specific`` (likewise agnostic)."""
    lowered = value.lower()
    return next((kind for kind in KINDS if kind in lowered), None)


def normalize_row(row: dict[str, Any], where: str) -> dict[str, Any]:
    """One question in either schema → our fields; a malformed row is an error."""
    if "question_text" in row:  # the release's own layout (local file)
        language, kind, question = row.get("file_language"), row.get("kind"), row.get("question_text")
        references = [a.get("text", "") for a in row.get("human_answers") or [] if isinstance(a, dict)]
        sample_id = row.get("name")
    else:  # the hub's columns
        fields = {ours: row.get(theirs) for theirs, ours in HUB_COLUMNS.items()}
        language, kind, question = fields["language"], fields["kind"], fields["question"]
        references = [fields["answer"]] if fields["answer"] else []
        sample_id = None
    code = language_code(str(language or ""))
    if code is None:
        raise MlbenchError(f"{where}: unknown language {language!r}")
    if not question or not str(question).strip():
        raise MlbenchError(f"{where}: empty question")
    normalized_kind = question_kind(str(kind or ""))
    if normalized_kind is None:
        raise MlbenchError(f"{where}: kind {kind!r} is neither culturally specific nor agnostic")
    english = str(row.get("question_english") or "")
    if not sample_id:
        # The hub has no ids: agnostic questions are translations of one English question,
        # so their id comes from it and is shared across languages, as the release's is.
        basis = english if normalized_kind == "agnostic" else f"{code}:{question}"
        sample_id = f"{normalized_kind}:{hashlib.sha1(basis.encode()).hexdigest()[:12]}"
    return {
        "id": str(sample_id),
        "lang": code,
        "kind": normalized_kind,
        "question": str(question).strip(),
        "question_english": english,
        "category": row.get("category") or "",
        "references": [r.strip() for r in references if r and r.strip()],
    }


def to_sample(row: dict[str, Any]) -> Sample:
    # A question may have several human answers; the judge sees them all as its evidence.
    reference = "\n\n".join(row["references"])
    return Sample(
        id=row["id"],
        lang=row["lang"],
        question=row["question"],
        best_answer=reference,
        correct_answers=tuple(row["references"]),
        incorrect_answers=(),
        meta={"kind": row["kind"], "category": row["category"], "question_english": row["question_english"]},
    )


def load_rows(source: DataSource) -> list[dict[str, Any]]:
    """Every question of every language, normalized. The release is one file for all 23
    languages: it is read and checked once per process, not once per language."""
    if source.kind == "hub":
        return list(_hub_rows())
    assert source.path is not None
    path = source.path / "calmqa" / "questions.jsonl"
    if not path.is_file() and (source.path / "questions.jsonl").is_file():
        path = source.path / "questions.jsonl"
    require_file(path, "CaLMQA questions file")
    return list(_file_rows(path, path.stat().st_mtime_ns))


@lru_cache(maxsize=1)
def _hub_rows() -> tuple[dict[str, Any], ...]:
    def fetch() -> list[dict[str, Any]]:
        import datasets

        return list(datasets.load_dataset(HUB_ID, split="train"))

    raw = load_from_hub(HUB_ID, fetch)
    return tuple(normalize_row(row, f"{HUB_ID} row {i + 1}") for i, row in enumerate(raw))


@lru_cache(maxsize=4)
def _file_rows(path: Path, mtime_ns: int) -> tuple[dict[str, Any], ...]:
    # Keyed by modification time too, so an edited file is read again.
    return tuple(normalize_row(row, where) for where, row in json_objects(path))


def load_calmqa(lang: str, source: DataSource, kind: str = "all") -> list[Sample]:
    """The questions posed in ``lang``, of one kind or both."""
    rows = [row for row in load_rows(source) if row["lang"] == lang and kind in ("all", row["kind"])]
    seen: set[str] = set()
    for row in rows:
        if row["id"] in seen:
            raise MlbenchError(f"CaLMQA {lang}: question id {row['id']} appears twice")
        seen.add(row["id"])
    return [to_sample(row) for row in rows]
