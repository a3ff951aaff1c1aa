"""The reader of the authors' judge script: a script of another shape is one line naming what
changed, never a guess (the fixture's shape, each case changed in one place)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.truthfulqa_multi.judge_script import SCRIPT
from mlbench.benchmarks.truthfulqa_multi.authors_judge_code import read_judge_code
from mlbench.data.untrusted.python_module import UpstreamShapeError
from mlbench.data.untrusted.python_source import UpstreamCode


def read(text: str):
    return read_judge_code(UpstreamCode(Path("llm_evaluate.py"), "llm_evaluate.py", text))


def test_the_fixture_reads():
    assert read(SCRIPT).max_new_tokens == 3


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("instruction[:-6]", "instruction", "no cut instruction"),
        ("max_new_tokens=3", "max_new_tokens=300", "generates 300 tokens"),
        ("counts['ja']", "counts['ja'] + counts['nee']", "counts 2 labels"),
        (
            "elif args.label == 'info':\n             question",
            "if args.label == 'truth':\n             question",
            "2 questions",
        ),
        ("out.split('\\nFX-True:')[-1].strip()", "out.strip()", "reads a judge's output otherwise"),
        (
            "isinstance(model, LlamaForCausalLM)",
            "model.config.model_type == 'llama'",
            "a format_chat_template.. is not read",
        ),
        ("def main():", "def run():", "no function main"),
        ("if 'assistant\\n' in out:", "if 'assistant' in out:", "reads an instruct judge's output otherwise"),
        ("out.split('\\nFX-True:')[-1]", "out.split('\\nFX-True:')[0]", "reads a judge's output otherwise"),
        ("format_chat_template(instruction[:-6])", "format_chat_template(question[:-6])", "no cut instruction"),
    ],
)
def test_a_script_of_another_shape_is_one_line(old, new, message):
    assert old in SCRIPT
    with pytest.raises(UpstreamShapeError, match=message):
        read(SCRIPT.replace(old, new, 1))
