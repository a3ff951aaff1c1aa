"""The two homes a source can have, behind one interface: GitHub (files named in the
catalog, fetched raw at a commit) and the Hugging Face hub (data files listed by the hub's
API at a revision, each with the hash the hub keeps for it)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from mlbench.data import http
from mlbench.data.catalog import Source
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject

# What a hub dataset's reader needs: the data, and the card whose YAML names the configs
# and the features (ClassLabel names).
HUB_DATA_SUFFIXES = (".parquet", ".json", ".jsonl", ".csv", ".tsv", ".arrow")
HUB_CARD = "README.md"


@dataclass(frozen=True)
class RemoteFile:
    path: str
    sha256: str | None = None
    blob_id: str | None = None  # git's id of the content, when the hub gives no sha256
    size: int | None = None


def _hub_file(url: str, name: str, sibling: JsonObject) -> RemoteFile:
    """A file of the hub's listing: its LFS sha256, else its git blob id, and its size."""
    lfs = sibling.get("lfs") or {}
    if not isinstance(lfs, dict):
        raise MlbenchError(f"{url}: not a dataset description ({name}: lfs is not an object)")
    sha256, blob_id, size = lfs.get("sha256"), None if lfs else sibling.get("blobId"), sibling.get("size")
    if not isinstance(sha256, str | None) or not isinstance(blob_id, str | None) or not isinstance(size, int | None):
        raise MlbenchError(f"{url}: not a dataset description ({name}: a sha256, blobId or size of another type)")
    return RemoteFile(name, sha256, blob_id, size)


class Remote:
    def __init__(self, source: Source) -> None:
        self.source = source

    def headers(self) -> dict[str, str]:
        return {}

    def resolve(self) -> tuple[str, list[RemoteFile]]:
        """(commit, files) of the catalog's revision."""
        raise NotImplementedError

    def url(self, commit: str, path: str) -> str:
        raise NotImplementedError

    def browse_url(self) -> str:
        raise NotImplementedError

    def explain(self, error: MlbenchError) -> str | None:
        """A better one-line message for an HTTP status, or None."""
        return None

    def download(
        self, url: str, dest: Path, on_bytes: Callable[[int, int | None], None] | None
    ) -> tuple[str, str, int]:
        return http.download(url, dest, self.headers(), on_bytes)


class GitHubRemote(Remote):
    def raw_base(self) -> str:
        return os.environ.get("MLBENCH_GITHUB_RAW_URL", "https://raw.githubusercontent.com").rstrip("/")

    def api_base(self) -> str:
        return os.environ.get("MLBENCH_GITHUB_API_URL", "https://api.github.com").rstrip("/")

    def headers(self) -> dict[str, str]:
        token = os.environ.get("GITHUB_TOKEN")
        return {"Authorization": f"Bearer {token}"} if token else {}

    def resolve(self) -> tuple[str, list[RemoteFile]]:
        source = self.source
        commit = source.revision
        if not source.pinned_commit:  # a branch: the commit it points at now, kept in the lock
            answer = http.get_json(
                f"{self.api_base()}/repos/{source.repo}/commits/{quote(source.revision)}", self.headers()
            )
            sha = answer.get("sha") if isinstance(answer, dict) else None
            if not isinstance(sha, str) or len(sha) != 40:
                raise MlbenchError(f"GitHub gave no commit for {source.repo}@{source.revision}")
            commit = sha
        return commit, [RemoteFile(f.path, f.sha256) for f in source.files]

    def url(self, commit: str, path: str) -> str:
        return self.source.file_url(self.raw_base(), commit, path)

    def browse_url(self) -> str:
        return f"https://github.com/{self.source.repo}/tree/{self.source.revision}"

    def explain(self, error: MlbenchError) -> str | None:
        if isinstance(error, http.HttpStatusError) and error.status == 404:
            return f"{error.url}: not found (HTTP 404): {self.source.repo}@{self.source.revision} has no such file"
        if isinstance(error, http.HttpStatusError) and error.status in (403, 429):
            return f"{error.url}: GitHub refused (HTTP {error.status}, rate limit?): wait, or set GITHUB_TOKEN"
        return None


class HubRemote(Remote):
    def endpoint(self) -> str:
        return os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")

    def headers(self) -> dict[str, str]:
        token = os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN")
        return {"Authorization": f"Bearer {token}"} if token else {}

    def resolve(self) -> tuple[str, list[RemoteFile]]:
        source = self.source
        url = f"{self.endpoint()}/api/datasets/{source.repo}/revision/{quote(source.revision, safe='')}?blobs=true"
        info = http.get_json(url, self.headers())
        sha = info.get("sha") if isinstance(info, dict) else None
        siblings = info.get("siblings") if isinstance(info, dict) else None
        if not isinstance(sha, str) or not isinstance(siblings, list):
            raise MlbenchError(f"{url}: not a dataset description (no sha/siblings)")
        files = []
        for sibling in siblings:
            name = sibling.get("rfilename", "") if isinstance(sibling, dict) else ""
            if (
                isinstance(sibling, dict)
                and isinstance(name, str)
                and (name == HUB_CARD or name.endswith(HUB_DATA_SUFFIXES))
            ):
                files.append(_hub_file(url, name, sibling))
        if not any(f.path != HUB_CARD for f in files):
            raise MlbenchError(f"{source.repo}@{source.revision}: the hub lists no data files")
        return sha, files

    def url(self, commit: str, path: str) -> str:
        return self.source.file_url(self.endpoint(), commit, path)

    def browse_url(self) -> str:
        return f"https://huggingface.co/datasets/{self.source.repo}/tree/{self.source.revision}"

    def explain(self, error: MlbenchError) -> str | None:
        if not isinstance(error, http.HttpStatusError):
            return None
        home = self.source.home_url()
        if error.status == 401:
            return f"{self.source.repo}: the hub wants a token (HTTP 401): set HF_TOKEN to a token that can read {home}"
        if error.status == 403:
            return f"{self.source.repo} is gated (HTTP 403): accept its conditions at {home}, then set HF_TOKEN"
        if error.status == 404:
            return f"{error.url}: not found on the hub (HTTP 404)"
        return None


def remote_for(source: Source) -> Remote:
    return HubRemote(source) if source.home == "hub" else GitHubRemote(source)
