"""Reading an author's prompt functions without running them (mlbench/data/untrusted/python_source.py)."""

from __future__ import annotations

import pytest

from mlbench.data.untrusted.python_source import UpstreamCode, UpstreamShapeError
from mlbench.errors import MlbenchError
from mlbench.records.budgets import BudgetError

SOURCE = '''import os  # never imported by mlbench


def pick(question, language, bullets=False):
    """Docstrings are skipped."""
    if language == "A":
        extra = "with bullets" if bullets else ""
        text = f"A-text {extra}\\nQ: ```{question}```"
    elif language in ["B", "C"]:
        text = ("B-text "
                f"for {question}")
        text += "!"
    else:
        raise NotImplementedError
    return text


def messages(topic, question):
    return [{'role': 'system', 'content': f'about "{topic}"'},
            {'role': 'user', 'content': f'q: {question}'},
            {'role': 'system', 'content': 'second'}]


def topic_name(lang, topic):
    names = {'x': 'X-name', "y's": 'Y-name'}
    if lang == 'en':
        return topic
    return names[topic]


def broken(topic):
    inputs = {'a': 1
              'b': 2}
    return inputs


def run(args, model):
    def shown(question, answer):
        return f"Q={question} A={answer}"

    for temperature in [0.001, 0.5]:
        model.batch_inference(instruction=f"Answer in {args.language}.", inputs=[], output="Out:")


def loops(items):
    for item in items:
        pass
    return items


def cases(q):
    case_1 = f"one"
    case_2 = f"two {case_1}"
    prompt = f"{q} {case_2}"
    return prompt
'''


@pytest.fixture
def code(tmp_path) -> UpstreamCode:
    path = tmp_path / "prompts.py"
    path.write_text(SOURCE, encoding="utf-8")
    return UpstreamCode(path, "owner/repo@abc1234:prompts.py")


def test_a_function_is_evaluated_on_its_arguments(code):
    assert code.call("pick", question="why?", language="A", bullets=True) == "A-text with bullets\nQ: ```why?```"
    assert code.call("pick", question="why?", language="A") == "A-text \nQ: ```why?```"  # the default
    assert code.call("pick", question="how?", language="C") == "B-text for how?!"
    assert code.call("topic_name", lang="ko", topic="y's") == "Y-name"
    assert code.call("messages", topic="T", question="Q")[1] == {"role": "user", "content": "q: Q"}


def test_dict_literals_keyword_values_nested_functions_and_loops(code):
    assert [d["content"] for d in code.dicts("messages", "role", "system", topic="T", question="Q")] == [
        'about "T"',
        "second",
    ]
    assert code.keyword("run", "batch_inference", "instruction", **{"args.language": "Basque"}) == "Answer in Basque."
    assert code.call("run.shown", question="q", answer="a") == "Q=q A=a"
    assert code.list_items("run", "temperature") == [0.001, 0.5]
    assert code.assigned("cases", "case_2") == "two one"


def test_a_file_that_does_not_compile_still_gives_its_other_functions(code):
    assert code.call("topic_name", lang="en", topic="x") == "x"
    with pytest.raises(UpstreamShapeError, match=r"broken\(\) does not parse \(.*line 3"):
        code.call("broken", topic="t")


def test_what_mlbench_does_not_read_is_one_line_naming_file_and_function(code):
    cases = [
        (lambda: code.call("missing"), "no function missing()"),
        (lambda: code.call("loops", items=[]), r"loops\(\) has For at line"),
        (lambda: code.call("pick", question="q", language="A", extra=1), r"pick\(\) takes question, language"),
        (lambda: code.call("pick", language="A"), r"pick\(\) needs question"),
        (lambda: code.keyword("run", "batch_inference", "nothing"), "calls batch_inference"),
        (lambda: code.assigned("cases", "case_9"), "assigns no case_9"),
    ]
    for call, message in cases:
        with pytest.raises(UpstreamShapeError, match=message) as caught:
            call()
        assert str(caught.value).startswith("owner/repo@abc1234:prompts.py: ") and "\n" not in str(caught.value)
    with pytest.raises(MlbenchError, match=r"pick\(\) has no text for .*language='Z'"):
        code.call("pick", question="q", language="Z")  # the function raises for it
    with pytest.raises(MlbenchError, match="has no entry 'z'"):
        code.call("topic_name", lang="ko", topic="z")


def test_boolean_operators_give_their_operand_and_runaway_texts_stop(tmp_path):
    path = tmp_path / "ops.py"
    path.write_text(
        "def pick(x):\n    return x or 'fallback'\n\n\n"
        "def both(x):\n    return x and 'second'\n\n\n"
        "def grow(x):\n    x += x\n    x += x\n    x += x\n    return x\n",
        encoding="utf-8",
    )
    code = UpstreamCode(path, "ops.py")
    assert code.call("pick", x="") == "fallback" and code.call("pick", x="given") == "given"
    assert code.call("both", x="") == "" and code.call("both", x="a") == "second"
    with pytest.raises(BudgetError, match=r"grow\(\) builds a text of over"):
        code.call("grow", x="a" * 200_000)


def test_nothing_is_imported_or_run(code, tmp_path):
    marker = tmp_path / "ran"
    code.path.write_text(f"open({str(marker)!r}, 'w').write('x')\n\ndef f():\n    return 'ok'\n", encoding="utf-8")
    fresh = UpstreamCode(code.path, code.label)  # read now (a code object keeps the text it read)
    assert fresh.call("f") == "ok" and not marker.exists()
