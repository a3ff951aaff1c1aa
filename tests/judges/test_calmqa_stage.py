"""CaLMQA from generation to overall score, with scripted models: surface checks gate the
judges, claims are checked against human answers or a search service, and every score
equals the hand computation."""

from __future__ import annotations

import json

import pytest

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.failures import SamplesFailed
from mlbench.engine.judging import JudgeConfig, judge_run
from mlbench.engine.pipeline import RunConfig, run
from mlbench.judges.evidence import SearchClient

from .scripted import ScriptedBackend

# fmt: off
ROWS = [
    # (id, kind, language name, question, human answers)
    ("non_cultural:0", "culturally_agnostic", "English", "Why do onions make people cry?", ["A gas stings eyes."]),
    ("English:7", "culturally_specific", "English", "Why is Guy Fawkes Night celebrated?", ["A 1605 plot failed."]),
    ("non_cultural:0", "culturally_agnostic", "Fijian", "Na cava e tagi kina na tamata ni sele aniani?", []),
    ("Fijian:3", "culturally_specific", "Fijian", "E vakarautaki vakacava na lovo?", []),
    ("Balochi:1", "culturally_specific", "Balochi", "بلوچی ءَ سجی چون جوڑ کنگ بیت؟", []),
]
# fmt: on

REPEATED = " apple river stone cloud green table window silver garden morning yellow forest candle bridge pencil " \
    "orange summer letter mirror basket" * 5  # fmt: skip
ANSWERS = {
    "Why do onions make people cry?": "Cutting an onion releases a sulphur gas that reaches and irritates the eyes.",
    "Why is Guy Fawkes Night celebrated?": "It is celebrated because" + REPEATED,
    # An English answer to a Fijian question: wrong language.
    "Na cava e tagi kina na tamata ni sele aniani?": "Onions release a gas that makes your eyes water when cut.",
    "E vakarautaki vakacava na lovo?": "Na lovo e vakarautaki ena nodra keli e dua na qara ka vakatakatakataki kina "
    "na vatu, ka qai vakacoka kina na kakana me vavi.",
    "بلوچی ءَ سجی چون جوڑ کنگ بیت؟": "سجی ءَ گوشت ءَ سیخ ءِ سرا آس ءِ کرّا پچ کن اَنت، اے بلوچستان ءِ یک مشہورین ورگ اِنت۔",
}


def write_data(root):
    (root / "calmqa").mkdir(parents=True)
    lines = [
        json.dumps(
            {
                "name": name, "kind": kind, "file_language": language, "category": None, "question_text": question,
                "question_english": "", "human_answers": [{"text": t} for t in humans],
            },
            ensure_ascii=False,
        )
        for name, kind, language, question, humans in ROWS
    ]  # fmt: skip
    (root / "calmqa" / "questions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def judge_text(prompt: str) -> str:
    """The scripted judge's texts: relevant always; two claims per answer."""
    if "genuinely tries to address" in prompt:
        return "It answers the question.\nVerdict: relevant"
    return "- claim one of the answer\n- claim two of the answer"


def judge_logprob(prompt: str, continuation: str) -> float:
    """The scripted judge's yes/no log-probs: claim one is supported, claim two is not."""
    says_yes = continuation.strip().lower() == "yes"
    return -0.1 if says_yes == ("claim one" in prompt) else -5.0


def scripted_judge() -> ScriptedBackend:
    return ScriptedBackend(logprob=judge_logprob, text=judge_text)


@pytest.fixture
def calmqa_run(tmp_path):
    # The prompt is the question and a newline (the authors' template).
    generator = ScriptedBackend(text=lambda prompt: ANSWERS[prompt.removesuffix("\n")])
    config = RunConfig(
        model=ModelOptions("scripted-model"),
        tasks=("calmqa",),
        langs=("en", "fj", "bal"),
        mode="gen",
        task_options=TaskOptions(DataSource("local", write_data(tmp_path / "data"))),
        output=tmp_path / "out",
    )
    run(config, backend_factory=lambda: generator)
    return tmp_path / "out" / "scripted-model" / "calmqa"


def samples(run_dir, lang):
    lines = (run_dir / f"samples_{lang}.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["id"]: r for r in map(json.loads, lines)}


def judge(run_dir, backend, **options):
    config = JudgeConfig(path=run_dir, judge=ModelOptions("scripted-judge"), **options)
    return judge_run(config, backend_factory=lambda: backend)


def test_the_run_applies_the_surface_checks(calmqa_run):
    en, fj, bal = samples(calmqa_run, "en"), samples(calmqa_run, "fj"), samples(calmqa_run, "bal")
    assert en["non_cultural:0"]["surface"]["issue"] is False
    assert en["English:7"]["surface"]["repetition"] is True
    wrong = fj["non_cultural:0"]["surface"]["language"]
    assert (wrong["status"], wrong["expected"], wrong["detected"]) == ("wrong", "fj", "en")
    assert wrong["detector"] in ("polyglot", "cld2")  # Fijian answers go to CLD2 first
    assert fj["Fijian:3"]["surface"]["language"]["status"] == "ok"
    assert bal["Balochi:1"]["surface"]["language"]["status"] == "n/a" and bal["Balochi:1"]["surface"]["issue"] is False
    assert en["English:7"]["group"] == "specific" and fj["non_cultural:0"]["group"] == "agnostic"
    # No judge yet: no overall score at all.
    assert not {"overall", "overall_without_factuality", "factuality"} & set(en["non_cultural:0"]["metrics"])

    results = json.loads((calmqa_run / "results.json").read_text())["results"]
    assert results["en"]["surface_issue"]["value"] == 0.5 and results["fj"]["wrong_language"]["value"] == 0.5
    assert results["bal"]["language_not_judged"] == 1 and "wrong_language" not in results["bal"]
    assert results["fj"]["groups"]["agnostic"]["n-samples"] == 1
    assert results["fj"]["groups"]["agnostic"]["surface_issue"]["value"] == 1.0
    table = (calmqa_run / "table.md").read_text(encoding="utf-8")
    assert "## Surface issues of the generated answers" in table and "| fj† | 2 | 0 | 0.500 [" in table
    assert "## By language and kind" in table and "| en | specific | 1 |" in table
    assert "† low-resource language" in table


def test_judges_skip_surface_issues_and_score_with_human_evidence(calmqa_run):
    backend = scripted_judge()
    judge(calmqa_run, backend)  # no --judge-kind: CaLMQA's relevance, claims, claim_support
    # Only the 3 answers without a surface issue were read: relevance + claims each, then
    # claim_support (P(yes) from 4 yes and 4 no spellings) for the 2 claims of the one
    # with a human answer.
    assert len(backend.generation_requests) == 3 + 3
    assert len(backend.loglikelihood_requests) == 2 * 8
    en, fj, bal = samples(calmqa_run, "en"), samples(calmqa_run, "fj"), samples(calmqa_run, "bal")
    onions = en["non_cultural:0"]
    assert onions["judges"]["claim_support"]["evidence"] == "human"
    assert onions["metrics"]["factuality"] == 0.5
    assert onions["metrics"]["overall"] == 0.5 and onions["metrics"]["overall_without_factuality"] == 1.0
    repeated = en["English:7"]
    assert "surface issue" in repeated["judges"]["relevance"]["skipped"]
    assert repeated["metrics"]["overall"] == 0.0 and repeated["metrics"]["overall_without_factuality"] == 0.0
    # No human answer and no search: factuality n/a, the factuality-free score only.
    lovo = fj["Fijian:3"]
    assert (
        lovo["judges"]["claim_support"]["evidence"] is None
        and "no evidence" in lovo["judges"]["claim_support"]["skipped"]
    )
    assert lovo["metrics"]["overall_without_factuality"] == 1.0 and "overall" not in lovo["metrics"]
    assert fj["non_cultural:0"]["metrics"] | {} == {
        **fj["non_cultural:0"]["metrics"],
        "overall_without_factuality": 0.0,
    }
    assert "overall" not in bal["Balochi:1"]["metrics"]

    results = json.loads((calmqa_run / "results.json").read_text())["results"]
    assert results["en"]["overall"]["value"] == 0.25  # (0.5 + 0) / 2
    assert results["fj"]["overall_without_factuality"]["value"] == 0.5
    assert "overall" not in results["fj"]
    assert results["en"]["groups"]["agnostic"]["overall"]["value"] == 0.5
    assert results["en"]["groups"]["specific"]["overall"]["value"] == 0.0


def search_handler(calls):
    def handle(path, body):
        calls.append(body)
        return 200, {"organic": [{"title": "Lovo", "snippet": f"About {body['q']}"}]}, {}

    return handle


def test_search_gives_evidence_where_there_is_no_human_answer(calmqa_run):
    from backends.fake_server import FakeServer

    calls = []
    with FakeServer(search_handler(calls)) as server:
        judge(calmqa_run, scripted_judge(), search=SearchClient(server.url, results=3))
    # The two clean answers without a human answer (fj lovo, bal), two claims each.
    assert sorted(c["q"] for c in calls) == ["claim one of the answer", "claim two of the answer"]  # asked once each
    assert all(c["num"] == 3 for c in calls)
    lovo = samples(calmqa_run, "fj")["Fijian:3"]
    support = lovo["judges"]["claim_support"]
    assert support["evidence"] == "search"
    assert support["claims"][0]["evidence"] == "[1] Lovo: About claim one of the answer"
    assert lovo["metrics"]["overall"] == 0.5
    recorded = json.loads((calmqa_run / "results.json").read_text())["config"]["judges"]["claim_support"]
    assert (recorded["search_url"], recorded["search_results"]) == (server.url, 3)
    # A question with a human answer still uses it.
    assert samples(calmqa_run, "en")["non_cultural:0"]["judges"]["claim_support"]["evidence"] == "human"


def test_a_failing_search_is_a_judge_error_that_resume_retries(calmqa_run):
    from backends.fake_server import FakeServer

    with FakeServer(lambda path, body: (500, {"error": "down"}, {})) as server:
        client = SearchClient(server.url, retries=2)
        # bal's only sample needs the search: all of it failed, which ends the job with exit 1,
        # after every verdict is written.
        with pytest.raises(SamplesFailed, match="claim_support judge bal: 1 of 1 samples failed"):
            judge(calmqa_run, scripted_judge(), search=client)
    lovo = samples(calmqa_run, "fj")["Fijian:3"]
    assert "search service failed after 2 attempts" in lovo["judges"]["claim_support"]["judge_error"]
    assert json.loads((calmqa_run / "results.json").read_text())["results"]["fj"]["judge_errors_claim_support"] == 1

    calls = []
    with FakeServer(search_handler(calls)) as server:
        backend = scripted_judge()
        judge(calmqa_run, backend, search=SearchClient(server.url), resume=True, kinds=("claim_support",))
    assert samples(calmqa_run, "fj")["Fijian:3"]["metrics"]["overall"] == 0.5
    # Only the failed samples were judged again: 2 claims each for lovo and bal.
    assert len(backend.loglikelihood_requests) == 2 * 2 * 8 and not backend.generation_requests
