"""The size of a value a prompt function builds, measured before it is written out.

A function may build a list that holds itself twice, sixty times over (``l = [l, l]``):
sixty small steps, and a value whose text has 2**60 parts, which ``str()`` would try to
write. The interpreter measures each list or dict it builds here, counting a shared part
once per place it appears without walking it twice, and refuses one whose text would
pass ``MAX_PROMPT_CHARS`` or that nests past ``MAX_NESTING``: every value it holds can
then be written out in bounded time and memory.
"""

from __future__ import annotations

from mlbench.records.budgets import MAX_NESTING, MAX_PROMPT_CHARS

TOO_BIG = MAX_PROMPT_CHARS + 1


def text_size(value: object) -> int:
    """About how many characters ``str(value)`` writes (texts counted with their quotes,
    items with their separators), capped at ``TOO_BIG``; a value nested past
    ``MAX_NESTING`` is ``TOO_BIG`` too."""
    return _size(value, {}, 0)


def _size(value: object, known: dict[int, int], depth: int) -> int:
    if isinstance(value, str):
        return len(value) + 2
    if not isinstance(value, list | tuple | dict):
        return len(repr(value)) if isinstance(value, int | float | bool) or value is None else TOO_BIG
    if depth > MAX_NESTING:
        return TOO_BIG
    if id(value) in known:
        return known[id(value)]
    parts = [p for pair in value.items() for p in pair] if isinstance(value, dict) else list(value)
    total = 2 + 2 * len(parts)
    for part in parts:
        total += _size(part, known, depth + 1)
        if total >= TOO_BIG:
            break
    known[id(value)] = min(total, TOO_BIG)
    return known[id(value)]
