"""Issue 45, findings 1-7: `mlbench import lm-eval` on hostile logs. Each ends in one line of
our own and a non-zero exit, never a traceback, and never exit 0 when nothing was imported;
a line that cannot be read is left out and named, the rest imported."""

from __future__ import annotations

import json

import pytest

from tests.engine.lm_eval_import.lm_eval_layout import MODEL, STAMP, mc_line, write_run
from tests.engine.lm_eval_import.test_import_lm_eval import import_cli, mc_context, rows

DEEP = "[" * 100_000 + "]" * 100_000


def _mc_logs(tmp_path, fixture_datasets, extra_lines=()):
    """A complete MC log of two documents (mc1 and mc2), plus ``extra_lines`` in the mc1 file."""
    lines = {"truthfulqa-multi_mc1_en": [], "truthfulqa-multi_mc2_en": []}
    for doc in rows(fixture_datasets)[:2]:
        context = mc_context(fixture_datasets, doc["question"])
        for task, key in (("truthfulqa-multi_mc1_en", "mc1_targets"), ("truthfulqa-multi_mc2_en", "mc2_targets")):
            choices = doc[key]["choices"]
            # One log-likelihood per option text: mc1's and mc2's lists share options.
            lines[task].append(mc_line(doc, context, choices, [-1.0 - len(c) % 7 for c in choices]))
    lines["truthfulqa-multi_mc1_en"] += list(extra_lines)
    return write_run(tmp_path / "logs", lines)


def _results(run_dir):
    return run_dir / f"results_{STAMP}.json"


def _one_line(result, code: int, *fragments: str) -> None:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("mlbench: error:")]
    assert len(errors) == 1, result.stderr
    for fragment in fragments:
        assert fragment in errors[0], errors[0]


def _import(tmp_path, fixture_datasets, logs, *more):
    return import_cli(str(logs), "--output", str(tmp_path / "out"), "--data-dir", str(fixture_datasets), *more)


@pytest.mark.parametrize("key", ["model_sha", "model_dtype"])
def test_1_a_config_text_that_is_a_list_is_one_line(tmp_path, fixture_datasets, key):
    run_dir = _mc_logs(tmp_path, fixture_datasets)
    data = json.loads(_results(run_dir).read_text())
    data["config"][key] = ["not", "a", "text"]
    _results(run_dir).write_text(json.dumps(data))
    _one_line(_import(tmp_path, fixture_datasets, tmp_path / "logs"), 2, f"'{key}' is not a text")


def test_2_a_line_with_an_infinite_token_budget_is_left_out_and_named(tmp_path, fixture_datasets):
    doc = rows(fixture_datasets)[3]
    line = {"doc_id": 3, "doc": doc, "arguments": {"gen_args_0": {"arg_0": "Q:", "arg_1": {"until": ["\n"],
            "max_gen_toks": float("inf")}}}, "resps": [["x"]], "filtered_resps": ["x"]}  # fmt: skip
    _mc_logs(tmp_path, fixture_datasets, [json.dumps(line)])  # json writes Infinity
    result = _import(tmp_path, fixture_datasets, tmp_path / "logs")
    assert result.exit_code == 0, result.output
    assert ":3: a number out of range (Infinity?)" in result.output
    assert "imported 2 samples into 1 runs; 1 left out" in result.output


def test_3_a_line_nested_a_hundred_thousand_deep_is_left_out_and_named(tmp_path, fixture_datasets):
    _mc_logs(tmp_path, fixture_datasets, [DEEP])
    result = _import(tmp_path, fixture_datasets, tmp_path / "logs")
    assert result.exit_code == 0, result.output
    assert ":3: JSON nested deeper than mlbench reads" in result.output and "Traceback" not in result.output
    assert "imported 2 samples into 1 runs; 1 left out" in result.output


def test_4_a_results_file_nested_deep_is_one_line(tmp_path, fixture_datasets):
    run_dir = _mc_logs(tmp_path, fixture_datasets)
    _results(run_dir).write_text('{"config": ' + DEEP + "}")
    _one_line(_import(tmp_path, fixture_datasets, tmp_path / "logs"), 2, "damaged lm-eval results file", "deeper")


@pytest.mark.parametrize("what", ["unknown task", "empty samples"])
def test_5_nothing_importable_is_not_a_success(tmp_path, fixture_datasets, what):
    if what == "unknown task":
        write_run(tmp_path / "logs", {"hellaswag": [{"doc_id": 0, "doc": {}, "arguments": {}}]})
    else:
        write_run(tmp_path / "logs", {"truthfulqa-multi_mc1_en": []})
    result = _import(tmp_path, fixture_datasets, tmp_path / "logs")
    _one_line(result, 2, "nothing was imported")
    assert "imported 0 samples" in result.output  # what was looked at is still said


def test_6_an_output_holding_the_run_names_overwrite_not_resume(tmp_path, fixture_datasets):
    logs = _mc_logs(tmp_path, fixture_datasets).parent
    assert _import(tmp_path, fixture_datasets, logs).exit_code == 0
    result = _import(tmp_path, fixture_datasets, logs)
    _one_line(result, 2, "already holds results: pass --overwrite")
    assert "--resume" not in result.stderr
    assert _import(tmp_path, fixture_datasets, logs, "--overwrite").exit_code == 0


@pytest.mark.parametrize("template", ["{% for %}", "{{ raise_exception('no') }}"])
def test_7_a_logged_chat_template_that_breaks_leaves_no_run_folder(tmp_path, fixture_datasets, template):
    run_dir = _mc_logs(tmp_path, fixture_datasets)
    data = json.loads(_results(run_dir).read_text())
    data["chat_template"] = template
    _results(run_dir).write_text(json.dumps(data))
    result = _import(tmp_path, fixture_datasets, tmp_path / "logs")
    _one_line(result, 2, "nothing was imported")
    assert "chat template logged with the lm-eval run cannot be rendered" in result.output
    assert not (tmp_path / "out" / MODEL.replace("/", "__")).exists()


def test_7_a_logged_chat_template_that_works_is_replayed():
    # The replay backend renders as every backend does: (the prompt as sent, its text).
    from mlbench.engine.lm_eval_import.logs import RunInfo
    from mlbench.engine.lm_eval_import.replay import ReplayBackend
    from mlbench.engine.scoring import sent
    from mlbench.records import ChatMessage, Prompt

    template = "{% for m in messages %}<{{ m['role'] }}>{{ m['content'] }}{% endfor %}<assistant>"
    backend = ReplayBackend([], RunInfo(MODEL, chat_template=template))
    prompt = Prompt(messages=(ChatMessage("user", "Why?"),))
    assert backend.template_problem() is None
    assert sent(backend, prompt)[1] == "<user>Why?<assistant>"


def test_nan_in_lm_evals_results_is_kept_as_null(tmp_path, fixture_datasets):
    run_dir = _mc_logs(tmp_path, fixture_datasets)
    text = _results(run_dir).read_text().replace('"alias": "truthfulqa-multi_mc1_en"', '"alias": "x", "mcc,none": NaN')
    _results(run_dir).write_text(text)
    result = _import(tmp_path, fixture_datasets, tmp_path / "logs")
    assert result.exit_code == 0, result.output
    written = (tmp_path / "out" / MODEL.replace("/", "__") / "truthfulqa_multi" / "results.json").read_text()
    assert "NaN" not in written and '"mcc,none": null' in written
