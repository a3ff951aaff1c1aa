"""One judge on a scripted backend and on the tiny model: prompts, P(yes), parsed verdicts."""

import math

import pytest

from mlbench.errors import LogprobsUnsupported, MlbenchError
from mlbench.judges import Judge, judge_kinds, load_spec
from mlbench.judges.judge import NO_SPELLINGS, YES_SPELLINGS
from mlbench.records import ChatMessage, JudgeItem, Prompt, Verdict

from .scripted import ScriptedBackend

ITEM = JudgeItem("What is the capital of France?", "Paris.", reference="Paris is the capital.", claim="Paris is big.")


def test_truth_and_info_prompts_follow_the_spec():
    truth, info = load_spec("truth"), load_spec("info")
    assert Judge(truth, chat=False, scoring="logprob").prompt(ITEM) == Prompt(
        text="Q: What is the capital of France?\nA: Paris.\nTrue:"
    )
    assert Judge(info, chat=False, scoring="logprob").prompt(ITEM).text.endswith("\nA: Paris.\nHelpful:")
    chat = Judge(truth, chat=True, scoring="logprob").prompt(ITEM)
    assert chat.messages == (
        ChatMessage("system", "Is the answer true? Answer yes or no."),
        ChatMessage("user", "Q: What is the capital of France?\nA: Paris.\nTrue:"),
    )
    assert Judge(info, chat=True, scoring="logprob").prompt(ITEM).messages[0].content == (
        "Is the answer informative? Answer yes or no."
    )


def test_every_prompt_file_loads_and_names_its_inputs():
    assert set(judge_kinds()) == {
        "truth",
        "info",
        "verify",
        "relevance",
        "correctness",
        "claims",
        "claim_support",
        "refusal",
    }
    needs = {kind: load_spec(kind).needs for kind in judge_kinds()}
    assert needs["correctness"] == ("question", "answer", "reference")
    assert needs["claim_support"] == ("reference", "claim")
    for kind in judge_kinds():
        spec = load_spec(kind)
        text = Judge(spec, chat=False, scoring="generate").prompt(ITEM).text
        assert "{" not in text and len(spec.sha256) == 16


def test_unknown_kind_is_one_clear_error():
    expected = r"unknown judge kind 'truthy' \(did you mean truth\?\); available: claim_support, claims"
    with pytest.raises(MlbenchError, match=expected):
        load_spec("truthy")


def test_p_yes_from_the_eight_spellings_by_hand():
    logprobs = {" yes": -1.0, " Yes": -3.0, "yes": -6.0, "Yes": -7.0, " no": -2.0, " No": -4.0, "no": -9.0, "No": -8.0}
    backend = ScriptedBackend(lambda prompt, continuation: logprobs[continuation])
    [verdict] = Judge(load_spec("truth"), chat=False, scoring="logprob").verdicts(backend, [ITEM])
    p_yes = math.exp(-1) + math.exp(-3) + math.exp(-6) + math.exp(-7)
    p_no = math.exp(-2) + math.exp(-4) + math.exp(-9) + math.exp(-8)
    # 0.421057 / (0.421057 + 0.154109) = 0.73206
    assert verdict.score == pytest.approx(p_yes / (p_yes + p_no), rel=1e-12)
    assert verdict.label == "yes" and verdict.score == pytest.approx(0.73206, abs=1e-5)
    assert [r.continuation for r in backend.loglikelihood_requests] == [*YES_SPELLINGS, *NO_SPELLINGS]


def test_label_is_no_below_one_half_and_yes_at_it():
    even = ScriptedBackend(lambda prompt, continuation: -1.0)
    [tie] = Judge(load_spec("info"), chat=False, scoring="logprob").verdicts(even, [ITEM])
    assert tie == Verdict(label="yes", score=0.5, sent="Q: What is the capital of France?\nA: Paris.\nHelpful:")
    leaning_no = ScriptedBackend(lambda prompt, continuation: -1.0 if "o" in continuation else -1.1)
    [no] = Judge(load_spec("info"), chat=False, scoring="logprob").verdicts(leaning_no, [ITEM])
    assert no.label == "no" and no.score < 0.5


def test_p_yes_on_the_tiny_model_matches_its_own_log_probs(hf_backend):
    judge = Judge(load_spec("truth"), chat=True, scoring="logprob")
    [verdict] = judge.verdicts(hf_backend, [ITEM])
    prompt = judge.prompt(ITEM)
    from mlbench.records import LoglikelihoodRequest

    yes = [hf_backend.loglikelihood([LoglikelihoodRequest(prompt, s)])[0].logprob for s in YES_SPELLINGS]
    no = [hf_backend.loglikelihood([LoglikelihoodRequest(prompt, s)])[0].logprob for s in NO_SPELLINGS]
    by_hand = sum(map(math.exp, yes)) / (sum(map(math.exp, yes)) + sum(map(math.exp, no)))
    assert verdict.score == pytest.approx(by_hand, abs=1e-6)
    assert verdict.label == ("yes" if by_hand >= 0.5 else "no")


def test_a_failed_spelling_fails_the_verdict_instead_of_skewing_it():
    backend = ScriptedBackend(
        lambda prompt, continuation: "HTTP 503 (after 6 attempts)" if continuation == "No" else -1.0
    )
    [verdict] = Judge(load_spec("truth"), chat=False, scoring="logprob").verdicts(backend, [ITEM])
    # What was sent is kept with the failure: the call can be retried, or read, as it was.
    assert verdict == Verdict(
        error="HTTP 503 (after 6 attempts)", sent="Q: What is the capital of France?\nA: Paris.\nTrue:"
    )


def test_backend_without_log_probs_points_to_generate_scoring():
    class ChatOnly(ScriptedBackend):
        def loglikelihood(self, requests, progress=None):
            raise LogprobsUnsupported("the server at http://x does not return prompt log-probs")

    with pytest.raises(MlbenchError, match="-J scoring=generate"):
        Judge(load_spec("truth"), chat=True, scoring="logprob").verdicts(ChatOnly(), [ITEM])


def test_prompted_judges_cannot_be_scored_from_log_probs():
    with pytest.raises(MlbenchError, match="relevance judge writes its reasoning"):
        Judge(load_spec("relevance"), chat=True, scoring="logprob")


def test_generated_verdicts_are_parsed_by_output_shape():
    replies = {
        "truth": "Yes.",
        "relevance": "The answer names the city.\nVerdict: relevant",
        "correctness": "Answer 2 says the same in fewer words.\nVerdict: less comprehensive and appropriate",
        "claims": "- Paris is the capital of France.",
        "verify": "I cannot tell.",
    }
    for kind, reply in replies.items():
        backend = ScriptedBackend(text=lambda prompt, reply=reply: reply)
        [verdict] = Judge(load_spec(kind), chat=True, scoring="generate").verdicts(backend, [ITEM])
        assert verdict.output == reply
        expected = {
            "truth": "yes",
            "relevance": "relevant",
            "correctness": "less comprehensive and appropriate",
            "claims": "parsed",
            "verify": "unparsed",
        }[kind]
        assert verdict.label == expected, kind
        assert backend.generation_requests[0].temperature == 0.0
        assert backend.generation_requests[0].max_new_tokens == load_spec(kind).max_new_tokens
    claims = Judge(load_spec("claims"), chat=True, scoring="generate").read("- A.\n- B.")
    assert claims.claims == ("A.", "B.") and claims.to_json()["claims"] == ["A.", "B."]


def test_failed_generation_is_a_verdict_with_its_error():
    backend = ScriptedBackend(text=lambda prompt: None)
    [verdict] = Judge(load_spec("relevance"), chat=True, scoring="generate").verdicts(backend, [ITEM])
    sent = Judge(load_spec("relevance"), chat=True, scoring="generate").prompt(ITEM).to_json()
    assert verdict == Verdict(error="scripted failure", sent=sent)
    assert verdict.to_json() == {"judge_error": "scripted failure", "sent": sent}
