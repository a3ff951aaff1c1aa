"""How lm-eval names a benchmark's tasks, for `mlbench import lm-eval` (``Task.lm_eval_tasks``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LmEvalTask:
    """How lm-eval names one of a benchmark's tasks, so that `mlbench import lm-eval` knows
    which mode its logged samples feed: ``pattern`` holds ``{lang}`` where lm-eval's task
    name has the language (``truthfulqa-multi_gen_{lang}``); or it is one language's name
    (``lang``: nortruthfulqa_mc_nob_p0 is nb's). ``template``: the prompt template the
    task asks under, for a benchmark that has several."""

    pattern: str
    mode: str
    lang: str | None = None
    template: str | None = None

    def language_of(self, task_name: str) -> str | None:
        """The language of ``task_name`` if this pattern names it, else None."""
        if self.lang is not None:
            return self.lang if task_name == self.pattern else None
        before, _, after = self.pattern.partition("{lang}")
        if not (task_name.startswith(before) and task_name.endswith(after)):
            return None
        lang = task_name[len(before) : len(task_name) - len(after)]
        return lang if lang and lang.replace("-", "").isalnum() else None

    def name(self, lang: str) -> str | None:
        """lm-eval's name of this task in ``lang`` (None: it is another language's)."""
        if self.lang is not None:
            return self.pattern if lang == self.lang else None
        return self.pattern.format(lang=lang)
