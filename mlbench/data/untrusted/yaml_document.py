"""YAML from outside (an lm-eval task file, a hub dataset's card) read with bounded work.

PyYAML's safe loader builds no objects of its own choosing, but it will follow a document
nested 100,000 deep until Python's recursion gives out, and an alias bomb ("billion
laughs": each level lists the one before ten times) builds a small graph that turns into
billions of nodes the moment anything walks it. Here the document's nodes are composed
first, their nesting counted as they are, and their number with every alias expanded
counted before a Python object is built; either past ``budgets`` is one line naming
the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml

from mlbench.records.budgets import MAX_NESTING, MAX_YAML_CHARS, MAX_YAML_NODES, BudgetError

# A tag's constructor: the loader and the node, as PyYAML calls it.
Constructor = Callable[[yaml.SafeLoader, yaml.Node], object]


def load_yaml(text: str, label: str, constructors: dict[str, Constructor] | None = None) -> Any:  # noqa: ANN401
    """The one YAML document of ``text`` (``label`` names the file in errors), with
    ``constructors`` for tags of the file's own (lm-eval's ``!function``). A YAML mistake
    raises ``yaml.YAMLError`` for the caller to word; a budget breach, ``BudgetError``."""
    if len(text) > MAX_YAML_CHARS:
        raise BudgetError(f"{label}: {len(text):,} characters of YAML, over mlbench's {MAX_YAML_CHARS:,}")

    class _Loader(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
            self.depth += 1
            try:
                if self.depth > MAX_NESTING:
                    raise BudgetError(f"{label}: YAML nested over {MAX_NESTING} deep")
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    for tag, constructor in (constructors or {}).items():
        _Loader.add_constructor(tag, constructor)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _expanded_size(node) > MAX_YAML_NODES:
            raise BudgetError(f"{label}: YAML of over {MAX_YAML_NODES:,} nodes once its aliases are expanded")
        try:
            return loader.construct_document(node)
        except (ValueError, OverflowError) as error:  # an int past Python's digits, a float past its range
            raise BudgetError(f"{label}: YAML holds a number mlbench does not read ({type(error).__name__})") from None
    finally:
        loader.dispose()


def _expanded_size(root: yaml.Node) -> int:
    """How many nodes ``root`` holds with every alias expanded, counted once per distinct
    node (an alias is the same node object in the composed graph), so a bomb is measured
    without being walked. Stops counting past the budget; a node that holds itself (an
    alias inside its own anchor) is endless."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()  # nodes whose children are being counted
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        children = _children(node)
        if children_done:
            open_nodes.discard(id(node))
            sizes[id(node)] = min(1 + sum(sizes[id(child)] for child in children), MAX_YAML_NODES + 1)
            continue
        if id(node) in sizes:
            continue
        if id(node) in open_nodes:
            return MAX_YAML_NODES + 1
        open_nodes.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in sizes)
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []
