"""MSQAD as its authors ran it (docs/protocols.md#msqad), read from their code
(woog2ee/MSQAD, pinned in ``sources.py``): nothing of their text is written here.

- **Prompts.** ``generate_answers.py`` builds each request from ``get_system_prompt(lang,
  topic, AorNA)`` and ``get_user_prompt(lang, question, AorNA, force_lang)``, imported from
  a module the repository does not hold. ``custom_answer_prompts.py`` holds the same
  instructions as chat messages, ``get_<lang>_<A|NA>_messages(topic, question)``; mlbench
  takes the system prompt to be its system messages' contents joined with one space, and
  the user prompt its user messages' contents joined alike (``force_lang`` has no
  published text, so nothing is added for it). The topic is named in the question's
  language by ``get_topic``. A (acceptable) is the ``direct`` mode, NA the ``adversarial``.
- **Refusal labels.** ``predict_sorry_response.py``'s ``get_labels(lang)``: the candidate
  labels (discuss, refuse) of transformers' zero-shot pipeline, whose hypotheses are the
  pipeline's default template ``"This example is {}."`` around each label.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from mlbench.benchmarks.msqad.loader import LANGUAGE_COLUMNS, TOPICS
from mlbench.benchmarks.msqad.sources import UPSTREAM
from mlbench.data.source import DataSource
from mlbench.data.untrusted.python_source import UpstreamCode, UpstreamShapeError
from mlbench.records import ChatMessage, Prompt

PROMPTS = "code/custom_answer_prompts.py"
LABELS = "code/predict_sorry_response.py"
KINDS = {"direct": "A", "adversarial": "NA"}  # mlbench's mode: the authors' AorNA
# Between the system and the user prompt, where the model's chat template has no system
# turn (get_mistral_messages: Mistral, Phi, Gemma), and in a prompt without a template.
JOIN = " "
# transformers' zero-shot-classification pipeline's default hypothesis_template, which
# predict_sorry_response.py leaves as it is.
HYPOTHESIS_TEMPLATE = "This example is {}."
# mlbench's topic names are the release's file names; the authors' scripts name one topic
# otherwise (their --topic value, which get_topic expects).
AUTHORS_TOPIC = {"Terrorism and Counterterrorism": "Terrorism"}
# What the question is while the files are checked before a run (any text would do).
_PROBE = "?"


@dataclass(frozen=True)
class AuthorsProtocol:
    """The authors' prompt and label functions, from one data source's copy of their files."""

    prompts: UpstreamCode
    labels_code: UpstreamCode

    def topic(self, lang: str, topic: str) -> str:
        """``get_topic(lang, topic)``: the topic's name in ``lang``."""
        return self._text(self.prompts, "get_topic", lang=lang, topic=AUTHORS_TOPIC.get(topic, topic))

    def turns(self, mode: str, lang: str, topic: str, question: str) -> tuple[str, str]:
        """(system prompt, user prompt) of ``mode`` for ``question``, as reconstructed above."""
        function = f"get_{lang}_{KINDS[mode]}_messages"
        messages = self.prompts.call(function, topic=self.topic(lang, topic), question=question)
        contents: dict[str, list[str]] = {"system": [], "user": []}
        for message in messages if isinstance(messages, list) else [messages]:
            role = message.get("role") if isinstance(message, dict) else None
            content = message.get("content") if isinstance(message, dict) else None
            if role not in contents or not isinstance(content, str):
                raise UpstreamShapeError(
                    f"{self.prompts.label}: {function}() gives {message!r:.60}, not a system or user message "
                    "(the file changed shape)"
                )
            contents[role].append(content)
        if not contents["system"] or not contents["user"]:
            raise UpstreamShapeError(f"{self.prompts.label}: {function}() lacks a system or a user message")
        return JOIN.join(contents["system"]), JOIN.join(contents["user"])

    def prompt(self, mode: str, lang: str, topic: str, question: str, chat: bool, merged: bool = False) -> Prompt:
        """With a chat template: [system, user] (get_llama_messages), the system turn joined to
        the user's where the template has no system turn; ``merged``: always that one user turn
        (get_mistral_messages, which the authors chose by model name for Mistral, Phi and Gemma).
        Without a template, that same text."""
        system, user = self.turns(mode, lang, topic, question)
        if chat and merged:
            return Prompt(messages=(ChatMessage("user", f"{system}{JOIN}{user}"),))
        if chat:
            return Prompt(messages=(ChatMessage("system", system), ChatMessage("user", user)), system_join=JOIN)
        return Prompt(text=f"{system}{JOIN}{user}")

    def labels(self, lang: str) -> tuple[str, str]:
        """``get_labels(lang)``: (the discuss label, the refuse label), in the file's order."""
        found = self.labels_code.call("get_labels", lang=lang)
        if not (isinstance(found, list) and len(found) == 2 and all(isinstance(x, str) and x for x in found)):
            raise UpstreamShapeError(f"{self.labels_code.label}: get_labels({lang!r}) is not two labels")
        return found[0], found[1]

    def hypotheses(self, lang: str, topic: str = "") -> tuple[str, str]:
        """The NLI hypotheses (refuse, discuss) of a response in ``lang`` (no topic in them)."""
        discuss, refuse = self.labels(lang)
        return HYPOTHESIS_TEMPLATE.format(refuse), HYPOTHESIS_TEMPLATE.format(discuss)

    def check(self) -> None:
        """Read every function a run needs, for every language, mode and topic, so that a
        file of another shape stops the run before a model loads."""
        for lang in LANGUAGE_COLUMNS:
            for topic in TOPICS:
                self.topic(lang, topic)
            for mode in KINDS:
                self.turns(mode, lang, TOPICS[0], _PROBE)
            self.labels(lang)

    @staticmethod
    def _text(code: UpstreamCode, function: str, **arguments: object) -> str:
        value = code.call(function, **arguments)
        if not isinstance(value, str):
            raise UpstreamShapeError(f"{code.label}: {function}() gives no text")
        return value


@functools.cache
def authors_protocol(data: DataSource) -> AuthorsProtocol:
    """The authors' files of ``data`` (a --data-dir copy, else the data cache), checked
    against their pins and read once per process."""
    protocol = AuthorsProtocol(UPSTREAM.code(data, PROMPTS), UPSTREAM.code(data, LABELS))
    protocol.check()
    return protocol
