"""The declared benchmarks whose prompts are their authors' lm-eval task files, read from the
real files (EleutherAI/lm-evaluation-harness and openGPT-X's fork, at the pinned commits,
checked against the catalog's sha256): every language, mode and template reads and renders
a question, as lm-eval renders it (the MC templates of NorEval are run by Python from their
own source text here, to compare; no word of theirs is written in this file). Needs
``DIR/upstream/<task>/lm_eval/tasks/...`` for nortruthfulqa, nortruthfulqa_gen,
aradice_truthfulqa, truthfulqax and truthfulqax_gen (``scripts/parity_templates.py`` shows
where the files come from)."""

from __future__ import annotations

import pytest

from mlbench.benchmarks import get_task
from mlbench.data.source import DataSource
from mlbench.data.untrusted.lm_eval_task import FunctionRef
from mlbench.records import Sample

TASKS = ("nortruthfulqa", "nortruthfulqa_gen", "aradice_truthfulqa", "truthfulqax", "truthfulqax_gen")
QUESTION = "«the question»"


def _sample(lang: str) -> Sample:
    return Sample("0", lang, QUESTION, "a", ("a",), ("b",), ("«a»", "«b»"), ("«a»", "«b»"), (1, 0))


@pytest.mark.parametrize("name", TASKS)
def test_every_template_of_every_language_reads_and_renders(upstream_code, name):
    task = get_task(name)
    data = DataSource("local", upstream_code)
    templates = task.spec.templates
    assert templates is not None
    for lang in task.languages:
        task.task_files.check(data, lang, templates.names, task.spec.modes, None)  # found, pinned, parsed
        for mode in task.spec.modes:
            for template in templates.names:
                lm_task = task.task_files.task(data, mode, template, lang)
                prompt = task.task_files.prompt(data, lm_task, _sample(lang), chat=False, system=None)
                assert prompt.text is not None and QUESTION in prompt.text, (name, lang, template)
                if mode == "mc" and templates.names != ("default",) and template != "p0":
                    assert "«a»" in prompt.text and "«b»" in prompt.text  # NorEval p1-p4 list the options


def test_noreval_functions_give_what_python_gives(upstream_code):
    task = get_task("nortruthfulqa")
    data = DataSource("local", upstream_code)
    for lang in task.languages:
        for template in task.spec.templates.names:
            lm_task = task.task_files.task(data, "mc", template, lang)
            if not isinstance(lm_task.doc_to_text, FunctionRef):
                continue
            code = task.task_files._code(data, lm_task.doc_to_text.module)
            namespace: dict = {}
            exec(compile(code.text, code.label, "exec"), namespace)  # noqa: S102 (the pinned file, for comparison)
            doc = {"question": QUESTION, "mc1_targets": {"choices": ["«a»", "«b»"], "labels": [1, 0]}}
            expected = namespace[lm_task.doc_to_text.name](doc)
            assert task.task_files.prompt(data, lm_task, _sample(lang), chat=False, system=None).text == expected
