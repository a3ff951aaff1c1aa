"""A question's answer options packed into one sequence, for one forward pass.

Every option of a question is scored after the same context. Instead of one forward per
option (or one per batch of options over copies of the context's KV cache), the options
are laid out as a token tree after the context's tail: options that begin with the same
tokens share those nodes, and each node attends to the context and to its own ancestors
only. One forward then gives every log-probability every option needs, and the model's
head is evaluated only at the rows that predict an option token.

Row layout (``PackedOptions``): first the tail of the context (the part not already in the
KV cache), then one row per tree node. A node holding token t_d of an option (its d-th
token) sits at position ``context_length + d - 1``, exactly where that token sits when the
context and the option are fed as one sequence, so position encodings agree with the
reference scoring.

>>> packed = pack_options(tail=[7, 8], start=5, continuations=[[1, 2, 3], [1, 4], [9]])
>>> packed.tokens, packed.positions, packed.parents
([7, 8, 1, 2], [5, 6, 7, 8], [-1, 2])
>>> packed.targets  # the two options starting with token 1 share its node (row 2)
[[(1, 1), (2, 2), (3, 3)], [(1, 1), (2, 4)], [(1, 9)]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PackedOptions:
    """The rows of one packed forward and, per option, which log-probs add up to its score."""

    tokens: list[int]  # the context's tail, then one token per tree node
    positions: list[int]  # each row's position in the full context + option sequence
    tail_length: int
    # Per node (rows tail_length, tail_length+1, ...): the row of its parent node, or -1 for
    # a first-level node (whose parent is the context itself).
    parents: list[int]
    # Per option: (row, token) pairs; the option's log-likelihood is the sum over its pairs
    # of log p(token | everything row attends to, row included).
    targets: list[list[tuple[int, int]]]

    @property
    def scored_rows(self) -> list[int]:
        """The rows whose next-token distribution some option needs, ascending."""
        return sorted({row for plan in self.targets for row, _ in plan})


def pack_options(tail: list[int], start: int, continuations: list[list[int]]) -> PackedOptions:
    """Pack ``continuations`` (token ids, none empty) after the context tail ``tail``,
    whose first token sits at position ``start``. The last tail row predicts every
    option's first token; a node holding an option's first d tokens predicts its token d+1."""
    if not tail:
        raise ValueError("the context tail must hold at least the context's last token")
    tokens, positions = list(tail), list(range(start, start + len(tail)))
    context_length = start + len(tail)
    parents: list[int] = []
    node_rows: dict[tuple[int, ...], int] = {}  # option prefix → its node's row
    targets = []
    for continuation in continuations:
        if not continuation:
            raise ValueError("an empty continuation has nothing to score")
        row = len(tail) - 1
        plan = [(row, continuation[0])]
        for depth in range(1, len(continuation)):
            prefix = tuple(continuation[:depth])
            if prefix not in node_rows:
                parents.append(-1 if depth == 1 else row)
                node_rows[prefix] = len(tokens)
                tokens.append(continuation[depth - 1])
                positions.append(context_length + depth - 1)
            row = node_rows[prefix]
            plan.append((row, continuation[depth]))
        targets.append(plan)
    return PackedOptions(tokens, positions, len(tail), parents, targets)


def allowed_keys(packed: PackedOptions, prefix_length: int, window: int | None = None) -> Any:
    """Boolean matrix (numpy), rows × (prefix_length + rows): what each row may attend
    to. The cached prefix is visible to all; the tail is causal; a node sees the whole
    tail, its ancestors and itself, never another option. With a sliding ``window``, a row
    sees only keys fewer than ``window`` positions behind it (what the model's own sliding
    layers would see in the unpacked sequence)."""
    import numpy as np

    tail, size = packed.tail_length, len(packed.tokens)
    allowed = np.zeros((size, prefix_length + size), dtype=bool)
    allowed[:, :prefix_length] = True
    rows = allowed[:, prefix_length:]  # a view: rows × rows
    rows[:tail, :tail] = np.tri(tail, dtype=bool)
    rows[tail:, :tail] = True
    for node, parent in enumerate(packed.parents):  # parents come before their children
        row = tail + node
        if parent >= tail:
            rows[row, tail:] = rows[parent, tail:]
        rows[row, row] = True
    if window is not None:
        query = np.asarray(packed.positions)
        key = np.concatenate([np.arange(prefix_length), query])
        allowed &= (query[:, None] - key[None, :]) < window
    return allowed
