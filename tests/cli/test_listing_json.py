"""`--json` on the listing commands: one JSON object with schema_version, every task and
source with every fact the tables show (and nothing cut)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mlbench.benchmarks import all_tasks
from mlbench.benchmarks.msqad.loader import TOPICS
from mlbench.cli.listing_json import LISTING_SCHEMA_VERSION
from mlbench.cli.main import app
from mlbench.data.catalog import SOURCES

runner = CliRunner()
TASK_KEYS = {
    "name", "title", "languages", "modes", "default_shots", "headline_metrics", "judge_kinds", "judge_protocols",
    "prompt_files", "options", "hub_id", "license", "data_sources", "alignment",
}  # fmt: skip
SOURCE_KEYS = {"name", "tasks", "home", "repo", "url", "revision", "license", "files", "size_bytes", "cached"}


def listed(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # nothing but the JSON on stdout


def test_tasks_json_lists_every_task_in_full():
    data = listed("tasks")
    assert data["schema_version"] == LISTING_SCHEMA_VERSION == 1
    assert [t["name"] for t in data["tasks"]] == [t.name for t in all_tasks()]
    for entry, task in zip(data["tasks"], all_tasks()):
        assert set(entry) == TASK_KEYS
        assert entry["languages"] == list(task.languages) and entry["default_shots"] == task.default_fewshot
        assert [m["name"] for m in entry["modes"]] == list(task.mode_names)
        for item in entry["options"]:
            assert set(item) == {"name", "type", "default", "choices", "help"} and item["help"]
    m_truthfulqa = next(t for t in data["tasks"] if t["name"] == "m_truthfulqa")
    assert len(m_truthfulqa["languages"]) == 31 and m_truthfulqa["options"] == []


def test_tasks_name_json_gives_msqads_topics_and_typed_defaults():
    data = listed("tasks", "msqad")
    assert data["schema_version"] == 1 and set(data["task"]) == TASK_KEYS
    options = {o["name"]: o for o in data["task"]["options"]}
    assert options["topics"]["choices"] == list(TOPICS) and len(TOPICS) == 17
    assert options["topics"]["default"] == [] and options["topics"]["type"] == "list of text"
    assert options["refusal"] == {**options["refusal"], "default": "nli", "choices": ["nli", "patterns", "judge"]}
    assert options["permutations"]["default"] == 999 and options["permutations"]["choices"] is None
    assert options["refusal_threshold"]["default"] == 0.8
    source, code = data["task"]["data_sources"]  # the release, and the authors' code read for its prompts
    assert source["name"] == "msqad" and source["url"] == "https://github.com/seungukyu/MSQAD"
    assert code["name"] == "msqad-code" and code["url"] == "https://github.com/woog2ee/MSQAD"
    xling = {o["name"]: o for o in listed("tasks", "xlinghealth")["task"]["options"]}
    assert xling["temperatures"]["default"] == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_data_list_json_gives_every_source():
    data = listed("data", "list")
    assert data["schema_version"] == 1 and data["data_dir"]
    assert sorted(s["name"] for s in data["sources"]) == sorted(SOURCES)
    for entry in data["sources"]:
        source = SOURCES[entry["name"]]
        assert SOURCE_KEYS <= set(entry)
        assert entry["tasks"] == list(source.tasks) and entry["license"] == source.license
        assert entry["revision"] == source.revision and entry["cached"] is False  # the tests' cache is empty
        assert [f["path"] for f in entry["files"]] == [f.path for f in source.files]
        assert entry["files_listed_by_hub"] is (not source.files)
    msqad = next(s for s in data["sources"] if s["name"] == "msqad")
    assert len(msqad["files"]) == 17
