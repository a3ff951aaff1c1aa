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

from dataclasses import replace

from mlbench.benchmarks.xlinghealth.authors_prompts import authors_prompts
from mlbench.benchmarks.xlinghealth.sources import UPSTREAM
from mlbench.data.source import DataSource
from mlbench.judges.judge import Judge
from mlbench.judges.parsing import UNPARSED
from mlbench.records import JudgeItem, Prompt, Verdict
from mlbench.records.json_shapes import json_object
from mlbench.records.jsontypes import JsonObject, settings_digest

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
        digest = settings_digest(["authors", upstream])
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
    return AuthorsCorrectnessJudge(judge, UPSTREAM.run_source(run_config), lang, upstream)
