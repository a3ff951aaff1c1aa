"""Ending the process: at once when nothing needs Python's shutdown, normally otherwise."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import atexit, sys, threading, time
from mlbench.cli.process_exit import end_process
atexit.register(lambda: print("shut down normally", flush=True))
print("output before the end", flush=True)
if sys.argv[1] == "thread":
    threading.Thread(target=time.sleep, args=(0.2,)).start()
end_process(int(sys.argv[2]))
"""


@pytest.mark.parametrize("code", [0, 2])
def test_a_finished_command_ends_at_once_with_its_exit_code_and_its_output(code):
    done = subprocess.run([sys.executable, "-c", SCRIPT, "none", str(code)], capture_output=True, text=True)
    assert done.returncode == code
    assert done.stdout == "output before the end\n"  # flushed; Python's exit handlers skipped


def test_a_running_thread_gets_the_normal_shutdown():
    done = subprocess.run([sys.executable, "-c", SCRIPT, "thread", "3"], capture_output=True, text=True)
    assert done.returncode == 3
    assert done.stdout == "output before the end\nshut down normally\n"


def test_the_console_script_exits_with_the_command_status(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mlbench", "run", "--model", str(tmp_path / "none"), "--task", "nope"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("mlbench: error:")
