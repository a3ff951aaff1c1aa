"""The few calls a prompt function may make (mlbench/data/untrusted/python_calls.py), evaluated by
python_source's interpreter: str.format with plain fields, join, strip, list, map over a
one-argument lambda; anything else is the file changing shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlbench.data.untrusted.python_source import UpstreamCode, UpstreamShapeError


def _code(body: str) -> UpstreamCode:
    return UpstreamCode(Path("utils.py"), "utils.py", "def f(doc):\n" + body)


def test_noreval_shaped_calls_give_what_python_gives():
    body = (
        '    prompt = "Q: {question}\\nA:{choices}"\n'
        '    choices = "".join(list(map(lambda c: f"\\n- {c}", doc["choices"])))\n'
        '    return prompt.format(question=doc["q"].strip(), choices=choices)\n'
    )
    doc = {"q": "  Why {x}?  ", "choices": ["a {b}", "c"]}
    namespace: dict = {}
    exec("def f(doc):\n" + body, namespace)  # noqa: S102 (the test's own text, for the reference value)
    assert _code(body).call("f", doc=doc) == namespace["f"](doc) == "Q: Why {x}?\nA:\n- a {b}\n- c"


@pytest.mark.parametrize(
    "body",
    [
        '    return "{x.__class__}".format(x=doc["q"])\n',  # an attribute in a field
        '    return "{0}".format(doc["q"])\n',  # a positional argument
        '    return "{q!r}".format(q=doc["q"])\n',  # a conversion
        '    return "".join(map(len, doc["choices"]))\n',  # map over something not a lambda
        '    return "".join(list(map(lambda a, b: a, doc["choices"])))\n',  # two parameters
        '    return open(doc["q"])\n',  # any other call
        '    return doc["q"].upper()\n',  # a string method not read
        '    return ",".join([1, 2])\n',  # joining what is not text
    ],
)
def test_any_other_call_is_the_file_changing_shape(body):
    with pytest.raises(UpstreamShapeError, match="changed shape"):
        _code(body).call("f", doc={"q": "x", "choices": ["a"]})
