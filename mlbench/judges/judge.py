"""A judge = a prompt file + a way of reading the answer, run on any backend.

Yes/no judges are scored from log-probs by default: P(yes) / (P(yes) + P(no)) over the
judge's next tokens, each side adding up the spellings " yes", " Yes", "yes" and "Yes"
(base judges answer with a leading space, instruct judges start their turn without one).
Distinct strings are distinct token sequences, none a prefix of another, so the sums
never count the same probability twice. With ``scoring="generate"`` (APIs without
log-probs) the judge writes a few tokens and the word is parsed instead.
"""

from __future__ import annotations

import hashlib
import json
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
    ChatTurn,
    GenerationRequest,
    JudgeItem,
    LoglikelihoodRequest,
    LoglikelihoodResult,
    Prompt,
    Verdict,
)
from mlbench.records.budgets import JUDGE_SENT_KEPT
from mlbench.records.usage import summed

Scoring = Literal["logprob", "generate"]
YES_SPELLINGS = (" yes", " Yes", "yes", "Yes")
NO_SPELLINGS = (" no", " No", "no", "No")


class Judge:
    # How the judge's prompt and reading were chosen (docs/judges.md): ``trained``, the
    # judges' own training format; a benchmark's authors' judge says ``authors``.
    protocol = "trained"
    # The saved output the judge reads: the clean answer (``generation``: the raw completion).
    reads = "answer"

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
        """One verdict per item, in order, each keeping what the judge was sent (``kept``);
        a failed backend call gives a verdict with its error."""
        if not items:
            return []
        prompts = [self.prompt(item) for item in items]
        if self.scoring == "logprob":
            found = self._from_logprobs(backend, prompts)
        else:
            found = self._from_text(backend, prompts)
        return [self.kept(verdict, backend, prompt) for verdict, prompt in zip(found, prompts)]

    @staticmethod
    def kept(verdict: Verdict, backend: Backend, prompt: Prompt) -> Verdict:
        """``verdict`` keeping the prompt its judge read: the text after the chat template
        (the turns, where a server applies it); past ``JUDGE_SENT_KEPT`` characters, the
        text's sha256 and length (the template it came from is in the run's judge settings)."""
        rendered = backend.render(prompt)
        sent: str | list[ChatTurn] = rendered[1] if rendered is not None else prompt.to_json()
        text = sent if isinstance(sent, str) else json.dumps(sent, ensure_ascii=False)
        if len(text) <= JUDGE_SENT_KEPT:
            return replace(verdict, sent=sent)
        return replace(verdict, sent_sha256=hashlib.sha256(text.encode()).hexdigest(), sent_chars=len(text))

    def _from_logprobs(self, backend: Backend, prompts: Sequence[Prompt]) -> list[Verdict]:
        spellings = (*YES_SPELLINGS, *NO_SPELLINGS)
        requests = [LoglikelihoodRequest(prompt, s) for prompt in prompts for s in spellings]
        try:
            results = backend.loglikelihood(requests)
        except LogprobsUnsupported as error:
            raise MlbenchError(f"{error}. A judge can read generated words instead: -J scoring=generate") from None
        per_item = len(spellings)
        verdicts = []
        for i in range(len(prompts)):
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

    def _from_text(self, backend: Backend, prompts: Sequence[Prompt]) -> list[Verdict]:
        requests = [
            GenerationRequest(prompt, max_new_tokens=self.spec.max_new_tokens, temperature=0.0) for prompt in prompts
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
