"""Which files of a hub dataset hold one config's split, in a copy laid out as the hub ships
it (mlbench's data cache, or a folder given with ``--data-dir``).

A file the benchmark names says so first (a dataset whose configs only its loading script
knows, such as ``truthfulqa_<config>_<split>.jsonl``). Then the dataset card's YAML
(``configs: - config_name: ..., data_files: ...``) where it is written, as the hub itself
reads it; otherwise the hub's own conventions are tried: ``data/<config>/<split>.*``,
``<config>/<split>.*``, ``<config>/<split>-*.*`` and the Parquet conversion's
``<config>/<split>/*.parquet`` (a converted copy of a scripted dataset is read too).
"""

from __future__ import annotations

import fnmatch
import functools
import glob
import re
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath

from mlbench.data.jsonlines import read_text
from mlbench.data.tabular import TABULAR_SUFFIXES
from mlbench.data.untrusted.yaml_document import load_yaml
from mlbench.errors import MlbenchError

CARD = "README.md"
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(\n|\Z)", re.DOTALL)
_CONVENTIONS = ("data/{config}/{split}{suffix}", "{config}/{split}{suffix}", "data/{config}/{split}-*{suffix}",
                "{config}/{split}-*{suffix}", "{config}/{split}/*{suffix}", "data/{config}-{split}{suffix}",
                "{config}_{split}{suffix}")  # fmt: skip
# A dataset with one config ("default") lays its splits out without a config folder.
_DEFAULT_CONVENTIONS = ("data/{split}{suffix}", "data/{split}-*{suffix}", "{split}{suffix}", "{split}-*{suffix}",
                        "data/{split}/*{suffix}", "{split}/*{suffix}")  # fmt: skip


def split_files(folder: Path, config: str, split: str, *, named: str | None = None) -> list[Path]:
    """The data files of ``config``'s ``split`` in ``folder``, in order (a split may be
    sharded): ``named`` (a path or glob the benchmark gives) if it is there, else as the
    card or the hub's conventions place them; an error naming what was looked for, and
    the configs there, when none is."""
    if not folder.is_dir():
        raise MlbenchError(f"no dataset folder at {folder}")

    def files(pattern: str) -> list[str]:
        return [p.relative_to(folder).as_posix() for p in _files(folder, pattern)]

    found = _locate(files, _card_configs(folder), config, split, named, str(folder), lambda: _config_folders(folder))
    return [folder / path for path in found]


def listed_split_files(
    paths: Sequence[str], card: str | None, config: str, split: str, *, named: str | None = None
) -> list[str]:
    """``split_files`` over a hub dataset's listing (its files' paths, and its card's text)
    instead of a copy: the files to fetch for one config's split."""
    listing = sorted(p for p in paths if PurePosixPath(p).suffix in TABULAR_SUFFIXES)

    def files(pattern: str) -> list[str]:
        if not _files_pattern_ok(pattern):
            return []
        wanted = pattern.split("/")
        return [p for p in listing if _glob_match(p.split("/"), wanted)]

    def folders() -> list[str]:
        return sorted({p.split("/")[1] if p.startswith("data/") else p.split("/")[0] for p in listing if "/" in p})

    configs = _parse_card(card, "the hub card README.md") if card is not None else {}
    return _locate(files, configs, config, split, named, "the hub's listing", folders)


def _locate(
    files: Callable[[str], list[str]],
    card: dict[str, dict[str, list[str]]],
    config: str,
    split: str,
    named: str | None,
    where: str,
    folders: Callable[[], list[str]],
) -> list[str]:
    """The paths (relative) of ``config``'s ``split`` as ``split_files`` finds them, with
    ``files(pattern)`` for the paths a glob matches; ``where`` names the copy in errors."""
    if named is not None and (found := files(named)):
        return found
    if config in card:
        found = _card_paths(files, card[config], split)
        if found:
            return found
        raise MlbenchError(
            f"{where}/{CARD}: config {config!r} has no {split!r} split with files here "
            f"(its splits: {', '.join(k for k in card[config] if k != '*') or 'none named'})"
        )
    conventions = _CONVENTIONS + (_DEFAULT_CONVENTIONS if config == "default" else ())
    for pattern in conventions:
        for suffix in TABULAR_SUFFIXES:
            found = files(pattern.format(config=glob.escape(config), split=glob.escape(split), suffix=suffix))
            if found:
                return found
    known = sorted(card) or folders()
    there = f" (configs there: {', '.join(known)})" if known else ""
    if named is not None:  # the file the benchmark names, first: what a user's download lacks
        raise MlbenchError(f"{where}: no {named} for config {config!r}, split {split!r}{there}")
    raise MlbenchError(
        f"{where}: no data for config {config!r}, split {split!r}: expected e.g. "
        f"data/{config}/{split}.jsonl or {config}/{split}.parquet{there}"
    )


def _glob_match(parts: list[str], pattern: list[str]) -> bool:
    """Whether a path's parts match a glob's, as ``Path.glob`` matches ("**": any folders)."""
    if not pattern:
        return not parts
    if pattern[0] == "**":
        return any(_glob_match(parts[i:], pattern[1:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], pattern[0]) and _glob_match(parts[1:], pattern[1:])


def _files(folder: Path, pattern: str) -> list[Path]:
    """The files (not folders) matching ``pattern`` under ``folder``, sorted; a pattern a
    card gives that is not a relative glob matches nothing."""
    if not _files_pattern_ok(pattern):
        return []
    try:
        return sorted(p for p in folder.glob(pattern) if p.is_file() and p.suffix in TABULAR_SUFFIXES)
    except (ValueError, NotImplementedError):  # a pattern pathlib cannot glob
        return []


def _files_pattern_ok(pattern: str) -> bool:
    return bool(pattern) and not Path(pattern).is_absolute() and ".." not in Path(pattern).parts


def _config_folders(folder: Path) -> list[str]:
    base = folder / "data" if (folder / "data").is_dir() else folder
    return sorted(p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))


def _card_configs(folder: Path) -> dict[str, dict[str, list[str]]]:
    """config → split → path patterns, from the card's YAML; empty without a card or
    ``configs``. A card the YAML reader cannot read counts as none (the conventions
    still apply), since the card is documentation first."""
    path = folder / CARD
    if not path.is_file():
        return {}
    return _parsed_card(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _parsed_card(path: Path, mtime_ns: int) -> dict[str, dict[str, list[str]]]:
    """The card read once per process for all of a run's languages (``mtime_ns`` in the
    key: a card fetched again is read again); callers only read the result."""
    return _parse_card(read_text(path), str(path))


def _parse_card(text: str, label: str) -> dict[str, dict[str, list[str]]]:
    """config → split → path patterns, from a card's YAML front matter (a card past the
    YAML budget is refused, naming ``label``; one that is not YAML says nothing)."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}
    import yaml  # with datasets and transformers

    try:
        meta = load_yaml(match.group(1), label)
    except yaml.YAMLError:
        return {}
    entries = meta.get("configs") if isinstance(meta, dict) else None
    configs: dict[str, dict[str, list[str]]] = {}
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("config_name"), str):
            splits = _card_splits(entry.get("data_files"))
            data_dir = entry.get("data_dir")
            # No data_files but a data_dir: the hub's conventions, inside that folder.
            if isinstance(data_dir, str) and _files_pattern_ok(data_dir) and not splits:
                splits = {"*": [data_dir]}
            configs[entry["config_name"]] = splits
    return configs


def _card_splits(data_files: object) -> dict[str, list[str]]:
    """The card's ``data_files`` as split → patterns (a bare pattern is the train split,
    as the hub reads it)."""
    if isinstance(data_files, str):
        return {"train": [data_files]}
    splits: dict[str, list[str]] = {}
    for item in data_files if isinstance(data_files, list) else []:
        if isinstance(item, str):
            splits.setdefault("train", []).append(item)
        elif isinstance(item, dict) and isinstance(item.get("split"), str):
            paths = item.get("path")
            listed = [paths] if isinstance(paths, str) else paths if isinstance(paths, list) else []
            splits.setdefault(item["split"], []).extend(p for p in listed if isinstance(p, str))
    return splits


def _card_paths(files: Callable[[str], list[str]], splits: dict[str, list[str]], split: str) -> list[str]:
    if "*" in splits:  # a data_dir: the split by the hub's conventions inside it
        inside = PurePosixPath(splits["*"][0]).as_posix()  # "./" and "" are the top
        prefix = "" if inside in (".", "") else inside + "/"
        patterns = [
            p.format(split=glob.escape(split), suffix=s) for p in _DEFAULT_CONVENTIONS for s in TABULAR_SUFFIXES
        ]
        return next((found for pattern in patterns if (found := files(prefix + pattern))), [])
    matched: list[str] = []
    for pattern in splits.get(split, []):
        matched += files(pattern)
    return matched
