"""Issue 32, item 4: a server that returns log-probabilities for fewer prompt tokens than
the option has (cut short under load, or a null among them) fails that sample with the
reason, kept for --resume; the score is never summed from the tokens it did give. A server
that gives no prompt log-probs at all still stops the MC run (it cannot do echo)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mlbench.backends.openai import OpenAIBackend
from mlbench.cli.main import app
from mlbench.errors import LogprobsUnsupported
from mlbench.records import LoglikelihoodRequest, Prompt
from tests.backends.fake_server import FakeServer


def _answer(values: object) -> dict[str, object]:
    return {"choices": [{"index": 0, "text": "", "logprobs": {"token_logprobs": values}}]}


def _full(ids: list[int]) -> list[float | None]:
    """What vLLM answers: no log-prob for the first token, one for every other, then the generated one."""
    return [None] + [-0.5] * (len(ids) - 1) + [-1.0]


QUESTION, OPTION = "Q: x?\nA:", " No, never, not at all."


@pytest.mark.parametrize(
    ("cut", "reason"),
    [
        # Given n prompt tokens (the option's among them, at the end), the server answers for fewer.
        (lambda values, n: values[: n - 2], lambda n: f"log-probs for only {n - 2} of the {n} prompt tokens"),
        (lambda values, n: values[: n - 1], lambda n: f"log-probs for only {n - 1} of the {n} prompt tokens"),
        (lambda values, n: values[: n - 2] + [None, None, values[-1]], lambda n: "no log-prob for 2 of the option's"),
        (lambda values, n: values[: n - 1] + ["-0.5", values[-1]], lambda n: "a log-prob that is not a number: '-0.5'"),
        (lambda values, n: values[: n - 1] + [True, values[-1]], lambda n: "a log-prob that is not a number: True"),
    ],
    ids=["cut-short", "one-short", "nulls", "text", "boolean"],
)
def test_logprobs_for_fewer_tokens_than_asked_fail_the_option_not_the_run(tiny_model, cut, reason):
    prompts = []

    def handler(path, body):
        ids = body["prompt"]
        prompts.append(ids)
        # Only the long option is cut short; the other request's answer is whole.
        values = _full(ids) if len(ids) < 4 else cut(_full(ids), len(ids))
        return 200, _answer(values), {}

    with FakeServer(handler) as server:
        backend = OpenAIBackend(str(tiny_model), base_url=server.url)
        [short, whole] = backend.loglikelihood(
            [LoglikelihoodRequest(Prompt(text=QUESTION), OPTION), LoglikelihoodRequest(Prompt(text="Q"), " a")]
        )
    n = max(len(ids) for ids in prompts)
    assert min(len(ids) for ids in prompts) < 4 <= n - 2  # the cases need one short request and one long
    assert short.error is not None and short.error.startswith("the server gave "), short.error
    assert reason(n) in short.error, short.error
    assert whole.error is None and whole.logprob < 0
    assert backend.stats["failed"] == 1


@pytest.mark.parametrize(
    "answer",
    [
        _answer(None),
        {"choices": [{"index": 0, "text": "", "logprobs": None}]},
        _answer([-1.0]),  # only the generated token's: the server ignored echo
    ],
    ids=["null", "no-logprobs", "echo-ignored"],
)
def test_a_server_without_prompt_logprobs_still_names_the_mc_mode(tiny_model, answer):
    with FakeServer(lambda path, body: (200, answer, {})) as server:
        backend = OpenAIBackend(str(tiny_model), base_url=server.url)
        with pytest.raises(LogprobsUnsupported, match="does not return prompt log-probs"):
            backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q: x?\nA:"), " No, never.")])


def test_an_mc_run_whose_server_cuts_logprobs_short_keeps_the_sample_for_resume(tiny_model, tmp_path):
    short = {"on": True}

    def handler(path, body):
        ids = body["prompt"]
        values = _full(ids)
        # Under load: every option's log-probs stop two tokens before its end.
        return 200, _answer(values[: len(ids) - 2] if short["on"] else values), {}

    def run(server: FakeServer, *extra: str):
        return CliRunner().invoke(
            app,
            ["run", "--model", str(tiny_model), "--task", "truthfulqa_multi", "--lang", "en", "--mode", "mc",
             "--sample", "--limit", "2", "--output", str(tmp_path), "--no-cache", "--backend", "openai",
             "-M", f"base_url={server.url}", *extra],
        )  # fmt: skip

    with FakeServer(handler) as server:
        result = run(server)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        errors = [line for line in result.stderr.splitlines() if line.startswith("mlbench: error:")]
        assert len(errors) == 1 and "truthfulqa_multi en: 2 of 2 samples failed" in errors[0], result.stderr
        assert "rerun with --resume" in errors[0] and "prompt tokens" in errors[0]
        run_dir = tmp_path / tiny_model.name / "truthfulqa_multi"
        lines = [json.loads(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
        assert len(lines) == 2
        for line in lines:
            assert line["outputs"]["error"].startswith("mc: the server gave log-probs for "), line
            assert not line["metrics"], line

        short["on"] = False
        result = run(server, "--resume")
    assert result.exit_code == 0, result.output
    latest = {line["id"]: line for line in map(json.loads, (run_dir / "samples_en.jsonl").read_text().splitlines())}
    assert len(latest) == 2 and all("error" not in line["outputs"] and line["metrics"] for line in latest.values())
