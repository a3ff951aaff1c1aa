"""XLingHealth's correctness judge as its authors ran it: their prompt, read from their code
(``authors_prompts.AuthorsPrompts.judge``), and their way of reading the verdict.

The authors' evaluation script (``correctness/correctness_answer_evaluation.py``) takes the
judge's reply, puts its lines on one line, splits it at every full stop, keeps the last
three pieces, and looks in them for the four option strings of its prompt, in their order;
the first one found is the label, and a reply with none of them is "No Response". mlbench
does the same and names the label by its own four (``prompts/judges/correctness.toml``),
which the correctness metrics are named after; a reply with none is ``unparsed``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from mlbench.benchmarks.xlinghealth.authors_prompts import authors_prompts
from mlbench.benchmarks.xlinghealth.sources import UPSTREAM
from mlbench.data.source import DataSource
from mlbench.judges.judge import Judge
from mlbench.judges.parsing import UNPARSED
from mlbench.records import JudgeItem, Prompt, Verdict
from mlbench.records.json_shapes import json_object
from mlbench.records.jsontypes import JsonObject

# The authors' options in their order (cases 1 to 4), as mlbench's labels name them.
LABELS = (
    "neither contradictory nor similar",
    "contradictory",
    "more comprehensive and appropriate",
    "less comprehensive and appropriate",
)
# correctness/utils_chatgpt.py: max_tokens=1000 (at temperature 0, as every judge runs).
JUDGE_TOKENS = 1000


class AuthorsCorrectnessJudge(Judge):
    """The correctness judge with the authors' prompt for answers in ``lang``."""

    def __init__(self, judge: Judge, data: DataSource, lang: str, upstream: JsonObject) -> None:
        digest = hashlib.sha256(json.dumps(["authors", upstream], sort_keys=True).encode()).hexdigest()[:16]
        spec = replace(judge.spec, labels=LABELS, max_new_tokens=JUDGE_TOKENS, sha256=digest)
        super().__init__(spec, chat=judge.chat, scoring=judge.scoring)
        self.prompts = authors_prompts(data)
        self.lang = lang
        self.options = self.prompts.judge_options()

    def prompt(self, item: JudgeItem) -> Prompt:
        return self.prompts.judge(self.lang, item.question, item.reference, item.answer, self.chat)

    def read(self, text: str) -> Verdict:
        return Verdict(label=authors_label(text, self.options), output=text)


def authors_label(text: str, options: tuple[str, ...]) -> str:
    """The label the authors' script reads in ``text`` (``UNPARSED`` where it finds none)."""
    if not text:
        return UNPARSED
    pieces = " ".join(text.split("\n")).split(".")
    tail = " ".join(pieces[-3:])
    return next((label for label, option in zip(LABELS, options) if option in tail), UNPARSED)


def judge_for(judge: Judge, run_config: JsonObject, lang: str) -> Judge:
    """The authors' judge for a run made with the authors' prompts; else ``judge``."""
    settings = run_config.get("task_settings") or {}
    if judge.spec.kind != "correctness" or not isinstance(settings, dict) or settings.get("prompts") != "authors":
        return judge
    upstream = json_object(settings.get("upstream") or {}, "the run's upstream record")
    return AuthorsCorrectnessJudge(judge, recorded_source(run_config), lang, upstream)


def recorded_source(run_config: JsonObject) -> DataSource:
    """Where to find the authors' files for judging a run: its --data-dir copy while that
    copy is still there (judging where the run ran), else the data cache (a run judged on
    another machine or from another folder; fetched there with `mlbench data fetch`)."""
    from pathlib import Path

    recorded = str(run_config.get("data_source", ""))
    if recorded.startswith("local:"):
        root = Path(recorded.removeprefix("local:"))
        if all((root / "upstream" / UPSTREAM.folder / p).is_file() or (root / p).is_file() for p in UPSTREAM.paths):
            return DataSource("local", root)
    return DataSource("hub")
