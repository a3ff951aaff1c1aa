"""The readers' budgets beyond the issue's twenty findings (a review's tries): Jinja that
grows a value through filters, concatenation or nested lists; module code that binds a
prompt function's name where no assignment shows it; YAML numbers past Python's; each a
refusal in seconds, and templates and files that are fine still read as before."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from mlbench.data.untrusted.jinja_prompt import render_jinja
from mlbench.data.untrusted.python_module import Refused, functions
from mlbench.data.untrusted.python_source import UpstreamCode, UpstreamShapeError
from mlbench.data.untrusted.yaml_document import load_yaml
from mlbench.errors import MlbenchError
from mlbench.records.budgets import BudgetError, shown

DOC = {"question": "Q?", "mc1_targets": {"choices": ["a", "b"], "labels": [1, 0]}}


@pytest.mark.parametrize(
    ("template", "said"),
    [
        ("{{ [[1]*100000]*100000 }}", "repeats a text or list"),
        ("{{ ([question] * 1000)|map('center', 3000)|join }}", "joins a text"),
        ("{% set a = question %}" + "{% set a = a ~ a %}" * 40 + "{{ a }}", "concatenates"),
        ("{% set a = question %}" + "{% set a = a + a %}" * 40 + "{{ a }}", "adds texts"),
        ("{{ question|tojson(99999999) }}", "indents JSON"),
        ("{{ '{0:{1}}'.format('x', 999999999) }}", "given as a field"),
        ("{{ '%(a)999999999s' % {'a': 'x'} }}", "width too large"),
        ("{{ question|center(width=999999999) }}", "center too wide"),
    ],
)
def test_jinja_that_grows_a_value_stops_in_seconds(template, said):
    started = time.monotonic()
    with pytest.raises(BudgetError, match=said):
        render_jinja(template, DOC, "task.yaml")
    assert time.monotonic() - started < 20


def test_jinja_that_is_fine_renders_as_the_plain_sandbox_does():
    from jinja2 import StrictUndefined
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    template = (
        "Q: {{question}}\n{% for c in mc1_targets.choices %}- {{c}}\n{% endfor %}{{ mc1_targets.choices|join(', ') }}"
        "{{ mc1_targets.choices|map('upper')|join('/') }}{{ 'ab x'|replace('x', 'y') }}{{ question ~ '!' }}"
        "{{ '%s.' % question }}{{ '{}'.format(question) }}{{ question|center(9) }}{{ question|tojson }}\n"
    )
    plain = ImmutableSandboxedEnvironment(undefined=StrictUndefined, keep_trailing_newline=True)
    assert render_jinja(template, DOC, "task.yaml") == plain.from_string(template).render(**DOC)


def test_a_template_error_is_one_line():
    with pytest.raises(MlbenchError) as raised:
        render_jinja("{{ '{0:a\nb}'.format(1) }}", DOC, "task.yaml")
    assert "\n" not in str(raised.value) and str(raised.value).startswith("task.yaml: ")


BASE = "def p0(doc):\n    return 'body'\n\n\ndef p1(doc):\n    return 'other'\n\n\n"
REBINDS = [
    "locals()['p0'] = p1",
    "try:\n    pass\nexcept Exception as p0:\n    pass",
    "match 1:\n    case p0:\n        pass",
    "def g(x=(p0 := p1)):\n    pass",
    "class A:\n    globals()['p0'] = p1",
    "g = lambda x=(p0 := p1): x",
    "@(lambda f: globals().update(p0=p1) or f)\ndef h():\n    pass",
    "import sys\nsys.modules[__name__].p0 = p1",
    "from m import *",
    "def evil(f):\n    global p0\n    p0 = p1\n    return f",
    "def evil(f):\n    globals()['p0'] = p1\n    return f",
]
BINDS_NOTHING = [
    "p0: object",
    "if __name__ == '__main__':\n    p0 = p1",
    "[p0 for p0 in []]",
    "import os\nfrom re import compile",
    "CONST = {'a': 1}",
]


@pytest.mark.parametrize("after", REBINDS)
def test_a_name_bound_where_no_assignment_shows_it_is_refused(after):
    assert isinstance(functions(BASE + after + "\n", "u.py")["p0"], Refused)


@pytest.mark.parametrize("after", BINDS_NOTHING)
def test_module_code_that_leaves_the_name_alone_is_read(after):
    assert not isinstance(functions(BASE + after + "\n", "u.py")["p0"], Refused)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("l = ['a']\n" + "    l = l + l\n" * 16
         + "    return ''.join(list(map(lambda a: ''.join(list(map(lambda b: '', l))), l)))", "evaluates over"),
        ("return f'{" + "0x" + "f" * 5000 + "}'", "writes a number"),
    ],
)  # fmt: skip
def test_a_prompt_function_that_runs_long_stops(body, said):
    code = UpstreamCode(Path("u.py"), "u.py", f"def f(doc):\n    {body}\n")
    started = time.monotonic()
    with pytest.raises(BudgetError, match=said):
        code.call("f", doc={})
    assert time.monotonic() - started < 20


def test_a_file_that_does_not_compile_is_read_function_by_function_in_linear_time():
    text = "def a(doc):\n    return 'x'\n" * 20_000 + "(\n"
    started = time.monotonic()
    assert not isinstance(functions(text, "u.py")["a"], Refused)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("number", ["1" * 5000, "1:" * 1000 + "1.5"])
def test_yaml_numbers_past_pythons_are_one_line(number):
    with pytest.raises(BudgetError, match="a number"):
        load_yaml(f"num_fewshot: {number}\n", "task.yaml")


def test_shown_cuts_numbers_repr_refuses():
    huge = load_yaml("x: 0x" + "f" * 5000, "task.yaml")["x"]  # YAML reads hex of any length
    assert shown(huge) == "<a number of 20,000 bits>" and shown([huge]) == "<a list>"


@pytest.mark.parametrize("binding", ["p1 = lambda doc: 'x'", "from os import sep as p1"])
def test_a_name_that_is_not_a_def_says_so(binding):
    with pytest.raises(UpstreamShapeError, match=r"p1\(\) is not a def: the module binds the name at line 1"):
        UpstreamCode(Path("u.py"), "u.py", binding + "\n").call("p1", doc={})
