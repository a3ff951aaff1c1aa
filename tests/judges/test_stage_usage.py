"""A rejudged language's usage is summed again from its samples: a block written by an
earlier judge (one that counted tokens on a server) does not outlive a judge that counts none."""

import json

from mlbench.backends.registry import ModelOptions
from mlbench.engine.judging import JudgeConfig, judge_run

from .scripted import ScriptedBackend

OLD = {"en": {"judges": {"truth": {"prompt_tokens": 800, "completion_tokens": 4, "estimated": False}}}}


def test_a_local_rejudge_drops_the_usage_an_api_judge_left(run_dir):
    path = run_dir / "results_en.json"
    written = json.loads(path.read_text())
    written["config"]["usage"] = OLD  # as a truth judge on a server left it
    path.write_text(json.dumps(written))
    config = JudgeConfig(path=run_dir, judge=ModelOptions("judge-model"), kinds=("truth",), cache_dir=None)
    judge_run(config, backend_factory=lambda: ScriptedBackend(lambda prompt, continuation: -1.0))
    assert "usage" not in json.loads(path.read_text())["config"]  # the local judge counted nothing
    merged = json.loads((run_dir / "results.json").read_text())["config"]
    assert "usage" not in merged and "usage_total" not in merged
