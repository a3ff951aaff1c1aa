"""Checks of a declared benchmark's values that its tables' readers share, and where the data
comes from on the hub (``[source]``). Every mistake is one line naming the file and the key.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from pathlib import Path

from mlbench.errors import MlbenchError, did_you_mean
from mlbench.records.budgets import listing

_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class HubSource:
    """A dataset on the Hugging Face hub: one ``config`` and ``split`` per language (either
    may hold ``{lang}``), at a ``revision`` (a commit; a branch is locked to its commit at
    the first fetch)."""

    repo: str
    revision: str
    config: str
    split: str
    license: str = "unknown"
    # The file of a config's split in the dataset's repository, for a dataset whose configs
    # only its loading script names (e.g. "truthfulqa_{config}_{split}.jsonl"); without
    # it, the card's YAML or the hub's conventions say (``mlbench.data.hub_layout``).
    data_files: str | None = None

    def config_of(self, lang: str, values: dict[str, str] | None = None) -> str:
        return self.config.format(lang=lang, **(values or {}))

    def split_of(self, lang: str, values: dict[str, str] | None = None) -> str:
        return self.split.format(lang=lang, **(values or {}))

    def data_files_of(self, lang: str, values: dict[str, str] | None = None) -> str | None:
        if self.data_files is None:
            return None
        config, split = self.config_of(lang, values), self.split_of(lang, values)
        return self.data_files.format(lang=lang, config=config, split=split, **(values or {}))


@dataclass(frozen=True)
class IdRule:
    """``column``: the id column; ``row``: the row's place in its split; ``hash``: a hash of
    ``column``'s text (stable when rows move)."""

    source: str
    column: str | None  # for ``hash``: default the question column


def known(path: Path, table: str, values: dict[str, object], allowed: tuple[str, ...]) -> None:
    unknown = [key for key in values if key not in allowed]
    if unknown:
        where = f"[{table}]" if table else "the file"
        hint = did_you_mean(unknown[0], allowed)
        raise MlbenchError(f"{path}: {where} has no key {unknown[0]!r}{hint}; valid: {', '.join(allowed)}")


def text(path: Path, key: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise MlbenchError(f"{path}: {key} must be a non-empty string")
    return value


def texts(path: Path, key: str, value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise MlbenchError(f"{path}: {key} must be a list of non-empty strings")
    return value


def read_source(path: Path, table: object, names: tuple[str, ...] = ()) -> HubSource:
    """``[source]``; ``names``: the [vars] a config or split may use besides {lang}."""
    if not isinstance(table, dict):
        raise MlbenchError(f"{path}: source must be a table ([source])")
    known(path, "source", table, ("hub", "revision", "config", "split", "license", "data_files"))
    repo = text(path, "source.hub", table.get("hub"))
    if not _REPO.fullmatch(repo):
        raise MlbenchError(f"{path}: source.hub {repo!r} must be a hub dataset id, owner/name")
    if "revision" not in table:
        # Refused rather than warned: a run on whatever the branch holds today cannot be
        # told apart from a run on other data later. A branch written out is a choice.
        raise MlbenchError(
            f"{path}: source.revision is missing: pin the dataset's commit (40 hex digits), or write "
            'revision = "main" to take the branch as it is at the first fetch (mlbench locks that commit)'
        )
    config = text(path, "source.config", table.get("config", "default"))
    split = text(path, "source.split", table.get("split", "train"))
    for key, value in (("config", config), ("split", split)):
        template_fields(path, f"source.{key}", value, ("lang", *names))
    files = _data_files(path, table, names)
    return HubSource(
        repo, text(path, "source.revision", table["revision"]), config, split,
        text(path, "source.license", table.get("license", "unknown")), files,
    )  # fmt: skip


def _data_files(path: Path, table: dict, names: tuple[str, ...]) -> str | None:
    """``source.data_files``: a relative path (or glob) in the dataset's repository, with
    {config}, {split}, {lang} and the [vars] as fields."""
    if "data_files" not in table:
        return None
    value = text(path, "source.data_files", table["data_files"])
    template_fields(path, "source.data_files", value, ("config", "split", "lang", *names))
    if Path(value).is_absolute() or ".." in Path(value).parts:
        raise MlbenchError(f"{path}: source.data_files must be a path inside the dataset (got {value!r})")
    return value


def template_fields(path: Path, key: str, value: str, names: tuple[str, ...]) -> set[str]:
    """The ``{field}`` names ``value`` uses, each one of ``names``, bare: no format spec,
    conversion, attribute or index (``{lang:x>300}`` would make a name or prompt of any
    size). Every templated value of a benchmark file is checked here."""
    try:
        parts = list(string.Formatter().parse(value))
    except ValueError as error:
        raise MlbenchError(f"{path}: {key}: {error} (write a literal brace as {{{{ or }}}})") from None
    used = set()
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if field not in names or spec or conversion:
            allowed = listing("{" + n + "}" for n in names)
            written = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            cut = written if len(written) <= 60 else written[:59] + "…"
            cut = "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)  # one line, whatever it holds
            raise MlbenchError(f"{path}: {key} may hold {allowed}, each bare, and no other field (got {cut})")
        used.add(field)
    return used
