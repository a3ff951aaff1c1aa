"""A local HTTP server standing in for GitHub (raw files, the commits API) and the Hugging
Face hub (the dataset revision API, resolve URLs), with faults to inject."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse


def git_blob_id(content: bytes) -> str:
    return hashlib.sha1(f"blob {len(content)}\0".encode() + content).hexdigest()


@dataclass
class FakeHomes:
    """``github[(repo, commit)] = {path: bytes}``; ``branches[(repo, branch)] = commit``;
    ``hub[(repo, commit)] = {path: bytes}`` (parquet files are served as LFS files);
    ``faults[path] = "404" | "403" | "401" | "500" | "drop" | "corrupt"`` (or ``<kind>-once``);
    ``faults["api:<repo>"]`` for the hub's API."""

    github: dict[tuple[str, str], dict[str, bytes]] = field(default_factory=dict)
    branches: dict[tuple[str, str], str] = field(default_factory=dict)
    hub: dict[tuple[str, str], dict[str, bytes]] = field(default_factory=dict)
    faults: dict[str, str] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    base: str = ""

    def fault(self, path: str) -> str | None:
        kind = self.faults.get(path)
        if kind and kind.endswith("-once"):
            del self.faults[path]
            return kind.removesuffix("-once")
        return kind


def _handler(homes: FakeHomes) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def send_bytes(self, body: bytes, status: int = 200, declared: int | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Length", str(declared if declared is not None else len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - the http.server interface
            path = unquote(urlparse(self.path).path)
            homes.requests.append(path)
            parts = path.strip("/").split("/")
            try:
                if parts[0] == "raw":  # /raw/<owner>/<name>/<commit>/<path>
                    repo, commit, file = "/".join(parts[1:3]), parts[3], "/".join(parts[4:])
                    self.serve(homes.github.get((repo, commit), {}), file)
                elif parts[0] == "ghapi":  # /ghapi/repos/<owner>/<name>/commits/<branch>
                    commit = homes.branches.get(("/".join(parts[2:4]), parts[5]))
                    self.json({"sha": commit} if commit else {"message": "No commit found"}, 200 if commit else 422)
                elif parts[:2] == ["api", "datasets"]:  # /api/datasets/<owner>/<name>/revision/<rev>
                    self.hub_info("/".join(parts[2:4]), parts[5])
                elif parts[0] == "datasets":  # /datasets/<owner>/<name>/resolve/<commit>/<path>
                    repo, commit, file = "/".join(parts[1:3]), parts[4], "/".join(parts[5:])
                    self.serve(homes.hub.get((repo, commit), {}), file)
                else:
                    self.send_bytes(b"", 404)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def json(self, data: object, status: int = 200) -> None:
            self.send_bytes(json.dumps(data).encode(), status)

        def serve(self, files: dict[str, bytes], file: str) -> None:
            fault = homes.fault(file)
            if fault in ("404", "403", "401", "500"):
                return self.send_bytes(b"", int(fault))
            if file not in files:
                return self.send_bytes(b"", 404)
            body = files[file]
            if fault == "corrupt":  # same length, one byte changed
                return self.send_bytes(bytes([body[0] ^ 1]) + body[1:])
            if fault == "drop":  # promise the whole file, send half, hang up
                return self.send_bytes(body[: len(body) // 2], declared=len(body))
            self.send_bytes(body)

        def hub_info(self, repo: str, revision: str) -> None:
            fault = homes.fault(f"api:{repo}")
            if fault:
                return self.send_bytes(b"", int(fault))
            commit = homes.branches.get((repo, revision), revision)
            files = homes.hub.get((repo, commit))
            if files is None:
                return self.send_bytes(b"", 404)
            siblings = []
            for name, content in files.items():
                sibling = {"rfilename": name, "size": len(content), "blobId": git_blob_id(content)}
                if name.endswith(".parquet"):
                    sibling["lfs"] = {"sha256": hashlib.sha256(content).hexdigest(), "size": len(content)}
                siblings.append(sibling)
            siblings.append({"rfilename": ".gitattributes", "size": 10, "blobId": "0" * 40})
            self.json({"id": repo, "sha": commit, "siblings": siblings})

    return Handler


def start(homes: FakeHomes) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(homes))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    homes.base = f"http://127.0.0.1:{server.server_address[1]}"
    return server, homes.base
