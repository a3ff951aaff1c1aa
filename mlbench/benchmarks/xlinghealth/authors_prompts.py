"""XLingHealth's prompts as its authors sent them, read from their code (claws-lab/XLingEval,
pinned in ``sources.py``): nothing of their text is written here.

Per mode, what the authors' scripts send (docs/protocols.md#xlinghealth):

- **correctness** (``correctness/correctness_get_gpt_answer.py``): the system message of
  ``get_eval`` (English, naming the answer's language), the question as the user turn.
- **consistency** (``consistency/prompts.py``): ``prompt_consistency(question, language,
  use_bullet_point=False)`` as the user turn, under the medical-expert system message of
  ``utils/utils_chatgpt.py``'s ``get_response`` (its first system message).
- **verifiability** (``verifiability/prompts.py``): ``prompt_verifiability(question,
  response, language)`` under the same system message.
- **the correctness judge** (``correctness/correctness_answer_evaluation.py``): the system
  message of its ``get_eval`` and ``prompt_type(question, answer_1, answer_2, lang)``; its
  four option strings are the ``case_<n>_string`` values of ``prompt_type``.

For a model run without a chat template the authors used MedAlpaca's prompt layout
(``primer``, then ``instruction``, ``input`` and ``output`` markers each followed by its
text), with the template, instruction and output prefix of each mode's MedAlpaca script.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from mlbench.benchmarks.xlinghealth.sources import UPSTREAM
from mlbench.data.source import DataSource
from mlbench.data.untrusted.python_source import UpstreamShapeError
from mlbench.errors import MlbenchError
from mlbench.records import ChatMessage, Prompt

LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "zh": "Chinese", "hi": "Hindi"}  # the authors' spelling
ANSWER = "correctness/correctness_get_gpt_answer.py"
JUDGE = "correctness/correctness_answer_evaluation.py"
CONSISTENCY = "consistency/prompts.py"
VERIFY = "verifiability/prompts.py"
SYSTEM = "utils/utils_chatgpt.py"
MEDALPACA = {  # mode: (its script, the function that calls the model, its template)
    "correctness": (
        "correctness/MedAlpaca/correctness_medalpaca_get_answers.py",
        "accuracy_medalpaca",
        "correctness/MedAlpaca/medalpaca_accuracy_prompt.json",
    ),
    "consistency": (
        "consistency/consistency_get_medalpaca_answer.py",
        "run_consistency_medalpaca",
        "consistency/Medalpaca/prompt_templates/medalpaca_consistency.json",
    ),
    # verifiability/Medalpaca/model_medalpaca.py loads the consistency template too.
    "verifiability": (
        "verifiability/verifiability_get_answer.py",
        "run_verifiability",
        "consistency/Medalpaca/prompt_templates/medalpaca_consistency.json",
    ),
}
# Between a system turn and the user's, for a chat template that shows no system turn.
SYSTEM_JOIN = "\n\n"


@dataclass(frozen=True)
class MedAlpacaTemplate:
    primer: str
    instruction: str
    input: str
    output: str

    def text(self, instruction: str, input: str, output: str) -> str:
        """The prompt MedAlpaca's ``DataHandler.generate_prompt`` makes of the three texts."""
        return f"{self.primer}{self.instruction}{instruction}{self.input}{input}{self.output}{output}"


class AuthorsPrompts:
    """The authors' prompts, from the files found for one data source."""

    def __init__(self, data: DataSource) -> None:
        # Every file found, checked against its pin and read once, now: a missing, changed or
        # wrongly shaped one stops the run before a model loads.
        self._code = {path: UPSTREAM.code(data, path) for path in UPSTREAM.paths if path.endswith(".py")}
        self._templates = {
            path: _template(path, UPSTREAM.text(data, path)) for path in UPSTREAM.paths if path.endswith(".json")
        }
        self.medical_system = _content(self._code[SYSTEM].dicts("get_response", "role", "system")[0], SYSTEM)
        self.judge_system = _content(_one(self._code[JUDGE].dicts("get_eval", "role", "system"), JUDGE), JUDGE)
        for lang in LANGUAGE_NAMES:
            self.answer_system(lang)

    # -- the three modes ---------------------------------------------------------------------

    def answer_system(self, lang: str) -> str:
        found = self._code[ANSWER].dicts("get_eval", "role", "system", lang=LANGUAGE_NAMES[lang])
        return _content(_one(found, ANSWER), ANSWER)

    def correctness(self, lang: str, question: str, chat: bool) -> Prompt:
        if chat:
            return _turns(self.answer_system(lang), question)
        return Prompt(text=self._medalpaca("correctness", lang, question))

    def consistency(self, lang: str, question: str, chat: bool) -> Prompt:
        if chat:
            text = self._text(CONSISTENCY, "prompt_consistency", question=question,
                              language=LANGUAGE_NAMES[lang], use_bullet_point=False)  # fmt: skip
            return _turns(self.medical_system, text)
        return Prompt(text=self._medalpaca("consistency", lang, question))

    def verifiability(self, lang: str, question: str, answer: str, chat: bool) -> Prompt:
        if chat:
            text = self._text(VERIFY, "prompt_verifiability", question=question, response=answer,
                              language=LANGUAGE_NAMES[lang])  # fmt: skip
            return _turns(self.medical_system, text)
        script, caller, _ = MEDALPACA["verifiability"]
        shown = self._text(script, f"{caller}.format_question", question=question, answer=answer)
        return Prompt(text=self._medalpaca("verifiability", lang, shown))

    # -- the correctness judge -----------------------------------------------------------------

    def judge(self, lang: str, question: str, reference: str, answer: str, chat: bool) -> Prompt:
        text = self._text(JUDGE, "prompt_type", question=question, answer_1=reference, answer_2=answer,
                          lang=LANGUAGE_NAMES[lang])  # fmt: skip
        return _turns(self.judge_system, text) if chat else Prompt(text=text)

    def judge_options(self) -> tuple[str, ...]:
        """The judge's four option strings, in ``prompt_type``'s order (cases 1 to 4)."""
        code = self._code[JUDGE]
        return tuple(str(code.assigned("prompt_type", f"case_{n}_string")) for n in range(1, 5))

    # -- reading the files -------------------------------------------------------------------

    def _text(self, path: str, function: str, **arguments: object) -> str:
        value = self._code[path].call(function, **arguments)
        if not isinstance(value, str):
            raise UpstreamShapeError(f"{self._code[path].label}: {function}() gives no text")
        return value

    def _medalpaca(self, mode: str, lang: str, input_text: str) -> str:
        script, caller, template_path = MEDALPACA[mode]
        names = {"target_language": LANGUAGE_NAMES[lang], "args.target_language": LANGUAGE_NAMES[lang]}
        instruction = self._code[script].keyword(caller, "batch_inference", "instruction", **names)
        output = self._code[script].keyword(caller, "batch_inference", "output", **names)
        template = self._templates[template_path]
        # The consistency template's primer names the answer's language as LANGUAGE_NAME. The
        # released Inferer calls str.replace on it and drops the result, so its runs kept the
        # placeholder; mlbench puts the language in, as that line meant to.
        primer = template.primer.replace("LANGUAGE_NAME", LANGUAGE_NAMES[lang])
        filled = MedAlpacaTemplate(primer, template.instruction, template.input, template.output)
        return filled.text(str(instruction), input_text, str(output))


@functools.cache
def authors_prompts(data: DataSource) -> AuthorsPrompts:
    """The prompts of ``data``'s copy of the authors' files (read and checked once)."""
    return AuthorsPrompts(data)


def _template(path: str, text: str) -> MedAlpacaTemplate:
    try:
        data = json.loads(text)
        return MedAlpacaTemplate(*(str(data[key]) for key in ("primer", "instruction", "input", "output")))
    except (ValueError, KeyError, TypeError) as error:
        label = f"{UPSTREAM.record()['repository']}:{path}"
        raise UpstreamShapeError(f"{label}: not a MedAlpaca prompt template ({error})") from None


def _turns(system: str, user: str) -> Prompt:
    return Prompt(messages=(ChatMessage("system", system), ChatMessage("user", user)), system_join=SYSTEM_JOIN)


def _one(found: list[dict[str, object]], path: str) -> dict[str, object]:
    if len(found) != 1:
        raise UpstreamShapeError(f"{path}: {len(found)} system messages where mlbench reads one (the file changed)")
    return found[0]


def _content(message: dict[str, object], path: str) -> str:
    content = message.get("content")
    if not isinstance(content, str) or not content:
        raise MlbenchError(f"{path}: a system message without text")
    return content
