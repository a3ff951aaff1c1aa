"""docs/architecture.md names only what exists: every path it cites (``mlbench/...``,
``docs/...``, ``tests/...``, shorthand such as ``records/budgets.py`` or a bare
``json_read.py`` in the package's listing) is a file or folder, and every dotted name
(``engine.plan.RunConfig``, ``backends/registry.check_options``, ``Task.alignment``) and
class name (``SampleRecord``) is defined in the source. A rename that leaves the house
plan behind fails here, in the commit that made it.

The source is read with ``ast``, never imported: the check stays fast and needs neither
torch nor a GPU."""

from __future__ import annotations

import ast
import builtins
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mlbench"
DOC = ROOT / "docs" / "architecture.md"
# Folders a cited path may lie in, besides the repository's root and mlbench/.
SEARCHED = ("mlbench", "tests", "scripts", "docs", "prompts", "data")
# What the plan names in backticks that is not in this repository: a benchmark author's
# file, a user's, a key inside a saved file, the wheel's copy of the shipped files, Python's
# own names.
OUTSIDE = frozenset({"utils.py", "outputs.options", "DIR/upstream/", "mlbench/_shipped/", "sys.modules"})
# A file's name: checked where it is code (``.py``) or has a folder (``prompts/x.toml``);
# a bare ``results.json`` or ``table.md`` is a file a run writes, not one of the repository.
FILE = re.compile(r"[\w/.*<>-]+\.(?:py|js|css|toml|md|yml|json|jsonl|csv|parquet|gguf)$")
DOTTED = re.compile(r"[A-Za-z_][\w/]*(?:\.[A-Za-z_*]\w*)+$")
CLASS = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$")
PACKAGE_LINE = re.compile(r"^( +)(\w+)/ ")  # a package's line in the listing: "  records/  ..."


def _code_spans(text: str) -> list[str]:
    """The doc's inline code spans, each split into its words (a span may be a command or
    a call such as ``load(lang, options) -> LanguageData``)."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    words = []
    for span in re.findall(r"`([^`\n]+)`", prose):
        words += [w.strip(".,;:()[]") for w in re.split(r"[\s(),\[\]]+", span) if w.strip(".,;:()[]")]
    return words


def _listing_files(text: str) -> list[str]:
    """The file names of the doc's listings (its code blocks), each as a path from the
    folder it is listed under (``json_read.py`` under ``records/``, ``loader.py`` under
    ``mlbench/benchmarks/<name>/``)."""
    found = []
    for block in _blocks(text):
        base, where = "", []
        for line in block.splitlines():
            heading = PACKAGE_LINE.match(line)
            if heading:
                where = [*where[: len(heading.group(1)) // 2 - 1], heading.group(2)]
            elif not line.startswith(" "):
                first = line.split()[0] if line.strip() else ""
                base, where = (first if first.endswith("/") else ""), []
            for name in re.findall(r"[\w/*<>-]+\.(?:py|js|css|toml)\b", line):
                if name in OUTSIDE:
                    continue
                folder = "/".join(part.strip("/") for part in (base, *where) if part)
                found.append(name if "/" in name or not folder else f"{folder}/**/{name}")
    return found


def _blocks(text: str) -> list[str]:
    return re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M)


def _listing_names(text: str) -> set[str]:
    """The dotted names the listings cite (``errors.one_line``, ``data.catalog.Source``)."""
    names = set()
    for block in _blocks(text):
        names.update(re.findall(r"(?<![\w/.<-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b", block))
    return {name for name in names if not FILE.fullmatch(name)}


def _exists(cited: str) -> bool:
    pattern = re.sub(r"<[^>]*>", "*", cited.rstrip("/"))
    if pattern.startswith(("/", "*")):
        return False
    # A module may be cited without its suffix (``metrics/descriptor``, the layers' table).
    for candidate in (pattern, f"{pattern}.py"):
        if any(True for _ in ROOT.glob(candidate)):
            return True
        if any(True for folder in SEARCHED for _ in (ROOT / folder).glob(f"**/{candidate}")):
            return True
    return False


TEXT = DOC.read_text(encoding="utf-8")
SPANS = _code_spans(TEXT)
PATHS = sorted(
    {
        w
        for w in SPANS
        if ("/" in w or w.endswith(".py")) and (FILE.fullmatch(w) or not DOTTED.fullmatch(w)) and w[0] != "<"
    }
    - OUTSIDE
    | set(_listing_files(TEXT))
)
NAMES = sorted(({w for w in SPANS if DOTTED.fullmatch(w) and not FILE.fullmatch(w)} | _listing_names(TEXT)) - OUTSIDE)
CLASSES = sorted({w for w in SPANS if CLASS.fullmatch(w) and not FILE.fullmatch(w)})


@pytest.mark.parametrize("cited", PATHS)
def test_every_cited_path_exists(cited):
    assert _exists(cited), f"docs/architecture.md cites {cited}, which is not in the repository"


@cache
def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _bound(body: list[ast.stmt]) -> set[str]:
    """The names a module's or a class's body binds, in its branches too (``if
    TYPE_CHECKING:``, ``try:``)."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            names |= _bound(node.body + getattr(node, "orelse", []) + getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                names |= _bound(handler.body)
    return names


@cache
def _classes() -> dict[str, list[ast.ClassDef]]:
    found: dict[str, list[ast.ClassDef]] = {}
    for path in _modules().values():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
    return found


def _class_has(name: str, member: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a class called ``name`` in mlbench defines ``member``, or inherits it from
    a class of mlbench."""
    for node in _classes().get(name, []):
        if member in _bound(node.body):
            return True
        bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
        if any(_class_has(base, member, seen | {name}) for base in bases - seen - {name}):
            return True
    return False


def _defines(module: str, members: list[str]) -> bool:
    path = _modules()[module]
    if not members or members == ["*"]:
        return True
    head, rest = members[0], members[1:]
    if f"{module}.{head}" in _modules():
        return _defines(f"{module}.{head}", rest)
    if head not in _bound(_tree(path).body):
        return False
    return not rest or _class_has(head, rest[0])


def _resolves(cited: str) -> bool:
    """``cited`` as a module of mlbench (named in full, or by its last parts:
    ``registry`` for mlbench.backends.registry) and the names inside it, or as a class of
    mlbench and its member."""
    parts = cited.replace("/", ".").split(".")
    for size in range(len(parts), 0, -1):
        tail = ".".join(parts[:size])
        modules = [m for m in _modules() if m == tail or m.endswith(f".{tail}")]
        if modules:
            return any(_defines(module, parts[size:]) for module in modules)
    return len(parts) == 2 and _class_has(parts[0], parts[1])


@pytest.mark.parametrize("cited", NAMES)
def test_every_cited_name_is_defined(cited):
    assert _resolves(cited), f"docs/architecture.md cites {cited}, which mlbench does not define"


@pytest.mark.parametrize("cited", CLASSES)
def test_every_cited_class_is_defined(cited):
    assert (
        hasattr(builtins, cited)
        or cited in _classes()
        or any(cited in _bound(_tree(p).body) for p in _modules().values())
    ), f"docs/architecture.md cites {cited}, which mlbench does not define"


def test_the_doc_cites_paths_and_names():
    """The extraction finds what the plan cites, so that the checks above check something."""
    assert "records/budgets.py" in PATHS and "mlbench/records/**/json_read.py" in PATHS
    assert {"budgets.shown", "data.untrusted.upstream.UpstreamFiles", "Task.alignment"} <= set(NAMES)
    assert {"SampleRecord", "RunResult"} <= set(CLASSES)
    assert len(PATHS) > 50 and len(NAMES) > 10 and len(CLASSES) > 10, (len(PATHS), len(NAMES), len(CLASSES))


def test_a_missing_name_or_path_fails():
    assert not _resolves("engine.scoring.no_such_function")
    assert not _resolves("registry.NO_SUCH_TABLE")
    assert not _resolves("Task.no_such_hook")
    assert not _exists("mlbench/records/no_such_module.py")
    assert not _exists("untrusted/no_such_reader.py")
    assert _resolves("backends/registry.create_backend") and _resolves("Task.alignment")
