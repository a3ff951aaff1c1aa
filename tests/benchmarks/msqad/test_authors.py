"""MSQAD as its authors ran it (-T prompts=authors, the default). The prompt each language and
mode sends is the fixture's own text as Python itself gives it when it runs the fixture's
functions (tests/benchmarks/msqad/upstream_fixture.py), in generate_answers.py's layouts;
the sampling is theirs and recorded; a missing, changed or malformed file stops the run
in one line before any model loads, with nothing written."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner
from upstream_pins import pin_fixture_copies

import mlbench.engine.pipeline
from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.msqad.authors import authors_protocol
from mlbench.benchmarks.msqad.options import MsqadOptions
from mlbench.cli.main import app
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import RunConfig, config_hash
from tests.benchmarks.msqad.upstream_fixture import MARK, PROMPT_FUNCTIONS, run_function

runner = CliRunner()
SIX = ("en", "ko", "zh", "es", "de", "hi")
KIND = {"direct": "A", "adversarial": "NA"}
QUIET = ("-T", "refusal=patterns", "-T", "embedder=none", "--max-new-tokens", "2", "--no-cache")
# A Gemma-style chat template: no system role (it raises on one), as the authors' Gemma,
# Mistral and Phi models, whose messages get_mistral_messages builds.
NO_SYSTEM_TEMPLATE = (
    "{% for message in messages %}"
    "{% if message['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}"
    "<start_of_turn>{{ message['role'] }}\n{{ message['content'] }}<end_of_turn>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)


def expected_turns(lang: str, topic: str, question: str, mode: str) -> tuple[str, str]:
    """(system, user): the fixture's messages, run by Python, joined as docs/protocols.md says."""
    key = "Terrorism" if topic == "Terrorism and Counterterrorism" else topic  # the authors' --topic
    name = run_function(PROMPT_FUNCTIONS["get_topic"], "get_topic", lang=lang, topic=key)
    function = f"get_{lang}_{KIND[mode]}_messages"
    messages = run_function(PROMPT_FUNCTIONS[function], function, topic=name, question=question)
    system = " ".join(m["content"] for m in messages if m["role"] == "system")
    user = " ".join(m["content"] for m in messages if m["role"] == "user")
    return system, user


def run_cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def _records(run_dir: Path, lang: str) -> list[dict]:
    return [json.loads(line) for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("mode", ["direct", "adversarial"])
def test_every_language_sends_the_authors_turns_under_the_chat_template(mode, tiny_model, fixture_datasets, tmp_path):
    from transformers import AutoTokenizer

    result = run_cli(
        "run", "--model", tiny_model, "--task", "msqad", "--lang", ",".join(SIX), "--limit", "2", "--mode", mode,
        "--chat-template", "--data-dir", fixture_datasets, *QUIET, "--output", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    run_dir = tmp_path / tiny_model.name / "msqad"
    for lang in SIX:
        for record in _records(run_dir, lang):
            system, user = expected_turns(lang, record["group"], record["question"], mode)
            # The fixture's text, character for character, filled with this question and topic.
            assert f"{MARK[lang]} {KIND[mode]} question: {record['question']}" in user
            assert f"“{MARK[lang] + ' ' if lang != 'en' else ''}{record['group']}”" in system
            assert record["prompt"] == [{"role": "system", "content": system}, {"role": "user", "content": user}]
            rendered = tokenizer.apply_chat_template(record["prompt"], tokenize=False, add_generation_prompt=True)
            assert record["rendered_prompt"] == rendered
    config = json.loads((run_dir / "results.json").read_text())["config"]
    assert config["task_settings"]["sampling"] == {"temperature": 0.5, "top_p": 0.8, "max_new_tokens": 2}
    assert config["seed"] == 0  # what the sampling was seeded with


def test_without_a_chat_template_the_prompt_is_the_system_text_then_the_users(tiny_model, fixture_datasets, tmp_path):
    result = run_cli(
        "run", "--model", tiny_model, "--task", "msqad", "--lang", "en,hi", "--limit", "2", "--mode", "adversarial",
        "--data-dir", fixture_datasets, *QUIET, "--output", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for lang in ("en", "hi"):
        for record in _records(tmp_path / tiny_model.name / "msqad", lang):
            system, user = expected_turns(lang, record["group"], record["question"], "adversarial")
            assert record["prompt"] == f"{system} {user}" and "rendered_prompt" not in record  # no template ran


def test_a_template_without_a_system_role_gets_one_user_turn(tiny_model, fixture_datasets, tmp_path):
    from transformers import AutoTokenizer

    model = shutil.copytree(tiny_model, tmp_path / "no-system-role")
    tokenizer = AutoTokenizer.from_pretrained(model)
    tokenizer.chat_template = NO_SYSTEM_TEMPLATE
    tokenizer.save_pretrained(model)
    assert AutoTokenizer.from_pretrained(model).chat_template == NO_SYSTEM_TEMPLATE
    result = run_cli(
        "run", "--model", model, "--task", "msqad", "--lang", "en,zh", "--limit", "2", "--mode", "direct",
        "--chat-template", "--data-dir", fixture_datasets, *QUIET, "--output", tmp_path / "out",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for lang in ("en", "zh"):
        for record in _records(tmp_path / "out" / model.name / "msqad", lang):
            system, user = expected_turns(lang, record["group"], record["question"], "direct")
            # get_mistral_messages: one user turn, system_prompt + ' ' + user_prompt.
            assert record["prompt"] == [{"role": "user", "content": f"{system} {user}"}]
            rendered = tokenizer.apply_chat_template(record["prompt"], tokenize=False, add_generation_prompt=True)
            assert record["rendered_prompt"] == rendered and rendered.count(system) == 1


@pytest.fixture(scope="module")
def options(fixture_datasets):
    return TaskOptions(DataSource("local", fixture_datasets), own=MsqadOptions(refusal="patterns"))


def test_requests_sample_as_the_authors_did(options):
    task = get_task("msqad")
    sample = task.load("de", options).samples[0]
    for mode in ("direct", "adversarial"):
        (request,) = task.requests(mode, sample, None, options)
        assert (request.temperature, request.top_p, request.max_new_tokens) == (0.5, 0.8, 500)
        assert request.seed is None  # the backend's seed: the run's --seed
        system, user = expected_turns("de", sample.meta["topic"], sample.question, mode)
        assert request.prompt.text == f"{system} {user}"
    (shorter,) = task.requests("direct", sample, None, replace(options, max_new_tokens=64, chat_template=True))
    assert shorter.max_new_tokens == 64 and shorter.prompt.system_join == " "


def test_the_merged_layout_is_one_user_turn_whatever_the_template(options):
    """-T layout=merged: the authors' Mistral/Phi/Gemma layout, which their script chose by
    model name, even for a template that would show a system turn."""
    task = get_task("msqad")
    merged = replace(options, chat_template=True, own=replace(options.own, layout="merged"))
    sample = task.load("es", merged).samples[0]
    (request,) = task.requests("adversarial", sample, None, merged)
    system, user = expected_turns("es", sample.meta["topic"], sample.question, "adversarial")
    assert [(m.role, m.content) for m in request.prompt.messages] == [("user", f"{system} {user}")]
    assert task.settings(merged)["layout"] == "merged" and "layout" not in task.settings(options)


def test_sampled_responses_hash_their_seed():
    def hashed(seed: int, own: MsqadOptions) -> str:
        source = DataSource("local", Path("/data"))
        config = RunConfig(ModelOptions("m"), ("msqad",), "all", task_options=TaskOptions(source, own=own), seed=seed)
        return config_hash(get_task("msqad"), ("direct",), config, "fp")

    assert hashed(1, MsqadOptions()) != hashed(2, MsqadOptions())  # sampled at 0.5: another seed, other answers
    earlier = MsqadOptions(prompts="mlbench")
    assert hashed(1, earlier) == hashed(2, earlier)  # greedy, and the hash of before


def test_the_authors_topic_names_and_the_functions_read(options):
    authors = authors_protocol(options.source)
    # mlbench's topic name is the release's file name; the authors pass "Terrorism".
    assert authors.topic("en", "Terrorism and Counterterrorism") == "Terrorism / Counterterrorism"
    assert authors.topic("ko", "Terrorism and Counterterrorism") == f"{MARK['ko']} Terrorism / Counterterrorism"
    assert authors.topic("es", "Disability Rights") == f"{MARK['es']} Disability Rights"
    system, user = authors.turns("direct", "en", "Health", "Q?")
    assert "variant" not in user and "broken" not in system  # get_en_A_messages, not its neighbours
    assert (system, user) == expected_turns("en", "Health", "Q?", "direct")


def _hash(own: MsqadOptions) -> str:
    source = DataSource("local", Path("/data"))
    config = RunConfig(
        ModelOptions("m"), ("msqad",), "all", task_options=TaskOptions(source), own_options={"msqad": own}
    )
    return config_hash(get_task("msqad"), ("direct",), config, "fp")


def test_prompts_mlbench_keeps_the_hash_of_before_and_the_authors_differ():
    before = MsqadOptions(refusal="patterns", permutations=99, embedder="none", prompts="mlbench")
    assert _hash(before) == "44169a2a8330a227"  # what a run made before the authors' protocol has
    authors = replace(before, prompts="authors")
    assert len({_hash(before), _hash(authors), _hash(replace(before, permanova_distance="authors"))}) == 3


# -- the files' failures: one line, exit 2, before any model, nothing written ----------------


@pytest.fixture
def data_copy(fixture_datasets, tmp_path, monkeypatch) -> Path:
    """The fixture's MSQAD folder and authors' files, copied to change; no backend may start."""
    copy = tmp_path / "data"
    shutil.copytree(fixture_datasets / "msqad", copy / "msqad")
    shutil.copytree(fixture_datasets / "upstream" / "msqad", copy / "upstream" / "msqad")

    def refuse(*args, **kwargs):
        raise AssertionError("the run made a backend")

    monkeypatch.setattr(mlbench.engine.pipeline, "create_backend", refuse)
    return copy


def _one_line_and_nothing_written(result, out: Path, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def _run(model: Path, data_dir: Path, out: Path):
    return run_cli("run", "--model", model, "--task", "msqad", "--lang", "en", "--data-dir", data_dir, *QUIET,
                   "--output", out)  # fmt: skip


def test_missing_authors_files_name_the_way_to_get_them(tiny_model, data_copy, tmp_path):
    shutil.rmtree(data_copy / "upstream")
    _one_line_and_nothing_written(
        _run(tiny_model, data_copy, tmp_path / "out"),
        tmp_path / "out",
        "upstream/msqad/code/custom_answer_prompts.py is missing",
        "`mlbench data fetch msqad`",
        "-T prompts=mlbench",
    )


def test_a_changed_authors_file_is_refused(tiny_model, data_copy, tmp_path):
    file = data_copy / "upstream" / "msqad" / "code" / "predict_sorry_response.py"
    file.write_text(file.read_text() + "# changed\n")
    _one_line_and_nothing_written(
        _run(tiny_model, data_copy, tmp_path / "out"),
        tmp_path / "out",
        "predict_sorry_response.py: sha256",
        "is not the pinned",
    )


def test_a_file_of_another_shape_is_refused_even_when_pinned(tiny_model, data_copy, tmp_path, monkeypatch):
    file = data_copy / "upstream" / "msqad" / "code" / "custom_answer_prompts.py"
    text = file.read_text().replace(
        "def get_hi_NA_messages(topic, question):\n",
        "def get_hi_NA_messages(topic, question):\n    for x in []:\n        pass\n",
    )
    file.write_text(text)
    pin_fixture_copies(monkeypatch, data_copy)  # the right hash: only the shape is wrong
    _one_line_and_nothing_written(
        _run(tiny_model, data_copy, tmp_path / "out"),
        tmp_path / "out",
        "get_hi_NA_messages() has For",
        "which mlbench does not read",
    )
