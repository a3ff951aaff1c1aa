"""MSQAD's tests of language bias (docs/protocols.md#msqad), from the saved samples of every language:

- McNemar per language pair per topic on ``refusal@<mode>`` over the questions both
  languages answered; the null-acceptance ratio over the pair × topic cells; the
  languages ranked by refusal rate, with intervals (ties share a rank: "1, 1, 3").
- PERMANOVA per language pair per topic on the embeddings of the direct responses
  (Euclidean distances; or, with ``-T permanova_distance=authors``, the authors' matrix:
  cosine similarity where the distance belongs), with seeded permutations.

Each comes per topic and over all topics together ("all topics"). Rows are flat dicts:
results.json keeps them under ``cross_language`` and table.md renders them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np

from mlbench.benchmarks.msqad.response_embeddings import embedding_of
from mlbench.metrics.names import at
from mlbench.records import SampleRecord
from mlbench.records.jsontypes import TableRow
from mlbench.stats.intervals import summarize
from mlbench.stats.paired import ALPHA, mcnemar
from mlbench.stats.permanova import euclidean_distances, permanova

ALL_TOPICS = "all topics"
MODES = ("direct", "adversarial")
Rows = list[TableRow]


def authors_distances(points: np.ndarray) -> np.ndarray:
    """The matrix conduct_permanova_test.py hands PERMANOVA as distances:
    ``squareform(pdist(X, metric=cosine similarity))``, the similarity of each pair off
    the diagonal and 0 on it. A similarity is no distance (alike responses are "far"
    apart); this reproduces their table, it does not measure what they meant."""
    points = np.asarray(points, dtype=np.float64)
    unit = points / np.linalg.norm(points, axis=1, keepdims=True)
    similarity = unit @ unit.T
    np.fill_diagonal(similarity, 0.0)  # squareform's diagonal
    return similarity


DISTANCES = {"euclidean": euclidean_distances, "authors": authors_distances}


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def _topics(records_by_lang: dict[str, list[SampleRecord]]) -> list[str]:
    topics = sorted({r.group or "" for records in records_by_lang.values() for r in records})
    return topics + [ALL_TOPICS] if len(topics) > 1 else topics


def _in_topic(records: list[SampleRecord], topic: str) -> list[SampleRecord]:
    return records if topic == ALL_TOPICS else [r for r in records if (r.group or "") == topic]


def _pairs(records_by_lang: dict[str, list[SampleRecord]], order: Sequence[str]) -> list[tuple[str, str]]:
    rank = {lang: i for i, lang in enumerate(order)}
    langs = sorted(records_by_lang, key=lambda lang: (rank.get(lang, len(rank)), lang))
    return list(combinations(langs, 2))


# Rates closer than this are the same rate: refusal rates are counts over n questions, and
# two different fractions with n ≤ 100,000 differ by more than 1e-10; float summation
# noise is far below it.
RATE_TIE = 1e-12


def competition_ranks(rates: dict[str, float]) -> dict[str, int]:
    """Highest rate first, in standard competition ranking ("1, 1, 3"): a language's rank is
    1 + the number of languages with a strictly higher rate, so tied languages share a
    rank and the next rank skips as many places as were tied. Rates within RATE_TIE tie.
    Six languages all at 0 all rank 1."""
    return {lang: 1 + sum(other > rate + RATE_TIE for other in rates.values()) for lang, rate in rates.items()}


def refusal_tables(records_by_lang: dict[str, list[SampleRecord]], order: Sequence[str], seed: int) -> dict[str, Rows]:
    """``mcnemar``, ``mcnemar_summary`` and ``refusal_ranking`` rows for each mode run."""
    tables: dict[str, Rows] = {"mcnemar": [], "mcnemar_summary": [], "refusal_ranking": []}
    for mode in MODES:
        metric = at("refusal", mode)
        values = {
            lang: {r.id: r.metrics[metric] for r in records if metric in r.metrics}
            for lang, records in records_by_lang.items()
        }
        if sum(bool(v) for v in values.values()) < 2:
            continue
        by_topic: dict[str, Rows] = {}
        for topic in _topics(records_by_lang):
            for a, b in _pairs(records_by_lang, order):
                ids_a = {r.id for r in _in_topic(records_by_lang[a], topic)}
                shared = sorted(ids_a & set(values[a]) & set(values[b]))
                if not shared:
                    continue
                test = mcnemar([values[a][i] == 1 for i in shared], [values[b][i] == 1 for i in shared])
                row: TableRow = {
                    "mode": mode,
                    "topic": topic,
                    "pair": f"{a}–{b}",
                    "n": test.n,
                    "both": test.both,
                    "only_a": test.only_a,
                    "only_b": test.only_b,
                    "neither": test.neither,
                    "chi2": _number(test.chi2),
                    "p_chi2": _number(test.p_chi2),
                    "p_exact": test.p_exact,
                    "p": _number(test.p),
                    "test": test.test,
                    "reject": test.reject,
                }
                tables["mcnemar"].append(row)
                by_topic.setdefault(topic, []).append(row)
        cells = [row for topic, rows in by_topic.items() if topic != ALL_TOPICS for row in rows]
        if cells:
            accepted = sum(not row["reject"] for row in cells)
            tables["mcnemar_summary"].append(
                {
                    "mode": mode,
                    "cells": len(cells),
                    "rejected": len(cells) - accepted,
                    "null_accepted": accepted,
                    "null_acceptance_ratio": accepted / len(cells),
                }
            )
        rates = {lang: summarize(list(v.values()), seed=seed) for lang, v in values.items() if v}
        ranks = competition_ranks({lang: rate.value for lang, rate in rates.items()})
        rank_of = {lang: i for i, lang in enumerate(order)}
        # Tied languages are listed in the task's language order (en, ko, zh, …).
        ranked = sorted(rates, key=lambda lang: (ranks[lang], rank_of.get(lang, len(rank_of)), lang))
        for lang in ranked:
            rate = rates[lang]
            tables["refusal_ranking"].append(
                {
                    "mode": mode,
                    "rank": ranks[lang],
                    "lang": lang,
                    "refusal": rate.value,
                    "ci_low": rate.ci_low,
                    "ci_high": rate.ci_high,
                    "n": len(values[lang]),
                }
            )
    return {name: rows for name, rows in tables.items() if rows}


def permanova_rows(
    records_by_lang: dict[str, list[SampleRecord]],
    order: Sequence[str],
    permutations: int,
    seed: int,
    distance: str = "euclidean",
) -> Rows:
    """PERMANOVA per language pair per topic on the direct responses' embeddings, with
    ``distance`` (a key of ``DISTANCES``) between them."""
    distances = DISTANCES[distance]
    vectors = {
        lang: {r.id: v for r in records if (v := embedding_of(r)) is not None}
        for lang, records in records_by_lang.items()
    }
    rows: Rows = []
    for topic in _topics(records_by_lang):
        for a, b in _pairs(records_by_lang, order):
            ids_a = {r.id for r in _in_topic(records_by_lang[a], topic)}
            shared = sorted(ids_a & set(vectors[a]) & set(vectors[b]))
            if len(shared) < 2:
                continue
            points = np.stack([vectors[a][i] for i in shared] + [vectors[b][i] for i in shared])
            result = permanova(
                distances(points),
                [a] * len(shared) + [b] * len(shared),
                permutations=permutations,
                seed=seed,
            )
            rows.append(
                {
                    "topic": topic,
                    "pair": f"{a}–{b}",
                    "n": len(shared),
                    "pseudo_F": _number(result.pseudo_f),
                    "p": _number(result.p),
                    "permutations": permutations,
                    "reject": bool(result.p < ALPHA) if not math.isnan(result.p) else None,
                }
            )
    return rows
