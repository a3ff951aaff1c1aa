"""``--limit``'s draw (``data.source.subset``): questions ranked by a seeded hash of their
id, or, where they name TruthfulQA's row, of that row, so that translations limited alike
answer the same TruthfulQA questions whatever their ids."""

from __future__ import annotations

import hashlib

from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.data.source import QUESTION_LABEL, subset
from mlbench.records import Sample


def _sample(sample_id: str, row: int | None = None, **meta: str) -> Sample:
    labels = {TQA_INDEX_LABEL: str(row)} if row is not None else {}
    return Sample(id=sample_id, lang="de", question=f"Q {sample_id}?", best_answer="A.", correct_answers=["A."],
                  incorrect_answers=["B."], meta={**labels, **meta})  # fmt: skip


def _by_hash(ids: list[str], names: dict[str, str], limit: int, seed: int) -> set[str]:
    """The rule written out: rank by sha256("<seed>:<name>"), keep the first ``limit``."""
    return set(sorted(ids, key=lambda i: hashlib.sha256(f"{seed}:{names[i]}".encode()).hexdigest())[:limit])


def test_two_translations_with_other_ids_answer_the_same_rows():
    multi = [_sample(str(row + 1), row) for row in range(200)]  # TruthfulQA-Multi: id = row + 1
    x = [_sample(str(row), row) for row in range(200)]  # TruthfulQA-X: id = row
    for seed in (0, 1, 7):
        drawn_multi = [s.meta[TQA_INDEX_LABEL] for s in subset(multi, 20, seed)]
        drawn_x = [s.meta[TQA_INDEX_LABEL] for s in subset(x, 20, seed)]
        assert len(drawn_x) == 20 and drawn_multi == drawn_x
        # By ids the two share few rows: the draw that left limited runs unpaired.
        by_ids = {s.meta[TQA_INDEX_LABEL] for s in subset(x, 20, seed, by_row=False)}
        assert len(by_ids & set(drawn_multi)) < 10


def test_a_row_is_ranked_as_the_id_truthfulqa_multi_gives_it():
    # So a limited TruthfulQA-Multi run, drawn by its ids before rows were known, draws the same.
    multi = [_sample(str(row + 1), row) for row in range(817)]
    for seed in (0, 3):
        assert subset(multi, 15, seed) == subset(multi, 15, seed, by_row=False)
        expected = _by_hash([s.id for s in multi], {s.id: s.id for s in multi}, 15, seed)
        assert {s.id for s in subset(multi, 15, seed)} == expected


def test_a_benchmark_lacking_a_drawn_row_takes_the_next_one():
    full = [_sample(f"a{row}", row) for row in range(100)]
    drawn = [s.meta[TQA_INDEX_LABEL] for s in subset(full, 10, 0)]
    missing = drawn[3]
    lacking = [_sample(f"b{row}", row) for row in range(100) if str(row) != missing]
    drawn_lacking = [s.meta[TQA_INDEX_LABEL] for s in subset(lacking, 10, 0)]
    assert len(drawn_lacking) == 10  # still the limit
    assert set(drawn) - set(drawn_lacking) == {missing}  # all shared but the row it lacks
    (extra,) = set(drawn_lacking) - set(drawn)
    eleventh = [s.meta[TQA_INDEX_LABEL] for s in subset(full, 11, 0)]
    assert set(eleventh) - set(drawn) == {extra}  # the next row in the ranking


def test_questions_without_a_row_are_drawn_by_id_as_before():
    plain = [_sample(f"q{i}") for i in range(50)]
    for seed in (0, 5):
        expected = _by_hash([s.id for s in plain], {s.id: s.id for s in plain}, 8, seed)
        assert {s.id for s in subset(plain, 8, seed)} == expected
        assert subset(plain, 8, seed) == subset(plain, 8, seed, by_row=False)


def test_a_question_under_several_templates_is_drawn_whole_by_its_row():
    samples = [
        _sample(f"{row}@{template}", row, **{QUESTION_LABEL: str(row)})
        for row in range(40)
        for template in ("p0", "p1")
    ]
    drawn = subset(samples, 5, 0)
    assert len(drawn) == 10  # five questions, both templates of each
    plain = [_sample(str(row), row) for row in range(40)]
    assert sorted({s.meta[TQA_INDEX_LABEL] for s in drawn}) == sorted(s.id for s in subset(plain, 5, 0))
