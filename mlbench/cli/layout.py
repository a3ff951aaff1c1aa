"""How a listing fits the console: a table where every cell fits whole, else stacked records
(a name, then indented ``key: value`` lines, wrapped at the width).

Rich squeezes a table that is too wide by cutting cells to ``cal…``; a listing is read for its
names, so a table that would cut one is shown stacked instead. Lists of names (languages,
topics, tasks) wrap between items, never inside one.

What a listing shows may come from a file (a user's benchmark: its title, names, paths):
each value goes in through ``shown`` (``errors.terminal_text``: control characters as
escapes, cut to a bounded length), the title through ``errors.one_line``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, JustifyMethod, RenderableType, RenderResult
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from mlbench.errors import one_line, terminal_text
from mlbench.report.layout import fits

# A stacked record's lines: its keys under its name, a value's continuation under its key.
KEY_INDENT = "  "
VALUE_INDENT = "      "


@dataclass(frozen=True)
class Column:
    name: str
    no_wrap: bool = False  # names and short codes: never broken over lines
    justify: JustifyMethod = "left"


@dataclass
class Listing:
    """Records with the same keys: ``rows[i][0]`` names record ``i``, the rest are its values
    in ``columns[1:]``'s order. A value may be a list of names (kept whole when wrapped).
    ``table_from``: the narrowest console that gets a table (narrower ones stack)."""

    title: str
    columns: list[Column]
    rows: list[list[str | list[str] | None]] = field(default_factory=list)  # None: not shown stacked
    table_from: int = 0

    def __post_init__(self) -> None:
        self.title = one_line(self.title)

    def add(self, *values: str | list[str] | None) -> None:
        self.rows.append([shown(value) for value in values])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield render(self, options.max_width)  # drawn at the width it is given


def shown(value: str | list[str] | None) -> str | list[str] | None:
    """A listing's value as the terminal may show it: each text (each name of a list)
    through ``terminal_text``."""
    if isinstance(value, list):
        return [terminal_text(item) for item in value]
    return terminal_text(value) if isinstance(value, str) else value


def _cell(value: str | list[str] | None) -> str:
    return ", ".join(value) if isinstance(value, list) else value or ""


def as_table(listing: Listing, widths: Sequence[int] | None = None) -> Table:
    table = Table(title=escape(listing.title) if listing.title else None, title_justify="left")
    for i, column in enumerate(listing.columns):
        width = widths[i] if widths else None
        table.add_column(column.name, no_wrap=column.no_wrap, justify=column.justify, width=width)
    for row in listing.rows:
        table.add_row(*(escape(_cell(value)) for value in row))
    return table


def column_widths(listing: Listing, width: int) -> list[int] | None:
    """Each column's width in a table ``width`` wide, or None when some word (or a no-wrap
    cell) would not fit whole: every column gets its longest word, and what is left goes to
    the columns that would wrap, in proportion to what they lack. Rich's own squeeze takes
    from the widest columns first and cuts names that way."""
    texts = [[column.name] + [_cell(row[i]) for row in listing.rows] for i, column in enumerate(listing.columns)]
    longest = [max(cell_len(text) for text in column) for column in texts]
    shortest = [
        whole if column.no_wrap else max((cell_len(word) for text in cells for word in text.split()), default=1)
        for column, cells, whole in zip(listing.columns, texts, longest)
    ]
    room = width - (len(texts) + 1) - 2 * len(texts)  # a rule between columns and a space each side of a cell
    spare = room - sum(shortest)
    if spare < 0:
        return None
    lacking = [whole - least for whole, least in zip(longest, shortest)]
    if sum(lacking) <= spare:
        return longest
    return [least + lack * spare // sum(lacking) for least, lack in zip(shortest, lacking)]


def render(listing: Listing, width: int) -> RenderableType:
    """``listing`` as a table when it fits ``width`` whole (and ``width`` is at least its
    ``table_from``), else as stacked records."""
    widths = column_widths(listing, width) if width >= listing.table_from else None
    if widths is not None:
        table = as_table(listing, widths)
        texts = [_cell(value) for row in listing.rows for value in row]
        if fits(table, width, texts):
            return table
    return stacked(listing, width)


def stacked(listing: Listing, width: int) -> RenderableType:
    parts: list[RenderableType] = []
    if listing.title:
        parts.append(Text(listing.title, style="bold"))
    for row in listing.rows:
        name, *values = row
        parts.append(Text(_cell(name), style="bold"))
        keys = [column.name for column in listing.columns[1:]]
        shown = [(key, value) for key, value in zip(keys, values) if value is not None]
        lines = [line for key, value in shown for line in key_value(key, value, width)]
        parts.append(Text("\n".join(lines)))
    return Group(*parts)


def key_value(key: str, value: str | list[str], width: int) -> list[str]:
    """``key: value`` under a record's name, wrapped at ``width``; a list wraps between its
    items. An empty value shows as ``-``."""
    head = f"{KEY_INDENT}{key}: "
    if isinstance(value, list):
        return pack(value, width, head, VALUE_INDENT) if value else [head + "-"]
    text = " ".join(value.split()) or "-"
    # A word too long for the rest of the first line starts the next; only one longer than
    # a whole line is folded (textwrap would break it where it stands).
    wrapped = textwrap.wrap(
        text, width, initial_indent=head, subsequent_indent=VALUE_INDENT, break_on_hyphens=False,
        break_long_words=False,
    )  # fmt: skip
    return [part for line in wrapped for part in _fold(line, width)]


def _fold(line: str, width: int) -> list[str]:
    parts = []
    while len(line) > width > len(VALUE_INDENT) + 1:
        parts.append(line[:width])
        line = VALUE_INDENT + line[width:]
    return [*parts, line]


def pack(items: Sequence[str], width: int, first: str = "", rest: str = "") -> list[str]:
    """``items`` joined by ", " into lines of at most ``width``, an item never split between
    two lines (unless it is alone wider than a line): ``first`` begins the first line,
    ``rest`` the others.

    >>> pack(["Arms", "Free Speech", "Health"], 16, "topics: ", "  ")
    ['topics: Arms,', '  Free Speech,', '  Health']
    """
    lines: list[str] = []
    line, empty = first, True  # empty: nothing on the current line yet
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if not empty and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line, empty = rest, True
        line, empty = (line + piece if empty else f"{line} {piece}"), False
        while len(line) > width > len(rest) + 1:  # one item longer than a line: folded
            lines.append(line[:width])
            line = rest + line[width:]
    lines.append(line)
    return lines
