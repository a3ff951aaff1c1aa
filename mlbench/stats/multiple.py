"""Holm's step-down correction for a family of tests (the languages of one report table
compared with the reference language).

>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

from collections.abc import Sequence


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm-adjusted p-values, in the input order. ``None`` (no test) stays ``None`` and
    does not count in the family."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tested)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        # The k-th smallest p is multiplied by (m - k); adjusted values never decrease.
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return adjusted
