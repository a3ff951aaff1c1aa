"""The CaLMQA release files exactly as GitHub ships them (``upstream/calmqa-release/``) read
into the same rows as the same questions of our flattening (``calmqa/questions.jsonl``)."""

from __future__ import annotations

from collections import Counter

from mlbench.benchmarks import get_task
from mlbench.benchmarks.calmqa.loader import load_calmqa, load_rows
from mlbench.data.source import DataSource

# The upstream files held here: (language, kind) → questions.
UPSTREAM = {("en", "agnostic"): 38, ("en", "specific"): 58, ("fj", "specific"): 56}


def test_upstream_release_matches_the_flattening(upstream_dir, full_data_dir):
    release = load_rows(DataSource("local", upstream_dir / "calmqa-release"))
    assert Counter((r["lang"], r["kind"]) for r in release) == UPSTREAM
    flattened = [r for r in load_rows(DataSource("local", full_data_dir)) if (r["lang"], r["kind"]) in UPSTREAM]
    # Same questions in the same order: ids, language, kind, question text, English text,
    # category and references (the human answers; model answers are left out).
    assert [r["id"] for r in release] == [r["id"] for r in flattened]
    assert release == flattened
    assert sum(len(r["references"]) for r in release) == sum(len(r["references"]) for r in flattened) > 0


def test_upstream_release_loads_per_language(upstream_dir):
    source = DataSource("local", upstream_dir / "calmqa-release")
    english = load_calmqa("en", source)
    assert Counter(s.meta["kind"] for s in english.samples) == {"specific": 58, "agnostic": 38}
    assert len({s.id for s in english.samples}) == 96 and english.counts == {}
    # Agnostic questions keep the release's shared names (non_cultural:<n>).
    assert all(s.id.startswith("non_cultural:") for s in english.samples if s.meta["kind"] == "agnostic")
    assert [s.id for s in load_calmqa("fj", source, "agnostic").samples] == []


def test_questions_asked_twice_are_kept_and_counted(full_data_dir):
    # A few questions were collected twice, under two names: all kept, and reported.
    source = DataSource("local", full_data_dir)
    counts = {lang: load_calmqa(lang, source).counts for lang in get_task("calmqa").languages}
    kept = {lang: {"duplicate_question_kept": n} for lang, n in {"ar": 1, "he": 1, "hi": 2, "es": 1}.items()}
    assert {lang: c for lang, c in counts.items() if c} == kept
