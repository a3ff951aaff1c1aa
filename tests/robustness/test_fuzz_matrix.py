"""A generated matrix of hostile inputs: every data file of every benchmark × eight
corruptions, and every command that reads a path × three bad paths.

Each case must end in one of two ways: the data is accepted (the run reaches the point of
loading the model, which the test stops there), or the command fails with exit code 2 and
one line on stderr. Never a traceback, never a changed input, never output left behind.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mlbench.backends.registry
import mlbench.engine.pipeline
from mlbench.cli.main import app
from mlbench.errors import MlbenchError
from tests.fixture_data import write_fixture_datasets
from tests.upstream_pins import pin_fixture_copies

ACCEPTED = "fuzz: data accepted, model not loaded"

# (file in the fixture tree, task, extra run options, the field the wrong_types mutation breaks)
DATA_FILES = [
    ("truthfulqa-multi/en/validation.json", "truthfulqa_multi", ["--mode", "mc"], "question"),
    ("truthfulqa-multi/en/train.json", "truthfulqa_multi", ["--mode", "mc"], "question"),
    ("veritasqa/veritasqa_en.csv", "veritasqa", ["--mode", "mc"], "Question"),
    ("xlinghealth/LiveQA.csv", "xlinghealth", ["--mode", "correctness", "-T", "datasets=liveqa"], "label"),
    ("msqad/Crisis and Conflict.json", "msqad", ["--mode", "direct", "-T", "refusal=patterns", "-T", "embedder=none"],
     "English_question"),
    ("calmqa/questions.jsonl", "calmqa", [], "question_text"),
]  # fmt: skip


def _json_rows_edit(content: bytes, suffix: str, edit) -> bytes:
    text = content.decode("utf-8-sig")
    if suffix == ".jsonl":
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        edit(rows)
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode() + b"\n"
    rows = json.loads(text)
    edit(rows)
    return json.dumps(rows, ensure_ascii=False).encode()


def _csv_cell_edit(content: bytes, column: str, value: str) -> bytes:
    import csv
    import io

    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    rows[1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def wrong_types(content: bytes, suffix: str, field: str) -> bytes:
    """The field a loader needs, of a type it cannot be (a CSV has no types: a label that
    is not one, or a required text left empty)."""
    if suffix == ".csv":
        return _csv_cell_edit(content, field, "x[]" if field == "label" else "")

    def edit(rows: list) -> None:
        rows[0][field] = ["a", "list"]

    return _json_rows_edit(content, suffix, edit)


def huge_field(content: bytes, suffix: str, field: str) -> bytes:
    big = "word " * 40_000  # 200,000 characters: past csv's default field limit
    if suffix == ".csv":
        return _csv_cell_edit(content, "Question" if field == "Question" else "answer_English", big)

    def edit(rows: list) -> None:
        rows[0][field] = big

    return _json_rows_edit(content, suffix, edit)


MUTATIONS = {
    "truncated": lambda b, s, f: b[: len(b) // 2],
    "non_utf8": lambda b, s, f: b[: len(b) // 3] + b"\xff\xfe\xe9" + b[len(b) // 3 :],
    "bom": lambda b, s, f: b if b.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf" + b,
    "crlf": lambda b, s, f: b.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"),
    "nul": lambda b, s, f: b[: len(b) // 2] + b"\x00" + b[len(b) // 2 :],
    "wrong_types": wrong_types,
    "empty": lambda b, s, f: b"",
    "huge_field": huge_field,
}
# Valid encodings of the same data: these must be read, not refused.
MUST_ACCEPT = {"bom", "crlf"}
# Broken beyond reading: these must be refused.
MUST_REFUSE = {"truncated", "non_utf8", "nul", "empty", "wrong_types"}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    folder = write_fixture_datasets(tmp_path_factory.mktemp("fuzz-data") / "data")
    with pytest.MonkeyPatch.context() as patch:
        pin_fixture_copies(patch, folder)  # the tree's copies of the authors' prompt code
        yield folder


@pytest.fixture
def stop_at_the_model(monkeypatch):
    def stop(*args, **kwargs):
        raise MlbenchError(ACCEPTED)

    monkeypatch.setattr(mlbench.engine.pipeline, "create_backend", stop)
    monkeypatch.setattr(mlbench.backends.registry, "create_backend", stop)  # (what preflight calls)


def _run(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


def assert_clean_failure(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mlbench: error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize(
    ("relative", "task", "options", "field"), DATA_FILES, ids=[f[1] + ":" + Path(f[0]).name for f in DATA_FILES]
)
def test_a_corrupted_data_file(
    pristine, tmp_path, tiny_model, stop_at_the_model, relative, task, options, field, mutation
):
    data = tmp_path / "data"
    shutil.copytree(pristine, data)
    target = data / relative
    target.write_bytes(MUTATIONS[mutation](target.read_bytes(), target.suffix, field))
    before = target.read_bytes()
    out = tmp_path / "out"
    result = _run("run", "--model", tiny_model, "--task", task, "--lang", "en", "--data-dir", data,
                  "--output", out, "--limit", "2", "--no-cache", "--yes", *options)  # fmt: skip
    line = assert_clean_failure(result)
    accepted = line == f"mlbench: error: {ACCEPTED}"
    if mutation in MUST_ACCEPT:
        assert accepted, line
    if mutation in MUST_REFUSE:
        assert not accepted, f"{mutation} of {relative} was read as data"
    assert target.read_bytes() == before  # the input is never rewritten
    leftovers = [p for p in out.rglob("*") if p.is_file() and not p.name.startswith(".lock")] if out.exists() else []
    assert leftovers == [], leftovers


BAD_PATHS = {
    "missing": lambda tmp: tmp / "no-such-thing",
    "directory": lambda tmp: tmp,
    "garbage": lambda tmp: _garbage(tmp / "garbage.bin"),
}


def _garbage(path: Path) -> Path:
    path.write_bytes(bytes(range(256)) * 4)
    return path


COMMANDS = {
    "run --data-file": lambda p, model, out: ["run", "--model", model, "--task", "truthfulqa_multi", "--lang", "en",
                                              "--data-file", p, "--output", out],
    "run --data-dir": lambda p, model, out: ["run", "--model", model, "--task", "veritasqa", "--lang", "en",
                                             "--data-dir", p, "--output", out],
    "run --model": lambda p, model, out: ["run", "--model", p, "--task", "truthfulqa_multi", "--lang", "en",
                                          "--sample", "--output", out],
    "run -T healthqa_file": lambda p, model, out: ["run", "--model", model, "--task", "xlinghealth", "--lang", "en",
                                                   "-T", f"healthqa_file={p}", "-T", "datasets=healthqa",
                                                   "--output", out],
    "surface": lambda p, model, out: ["surface", p],
    "agree": lambda p, model, out: ["agree", p],
    "report": lambda p, model, out: ["report", p],
    "judge": lambda p, model, out: ["judge", p, "--judge", model],
}  # fmt: skip


@pytest.mark.parametrize("bad", sorted(BAD_PATHS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_given_a_bad_path(tmp_path, tiny_model, stop_at_the_model, command, bad):
    folder = tmp_path / "in"
    folder.mkdir()
    path = BAD_PATHS[bad](folder)
    if bad == "directory" and command in ("run --data-dir", "report", "judge"):
        path = folder  # an empty folder: a directory these commands take, holding nothing
    out = tmp_path / "out"
    line = assert_clean_failure(_run(*COMMANDS[command](path, tiny_model, out)))
    assert line != f"mlbench: error: {ACCEPTED}", f"{command} accepted {bad}"
    leftovers = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert leftovers == [], leftovers
