"""An author's own files that a benchmark reads like data: its prompt code and templates.

Such files are pinned in the benchmark's ``Source`` beside its data (a repository, a
commit, each file's sha256): ``mlbench data fetch`` downloads them, ``mlbench data list``
lists them. A run finds them in the data cache, or, with ``--data-dir DIR``, in a copy at
``DIR/upstream/<folder>/<path in the repository>``; either way the file must have its
pinned sha256, since a prompt that changed is another benchmark. What is missing or
changed stops the run before any model is loaded, in one line naming the way out.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from mlbench.data.catalog import get_source
from mlbench.data.source import DataSource
from mlbench.data.untrusted.python_source import UpstreamCode
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject


@dataclass(frozen=True)
class UpstreamFiles:
    """Files of source ``source`` that task ``task`` reads, found offline under
    ``DIR/upstream/<folder>/``."""

    task: str
    source: str
    folder: str
    paths: tuple[str, ...]
    # What the error lines offer besides the authors' files (empty: nothing).
    instead: str = "-T prompts=mlbench for mlbench's own prompts"
    # What the task reads of them, as the error lines say it.
    reads: str = "its prompts"

    def record(self) -> JsonObject:
        """What results.json keeps of them: where they come from and each one's sha256."""
        source = get_source(self.source)
        return {
            "repository": source.repo,
            "commit": source.revision,
            "files": {path: _pinned_sha256(self.source, path) for path in self.paths},
        }

    def locate(self, data: DataSource) -> dict[str, Path]:
        """Each file's place (see ``_find``), every one checked against its pin."""
        found = {path: self._find(data, path) for path in self.paths}
        for path, file in found.items():
            _verified_text(file, path, self.source)
        return found

    def text(self, data: DataSource, path: str) -> str:
        """The file ``path`` as text, from the very bytes whose sha256 was checked."""
        return _verified_text(self._find(data, path), path, self.source)

    def code(self, data: DataSource, path: str) -> UpstreamCode:
        """The Python file ``path``, to read its prompt functions (found and read once)."""
        source = get_source(self.source)
        label = f"{source.repo}@{source.revision[:7]}:{path}"
        file = self._find(data, path)
        return UpstreamCode(file, label, _verified_text(file, path, self.source))

    def text_at_hand(self, data: DataSource, path: str) -> str | None:
        """``text`` from the copy at hand, None where there is none: a --data-dir copy, else
        the data cache's (fetched on first use by a run that reads the hub, and only then).
        For files a run can do without (labels, not prompts); another version is refused."""
        if data.kind != "hub":
            copy = self._local_file(data.path, path) if data.kind == "local" and data.path is not None else None
            if copy is not None:
                return _verified_text(copy, path, self.source)
            from mlbench.data.store import cached_folder

            folder = cached_folder(get_source(self.source))
            return _verified_text(folder / path, path, self.source) if folder is not None else None
        try:
            file = self._find(DataSource("hub"), path)
        except MlbenchError:
            return None  # not fetched, and not fetchable here (offline)
        return _verified_text(file, path, self.source)

    def run_source(self, run_config: JsonObject) -> DataSource:
        """Where to find these files for a finished run (a judge reading it later): its
        --data-dir copy while that copy still holds them (judging where the run ran), else
        the data cache (a run judged on another machine or from another folder; fetched
        there with `mlbench data fetch`)."""
        recorded = str(run_config.get("data_source", ""))
        if recorded.startswith("local:"):
            root = Path(recorded.removeprefix("local:"))
            beside = root / "upstream" / self.folder
            if all((beside / path).is_file() or (root / path).is_file() for path in self.paths):
                return DataSource("local", root)
        return DataSource("hub")

    def _find(self, data: DataSource, path: str) -> Path:
        """The file's place: in a --data-dir copy (``DIR/upstream/<folder>/<path>``, or
        ``DIR/<path>`` when DIR is a clone of the repository), else in the data cache
        (fetched on first use)."""
        if data.kind == "local":
            assert data.path is not None
            return self._local(data.path, path)
        from mlbench.data.store import source_folder

        try:
            return source_folder(self.source) / path
        except MlbenchError as error:
            raise MlbenchError(self._uncached(str(error))) from None

    def _local(self, root: Path, path: str) -> Path:
        found = self._local_file(root, path)
        if found is None:
            raise MlbenchError(self._missing(root / "upstream" / self.folder / path, path))
        return found

    def _local_file(self, root: Path, path: str) -> Path | None:
        beside = root / "upstream" / self.folder / path
        if beside.is_file():
            return beside
        if (root / path).is_file():  # a clone of the authors' repository
            return root / path
        return None

    def _missing(self, file: Path, path: str) -> str:
        source = get_source(self.source)
        return (
            f"{self.task} reads {self.reads} from the authors' code ({source.repo} @ {source.revision[:7]}): "
            f"{file} is missing; copy the repository's {path} there, or drop --data-dir and run "
            f"`mlbench data fetch {self.task}`{self._instead()}"
        )

    def _uncached(self, reason: str) -> str:
        source = get_source(self.source)
        why = reason.split(":", 1)[0] if reason.startswith("cannot fetch") else reason
        return (
            f"{self.task} reads {self.reads} from the authors' code ({source.repo} @ {source.revision[:7]}), "
            f"which is not in the data cache ({why}): run `mlbench data fetch {self.task}` where the internet "
            f"is reachable, or copy the repository's files to DIR/upstream/{self.folder}/ and pass --data-dir DIR"
            f"{self._instead()}"
        )

    def _instead(self) -> str:
        return f" (or {self.instead})" if self.instead else ""


def _pinned_sha256(source_name: str, path: str) -> str:
    pinned = get_source(source_name).pinned(path)
    if pinned is None or pinned.sha256 is None:
        raise MlbenchError(f"{source_name}: {path} is not pinned with a sha256 in mlbench's catalog")
    return pinned.sha256


def _verified_text(file: Path, path: str, source_name: str) -> str:
    """``file``'s text, which must be the pinned version of ``path``."""
    expected = _pinned_sha256(source_name, path)
    try:
        content = file.read_bytes()
    except OSError as error:
        raise MlbenchError(f"{file}: cannot be read ({error.strerror or error})") from None
    actual = hashlib.sha256(content).hexdigest()
    if actual != expected:
        source = get_source(source_name)
        raise MlbenchError(
            f"{file}: sha256 {actual[:12]}… is not the pinned {expected[:12]}… of {path} at "
            f"{source.repo} @ {source.revision[:7]} (another version of the authors' file)"
        )
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise MlbenchError(f"{file}: not UTF-8 text") from None
