"""The line a stopped command ends with names the command to continue it: each word as a
shell reads it back, and none that acts on the terminal (a folder named with an escape
sequence is shown as bash's ``$'...'``, which pastes back to the same name)."""

from __future__ import annotations

import subprocess

import pytest

import mlbench.cli.main  # noqa: F401  (registers the commands, as the program does)
from mlbench.cli.signals import stop_line

HOSTILE = ["plain", "two words", "it's", "back\\slash", "clear\x1b[2Jscreen", "new\nline\ttab", "\u202eflipped",
           "c1\x9b31m", "é\x7f"]  # fmt: skip


@pytest.mark.parametrize("name", HOSTILE)
def test_the_command_to_continue_pastes_back_and_holds_no_control_character(name):
    line = stop_line(KeyboardInterrupt(), ["mlbench", "run", "--model", "m", "--output", name, "--overwrite"])
    prefix = "mlbench: interrupted; what finished is saved; continue with: mlbench "
    assert line.startswith(prefix)
    assert all(char.isprintable() for char in line)  # no C0, C1, DEL, separator or direction control
    words = line[len(prefix) :]
    echoed = subprocess.run(["bash", "-c", f"printf '%s\\0' {words}"], capture_output=True, check=True).stdout
    assert echoed.decode().split("\0")[:-1] == ["run", "--model", "m", "--output", name, "--resume"]
