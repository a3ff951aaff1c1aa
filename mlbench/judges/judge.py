"""A judge = a prompt file + a way of reading the answer, run on any backend.

Yes/no judges are scored from log-probs by default: P(yes) / (P(yes) + P(no)) over the
judge's next tokens, each side adding up the spellings " yes", " Yes", "yes" and "Yes"
(base judges answer with a leading space, instruct judges start their turn without one).
Distinct strings are distinct token sequences, none a prefix of another, so the sums
never count the same probability twice. With ``scoring="generate"`` (APIs without
log-probs) the judge writes a few tokens and the word is parsed instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from mlbench.backends.base import Backend
from mlbench.errors import LogprobsUnsupported, MlbenchError
from mlbench.judges.parsing import UNPARSED, parse_claims, parse_label, parse_yes_no
from mlbench.judges.spec import JudgeSpec
from mlbench.metrics.judged import yes_probability
from mlbench.records import (
    ChatMessage,
    GenerationRequest,
    JudgeItem,
    LoglikelihoodRequest,
    LoglikelihoodResult,
    Prompt,
    Verdict,
)
from mlbench.records.usage import summed

Scoring = Literal["logprob", "generate"]
YES_SPELLINGS = (" yes", " Yes", "yes", "Yes")
NO_SPELLINGS = (" no", " No", "no", "No")


class Judge:
    def __init__(self, spec: JudgeSpec, *, chat: bool, scoring: Scoring) -> None:
        if scoring == "logprob" and spec.output != "yes_no":
            raise MlbenchError(f"the {spec.kind} judge writes its reasoning: it needs -J scoring=generate")
        self.spec = spec
        self.chat = chat
        self.scoring = scoring

    def prompt(self, item: JudgeItem) -> Prompt:
        text = self.spec.text.format(**{name: getattr(item, name) for name in self.spec.needs})
        if not self.chat:
            return Prompt(text=text)
        system = [ChatMessage("system", self.spec.system)] if self.spec.system else []
        return Prompt(messages=(*system, ChatMessage("user", text)))

    def verdicts(self, backend: Backend, items: Sequence[JudgeItem]) -> list[Verdict]:
        """One verdict per item, in order; a failed backend call gives a verdict with its error."""
        if not items:
            return []
        if self.scoring == "logprob":
            return self._from_logprobs(backend, items)
        return self._from_text(backend, items)

    def _from_logprobs(self, backend: Backend, items: Sequence[JudgeItem]) -> list[Verdict]:
        spellings = (*YES_SPELLINGS, *NO_SPELLINGS)
        requests = [LoglikelihoodRequest(self.prompt(item), s) for item in items for s in spellings]
        try:
            results = backend.loglikelihood(requests)
        except LogprobsUnsupported as error:
            raise MlbenchError(f"{error}. A judge can read generated words instead: -J scoring=generate") from None
        per_item = len(spellings)
        verdicts = []
        for i in range(len(items)):
            mine = results[i * per_item : (i + 1) * per_item]
            # What the item's requests cost travels with its verdict (an API judge's tokens).
            verdicts.append(replace(self._yes_no_verdict(mine), usage=summed(r.usage for r in mine)))
        return verdicts

    @staticmethod
    def _yes_no_verdict(results: Sequence[LoglikelihoodResult]) -> Verdict:
        failure = next((r.error for r in results if r.error), None)
        if failure:
            return Verdict(error=failure)
        n_yes = len(YES_SPELLINGS)
        try:
            score = yes_probability([r.logprob for r in results[:n_yes]], [r.logprob for r in results[n_yes:]])
        except ValueError as error:
            return Verdict(error=str(error))
        return Verdict(label="yes" if score >= 0.5 else "no", score=score)

    def _from_text(self, backend: Backend, items: Sequence[JudgeItem]) -> list[Verdict]:
        requests = [
            GenerationRequest(self.prompt(item), max_new_tokens=self.spec.max_new_tokens, temperature=0.0)
            for item in items
        ]
        return [
            replace(Verdict(error=g.error) if g.error else self.read(g.text), usage=g.usage)
            for g in backend.generate(requests)
        ]

    def read(self, text: str) -> Verdict:
        """A verdict from the judge's text, by the output shape its prompt declares."""
        if self.spec.output == "yes_no":
            return Verdict(label=parse_yes_no(text), output=text)
        if self.spec.output == "label":
            return Verdict(label=parse_label(text, self.spec.vocabulary()), output=text)
        claims = parse_claims(text)
        if claims is None:
            return Verdict(label=UNPARSED, output=text)
        return Verdict(label="parsed", output=text, claims=tuple(claims))
