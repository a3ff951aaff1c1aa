"""The files a run writes carry schema_version, their published JSON Schemas are current,
and a file from a newer mlbench is refused in one line."""

from __future__ import annotations

import json

import jsonschema
import pytest

from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord
from mlbench.records.schema import SCHEMAS, write_schemas
from mlbench.records.version import SCHEMA_VERSION, NewerSchema, check_version
from mlbench.resources import resource_dir
from mlbench.results import read_language_file, read_run_file, read_samples

DOCS = resource_dir("prompts").parent / "docs" / "schemas"


def test_the_published_schemas_are_generated_from_the_record_types(tmp_path):
    for fresh in write_schemas(tmp_path):
        published = DOCS / fresh.name
        assert published.read_text() == fresh.read_text(), "run: python -m mlbench.records.schema docs/schemas"


def test_a_fresh_sample_line_carries_the_version_and_validates():
    line = SampleRecord("q1", "en", metrics={"mc1": 1.0}).to_json()
    assert line["schema_version"] == SCHEMA_VERSION
    jsonschema.validate(line, SCHEMAS["samples-line"]())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**line, "metrics": {"mc1": "high"}}, SCHEMAS["samples-line"]())


def test_a_line_from_before_versions_reads_and_is_rewritten_byte_for_byte():
    old = {"id": "q1", "lang": "en", "metrics": {"mc1": 1.0}}
    record = SampleRecord.from_json(old)
    assert record.to_json() == old and record.extra == {}
    versioned = SampleRecord.from_json({**old, "schema_version": 1})
    assert list(versioned.to_json()) == ["id", "lang", "metrics", "schema_version"]


def test_versions_are_checked():
    check_version({"schema_version": SCHEMA_VERSION}, "x")
    check_version({}, "x")  # before versions: read as 1
    check_version({"schema_version": 1}, "x")  # an older version: read as it is
    newer = rf"x was written by a newer mlbench \(schema_version {SCHEMA_VERSION + 1}; this one reads up to"
    with pytest.raises(NewerSchema, match=newer):
        check_version({"schema_version": SCHEMA_VERSION + 1}, "x")
    with pytest.raises(ValueError, match="is not a positive whole number"):
        check_version({"schema_version": "1"}, "x")


def test_files_of_a_newer_mlbench_are_refused_in_one_line(tmp_path):
    newer = SCHEMA_VERSION + 1
    samples = tmp_path / "samples_en.jsonl"
    samples.write_text(json.dumps({"id": "q1", "schema_version": newer}) + "\n")
    with pytest.raises(MlbenchError, match=r"samples_en.jsonl:1: this line was written by a newer mlbench"):
        read_samples(samples)
    language = tmp_path / "results_en.json"
    language.write_text(json.dumps({"schema_version": newer, "lang": "en", "config_hash": "", "config": {},
                                    "result": {"n-samples": 0}}))  # fmt: skip
    with pytest.raises(MlbenchError, match="results_en.json was written by a newer mlbench") as error:
        read_language_file(language)
    assert "\n" not in str(error.value)
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"schema_version": newer, "model": "m", "task": "t", "config": {}, "results": {}}))
    with pytest.raises(MlbenchError, match="results.json: this results.json was written by a newer mlbench"):
        read_run_file(results)


def test_this_session_checks_every_file_a_run_writes(tmp_path):
    # conftest wraps the writers: a results file of another shape fails as it is written.
    from mlbench.results import language, samples

    with pytest.raises(jsonschema.ValidationError):
        language.write_atomic(tmp_path / "results_en.json", json.dumps({"lang": 1}))
    with pytest.raises(jsonschema.ValidationError):
        samples._lines([SampleRecord("q1", metrics={"mc1": "high"})])  # type: ignore[dict-item]


def test_a_run_into_a_folder_with_a_newer_file_is_refused_before_it_writes(tmp_path):
    from mlbench.results.files import check_versions

    (tmp_path / "results_es.json").write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1}))
    (tmp_path / "results_en.json").write_text(json.dumps({"schema_version": SCHEMA_VERSION}))
    with pytest.raises(MlbenchError, match="results_es.json was written by a newer mlbench"):
        check_versions(tmp_path)
    (tmp_path / "results_es.json").write_text("{damaged")  # the readers name a damaged file later
    check_versions(tmp_path)


def test_a_version_1_results_file_reads_as_before(tmp_path):
    # Written before version 2 added n-questions and templates: n is n-samples.
    from mlbench.results.run import read_run_file

    path = tmp_path / "results.json"
    block = {"n-samples": 4, "failed": 1, "mc1": {"value": 0.5, "ci_low": 0.0, "ci_high": 1.0, "stderr": 0.3}}
    path.write_text(
        json.dumps({"schema_version": 1, "model": "m", "task": "t", "config": {}, "results": {"en": block}})
    )
    language = read_run_file(path).languages["en"]
    assert (language.n, language.samples, language.templates, language.counts) == (4, None, {}, {"failed": 1})
