"""TruthfulQA-Multi's truth and info judges as their authors ran them (``-J protocol=authors``):
the text, chat turns, token count and reading of their judge script, read from it by
``authors_judge_code`` (docs/judges.md#truthfulqa-multis-judge-protocols).

What the script does with a logged line, and mlbench with a saved sample:

- the judged text is built from the question and the model's raw completion (lm-eval's
  ``filtered_resps[0]``; mlbench's ``outputs.generation``), with the answer's own spacing;
- a judge with a chat template (the script's ``--instruct``) gets that text cut short, in
  the turns the script gives the judge's model class (read from its config, as
  ``AutoModelForCausalLM`` picks the class), rendered by the judge's tokenizer with the
  generation prompt; the tokenizer then adds its own BOS in front, as the script's
  ``tokenizer(text)`` does (``Prompt.tokenizer_bos``);
- the judge writes the script's few tokens greedily, and the label is what follows the
  script's marker in the decoded prompt and answer; only the script's yes word is a yes,
  anything else counts against the share (as the script's counts do).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from mlbench.backends.base import Backend
from mlbench.backends.registry import ModelOptions
from mlbench.backends.tokenizer import chat_template_hash
from mlbench.benchmarks.truthfulqa_multi.authors_judge_code import LABELS, AuthorsJudgeCode, ChatLayout, judge_code
from mlbench.benchmarks.truthfulqa_multi.sources import JUDGE_UPSTREAM
from mlbench.errors import MlbenchError
from mlbench.judges.judge import Judge
from mlbench.judges.options import JudgeProtocol
from mlbench.judges.parsing import UNPARSED
from mlbench.records import GenerationRequest, JudgeItem, Prompt, Verdict
from mlbench.records.jsontypes import JsonObject, settings_digest


@dataclass(frozen=True)
class JudgeModel:
    """What the authors' protocol needs of the judge model beside its backend: its tokenizer
    (None: a server's, not loadable here) and the class transformers loads it as."""

    tokenizer: Any
    model_class: str | None


class AuthorsJudge(Judge):
    """The truth or info judge of the authors' script, for one judge model."""

    protocol = "authors"
    reads = "generation"  # the raw completion, as the script reads lm-eval's log

    def __init__(self, judge: Judge, code: AuthorsJudgeCode, model: JudgeModel, upstream: JsonObject) -> None:
        kind = judge.spec.kind
        template = chat_template_hash(model.tokenizer) if model.tokenizer is not None else None
        # The judge renders its chat template itself: the template joins the hash (a served
        # judge's fingerprint is its name alone).
        digest = settings_digest(["authors", upstream, template])
        spec = replace(judge.spec, max_new_tokens=code.max_new_tokens, sha256=digest)
        super().__init__(spec, chat=judge.chat, scoring="generate")
        self.code, self.model = code, model
        self.layout = chat_layout(code, model) if self.chat else None
        self.label = kind
        self.checked = False  # the first chat prompt's tokens, checked against the script's

    def prompt(self, item: JudgeItem) -> Prompt:
        # The question as lm-eval's task gives it to the log (stripped: its process_docs), which
        # the script reads as ``line['doc']['question']``.
        instruction = self.code.instruction(self.label, item.question.strip(), item.answer)
        if self.layout is None:
            return Prompt(text=instruction)
        turns = self.code.turns(self.layout, self.label, instruction[: self.code.cut])
        text = self.model.tokenizer.apply_chat_template(turns, add_generation_prompt=True, tokenize=False)
        prompt = Prompt(text=text, tokenizer_bos=True)
        if not self.checked:
            self._check_tokens(prompt)
        return prompt

    def _check_tokens(self, prompt: Prompt) -> None:
        """The ids mlbench's backends make of the prompt are the script's ``tokenizer(text)``."""
        from mlbench.backends.chat import encode, render_prompt

        tokenizer = self.model.tokenizer
        if encode(tokenizer, render_prompt(tokenizer, prompt)) != tokenizer(prompt.text)["input_ids"]:
            raise MlbenchError(
                "-J protocol=authors: this judge's tokenizer adds special tokens mlbench cannot send as the "
                "authors' script does; use -J protocol=trained"
            )
        self.checked = True

    def verdicts(self, backend: Backend, items: Sequence[JudgeItem]) -> list[Verdict]:
        prompts = [self.prompt(item) for item in items]
        requests = [GenerationRequest(p, max_new_tokens=self.code.max_new_tokens, temperature=0.0) for p in prompts]
        found = []
        for prompt, generation in zip(prompts, backend.generate(requests) if requests else []):
            if generation.error:
                verdict = Verdict(error=generation.error)
            else:
                verdict = self.reading(self._decoded(prompt) + generation.text)
            found.append(self.kept(replace(verdict, usage=generation.usage), backend, prompt))
        return found

    def reading(self, out: str) -> Verdict:
        """The verdict of the script's decoded output ``out`` (prompt and answer): its label
        string kept as ``output``, yes only where it is the script's yes word."""
        label = self.code.label_of(out, self.label, self.chat)
        if label is None:  # no marker (``chat_layout`` refuses templates that write none)
            return Verdict(label=UNPARSED, output=out[-200:])
        return Verdict(label="yes" if label == self.code.yes else "no", output=label)

    def _decoded(self, prompt: Prompt) -> str:
        """The prompt as the script's ``batch_decode(..., skip_special_tokens=True)`` gives it
        back (the judge's answer follows it there)."""
        text = prompt.text or ""
        tokenizer = self.model.tokenizer
        if tokenizer is None:
            return text  # a base judge on a server: its plain text decodes to itself
        return str(tokenizer.decode(tokenizer(text)["input_ids"], skip_special_tokens=True))


def authors_judge(judge: Judge, protocol: JudgeProtocol, run_config: JsonObject) -> Judge:
    """The authors' judge of ``judge``'s kind for TruthfulQA-Multi (``check_authors`` has
    passed before the judge model loaded)."""
    assert protocol.model is not None
    data = JUDGE_UPSTREAM.run_source(run_config)
    return AuthorsJudge(judge, judge_code(data), judge_model(protocol.model), JUDGE_UPSTREAM.record())


def check_authors(protocol: JudgeProtocol, kinds: tuple[str, ...], run_config: JsonObject, chat: bool | None) -> None:
    """Everything ``-J protocol=authors`` can refuse, before the judge model loads: another
    kind of judge, scoring by log-probs, the script missing or changed, and a judge the
    script has no chat for (with ``chat`` resolved as the stage will: a chat template, or
    a server, means an instruct judge)."""
    others = [kind for kind in kinds if kind not in LABELS]
    if others:
        raise MlbenchError(
            f"-J protocol=authors is for the {' and '.join(LABELS)} judges, not {', '.join(others)}: "
            "judge those in a job of their own"
        )
    if protocol.scoring == "logprob":
        raise MlbenchError("-J protocol=authors reads the words the judge writes: drop -J scoring=logprob")
    code = judge_code(JUDGE_UPSTREAM.run_source(run_config))
    if protocol.model is None:
        return
    model = judge_model(protocol.model)
    if chat is None:
        chat = protocol.model.runs_on == "openai" or bool(getattr(model.tokenizer, "chat_template", None))
    if chat:
        chat_layout(code, model)


def chat_layout(code: AuthorsJudgeCode, model: JudgeModel) -> ChatLayout:
    """The script's chat turns for the judge's class, whose rendered generation prompt holds
    one of the script's output markers (else every label would be unreadable)."""
    if model.tokenizer is None:
        raise MlbenchError(
            "-J protocol=authors renders the judge's chat template itself: give the served judge's "
            "tokenizer with -J tokenizer=NAME (or -J chat_template=false for a base judge)"
        )
    layout = code.layout_for(model.model_class or "")
    if layout is None:
        known = ", ".join(sorted(c for layout in code.layouts for c in layout.classes))
        shown = model.model_class or "model of unknown class"
        raise MlbenchError(
            f"-J protocol=authors: the authors' script has no chat for a {shown} judge (only {known}); "
            "use -J protocol=trained, or -J chat_template=false to judge as a base model"
        )
    tokenizer = model.tokenizer
    probe = tokenizer.apply_chat_template(
        code.turns(layout, LABELS[0], "x"), add_generation_prompt=True, tokenize=False
    )
    decoded = str(tokenizer.decode(tokenizer(probe)["input_ids"], skip_special_tokens=True))
    if not any(marker in decoded for marker in code.chat_markers):
        markers = " or ".join(repr(m) for m in code.chat_markers)
        raise MlbenchError(
            f"-J protocol=authors: the script reads the label after {markers}, which this judge's chat template "
            "does not write; use -J protocol=trained"
        )
    return layout


@cache
def judge_model(options: ModelOptions) -> JudgeModel:
    """The judge's tokenizer and model class, loaded as the script loads them (once per model)."""
    from mlbench.backends.tokenizer import load_tokenizer

    given = dict(options.given)
    tokenizer_name = given.get("tokenizer")
    trust = bool(given.get("trust_remote_code", False))
    if options.runs_on == "openai":  # the served model's class: that of the tokenizer's checkpoint
        if tokenizer_name is None:
            return JudgeModel(None, None)
        tokenizer = load_tokenizer(str(tokenizer_name), trust_remote_code=trust)
        return JudgeModel(tokenizer, _model_class(str(tokenizer_name), trust))
    tokenizer = load_tokenizer(str(tokenizer_name or options.model), trust_remote_code=trust)
    return JudgeModel(tokenizer, _model_class(options.model, trust))


def _model_class(model: str, trust_remote_code: bool) -> str | None:
    """The class ``AutoModelForCausalLM`` loads ``model`` as (None: none it names)."""
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    from mlbench.backends.tokenizer import first_line

    try:
        config = AutoConfig.from_pretrained(model, trust_remote_code=trust_remote_code)
    except (OSError, ValueError) as error:
        raise MlbenchError(
            f"-J protocol=authors reads the judge's class from its config: {first_line(error)}"
        ) from None
    return MODEL_FOR_CAUSAL_LM_MAPPING_NAMES.get(str(getattr(config, "model_type", "")))
