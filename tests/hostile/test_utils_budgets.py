"""Issue 50, findings 6-9: an author's ``utils.py`` whose prompt function builds without
bound (a list doubled forty times, a list holding itself sixty times over, then written
out), nests past what the parser or the interpreter holds, or is not the body Python
would call (decorated, bound again). Each run is a child process under a 4 GB address
space; each refusal one line, exit 2, in seconds. A function that is read gives what
Python gives when it runs the same file (run here, in the test only)."""

from __future__ import annotations

import pytest

from mlbench.data.untrusted.python_source import UpstreamCode, UpstreamShapeError
from tests.hostile.untrusted_files import assert_refused, hostile_copy, run_bounded, run_here


def _utils(body: str, after: str = "") -> str:
    """A utils.py whose ``p1_nb(doc)`` is ``body`` (indented), ``after`` at module level."""
    indented = "".join(f"    {line}\n" for line in body.strip().splitlines())
    return f"def p1_nb(doc):\n{indented}\n\n{after}"


def _run(tiny_model, tmp_path, utils: str):
    return run_bounded(tiny_model, hostile_copy(tmp_path / "copy", utils=utils), tmp_path / "out")


def test_6_a_list_doubled_forty_times_stops_at_its_size(tiny_model, tmp_path):
    body = "l = [doc['question']]\n" + "l = l + l\n" * 40 + "return ''.join(l)"
    assert_refused(_run(tiny_model, tmp_path, _utils(body)), "utils.py", "p1_nb() builds a", seconds=60)


def test_7_a_list_holding_itself_sixty_times_is_refused_before_it_is_written(tiny_model, tmp_path):
    body = "l = [doc['question']]\n" + "l = [l, l]\n" * 60 + 'return f"{l}"'
    ended = _run(tiny_model, tmp_path, _utils(body))
    assert_refused(ended, "utils.py", "p1_nb()", "builds a value whose text passes", seconds=60)


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("not " * 100_000 + "q", "nests"),
        ("q" + " + q" * 200_000, "nests"),
        ("'a' if q == 'x' else " * 50_000 + "q", "nests"),
    ],
    ids=["100k-not", "200k-plus", "50k-if-else"],
)
def test_8_a_deep_expression_is_one_line(tiny_model, tmp_path, expression, said):
    ended = _run(tiny_model, tmp_path, _utils(f"q = doc['question']\nreturn {expression}"))
    assert_refused(ended, "utils.py", said, seconds=60)


CHANGED_SHAPES = {
    "decorated": ("def loud(f):\n    return lambda doc: 'LOUD ' + f(doc)\n\n\n@loud\n", ""),
    "rebound": ("", "def p1_v2(doc):\n    return 'v2'\n\n\np1_nb = p1_v2\n"),
    "defined again": ("", "def p1_nb(doc):\n    return 'again'\n"),
    "imported over": ("", "from os.path import basename as p1_nb\n"),
    "rewritten": ("", "globals()['p1_nb'] = len\n"),
}


@pytest.mark.parametrize("shape", sorted(CHANGED_SHAPES))
def test_9_a_function_python_would_not_call_as_written_is_refused(tiny_model, tmp_path, shape, monkeypatch):
    before, after = CHANGED_SHAPES[shape]
    utils = before + _utils("return 'Spm: ' + doc['question']", after)
    assert _python_gives(utils, {"question": "q"}) != "Spm: q"  # the bare body is not what Python calls
    with pytest.raises(UpstreamShapeError, match="the file changed shape"):
        _code(tmp_path, utils).call("p1_nb", doc={"question": "q"})
    ended = run_here(monkeypatch, tiny_model, hostile_copy(tmp_path / "copy", utils=utils), tmp_path / "out")
    assert_refused(ended, "utils.py", "p1_nb()", "the file changed shape")


ACCEPTED = {
    "plain": _utils("return 'Spm: ' + doc['question']"),
    "other names bound": _utils("x = 'Spm: '\nreturn x + doc['question']", "x = 1\np1 = 'p1_nb'\n"),
    "another decorated": "def d(f):\n    return f\n\n\n@d\ndef other(doc):\n    return 'o'\n\n\n"
    + _utils("return 'Spm: ' + doc['question']"),
    "a loop variable of a comprehension": _utils("return 'Spm: ' + doc['question']", "[p1_nb for p1_nb in []]\n"),
}


@pytest.mark.parametrize("shape", sorted(ACCEPTED))
def test_9_a_function_read_gives_what_python_gives(tmp_path, shape):
    utils = ACCEPTED[shape]
    doc = {"question": "Hva skjer?"}
    assert _code(tmp_path, utils).call("p1_nb", doc=doc) == _python_gives(utils, doc)


def _code(tmp_path, text: str) -> UpstreamCode:
    path = tmp_path / "utils.py"
    path.write_text(text, encoding="utf-8")
    return UpstreamCode(path, "utils.py", text)


def _python_gives(text: str, doc: dict) -> object:
    """What Python's own ``p1_nb(doc)`` returns once the file has run (tests only)."""
    namespace: dict = {}
    exec(compile(text, "utils.py", "exec"), namespace)  # noqa: S102 - our own test text, to compare with
    try:
        return namespace["p1_nb"](doc)
    except TypeError as error:  # an import bound over it takes other arguments
        return error
