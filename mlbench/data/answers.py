"""Answer lists as datasets write them in one text field."""

from __future__ import annotations


def split_answers(field: str) -> tuple[str, ...]:
    """``"a; b;c"`` → ``("a", "b", "c")``; empty pieces are dropped."""
    return tuple(piece.strip() for piece in field.split(";") if piece.strip())
