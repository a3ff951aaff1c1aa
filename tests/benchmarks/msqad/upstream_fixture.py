"""The authors' code files MSQAD reads its prompts and refusal labels from, for the tests:
``upstream/msqad/code/custom_answer_prompts.py`` and ``code/predict_sorry_response.py``
under the ``--data-dir`` folder, in the shape of woog2ee/MSQAD's (the same function names,
signatures, if/elif chains and lists of chat messages; a function that does not compile;
a variant named with a trailing underscore) but with text written for these tests.

Each function's source is kept here by name (``PROMPT_FUNCTIONS``, ``LABEL_FUNCTIONS``),
so that a test can run it with Python itself: the reference mlbench's reading is held to.
"""

from __future__ import annotations

from pathlib import Path

from mlbench.benchmarks.msqad.loader import TOPICS

LANGS = ("en", "ko", "zh", "es", "de", "hi")
# Each language's mark in the fixture's text: non-ASCII where the language has its own script.
MARK = {"en": "FX-en", "ko": "FX-한국어", "zh": "FX-中文", "es": "FX-español", "de": "FX-Deutsch", "hi": "FX-हिन्दी"}
# The authors name this topic by their --topic value, which get_topic maps.
AUTHORS_KEYS = [t if t != "Terrorism and Counterterrorism" else "Terrorism / Counterterrorism" for t in TOPICS]


def _literal(text: str) -> str:
    """A Python string literal of ``text``: an f-string when it has a {topic} or {question}."""
    prefix = "f" if "{topic}" in text or "{question}" in text else ""
    return prefix + repr(text)


def _messages(lang: str, kind: str) -> list[tuple[str, str]]:
    """(role, text) of get_<lang>_<kind>_messages, in order; {topic} and {question} left to fill."""
    mark = MARK[lang]
    system = [f"{mark} {kind} system: a question on “{{topic}}” follows.", f"{mark} {kind} system: write it."]
    user = [f"{mark} {kind} user: be brief.", f"{mark} {kind} question: {{question}}", f"{mark} {kind} answer: "]
    if kind == "NA":  # the non-acceptable messages say a little more, as upstream's do
        user.insert(0, f"{mark} NA user: no limits here.")
        user.insert(-1, f"{mark} NA user: „once more“.")
    return [("system", text) for text in system] + [("user", text) for text in user]


def _messages_function(lang: str, kind: str) -> str:
    lines = [f"def get_{lang}_{kind}_messages(topic, question):", "    messages=["]
    items = _messages(lang, kind)
    for index, (role, text) in enumerate(items):
        if index and role != items[index - 1][0]:
            lines.append("    " if kind == "NA" else "")  # a blank line, with spaces in it as upstream's have
        end = "}]" if index == len(items) - 1 else "},"
        lines.append(f"    {{'role': '{role}', 'content': {_literal(text)}{end}")
    lines.append("    return messages")
    return "\n".join(lines) + "\n"


def _topic_function() -> str:
    lines = [
        "def get_topic(lang, topic):",
        "    if topic == 'Terrorism':",
        "        topic = 'Terrorism / Counterterrorism'",
        "",
        "    if lang == 'en':",
        "        return topic",
    ]
    for lang in LANGS[1:]:
        names = ", ".join(f"{key!r}: {f'{MARK[lang]} {key}'!r}" for key in AUTHORS_KEYS)
        lines += [f"    elif lang == '{lang}':", f"        topic_{lang}_dict = {{{names}}}",
                  f"        return topic_{lang}_dict[topic]"]  # fmt: skip
    return "\n".join(lines) + "\n"


# Upstream's get_en_A_prompt does not compile (a comma missing in a dict); so does this one.
BROKEN = """# a prompt format, noted as upstream notes one
def get_en_A_prompt(topic, question):
    system_prompt = f'FX-en broken about {topic}'
    inputs = {'system_prompt': system_prompt
              'interactions': [{'user': question}]}
    return inputs
"""
# A variant mlbench must not read (upstream's get_en_A_messages_).
VARIANT = """def get_en_A_messages_(topic, question):
    messages=[
    #{'role': 'system', 'content': 'FX-en commented out'},
    {'role': 'user', 'content': f'FX-en variant, not read: {question}'}]
    return messages
"""
LABELS = {lang: [f"{MARK[lang]} discusses the issue", f"{MARK[lang]} declines"] for lang in LANGS}
LABEL_FUNCTIONS = {
    "get_labels": f"def get_labels(lang):\n    labels_dict = {LABELS!r}\n    return labels_dict[lang]\n",
}
PROMPT_FUNCTIONS = {
    "get_topic": _topic_function(),
    **{f"get_{lang}_{kind}_messages": _messages_function(lang, kind) for lang in LANGS for kind in ("A", "NA")},
}
LABELS_SCRIPT = """

def predict(text_lst, lang, classifier, labels):
    predicted_lst = []
    for text in text_lst:
        output = classifier(text, labels, multi_label=False)
        predicted_lst.append(output['labels'])
    return predicted_lst


if __name__ == '__main__':
    classifier = pipeline("zero-shot-classification", model="a-model")
    print(predict(['a text'], 'en', classifier, get_labels('en')))
"""


def prompts_file() -> str:
    functions = [PROMPT_FUNCTIONS["get_topic"], BROKEN, VARIANT]
    functions += [PROMPT_FUNCTIONS[f"get_{lang}_{kind}_messages"] for lang in LANGS for kind in ("A", "NA")]
    return "\n".join(functions)


def labels_file() -> str:
    return "# coding:utf-8\nfrom transformers import pipeline\n\n\n" + LABEL_FUNCTIONS["get_labels"] + LABELS_SCRIPT


def run_function(source: str, name: str, **arguments: object) -> object:
    """What Python itself returns for function ``name`` of ``source`` (a test's reference)."""
    namespace: dict = {}
    exec(source, namespace)  # noqa: S102 - our own fixture text
    return namespace[name](**arguments)


def write_upstream(data_dir: Path) -> None:
    """The two files at ``data_dir/upstream/msqad/code/``."""
    folder = data_dir / "upstream" / "msqad" / "code"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "custom_answer_prompts.py").write_text(prompts_file(), encoding="utf-8")
    (folder / "predict_sorry_response.py").write_text(labels_file(), encoding="utf-8")
