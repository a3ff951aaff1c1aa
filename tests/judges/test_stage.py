"""The judging stage over saved runs: verdicts in the samples, tables rebuilt, resume,
failures, claims → claim support, concurrent judging jobs."""

import json
import threading

import pytest

from mlbench.backends.registry import ModelOptions
from mlbench.engine.judging import JudgeConfig, judge_run
from mlbench.errors import MlbenchError

from .scripted import ScriptedBackend


def samples(run_dir, lang):
    return [json.loads(line) for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]


def results(run_dir):
    return json.loads((run_dir / "results.json").read_text())


def judge(run_dir, backend, kinds=("truth",), **options):
    config = JudgeConfig(path=run_dir, judge=ModelOptions("judge-model"), kinds=kinds, cache_dir=None, **options)
    return judge_run(config, backend_factory=lambda: backend)


def says_yes_to(words):
    """Log-probs of a judge that says yes when the prompt contains any of ``words``."""

    def logprob(prompt, continuation):
        yes = any(word in prompt for word in words)
        return -0.1 if (continuation.strip().lower() == "yes") == yes else -5.0

    return logprob


def test_verdicts_are_added_and_tables_rebuilt(run_dir):
    before = results(run_dir)
    first_question = samples(run_dir, "en")[0]["question"]
    backend = ScriptedBackend(says_yes_to([first_question]))
    judge(run_dir, backend)
    after = results(run_dir)
    for lang in ("en", "es"):
        records = samples(run_dir, lang)
        assert len(records) == 4
        for record in records:
            verdict = record["judges"]["truth"]
            assert verdict["judge"] == "judge-model" and 0 <= verdict["score"] <= 1
            assert record["metrics"]["truthful"] == float(verdict["label"] == "yes")
        share = sum(r["metrics"]["truthful"] for r in records) / 4
        assert after["results"][lang]["truthful"]["value"] == share
        # The run's own metrics and their intervals are untouched by judging.
        for metric in ("mc1", "mc2", "bleu_max", "bleu_acc"):
            assert after["results"][lang][metric] == before["results"][lang][metric]
    assert after["results"]["en"]["truthful"]["value"] == 0.25
    assert after["config"]["judges"]["truth"]["scoring"] == "logprob"
    assert after["config"]["judges"]["truth"]["chat"] is False  # the scripted judge has no template
    assert "| truthful | 0.250 [" in (run_dir / "table.md").read_text()
    assert backend.closed
    # Never regenerates: 4 samples × 2 languages × 8 spellings, no generation at all.
    assert len(backend.loglikelihood_requests) == 64 and not backend.generation_requests
    assert backend.loglikelihood_requests[0].prompt.text.startswith(f"Q: {first_question}\nA: ")


def test_truth_and_info_give_truthful_and_informative(run_dir):
    judge(run_dir, ScriptedBackend(says_yes_to(["True:"])), kinds=("truth",))
    judge(run_dir, ScriptedBackend(says_yes_to(["NEVER"])), kinds=("info",))
    block = results(run_dir)["results"]["es"]
    assert block["truthful"]["value"] == 1.0 and block["informative"]["value"] == 0.0
    assert block["truthful_informative"]["value"] == 0.0
    table = (run_dir / "table.md").read_text()
    assert table.index("| truthful |") < table.index("| informative |") < table.index("| truthful_informative |")


def test_resume_redoes_only_failed_verdicts(run_dir):
    failing_question = samples(run_dir, "en")[1]["question"]

    def flaky(prompt, continuation):
        return "HTTP 503: overloaded (after 6 attempts)" if failing_question in prompt else -1.0

    judge(run_dir, ScriptedBackend(flaky))
    failed = [r for r in samples(run_dir, "en") if "judge_error" in r["judges"]["truth"]]
    assert len(failed) == 1 and "truthful" not in failed[0]["metrics"]
    assert failed[0]["judges"]["truth"]["judge_error"] == "HTTP 503: overloaded (after 6 attempts)"
    block = results(run_dir)["results"]["en"]
    assert block["judge_errors_truth"] == 1 and block["n-samples"] == 4
    assert "| judge_errors_truth | 1 | 0 |" in (run_dir / "table.md").read_text()

    healthy = ScriptedBackend()
    judge(run_dir, healthy, resume=True)
    assert len(healthy.loglikelihood_requests) == 8  # one sample, eight spellings
    assert all("label" in r["judges"]["truth"] for r in samples(run_dir, "en"))
    assert "judge_errors_truth" not in results(run_dir)["results"]["en"]

    # Without --resume every sample is judged again; with another judge, resume redoes all.
    again = ScriptedBackend()
    judge(run_dir, again)
    assert len(again.loglikelihood_requests) == 64
    other = ScriptedBackend(fingerprint="another-judge")
    judge(run_dir, other, resume=True)
    assert len(other.loglikelihood_requests) == 64


def test_samples_without_an_answer_are_skipped_and_counted(run_dir):
    path = run_dir / "samples_es.jsonl"
    records = samples(run_dir, "es")
    del records[0]["outputs"]["answer"]
    records[0]["outputs"]["error"] = "gen: context overflow"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    judge(run_dir, ScriptedBackend(), langs=("es",))
    judged = samples(run_dir, "es")
    assert judged[0]["judges"]["truth"]["skipped"] == "no answer to judge (the generation failed)"
    assert results(run_dir)["results"]["es"]["skipped_truth"] == 1
    assert "truth" not in samples(run_dir, "en")[0].get("judges", {})  # --lang es only


def test_prompted_judge_counts_unparsed_verdicts(run_dir):
    replies = iter(["Verdict: relevant", "I am not sure.", "Verdict: irrelevant", "Verdict: relevant"] * 2)
    judge(run_dir, ScriptedBackend(text=lambda prompt: next(replies), chat=True), kinds=("relevance",))
    block = results(run_dir)["results"]["en"]
    assert block["unparsed_relevance"] == 1
    assert block["relevant"]["value"] == pytest.approx(2 / 3)
    record = samples(run_dir, "en")[1]
    assert record["judges"]["relevance"] == {
        "judge": "judge-model",
        "settings_hash": record["judges"]["relevance"]["settings_hash"],
        "label": "unparsed",
        "output": "I am not sure.",
        # A server applies the chat template: the turns are what is kept of the prompt.
        "sent": [{"role": "user", "content": record["judges"]["relevance"]["sent"][0]["content"]}],
    }
    assert record["question"] in record["judges"]["relevance"]["sent"][0]["content"]


def test_claims_then_claim_support(run_dir):
    backend = ScriptedBackend(
        logprob=lambda prompt, continuation: (
            -0.1 if ("Claim: ```A```" in prompt) == ("yes" in continuation.lower()) else -4.0
        ),
        text=lambda prompt: "- A\n- B",
        chat=True,
    )
    judge(run_dir, backend, kinds=("claims", "claim_support"), langs=("en",))
    record = samples(run_dir, "en")[0]
    support = record["judges"]["claim_support"]
    assert [c["claim"] for c in support["claims"]] == ["A", "B"]
    assert [c["label"] for c in support["claims"]] == ["yes", "no"]
    assert support["supported"] == 0.5 and record["metrics"]["claims"] == 2.0
    assert record["metrics"]["claims_supported"] == 0.5
    # The evidence is the sample's reference answer.
    assert f"Evidence: ```{record['reference']}```" in backend.loglikelihood_requests[0].prompt.messages[-1].content


def test_claim_support_before_claims_is_skipped_not_guessed(run_dir):
    judge(run_dir, ScriptedBackend(), kinds=("claim_support",), langs=("en",))
    entry = samples(run_dir, "en")[0]["judges"]["claim_support"]
    assert entry["skipped"].startswith("no extracted claims")


def test_concurrent_judging_jobs_keep_each_others_verdicts(run_dir):
    errors = []

    def job(kind):
        try:
            judge(run_dir, ScriptedBackend(), kinds=(kind,), chunk_size=1)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=job, args=(kind,)) for kind in ("truth", "info", "verify")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for lang in ("en", "es"):
        assert all(set(r["judges"]) == {"truth", "info", "verify"} for r in samples(run_dir, lang))
        assert {"truthful", "informative", "verified"} <= set(results(run_dir)["results"][lang])


def test_a_run_without_generations_cannot_be_judged(make_run, tmp_path):
    mc_only = make_run(tmp_path, "mc")
    backend = ScriptedBackend()
    with pytest.raises(MlbenchError, match="needs a run with --mode gen"):
        judge(mc_only, backend)
    assert not backend.loglikelihood_requests


def test_bad_paths_and_languages(run_dir, tmp_path):
    with pytest.raises(MlbenchError, match="no such run folder"):
        judge(tmp_path / "nowhere", ScriptedBackend())
    (tmp_path / "empty").mkdir()
    with pytest.raises(MlbenchError, match="no run under"):
        judge(tmp_path / "empty", ScriptedBackend())
    with pytest.raises(MlbenchError, match=r"no run has results in eu \(Basque\); written: en, es"):
        judge(run_dir, ScriptedBackend(), langs=("eu",))


def test_a_folder_of_runs_judges_each(run_dir):
    judge(run_dir.parent, ScriptedBackend())
    assert "truthful" in results(run_dir)["results"]["en"]


def test_judging_again_is_answered_by_the_request_cache(run_dir, tmp_path):
    from mlbench.backends.cache import CachedBackend

    first, second = ScriptedBackend(), ScriptedBackend()
    judge(run_dir, CachedBackend(first, tmp_path / "requests.sqlite"))
    verdicts = [r["judges"]["truth"] for r in samples(run_dir, "en")]
    judge(run_dir, CachedBackend(second, tmp_path / "requests.sqlite"))
    assert len(first.loglikelihood_requests) == 64 and not second.loglikelihood_requests
    assert [r["judges"]["truth"] for r in samples(run_dir, "en")] == verdicts


def test_runs_without_the_requested_language_are_left_alone(run_dir):
    import shutil

    spanish_only = shutil.copytree(run_dir, run_dir.parent / "spanish-only")
    (spanish_only / "results_en.json").unlink()
    (spanish_only / "samples_en.jsonl").unlink()
    judged = judge(run_dir.parent, ScriptedBackend(), langs=("en",))
    assert len(judged) == 1 and list(judged[0].languages) == ["en", "es"]
    assert all("judges" not in r for r in samples(spanish_only, "es"))
