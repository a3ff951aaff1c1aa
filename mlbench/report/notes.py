"""The notes of one report file, each written once: tables refer to them (``[2]``, or a
mark such as ``†``) and one section at the end defines them.

A report of 36 metrics used to repeat the same explanation under every table (the † of
low-resource languages 35 times, the gap note 33 times); a note is now numbered the first
time a table refers to it, and the same text referred to again gets the same number.

>>> notes = Notes()
>>> notes.ref("a gap is ..."), notes.ref("McNemar: ..."), notes.ref("a gap is ...")
('[1]', '[2]', '[1]')
>>> notes.mark("†", "low-resource language")
'†'
>>> notes.lines()
['- † low-resource language', '- [1] a gap is ...', '- [2] McNemar: ...']
"""

from __future__ import annotations

from mlbench.report.text import md_text


class Notes:
    """Numbered notes (by first reference) and marked ones (a symbol a table already shows)."""

    def __init__(self) -> None:
        self._numbered: dict[str, int] = {}
        self._marked: dict[str, str] = {}

    def ref(self, text: str) -> str:
        """The reference to ``text``: its number in brackets, the same for the same text."""
        number = self._numbered.setdefault(text, len(self._numbered) + 1)
        return f"[{number}]"

    def mark(self, symbol: str, text: str) -> str:
        """Define ``symbol`` (shown in a table as it is) once; returns it."""
        self._marked.setdefault(symbol, text)
        return symbol

    def entries(self) -> list[tuple[str, str]]:
        """(symbol or ``[n]``, text): the marks first, then the numbered notes in order."""
        marked = [(symbol, text) for symbol, text in self._marked.items()]
        return marked + [(f"[{number}]", text) for text, number in self._numbered.items()]

    def lines(self) -> list[str]:
        """The notes as a Markdown list, each on its line (a missing value's reason comes
        from a results.json, which may say anything)."""
        return [f"- {key} {md_text(text)}" for key, text in self.entries()]

    def __bool__(self) -> bool:
        return bool(self._numbered or self._marked)
