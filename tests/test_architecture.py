"""The house rules of docs/architecture.md, checked on the source: modules import only
downwards through the layers, no two modules import each other (directly or round a
loop), only the benchmark registry is known outside mlbench/benchmarks, and no file grows
past 400 lines. Imports inside functions count: a lazy import is still a dependency."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mlbench.benchmarks import NOT_BENCHMARKS

PACKAGE = Path(__file__).resolve().parent.parent / "mlbench"

# Bottom to top; a module may import from its own layer and those below it. A name is a
# module or a package (every module under it), most specific first.
LAYERS: dict[str, tuple[str, ...]] = {
    # The shared nouns: typed records, languages, errors, shipped files; and what a metric
    # is (its descriptor and name), which a record of results carries.
    "nouns": (
        "mlbench.errors", "mlbench.records", "mlbench.languages", "mlbench.resources",
        "mlbench.metrics.descriptor", "mlbench.metrics.names",
    ),
    # What a benchmark is built from, each package with one concern.
    "parts": (
        "mlbench.metrics", "mlbench.stats", "mlbench.data", "mlbench.backends", "mlbench.judges",
        "mlbench.results",
    ),
    # The Task contract, the registry and the benchmarks themselves.
    "benchmarks": ("mlbench.benchmarks",),
    # The run and what reads its files back.
    "engine": ("mlbench.engine", "mlbench.report"),
    "cli": ("mlbench.cli", "mlbench.__main__"),
}  # fmt: skip
# The modules a project may keep at mlbench/'s top: the package, its entry point and the
# shared nouns; everything else lives in the package of its layer.
TOP_LEVEL_MODULES = 6
ORDER = list(LAYERS)


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The mlbench modules ``path`` imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("mlbench"):
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("mlbench"))
    return {_known(name) for name in found}


def _known(name: str) -> str:
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


GRAPH = {module: _imports(path) - {module} for module, path in MODULES.items()}


def layer_of(module: str) -> str:
    if module == "mlbench":  # the package itself holds only its version
        return "nouns"
    best, best_length = None, -1
    for layer, names in LAYERS.items():
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best_length:
                best, best_length = layer, len(name)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS (and docs/architecture.md)")
    return best


def test_few_modules_at_the_top():
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= TOP_LEVEL_MODULES, top


def test_every_module_has_a_layer():
    for module in MODULES:
        layer_of(module)


def test_no_module_imports_upward():
    upward = [
        f"{module} ({layer_of(module)}) imports {target} ({layer_of(target)})"
        for module, targets in GRAPH.items()
        for target in targets
        if ORDER.index(layer_of(target)) > ORDER.index(layer_of(module))
    ]
    assert not upward, "\n".join(sorted(upward))


def _is_a_benchmark(module: str) -> bool:
    """A built-in benchmark's package or a module in it (``mlbench.benchmarks.<name>...``);
    the modules directly in mlbench/benchmarks are the contract and the registry, and the
    declarative engine is the contract's reader of benchmark files."""
    parts = module.split(".")
    return (
        parts[:2] == ["mlbench", "benchmarks"]
        and len(parts) > 2
        and parts[2] not in NOT_BENCHMARKS
        and (PACKAGE / "benchmarks" / parts[2]).is_dir()
    )


def test_only_the_contract_of_benchmarks_is_imported_outside_them():
    # The engine finds benchmarks through the registry (get_task, discover) and speaks to
    # them through the Task contract; it never names one, so adding a benchmark touches no
    # file outside its package.
    reaching_in = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if not _is_a_benchmark(module)
        for target in targets
        if _is_a_benchmark(target)
    ]
    assert not reaching_in, "\n".join(sorted(reaching_in))


def _cycles() -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle():
    assert _cycles() == []


def test_the_cycle_finder_finds_a_planted_cycle(monkeypatch):
    monkeypatch.setitem(GRAPH, "mlbench.errors", {"mlbench.records"})
    monkeypatch.setitem(GRAPH, "mlbench.records", {"mlbench.errors"})
    assert ["mlbench.errors", "mlbench.records"] in _cycles()


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_file_over_400_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400


# Records are typed; JSON held as JSON says so (records.jsontypes). What is left untyped is
# a third-party call's keyword arguments, each saying why on its line.
MOST_UNTYPED_DICTS = 15
_UNTYPED = re.compile(r"dict\[str, Any\]")


def _untyped_dicts(source: str) -> list[tuple[int, str]]:
    return [(n, line) for n, line in enumerate(source.splitlines(), 1) if _UNTYPED.search(line)]


def test_few_untyped_dicts_and_each_says_why():
    found = [(path, n) for path in MODULES.values() for n, _ in _untyped_dicts(path.read_text(encoding="utf-8"))]
    assert len(found) <= MOST_UNTYPED_DICTS, f"{len(found)} dict[str, Any] in mlbench/"
    # The reason is on the line, or on the comment line just above it.
    unexplained = [
        f"{path.name}:{n}"
        for path, n in found
        if not any("# Any:" in line for line in path.read_text(encoding="utf-8").splitlines()[max(n - 2, 0) : n])
    ]
    assert not unexplained, unexplained


def test_the_untyped_dict_finder_finds_one():
    assert _untyped_dicts("a: int\nb: dict[str, Any] = {}\n") == [(2, "b: dict[str, Any] = {}")]


# torch and vLLM take seconds to import and httpx is needed by few runs, so each is imported
# lazily (inside the function that uses it), and only where the doc says: the backends, and
# for httpx the judges' search client too.
HEAVY_IMPORTS = {
    "torch": ("mlbench.backends",),
    "vllm": ("mlbench.backends",),
    "httpx": ("mlbench.backends", "mlbench.judges.evidence"),
}


def _heavy_imports(tree: ast.Module) -> list[tuple[str, int, bool]]:
    """Each import of a heavy module in ``tree``: its name, line, and whether it runs on
    import of the module (at its top, not under ``if TYPE_CHECKING:``)."""
    top: set[int] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:  # what runs on import: not a function's body, nor what only type checkers read
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        top.add(id(node))
        pending.extend(ast.iter_child_nodes(node))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            if name.split(".")[0] in HEAVY_IMPORTS:
                found.append((name.split(".")[0], node.lineno, id(node) in top))
    return found


def test_torch_vllm_and_httpx_are_imported_lazily_and_only_in_their_places():
    wrong = []
    for module, path in MODULES.items():
        for name, line, eager in _heavy_imports(ast.parse(path.read_text(encoding="utf-8"))):
            allowed = any(module == place or module.startswith(place + ".") for place in HEAVY_IMPORTS[name])
            if eager or not allowed:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {name}{' at import' if eager else ''}")
    assert not wrong, wrong


def test_the_heavy_import_finder_finds_an_eager_one():
    tree = ast.parse("import httpx\nif TYPE_CHECKING:\n    import torch\ndef f():\n    import vllm\n")
    assert _heavy_imports(tree) == [("httpx", 1, True), ("torch", 3, False), ("vllm", 5, False)]
