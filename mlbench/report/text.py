r"""Text the report did not write itself, made safe to show: a benchmark's label values
(the data's ``[labels]`` columns, kept with each sample and shown by ``report --by``),
template and model names and notes read back from a results folder someone may have
edited. Each format escapes it through here, so that one label cannot forge a heading,
add a table column, run a tag or recolour a terminal in one format and not another.

``one_line`` is what every format starts from: the text on one line, each control
character written as a visible escape, as Python writes it (a line break is ``\n``, the
terminal's escape character ``\x1b``): the reader sees that something was there, and
nothing acts on it. A literal backslash is left as it is, so ``\n`` written in the data
reads the same as a line break: a label is shown, never parsed back. It is defined once,
in ``mlbench.errors`` beside ``terminal_text`` (the same, cut short: what the commands
print in the terminal), and used from here by the report's formats. Then each format adds
its own: ``md_text`` for Markdown, ``shortened`` where there is room for little (a figure's
title, the terminal's); LaTeX's specials are ``latex.escape``'s, HTML's ``html.escape``'s.
JSON keeps the text as it was: ``json.dumps`` escapes the controls, and a program reads it.

>>> print(one_line("a\n# Forged\x1b[31m"))
a\n# Forged\x1b[31m
>>> print(md_text("a|b <img src=x> p <0.001"))
a\|b \<img src=x> p <0.001
>>> shortened("x" * 100, 10)
'xxxxxxxxx…'
"""

from __future__ import annotations

import re

from mlbench.errors import ELLIPSIS, one_line

# Where a tag, a comment or an autolink would begin in Markdown: "<" before a letter, "/",
# "!" or "?". Not before a digit or a space, so that "<0.001" reads as it did.
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")

# The most characters of data a figure draws in one title, tick or legend entry: a longer
# one took minutes to lay out (100 kB: 200 s) and would not be read whole anyway.
SHORT = 80


def md_text(text: str) -> str:
    """``text`` as one Markdown table cell or heading: ``one_line``, ``|`` escaped (it would
    start another column), and the ``<`` that would open a tag escaped (a renderer that
    passes HTML through would run it)."""
    return _TAG_START.sub(r"\\<", one_line(text).replace("|", "\\|"))


def shortened(text: str, limit: int = SHORT) -> str:
    """``one_line(text)``, cut to ``limit`` characters with an ellipsis where it is longer."""
    line = one_line(text)
    return line if len(line) <= limit else line[: limit - len(ELLIPSIS)] + ELLIPSIS
