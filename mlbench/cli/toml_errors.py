"""A run file's TOML syntax error in our words: tomllib's ``Cannot overwrite a value (at
line 9, column 7)`` says neither which key nor what to do about it."""

from __future__ import annotations

import re

# tomllib's message: the reason, then where (``(at line 9, column 7)``, ``(at end of document)``).
_WHERE = re.compile(r"^(?P<reason>.*?) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$", re.S)
_TWICE = re.compile(r"^(Cannot overwrite a value|Cannot declare \((?P<key>.*)\) twice)$")
# The reasons a hand-written file meets most, said plainly.
_REASONS = {
    "Invalid value": "no value, or one TOML cannot read: text needs quotes",
    "Expected '=' after a key in a key/value pair": "expected key = value",
    "Illegal character '\\n'": "a string is not closed on its line",
    "Unclosed array": "a [ list is not closed",
}
# The tables that may instead be one value (cli/config.py ``_table``): what the value is.
_NAMED = {"model": "the model's name", "judge": "the judge model's name"}


def toml_error(where: str, text: str, message: str) -> str:
    """One line for tomllib's ``message`` about ``text``, the file ``where`` names."""
    found = _WHERE.match(message)
    if found is None:
        return f"{where}: not valid TOML ({message})"
    reason, line = found["reason"], found["line"]
    if line is None:
        return f"{where}: not valid TOML at its end ({_lower(reason)}: a list or string left open?)"
    twice = _TWICE.match(reason)
    if twice is not None:
        return _given_twice(f"{where} line {line}", _line_key(text, int(line), twice["key"]))
    return f"{where} line {line}, column {found['column']}: not valid TOML ({_REASONS.get(reason, _lower(reason))})"


def _given_twice(where: str, key: tuple[str, bool]) -> str:
    """``'model' is given twice``, with what a value beside a table of the same name means."""
    name, table = key
    if not name:
        return f"{where}: a key or table is given twice"
    said = f"{where}: {name!r} is given twice" + (" (a value and a table?)" if table else "")
    if table and name in _NAMED:
        said += f'; {_NAMED[name]} goes in [{name}] as name = "...", or, without a [{name}] table, {name} = "..."'
    return said


def _line_key(text: str, line: int, declared: str | None) -> tuple[str, bool]:
    """The key (dotted) of line ``line`` of ``text``, and whether the line opens a table
    where a value of that name was given (``declared``: a table declared twice, not that)."""
    if declared:  # "'model',", "'options', 'msqad'"
        return ".".join(re.findall(r"'([^']*)'", declared)), False
    lines = text.splitlines()
    source = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    header = re.match(r"^\[+\s*([^\]]+?)\s*\]+", source)
    if header is not None:
        return header[1].replace('"', ""), True
    return source.partition("=")[0].strip().replace('"', ""), False


def _lower(reason: str) -> str:
    return reason[:1].lower() + reason[1:]
