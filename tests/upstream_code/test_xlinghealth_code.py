"""XLingHealth's prompts read from the authors' real files (claws-lab/XLingEval @ 75ac9c8):
every language and mode reads, and what mlbench sends is what the authors' own code makes.
The references come from the files themselves: their pure prompt functions run by Python,
and their literal f-strings found in the text (no word of theirs is written here)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mlbench.benchmarks.xlinghealth.authors_prompts import LANGUAGE_NAMES, MEDALPACA, AuthorsPrompts
from mlbench.benchmarks.xlinghealth.options import DEFAULT_TEMPERATURES
from mlbench.benchmarks.xlinghealth.sources import UPSTREAM
from mlbench.data.source import DataSource
from mlbench.data.untrusted.python_source import UpstreamCode


@pytest.fixture(scope="module")
def files(upstream_code) -> Path:
    return upstream_code / "upstream" / "xlinghealth"


@pytest.fixture(scope="module")
def prompts(upstream_code) -> AuthorsPrompts:
    return AuthorsPrompts(DataSource("local", upstream_code))  # located and sha256-checked


def pure(files: Path, path: str, function: str):
    """The authors' pure function, run by Python from its own source text."""
    tree = ast.parse((files / path).read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function)
    namespace: dict = {}
    exec(compile(ast.Module([node], []), path, "exec"), namespace)  # noqa: S102 - a prompt function
    return namespace[function]


def literal(files: Path, path: str, pattern: str) -> str:
    """The first string literal in the file matched by ``pattern`` (its group 1)."""
    found = re.search(pattern, (files / path).read_text(encoding="utf-8"))
    assert found, f"{pattern} not in {path}"
    return found.group(1)


def test_every_file_is_the_pinned_one(upstream_code):
    assert set(UPSTREAM.locate(DataSource("local", upstream_code))) == set(UPSTREAM.paths)


@pytest.mark.parametrize("lang", list(LANGUAGE_NAMES))
def test_every_mode_and_language_is_the_authors_code_made(prompts, files, lang):
    name, question, answer = LANGUAGE_NAMES[lang], "Q-1 ¿?", "A-2."
    consistency = pure(files, "consistency/prompts.py", "prompt_consistency")(question, name, False)
    verify = pure(files, "verifiability/prompts.py", "prompt_verifiability")(question, answer, name)
    medical = literal(files, "utils/utils_chatgpt.py", r"'content': '([^']+)'")
    system = literal(files, "correctness/correctness_get_gpt_answer.py", r"'role': 'system', 'content': f'([^']+)'")
    assert [(m.role, m.content) for m in prompts.correctness(lang, question, True).messages] == [
        ("system", system.replace("{lang}", name)),
        ("user", question),
    ]
    assert prompts.consistency(lang, question, True).messages[1].content == consistency
    assert prompts.consistency(lang, question, True).messages[0].content == medical
    assert prompts.verifiability(lang, question, answer, True).messages[1].content == verify
    for mode, (script, _, _) in MEDALPACA.items():
        instruction = literal(files, script, r'instruction=f"([^"]+)"')
        instruction = instruction.replace("{target_language}", name).replace("{args.target_language}", name)
        text = (
            prompts.correctness(lang, question, False)
            if mode == "correctness"
            else prompts.consistency(lang, question, False)
            if mode == "consistency"
            else prompts.verifiability(lang, question, answer, False)
        ).text
        assert instruction in text and literal(files, script, r'output="([^"]+)"') in text
        assert (question if mode != "verifiability" else answer) in text and "LANGUAGE_NAME" not in text


def test_the_judge_is_the_authors_prompt_type(prompts, files):
    prompt_type = pure(files, "correctness/correctness_answer_evaluation.py", "prompt_type")
    judged = prompts.judge("zh", "Q", "gold", "theirs", chat=True)
    assert judged.messages[1].content == prompt_type("Q", "gold", "theirs", "Chinese")
    options = re.findall(
        r'case_\d_string = f"([^"]+)"', (files / "correctness/correctness_answer_evaluation.py").read_text()
    )
    assert prompts.judge_options() == tuple(options[:4])


def test_the_verifiability_temperatures_are_the_authors_loop_but_its_first(files):
    verify = UpstreamCode(files / "verifiability/verifiability_get_answer.py", "verifiability")
    # 0.001 where mlbench asks 0: "Medalpaca only accepts a strictly positive temperature".
    assert verify.list_items("<module>", "temperature") == [0.001, *DEFAULT_TEMPERATURES[1:]]
