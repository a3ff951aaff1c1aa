"""What API runs cost, end to end against a fake OpenAI-compatible server: each sample's
tokens, the run's totals and cost, the summary and the report, and --max-tokens/--max-cost
stopping a run like Ctrl-C (exit 3) that --resume finishes without counting a sample twice."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mlbench.cli import signals
from mlbench.cli.main import app
from mlbench.engine.budget import EXIT_BUDGET
from tests.backends.fake_server import FakeServer

# Every model request: 100 prompt + 10 completion tokens; every judge request: 200 + 1.
MODEL_USAGE = {"prompt_tokens": 100, "completion_tokens": 10}
JUDGE_USAGE = {"prompt_tokens": 200, "completion_tokens": 1}
PRICES = ("-M", "prompt_price=2.5", "-M", "completion_price=10")  # 0.00035 USD a sample


def answer(path: str, body: dict) -> tuple[int, dict, dict]:
    if body["model"] == "judge":
        choice = {"index": 0, "message": {"content": "yes"}, "finish_reason": "stop"}
        return 200, {"choices": [choice], "usage": JUDGE_USAGE}, {}
    return 200, {"choices": [{"index": 0, "text": " Yes.", "finish_reason": "stop"}], "usage": MODEL_USAGE}, {}


@pytest.fixture
def server():
    with FakeServer(answer) as running:
        yield running


@pytest.fixture
def mlbench_run(tiny_model, server, monkeypatch):
    """``mlbench_run(out, *flags)``: veritasqa gen on 4 sample questions, 2 a chunk, served."""
    monkeypatch.setattr(signals, "_state", signals._State())  # each test's stop line is its first

    def run(out: Path, *extra: str):
        args = ["run", "--model", str(tiny_model), "--task", "veritasqa", "--lang", "en", "--mode", "gen",
                "--sample", "--limit", "4", "--output", str(out), "--no-cache", "--backend", "openai",
                "-M", f"base_url={server.url}", "--chunk-size", "2", *extra]  # fmt: skip
        monkeypatch.setattr(sys, "argv", ["mlbench", *args])  # what the stop line repeats
        return CliRunner().invoke(app, args)

    return run


def lines(out: Path, tiny_model: Path) -> list[dict]:
    return [json.loads(line) for line in (out / tiny_model.name / "veritasqa" / "samples_en.jsonl").open()]


def results(out: Path, tiny_model: Path) -> dict:
    return json.loads((out / tiny_model.name / "veritasqa" / "results.json").read_text())


def test_each_sample_and_the_run_count_their_tokens_and_cost(mlbench_run, tiny_model, tmp_path):
    result = mlbench_run(tmp_path, *PRICES)
    assert result.exit_code == 0, result.output
    samples = lines(tmp_path, tiny_model)
    assert len(samples) == 4
    assert all(s["usage"] == {**MODEL_USAGE, "estimated": False} for s in samples)
    config = results(tmp_path, tiny_model)["config"]
    total = {"prompt_tokens": 400, "completion_tokens": 40, "estimated": False, "cost_usd": 0.0014}
    assert config["usage_total"] == {"model": total}
    assert config["usage"] == {"en": {"model": total}}
    assert config["engine"]["prompt_price"] == 2.5  # the prices the cost was counted at
    assert "API usage: 400 prompt + 40 completion tokens, $0.0014" in " ".join(result.output.split())

    report = CliRunner().invoke(app, ["report", str(tmp_path), "--format", "md,html", "--out", str(tmp_path / "r")])
    assert report.exit_code == 0, report.output
    markdown = (tmp_path / "r" / "report.md").read_text()
    assert f"| {tiny_model.name} | 400 | 40 | $0.0014 |" in markdown.split("\n## ")[0]  # under the header
    assert "<td>400</td><td>40</td><td>$0.0014</td>" in (tmp_path / "r" / "report.html").read_text()


def test_a_token_budget_stops_like_ctrl_c_and_resume_finishes_without_counting_twice(
    mlbench_run, tiny_model, server, tmp_path
):
    uninterrupted = mlbench_run(tmp_path / "whole")
    assert uninterrupted.exit_code == 0, uninterrupted.output
    asked = len(server.requests)

    budget = ("--max-tokens", "250")  # a chunk of 2 samples is 220 tokens: a third would pass 250
    stopped = mlbench_run(tmp_path / "cut", *budget)
    assert stopped.exit_code == EXIT_BUDGET == 3
    assert "Traceback" not in stopped.output
    args = " ".join(["run", "--model", str(tiny_model)])
    assert stopped.stderr.splitlines()[-1].startswith(
        "mlbench: stopped: the token budget (--max-tokens 250) is spent after 220 tokens; what finished is saved; "
        f"continue with: mlbench {args}"
    )
    assert stopped.stderr.splitlines()[-1].endswith("--max-tokens 250 --resume")
    assert len(lines(tmp_path / "cut", tiny_model)) == 2

    resumed = mlbench_run(tmp_path / "cut", *budget, "--resume")  # a fresh budget: the other 2 fit
    assert resumed.exit_code == 0, resumed.output
    assert len(server.requests) == 2 * asked  # no sample asked twice
    whole, cut = results(tmp_path / "whole", tiny_model), results(tmp_path / "cut", tiny_model)
    assert cut["config"]["usage_total"] == whole["config"]["usage_total"]
    assert whole["config"]["usage_total"]["model"]["prompt_tokens"] == 400
    assert len({s["id"] for s in lines(tmp_path / "cut", tiny_model)}) == 4


def test_a_cost_budget_from_the_config_file_stops_at_its_price(mlbench_run, tiny_model, tmp_path):
    config = tmp_path / "run.toml"
    config.write_text("max_cost = 0.0008\n\n[model]\nprompt_price = 2.5\ncompletion_price = 10\n")
    stopped = mlbench_run(tmp_path / "out", "--config", str(config))
    assert stopped.exit_code == 3, stopped.output
    assert "mlbench: stopped: the cost budget (--max-cost 0.0008) is spent after $0.0007;" in stopped.stderr
    assert len(lines(tmp_path / "out", tiny_model)) == 2


def test_a_judges_tokens_are_kept_beside_its_verdicts_and_priced_with_its_prices(
    mlbench_run, tiny_model, server, tmp_path
):
    judged = mlbench_run(
        tmp_path, *PRICES, "--judge", "judge", "-J", "backend=openai", "-J", f"base_url={server.url}",
        "-J", "scoring=generate", "-J", "prompt_price=1", "-J", "completion_price=1",
    )  # fmt: skip
    assert judged.exit_code == 0, judged.output
    samples = lines(tmp_path, tiny_model)
    assert all(s["judge_usage"] == {"truth": {**JUDGE_USAGE, "estimated": False}} for s in samples)
    assert all("usage" not in s["judges"]["truth"] for s in samples)
    total = results(tmp_path, tiny_model)["config"]["usage_total"]
    assert total["model"]["cost_usd"] == 0.0014
    assert total["judges"] == {"truth": {"prompt_tokens": 800, "completion_tokens": 4, "estimated": False,
                                         "cost_usd": 0.000804}}  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "line"),
    [
        (("--max-cost", "1"), "mlbench: error: --max-cost needs prices to count: give -M prompt_price=USD and "
         "completion_price=USD (per million tokens), or use --max-tokens"),
        (("-M", "prompt_price=2.5"), "mlbench: error: -M prompt_price and completion_price go together (USD per "
         "million tokens): give both"),
    ],
    ids=["cost-without-prices", "one-price"],
)  # fmt: skip
def test_a_budget_or_price_that_cannot_be_counted_is_one_line(mlbench_run, tmp_path, flags, line):
    result = mlbench_run(tmp_path, *flags)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [line]


def test_a_budget_for_a_local_model_is_one_line(tiny_model, tmp_path):
    args = ["run", "--model", str(tiny_model), "--task", "veritasqa", "--lang", "en", "--sample", "--backend", "hf",
            "--output", str(tmp_path), "--max-tokens", "9"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "mlbench: error: --max-tokens counts the tokens of OpenAI-compatible servers (--backend openai, "
        "-J backend=openai); this run sends none"
    ]


def test_a_plain_resume_after_judging_keeps_the_judges_settings_and_cost(mlbench_run, tiny_model, server, tmp_path):
    judge = ("--judge", "judge", "-J", "backend=openai", "-J", f"base_url={server.url}", "-J", "scoring=generate",
             "-J", "prompt_price=1", "-J", "completion_price=1")  # fmt: skip
    assert mlbench_run(tmp_path, *PRICES, *judge).exit_code == 0
    judged = results(tmp_path, tiny_model)["config"]
    resumed = mlbench_run(tmp_path, *PRICES, "--resume")  # no --judge: every language written again
    assert resumed.exit_code == 0, resumed.output
    config = results(tmp_path, tiny_model)["config"]
    assert config["judges"] == judged["judges"]  # the verdicts' judge, still beside them
    assert config["usage_total"]["judges"]["truth"]["cost_usd"] == 0.000804  # priced as before
    assert config["usage_total"] == judged["usage_total"]
