"""lm-eval task files read as data (mlbench/data/untrusted/lm_eval_task.py): includes merged under the
including file, doc_to_text as a column, a Jinja template or a !function, the option
delimiter and generation settings with lm-eval's defaults, and each mistake one line."""

from __future__ import annotations

import re

import pytest

from mlbench.data.untrusted.lm_eval_task import FunctionRef, read_lm_eval_task
from mlbench.data.untrusted.python_source import UpstreamCode
from mlbench.errors import MlbenchError

FILES = {
    "tasks/x/_base_yaml": 'dataset_path: x\ntarget_delimiter: "\\n"\ngeneration_kwargs:\n  until: "Q:"\n',
    "tasks/x/a/task_p0.yaml": "include: ../_base_yaml\ndoc_to_text: !function utils.p0\n",
    "tasks/x/a/task_p1.yaml": 'include: ../_base_yaml\ntarget_delimiter: " "\ndoc_to_text: "Q: {{question}}"\n',
    "tasks/x/a/task_col.yaml": "doc_to_text: question\n",
    "tasks/x/a/utils.py": 'def p0(doc):\n    return "Spm: {q}".format(q=doc["question"])\n',
    "tasks/x/loop_a.yaml": "include: loop_b.yaml\ndoc_to_text: q\n",
    "tasks/x/loop_b.yaml": "include: loop_a.yaml\n",
    "tasks/x/out.yaml": "include: ../../../../etc/passwd\ndoc_to_text: q\n",
    "tasks/x/undefined.yaml": 'doc_to_text: "{{ nothing }}"\n',
    "tasks/x/escape.yaml": 'doc_to_text: "{{ question.__class__.__mro__ }}"\n',
    "tasks/x/list.yaml": "- not a mapping\n",
    "tasks/x/broken.yaml": "doc_to_text: [unclosed\n",
    "tasks/x/tokens.yaml": "doc_to_text: q\ngeneration_kwargs:\n  max_gen_toks: 0\n",
    "tasks/x/until.yaml": "doc_to_text: q\ngeneration_kwargs:\n  until: null\n",
    "tasks/x/sampled.yaml": "doc_to_text: q\ngeneration_kwargs:\n  do_sample: true\n",
    "tasks/x/described.yaml": "doc_to_text: q\ndescription: Answer well.\n",
    "tasks/x/column.yaml": "doc_to_text: best_answer\n",
    "tasks/x/zero.yaml": 'doc_to_text: "{{ 1 / 0 }}"\n',
    "tasks/x/base_fn/_base_yaml": "doc_to_text: !function helpers.p0\n",
    "tasks/x/base_fn/helpers.py": 'def p0(doc):\n    return "base: " + doc["question"]\n',
    "tasks/x/base_fn/sub/leaf.yaml": "include: ../_base_yaml\n",
}


def read(path: str) -> str:
    if path not in FILES:
        raise MlbenchError(f"{path}: not here")
    return FILES[path]


def code(path: str) -> UpstreamCode:
    from pathlib import Path

    return UpstreamCode(Path(path), path, read(path))


def test_an_include_is_merged_under_the_including_file():
    task = read_lm_eval_task("tasks/x/a/task_p1.yaml", read)
    assert (task.target_delimiter, task.until, task.max_new_tokens) == (" ", ("Q:",), 256)
    assert task.render({"question": "Why?"}, code) == "Q: Why?"
    inherited = read_lm_eval_task("tasks/x/a/task_p0.yaml", read)
    assert inherited.target_delimiter == "\n"  # the base file's, not overridden here


def test_a_function_is_the_python_file_beside_the_task_evaluated_not_run():
    task = read_lm_eval_task("tasks/x/a/task_p0.yaml", read)
    assert task.doc_to_text == FunctionRef("tasks/x/a/utils.py", "p0")
    assert task.render({"question": "Kva?"}, code) == "Spm: Kva?"


def test_a_column_name_gives_the_column_and_lm_evals_generation_defaults():
    task = read_lm_eval_task("tasks/x/a/task_col.yaml", read)
    assert task.render({"question": "Why?"}, code) == "Why?"
    assert (task.until, task.max_new_tokens, task.target_delimiter) == (("\n\n",), 256, " ")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tasks/x/loop_a.yaml", "its includes loop"),
        ("tasks/x/out.yaml", "leaves the repository"),
        ("tasks/x/list.yaml", "not a YAML task file (no mapping at the top)"),
        ("tasks/x/broken.yaml", "not a YAML task file"),
        ("tasks/x/tokens.yaml", "max_new_tokens must be a whole number"),
        ("tasks/x/until.yaml", "until must be a text or a list of texts"),
        ("tasks/x/sampled.yaml", "mlbench reads greedy tasks"),
        ("tasks/x/described.yaml", "description is set"),
    ],
)
def test_mistakes_in_a_task_file_are_one_line(path, expected):
    with pytest.raises(MlbenchError, match=re.escape(expected)) as raised:
        read_lm_eval_task(path, read)
    assert path.split("/")[-1] in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize("path", ["tasks/x/undefined.yaml", "tasks/x/escape.yaml", "tasks/x/zero.yaml"])
def test_a_template_that_cannot_render_or_reaches_outside_the_sandbox_is_one_line(path):
    task = read_lm_eval_task(path, read)
    with pytest.raises(MlbenchError, match="doc_to_text cannot be rendered"):
        task.render({"question": "Why?"}, code)


def test_a_function_named_in_an_included_file_is_found_beside_that_file():
    task = read_lm_eval_task("tasks/x/base_fn/sub/leaf.yaml", read)
    assert task.doc_to_text == FunctionRef("tasks/x/base_fn/helpers.py", "p0")
    assert task.render({"question": "Why?"}, code) == "base: Why?"


def test_a_column_mlbench_does_not_give_is_one_line_not_a_literal_prompt():
    task = read_lm_eval_task("tasks/x/column.yaml", read)
    with pytest.raises(MlbenchError, match="names the column 'best_answer'; mlbench gives question"):
        task.render({"question": "Why?", "mc1_targets": {}}, code)
