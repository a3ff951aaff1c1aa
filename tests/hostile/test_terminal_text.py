"""Text from a file or a flag reaches a real terminal escaped and cut
short. mlbench runs in a pseudo-terminal (its stdin, stdout and stderr one, 200 columns),
and the bytes the terminal receives are checked: no escape sequence of the data's (a screen
clear ``ESC [2J``, a window title ``ESC ]0;``, a bell, an 8-bit CSI, a right-to-left
override) arrives raw, each arrives as its visible escape (``\\x1b[2J``), and a value of
5,000 characters makes an error line of under ``ERROR_LINE`` characters that still ends with
its hint. mlbench's own styling (rich's colours, a progress bar's cursor moves) is the only
escape sequence the terminal receives."""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.report.synthetic_runs import planted_values, write_run

REPO = Path(__file__).resolve().parents[2]
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x9b31m\u202e"
RAW = [b"\x1b[2J", b"\x1b]0;", b"\x07", "\x9b".encode(), "\u202e".encode()]
VISIBLE = rb"\x1b[2J\x1b]0;pwned\x07\x9b31m\u202e"
LONG = HOSTILE + "x" * 5000
# What an error line that echoes LONG may take: the value cut to 80 characters and its
# length, the message and its hint.
ERROR_LINE = 400
# The escape sequences of mlbench's own: rich's styles (SGR) and, while a run works, its
# progress bars (cursor shown or hidden, a line erased, the cursor moved up).
OWN = re.compile(rb"\x1b(\[[0-9;]*m|\[\?25[lh]|\[2K|\[[0-9]*A|\[[0-9]*G)")


@dataclass
class Terminal:
    code: int
    output: bytes  # as the terminal received it: stdout and stderr, lines ending \r\n

    def lines(self) -> list[bytes]:
        return self.output.split(b"\r\n")


def in_terminal(*args: object, timeout: float = 300) -> Terminal:
    """``python -m mlbench ARGS`` with a pseudo-terminal 200 columns wide as its stdin,
    stdout and stderr; what it wrote, as bytes, once it has exited."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm-256color", LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")
    command = [sys.executable, "-m", "mlbench", *map(str, args)]
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=REPO)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"mlbench {args[0]} did not finish in {timeout} s")
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer of the terminal has closed it
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
    return Terminal(process.wait(timeout=30), b"".join(chunks))


def assert_escaped(terminal: Terminal) -> None:
    """None of the data's sequences arrived raw; each escape byte begins one of mlbench's own."""
    raw = [sequence for sequence in RAW if sequence in terminal.output]
    assert not raw, (raw, terminal.output[:2000])
    assert VISIBLE in terminal.output, terminal.output[:2000]
    foreign = [terminal.output[m.start() : m.start() + 12] for m in re.finditer(rb"\x1b", terminal.output)]
    assert all(OWN.match(sequence) for sequence in foreign), [s for s in foreign if not OWN.match(s)][:5]


def _benchmark(folder: Path, name: str, title: str, align: str) -> Path:
    (folder / "data").mkdir(parents=True)
    row = '{"id": "q1", "question": "Frage?", "correct_answers": ["Ja."], "incorrect_answers": ["Nein."]}\n'
    (folder / "data" / "de.jsonl").write_text(row, encoding="utf-8")
    toml = f'[benchmark]\nname = "{name}"\ntitle = "{title}"\ndata = "data/{{lang}}.jsonl"\nlanguages = ["de"]\n'
    (folder / "benchmark.toml").write_text(toml + align, encoding="utf-8")
    return folder


def _toml_text(text: str) -> str:
    """``text`` as a TOML basic string's inside: every control character as ``\\uXXXX``."""
    return "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F else c for c in text)


def test_tasks_shows_a_user_benchmarks_title_alignment_and_columns_escaped(tmp_path):
    title, why = _toml_text(f"Mine {HOSTILE} title"), _toml_text(f"rewritten {LONG}")
    unaligned = _benchmark(tmp_path / "unaligned", "mine", title, f'[align]\nunaligned = "{why}"\n')
    column = _benchmark(tmp_path / "column", "theirs", "Theirs", f'[align]\ntqa_index = "{_toml_text(HOSTILE)}"\n')
    for shown in (
        in_terminal("tasks", "mine", "--include", unaligned),
        in_terminal("tasks", "theirs", "--include", column),
        in_terminal("tasks", "--include", unaligned),
    ):
        assert shown.code == 0, shown.output[-2000:]
        assert_escaped(shown)
        assert len(shown.output) < 20_000  # the 5,000 characters cut to 300 and counted
    assert b"\x1b" in shown.output  # rich styled it: the check above is on a styling terminal
    mine = in_terminal("tasks", "mine", "--include", unaligned).output
    assert re.search(rb"x\xe2\x80\xa6\s+\(5,0\d\d characters\)", mine)  # "…": the reason cut, its length given


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("results")
    write_run(root, "org/gap-model", "truthfulqa_multi", planted_values(1, gap_lang="eu"))
    return root


def _error_line(terminal: Terminal) -> str:
    assert terminal.code == 2, terminal.output[-2000:]
    assert b"\x1b" not in terminal.output  # an error is plain text: every escape was the value's
    lines = [line for line in terminal.lines() if line.startswith(b"mlbench: error: ")]
    assert len(lines) == 1, terminal.output[-2000:]
    assert VISIBLE in lines[0]
    line = lines[0].decode("utf-8")
    assert len(line) < ERROR_LINE and "(5,0" in line, line
    return line


@pytest.mark.parametrize(
    ("flag", "ending"),
    [
        ("--ref-lang", "; languages found: ca, en, es, eu, gl"),
        ("--metric", "; metrics: bleu_max, mc1, mc2"),
        ("--task", "; found org/gap-model · truthfulqa_multi"),
        ("--by", "; labels: none"),
        ("--ref-model", "; models: org/gap-model"),
    ],
)
def test_a_long_flag_value_of_report_is_cut_in_a_line_that_ends_with_its_hint(results, flag, ending):
    assert _error_line(in_terminal("report", results, flag, LONG)).endswith(ending)


def test_a_long_task_name_is_cut_in_a_line_that_ends_with_the_tasks_there_are():
    assert _error_line(in_terminal("tasks", LONG)).endswith(", veritasqa, x_truthfulqa, xlinghealth")


@pytest.mark.parametrize(
    ("flag", "ending"),
    [
        ("--task", ", veritasqa, x_truthfulqa, xlinghealth"),
        ("--lang", "; valid: en, es, ca, gl"),
        ("--mode", "; valid: mc, gen"),
    ],
)
def test_a_long_flag_value_of_run_is_cut_in_a_line_that_ends_with_its_hint(tiny_model, tmp_path, flag, ending):
    given = {"--task": "veritasqa", "--lang": "en", "--mode": "mc", flag: LONG}
    flags = [part for pair in given.items() for part in pair]
    line = _error_line(in_terminal("run", "--model", tiny_model, "--sample", "-o", tmp_path / "out", *flags))
    assert line.endswith(ending)


def test_a_run_in_a_terminal_shows_its_model_and_output_folders_escaped(tiny_model, tmp_path):
    model = tmp_path / f"model{HOSTILE}"
    shutil.copytree(tiny_model, model)
    output = tmp_path / f"out{HOSTILE}"
    flags = ["--task", "veritasqa", "--sample", "--lang", "en", "--limit", "2", "--mode", "mc"]
    shown = in_terminal("run", "--model", model, "-o", output, *flags)
    assert shown.code == 0, shown.output[-2000:]
    assert_escaped(shown)
    assert b"veritasqa \xe2\x80\x94 " + str(tmp_path).encode() + b"/model" + VISIBLE in shown.output  # the summary
    assert b"mlbench: table in " + str(tmp_path).encode() + b"/out" + VISIBLE in shown.output  # the last line
