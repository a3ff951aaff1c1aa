"""The README's five-minute tour, run for real: each command of its steps 1–4 (the tiny model,
the embedded sample set) in a fresh folder, as a user would type it, exits 0, and the run
prints the numbers the README shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.docs.doc_commands import REPO, command_args, section, shell_lines

NUMBER = re.compile(r"\b\d\.\d{3}\b")


def tour_commands() -> list[tuple[str, ...]]:
    """The commands of the tour's steps 1–4 (step 5 needs real models and data)."""
    local = section(REPO / "README.md", "## A five-minute tour").split("**5.")[0]
    return [tuple(args) for _, line, language in shell_lines(local) for args in command_args(line, language)]


def shown_run_output() -> str:
    """The output the README shows under the tour's run command."""
    tour = section(REPO / "README.md", "## A five-minute tour")
    after = tour[tour.index("mlbench run --model .mlbench/tiny-model") :]
    block = after[after.index("```text\n") + len("```text\n") :]
    return block[: block.index("```")]


def test_the_tour_names_its_commands():
    commands = tour_commands()
    assert [args[0] for args in commands] == ["tasks", "run", "report", "report", "explore"]


def test_the_tour_runs_as_the_readme_shows_it(tiny_model, tmp_path):
    (tmp_path / ".mlbench").mkdir()
    (tmp_path / ".mlbench" / "tiny-model").symlink_to(tiny_model)
    environment = {**os.environ, "COLUMNS": "100"}
    printed = {}
    for args in tour_commands():
        done = subprocess.run(
            [sys.executable, "-m", "mlbench", *args], cwd=tmp_path, env=environment,
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, f"mlbench {' '.join(args)}: exit {done.returncode}\n{done.stderr}"
        printed.setdefault(args[0], done.stdout + done.stderr)
    assert (tmp_path / "tour" / "tiny-model" / "truthfulqa_multi" / "table.md").is_file()
    assert (tmp_path / "tour" / "report" / "report.md").is_file()
    assert (tmp_path / "tour" / "report" / "explorer.html").is_file()
    # The numbers the README shows are this run's (the tiny model is seeded: the same every build).
    assert NUMBER.findall(printed["run"]) == NUMBER.findall(shown_run_output())
    last = printed["run"].strip().splitlines()[-1]  # the last line names the table to open
    assert "tour/tiny-model/truthfulqa_multi/table.md" in last
