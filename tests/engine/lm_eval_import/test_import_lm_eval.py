"""`mlbench import lm-eval` on logs written in lm-eval's layout (lm_eval_layout.py): mlbench's
own prompts and metrics, lm-eval's values and provenance kept, bad input named line by line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import sacrebleu
from typer.testing import CliRunner

from mlbench.cli.main import app
from tests.engine.lm_eval_import.lm_eval_layout import MODEL, gen_line, mc_line, write_run

runner = CliRunner()
LANG = "en"


def rows(fixture_datasets: Path, split: str = "validation") -> list[dict]:
    return json.loads((fixture_datasets / "truthfulqa-multi" / LANG / f"{split}.json").read_text(encoding="utf-8"))


def authors_prompt(fixture_datasets: Path, question: str) -> str:
    """The authors' gen prompt, built here from the train rows (not with mlbench's code)."""
    shots = [f"Q: {r['question'].strip()} A: {r['best_answer']}" for r in rows(fixture_datasets, "train")]
    return "\n\n".join([*shots, f"Q: {question.strip()}"])


def mc_context(fixture_datasets: Path, question: str) -> str:
    shots = [f"Q: {r['question']}\nA: {r['best_answer']}" for r in rows(fixture_datasets, "train")]
    return "\n\n".join([*shots, f"Q: {question}\nA:"])


def processed(doc: dict) -> dict:
    """The document as lm-eval 0.4.13's process_docs_gen leaves it (and logs it): the
    question stripped, answers closed with a period, "I have no comment." added."""

    def close(answers: list[str]) -> list[str]:
        return [a.strip() if a.strip().endswith(".") else a.strip() + "." for a in answers if a.strip()]

    true = close(doc["correct_answers"])
    if "I have no comment." not in true:
        true.append("I have no comment.")
    return {
        **doc,
        "question": doc["question"].strip(),
        "correct_answers": true,
        "incorrect_answers": close(doc["incorrect_answers"]),
    }


def lm_eval_bleu(completion: str, doc: dict) -> dict[str, float]:
    """lm-eval 0.4.13's process_results_gen over a processed document."""
    true, false = doc["correct_answers"], doc["incorrect_answers"]

    def bleu(ref: str) -> float:
        return sacrebleu.corpus_bleu(
            [completion], [[ref]], smooth_method="exp", smooth_value=0.0, force=False, lowercase=False,
            tokenize="intl", use_effective_order=False,
        ).score  # fmt: skip

    best_true, best_false = max(map(bleu, true)), max(map(bleu, false))
    return {"bleu_max": best_true, "bleu_acc": int(best_true > best_false), "bleu_diff": best_true - best_false}


def import_cli(*args: str):
    return runner.invoke(app, ["import", "lm-eval", *args])


def read_samples(out: Path) -> dict[str, dict]:
    path = out / MODEL.replace("/", "__") / "truthfulqa_multi" / f"samples_{LANG}.jsonl"
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


@pytest.fixture
def gen_logs(tmp_path, fixture_datasets):
    docs = [processed(row) for row in rows(fixture_datasets)[:4]]
    completions = [" A: " + docs[0]["best_answer"], " A: Nobody knows", "", " A: " + docs[3]["incorrect_answers"][0]]
    lines = [
        gen_line(doc, authors_prompt(fixture_datasets, doc["question"]), text, lm_eval_bleu(text, doc))
        for doc, text in zip(docs, completions)
    ]
    reported = {"truthfulqa-multi_gen_en": {"bleu_acc,none": 0.25, "alias": "truthfulqa-multi_gen_en"}}
    write_run(tmp_path / "logs", {"truthfulqa-multi_gen_en": lines}, reported)
    return tmp_path / "logs", lines


def test_gen_logs_become_a_run_with_mlbench_metrics_equal_to_lm_evals(tmp_path, fixture_datasets, gen_logs):
    logs, lines = gen_logs
    out = tmp_path / "out"
    result = import_cli(str(logs), "--output", str(out), "--data-dir", str(fixture_datasets))
    assert result.exit_code == 0, result.output
    assert "imported 4 samples into 1 runs" in result.output
    samples = read_samples(out)
    assert sorted(samples) == sorted(str(line["doc"]["id"]) for line in lines)
    for line in lines:
        record = samples[str(line["doc"]["id"])]
        assert record["prompt"] == line["arguments"]["gen_args_0"]["arg_0"]  # mlbench's prompt is the logged one
        assert record["outputs"]["generation"] == line["resps"][0][0]
        assert record["outputs"]["answer"] == line["resps"][0][0].removeprefix(" A: ").strip()
        for name in ("bleu_max", "bleu_acc", "bleu_diff"):
            assert math.isclose(record["metrics"][name], line[name], abs_tol=1e-9), (name, record["id"])
        assert "wrong_language" in record["metrics"] or record["surface"] is not None  # the surface checks ran
    results = json.loads((out / MODEL.replace("/", "__") / "truthfulqa_multi" / "results.json").read_text())
    imported = results["config"]["imported_from"][0]
    assert imported["lm_eval_task"] == "truthfulqa-multi_gen_en" and imported["lm_eval_version"] == "0.4.13"
    assert imported["reported"]["bleu_acc,none"] == 0.25
    assert results["config"]["backend"] == "lm-eval-log" and results["config"]["fewshot"] == 6
    assert results["config"]["mode_settings"] == {
        "gen": {"answer_format": "authors", "protocol": "authors-lm-eval-logs"}
    }
    # An imported run is an ordinary run: report reads it.
    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0, report.output


def test_mc1_and_mc2_logs_join_into_mlbench_mc(tmp_path, fixture_datasets):
    doc = rows(fixture_datasets)[0]
    context = mc_context(fixture_datasets, doc["question"])
    mc1, mc2 = doc["mc1_targets"]["choices"], doc["mc2_targets"]["choices"]
    ll = {choice: (-1.0 if choice == doc["best_answer"] else -3.0) for choice in [*mc1, *mc2]}
    write_run(
        tmp_path / "logs",
        {
            "truthfulqa-multi_mc1_en": [mc_line(doc, context, mc1, [ll[c] for c in mc1])],
            "truthfulqa-multi_mc2_en": [mc_line(doc, context, mc2, [ll[c] for c in mc2])],
        },
    )
    out = tmp_path / "out"
    result = import_cli(str(tmp_path / "logs"), "-o", str(out), "--data-dir", str(fixture_datasets))
    assert result.exit_code == 0, result.output
    metrics = read_samples(out)[str(doc["id"])]["metrics"]
    assert metrics["mc1"] == 1.0
    labels = doc["mc2_targets"]["labels"]
    p = [math.exp(ll[c]) for c in mc2]
    expected = sum(v for v, label in zip(p, labels) if label) / sum(p)  # lm-eval's process_results_mc2
    assert metrics["mc2"] == pytest.approx(expected, abs=1e-12)


def test_bad_lines_unknown_tasks_and_other_documents_are_named_and_counted(tmp_path, fixture_datasets, gen_logs):
    logs, lines = gen_logs
    run_dir = logs / MODEL.replace("/", "__")
    samples = next(run_dir.glob("samples_truthfulqa-multi_gen_en_*.jsonl"))
    other = dict(lines[1], doc={**lines[1]["doc"], "id": 99999})  # an id mlbench's copy lacks
    reworded = json.loads(json.dumps(lines[2]))
    reworded["doc"]["question"] = "A question worded otherwise?"
    no_doc = {k: v for k, v in lines[3].items() if k != "doc"}
    no_id = json.loads(json.dumps(lines[3]))
    del no_id["doc"]["id"]  # lm-eval's doc_id is a position: never taken for the question's id
    text = "\n".join(
        [
            json.dumps(lines[0]),
            "{not json",
            json.dumps(no_doc),
            json.dumps(other),
            json.dumps(reworded),
            json.dumps(no_id),
        ]
    )
    samples.write_text(text + "\n", encoding="utf-8")
    (run_dir / f"samples_hellaswag_{samples.name.split('_')[-1]}").write_text("{}\n", encoding="utf-8")
    out = tmp_path / "out"
    result = import_cli(str(logs), "--output", str(out), "--data-dir", str(fixture_datasets))
    assert result.exit_code == 0, result.output
    output = result.output
    assert "lm-eval task hellaswag is not one mlbench can import" in output
    assert f"{samples}:2: invalid JSON" in output and f"{samples}:3: no 'doc' object" in output
    assert f"{samples}:6: its document has no 'id'" in output
    assert "1 logged documents are not in mlbench's copy: 99999" in output
    assert f"1 logged documents differ from mlbench's copy (the question differs): {lines[2]['doc']['id']}" in output
    assert "imported 1 samples into 1 runs; 6 left out" in output
    assert list(read_samples(out)) == [str(lines[0]["doc"]["id"])]  # nothing else was written


def test_a_completion_for_another_prompt_is_a_failed_sample_never_a_score(tmp_path, fixture_datasets, gen_logs):
    logs, lines = gen_logs
    samples = next((logs / MODEL.replace("/", "__")).glob("samples_*.jsonl"))
    changed = json.loads(json.dumps(lines[0]))
    changed["arguments"]["gen_args_0"]["arg_0"] = changed["arguments"]["gen_args_0"]["arg_0"].replace(
        "Q: ", "Question: "
    )
    samples.write_text(json.dumps(changed) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = import_cli(str(logs), "--output", str(out), "--data-dir", str(fixture_datasets))
    assert "1 samples not imported (gen: the lm-eval log has no completion for this prompt" in result.output
    assert "--resume" not in result.output  # an import is not resumed: the lines say what was left out
    record = read_samples(out)[str(lines[0]["doc"]["id"])]
    assert "error" in record["outputs"] and "bleu_max" not in record["metrics"]
    assert result.exit_code == 1  # every sample of the run failed: it ends as such a run would


def test_no_logs_and_missing_paths_are_one_line(tmp_path):
    result = import_cli(str(tmp_path), "--output", str(tmp_path / "out"))
    assert result.exit_code != 0 and "no lm-eval samples files" in result.output
    result = import_cli(str(tmp_path / "nope"), "--output", str(tmp_path / "out"))
    assert result.exit_code != 0 and "no such file or folder" in result.output
    assert "Traceback" not in result.output


def test_logs_of_one_model_with_other_prompt_settings_are_not_mixed(tmp_path, fixture_datasets, gen_logs):
    logs, lines = gen_logs
    second = tmp_path / "second"
    run_dir = write_run(second, {"truthfulqa-multi_gen_es": [lines[0]]})
    results_file = next(run_dir.glob("results_*.json"))
    results = json.loads(results_file.read_text())
    results["n-shot"]["truthfulqa-multi_gen_es"] = 0
    results_file.write_text(json.dumps(results))
    result = import_cli(str(logs), str(second), "--output", str(tmp_path / "out"), "--data-dir", str(fixture_datasets))
    assert result.exit_code == 2, result.output  # nothing imported is not a success (issue 45)
    assert "import the logs of each setting separately" in result.output
    assert "nothing was imported" in result.stderr
    assert "imported 0 samples" in result.output and not (tmp_path / "out" / MODEL.replace("/", "__")).exists()


def test_completions_made_with_other_stops_or_budgets_are_not_imported(tmp_path, fixture_datasets, gen_logs):
    logs, lines = gen_logs
    samples = next((logs / MODEL.replace("/", "__")).glob("samples_*.jsonl"))
    other_stops, longer = json.loads(json.dumps(lines[0])), json.loads(json.dumps(lines[1]))
    other_stops["arguments"]["gen_args_0"]["arg_1"]["until"] = ["\n"]
    longer["arguments"]["gen_args_0"]["arg_1"]["max_gen_toks"] = 512
    samples.write_text(f"{json.dumps(other_stops)}\n{json.dumps(longer)}\n{json.dumps(lines[2])}\n", encoding="utf-8")
    result = import_cli(str(logs), "--output", str(tmp_path / "out"), "--data-dir", str(fixture_datasets))
    assert "lm-eval stopped at ['\\n'], the protocol at" in result.output
    assert "lm-eval generated up to 512 tokens, the protocol 256" in result.output
    assert "imported 1 samples into 1 runs; 2 left out" in result.output


def test_two_logs_that_answer_one_prompt_differently_are_not_imported(tmp_path, fixture_datasets, gen_logs):
    logs, lines = gen_logs
    rerun = json.loads(json.dumps(lines[0]))
    rerun["resps"], rerun["filtered_resps"] = [[" A: Something else"]], [" A: Something else"]
    run_dir = logs / MODEL.replace("/", "__")
    first = next(run_dir.glob("samples_*.jsonl"))
    second = run_dir / first.name.replace("2025-01-02", "2025-02-03")
    second.write_text(json.dumps(rerun) + "\n", encoding="utf-8")
    (
        run_dir / second.name.replace("samples_truthfulqa-multi_gen_en_", "results_").replace(".jsonl", ".json")
    ).write_text(next(run_dir.glob("results_*.json")).read_text())
    result = import_cli(str(logs), "--output", str(tmp_path / "out"), "--data-dir", str(fixture_datasets))
    assert f"(gen: {first.name} and {second.name} log other completions)" in result.output
    assert "imported 3 samples into 1 runs; 1 left out" in result.output


def test_mc_needs_both_the_mc1_and_the_mc2_log(tmp_path, fixture_datasets):
    doc = rows(fixture_datasets)[0]
    context = mc_context(fixture_datasets, doc["question"])
    mc1 = doc["mc1_targets"]["choices"]
    write_run(tmp_path / "logs", {"truthfulqa-multi_mc1_en": [mc_line(doc, context, mc1, [-1.0] * len(mc1))]})
    result = import_cli(str(tmp_path / "logs"), "-o", str(tmp_path / "out"), "--data-dir", str(fixture_datasets))
    assert "mc needs truthfulqa-multi_mc2_en too; its 1 documents are left out" in result.output
    assert "imported 0 samples into 0 runs; 1 left out" in result.output
