"""Issue 32: mlbench reaches its dependencies only through their public modules. A fresh
install of typer 0.29 moved click into a private module that mlbench imported, and every
unexpected error then ended in an AttributeError from the error handler itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mlbench"


def private_imports(source: str) -> list[str]:
    """Modules of other packages with a private part (``typer._click.exceptions``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        for name in names:
            parts = name.split(".")
            if parts[0] not in ("mlbench", "__future__") and any(p.startswith("_") for p in parts[1:]):
                found.append(name)
    return found


def test_the_finder_finds_one():
    assert private_imports("from typer._click import exceptions\nimport os.path\n") == ["typer._click"]


# The deliberate exceptions, each imported inside a function that turns its absence into
# one error line: torch's dispatcher modes have no public name, and only the CPU
# rehearsal of the GPU paths (-M rehearse_gpu) needs them.
DELIBERATE = {"backends/capture_check.py": ["torch.utils._python_dispatch"]}


def test_no_module_imports_a_private_module_of_a_dependency():
    found = {str(p.relative_to(PACKAGE)): private_imports(p.read_text(encoding="utf-8")) for p in PACKAGE.rglob("*.py")}
    assert {path: names for path, names in found.items() if names} == DELIBERATE


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("run", "--limit", "abc"), "mlbench: error: "),
        (("run", "--no-such-flag"), "mlbench: error: No such option: --no-such-flag"),
        (("tasks", "a", "b", "c"), "mlbench: error: "),
    ],
)
def test_click_errors_raised_through_typer_end_in_one_line(args, expected, monkeypatch, capsys):
    from mlbench.cli.main import _invoke_app  # what the console script runs

    monkeypatch.setattr("sys.argv", ["mlbench", *args])
    code = _invoke_app()
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith(expected), lines
