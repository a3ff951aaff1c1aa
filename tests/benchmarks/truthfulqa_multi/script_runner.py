"""The authors' judge script's own code, run by Python on one logged line: the reference the
``-J protocol=authors`` tests compare mlbench's verdicts with, character for character.

From ``main()`` of the script's text (the fixture's shape, or the authors' real file under
``make test-upstream``), this runs the block that picks the chat layout (the ``if
args.instruct:`` block, with the real transformers classes, so its ``isinstance`` chain sees
the judge's class) and the body of the per-line loop, on a CPU (the line moving the inputs
to CUDA is left out). Nothing of the script's text is written here."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace


@dataclass(frozen=True)
class ScriptLine:
    text: str  # what the script tokenizes (``text``)
    ids: list[int]  # ``tokenizer(text)``'s ids, what the judge model reads
    label: str  # ``line['label']``


def _main(script: str) -> ast.FunctionDef:
    tree = ast.parse(script)
    return next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main")


def _run(statements: list[ast.stmt], namespace: dict) -> None:
    exec(compile(ast.Module(statements, []), "llm_evaluate.py", "exec"), namespace)  # noqa: S102 - the reference


def run_script_line(script: str, judge: Path, label: str, instruct: bool, question: str, response: str) -> ScriptLine:
    import transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer

    main = _main(script)
    namespace: dict = {
        name: getattr(transformers, name)
        for name in (
            "AutoTokenizer",
            "AutoModelForCausalLM",
            "LlamaForCausalLM",
            "GemmaForCausalLM",
            "Gemma2ForCausalLM",
        )
    }
    namespace["args"] = SimpleNamespace(label=label, instruct=instruct, judge_model=str(judge))
    namespace["tokenizer"] = AutoTokenizer.from_pretrained(judge)
    namespace["model"] = AutoModelForCausalLM.from_pretrained(judge).eval()
    chooser = next(
        node
        for node in main.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Attribute) and node.test.attr == "instruct"
    )
    _run([chooser], namespace)
    loop = next(
        node
        for node in ast.walk(main)
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == "line"
    )
    namespace["line"] = {"doc": {"question": question}, "filtered_resps": [response]}
    _run([s for s in loop.body if "cuda" not in ast.unparse(s)], namespace)
    text = namespace["text"]
    return ScriptLine(text, list(namespace["tokenizer"](text)["input_ids"]), namespace["line"]["label"])
