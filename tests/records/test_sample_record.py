"""``SampleRecord``: one line of ``samples_<lang>.jsonl``, read and written byte for byte.

tests/fixtures/sample_lines.jsonl holds lines as real runs and judges wrote them, one of
each shape: TruthfulQA-Multi MC + gen judged for truth and info, its machine-translated
variant, a failed sample, CaLMQA judged for relevance, claims and claim support (human
and search evidence, skipped), MSQAD with its adversarial block, embeddings, NLI and the
refusal judge, XLingHealth correctness (judged), consistency and verifiability (log-prob
and generated words), and a chat prompt. Long texts are cut short; keys and shapes are
as written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.engine.verdicts import apply_entries
from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord
from mlbench.results import append_samples, read_samples, rewrite_samples

FIXTURE = Path(__file__).parent.parent / "fixtures" / "sample_lines.jsonl"
LINES = FIXTURE.read_text(encoding="utf-8").splitlines()


def _dump(record: SampleRecord) -> str:
    return json.dumps(record.to_json(), ensure_ascii=False)


@pytest.mark.parametrize("line", LINES, ids=[f"{i}-{json.loads(line)['id']}" for i, line in enumerate(LINES)])
def test_every_real_line_round_trips_exactly(line):
    record = SampleRecord.from_json(json.loads(line))
    assert _dump(record) == line
    assert record.id == json.loads(line)["id"] and not record.extra


def test_a_samples_file_is_rewritten_and_appended_byte_for_byte(tmp_path):
    text = "".join(line + "\n" for line in {json.loads(line)["id"]: line for line in LINES}.values())  # one per id
    path = tmp_path / "samples_en.jsonl"
    path.write_text(text, encoding="utf-8")
    records = read_samples(path)
    rewrite_samples(path, records.values())
    assert path.read_text(encoding="utf-8") == text
    again = tmp_path / "again.jsonl"
    append_samples(again, records.values())
    assert again.read_text(encoding="utf-8") == text


def test_a_new_record_is_written_as_runs_always_wrote_it():
    record = SampleRecord("q1", "eu", "Q: x\nA:", {"answer": "bai"}, {"bleu_acc": 1.0}, "h", question="x")
    assert list(record.to_json()) == [
        "id", "lang", "question", "reference", "prompt", "outputs", "metrics", "config_hash", "schema_version",
    ]  # fmt: skip
    record.surface, record.group = {"issue": False}, "specific"
    assert list(record.to_json())[-3:] == ["surface", "group", "schema_version"]
    assert record.to_json()["reference"] == ""  # always there, as SampleResult wrote it


def test_a_judge_adds_its_verdict_last_and_changes_nothing_else():
    line = next(line for line in LINES if '"judges"' not in line and '"surface"' in line)
    record = SampleRecord.from_json(json.loads(line))
    task = get_task("truthfulqa_multi")
    apply_entries(record, "truth", {"judge": "j", "settings_hash": "s", "label": "yes"}, task)
    written = json.loads(_dump(record))
    before = json.loads(line)
    # As the dict-based stage wrote it: every key in place, judges appended, metrics recomputed.
    assert list(written) == [*before, "judges"]
    assert written["judges"] == {"truth": {"judge": "j", "settings_hash": "s", "label": "yes"}}
    assert written["metrics"] == {**before["metrics"], "truthful": 1.0}
    assert {k: v for k, v in written.items() if k not in ("judges", "metrics")} == {
        k: v for k, v in before.items() if k != "metrics"
    }


def test_lines_of_older_versions_and_other_tools_keep_their_shape():
    old = '{"id": "3", "lang": "en", "prompt": "Q: x", "outputs": {}, "metrics": {"mc1": 1.0}, "config_hash": "h"}'
    record = SampleRecord.from_json(json.loads(old))
    assert record.question == "" and _dump(record) == old  # no question/reference added
    foreign = '{"note": "kept", "id": "4", "metrics": {}, "extra_block": {"a": [1, 2]}}'
    record = SampleRecord.from_json(json.loads(foreign))
    assert record.extra == {"note": "kept", "extra_block": {"a": [1, 2]}}
    assert _dump(record) == foreign
    record.judges["truth"] = {"label": "no"}
    assert list(json.loads(_dump(record))) == ["note", "id", "metrics", "extra_block", "judges"]


@pytest.mark.parametrize(
    "line, problem",
    [
        ('["not", "a", "sample"]', "a JSON list, not an object"),
        ('{"lang": "en"}', "no id"),
        ('{"id": ["q"]}', "its id is not a string"),
        ('{"id": "q", "outputs": "none"}', "outputs is not an object"),
        ('{"id": "q", "metrics": {"mc1": "high"}}', "metrics holds a value that is not a number"),
        ('{"id": "q", "judges": {"truth": "yes"}}', "judges holds a verdict that is not an object"),
        ('{"id": "q", "group": 3}', "group is not a string or null"),
        ('{"id": "q", "rendered_prompt": ["x"]}', "rendered_prompt is not a string or null"),
        ('{"id": "q", "metrics": {"mc1": true}}', "metrics holds a value that is not a number"),
        ('{"id": "q", "labels": {"category": 3}}', "labels holds a label that is not a string"),
        ('{"id": "q", "usage": 3}', "usage is not an object or null"),
        ('{"id": "q", "usage": {"prompt_tokens": -1}}', "usage holds a token count that is not a whole number >= 0"),
        ('{"id": "q", "judge_usage": {"truth": "many"}}', "usage is not an object"),
        ('{"id": "q", "judge_usage": {"truth": {"estimated": 1}}}', "usage.estimated is not true or false"),
    ],
)
def test_a_line_of_another_shape_is_one_line_naming_it(tmp_path, line, problem):
    path = tmp_path / "samples_en.jsonl"
    path.write_text(LINES[0] + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(MlbenchError) as raised:
        read_samples(path)
    assert str(raised.value) == f"{path}:2: not an mlbench sample ({problem})"


def test_numbers_keep_how_the_line_wrote_them():
    usage = '{"prompt_tokens": 2, "completion_tokens": 0, "estimated": false}'
    line = f'{{"id": "q", "metrics": {{"n": 1, "mc1": 1.0}}, "usage": {usage}}}'
    assert _dump(SampleRecord.from_json(json.loads(line))) == line  # 1 stays 1, 1.0 stays 1.0
    assert SampleRecord.from_json({"id": 7}).id == "7"  # a user's numeric id reads as its text


def test_a_line_separator_inside_an_answer_is_not_a_line_break(tmp_path):
    # json.dumps(ensure_ascii=False) leaves U+2028 as it is; only "\n" ends a line.
    record = SampleRecord("q", "en", outputs={"answer": "one\u2028two\x85three"})
    path = tmp_path / "samples_en.jsonl"
    append_samples(path, [record, SampleRecord("r", "en")])
    assert list(read_samples(path)) == ["q", "r"]
    assert read_samples(path)["q"].outputs["answer"] == "one\u2028two\x85three"


def test_the_benchmarks_hooks_read_the_records_they_wrote():
    records = [SampleRecord.from_json(json.loads(line)) for line in LINES]
    calmqa = [r for r in records if r.group in ("specific", "agnostic")]
    msqad = [r for r in records if "refusal" in r.outputs or "adversarial" in r.outputs]
    assert calmqa and msqad
    for task, mine in ((get_task("calmqa"), calmqa), (get_task("msqad"), msqad)):
        for record in mine:
            assert task.combined_metrics(record).items() <= record.metrics.items()
    skipped = [r for r in calmqa if r.surface and r.surface["issue"]]
    assert skipped and all(get_task("calmqa").judge_skip_reason(r) for r in skipped)
    refusal = next(r for r in msqad if "refusal" in r.judges)
    assert set(get_task("msqad").judged_answers(refusal, "refusal")) == {"direct", "adversarial"}
