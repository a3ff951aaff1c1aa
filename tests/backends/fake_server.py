"""A scripted OpenAI-compatible server on 127.0.0.1, for the client's failure paths."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# A handler gets (path, request body) and returns (status, body, headers); the body may be
# a Hang or a Cut to misbehave on the wire.
Handler = Callable[[str, dict[str, Any]], tuple[int, Any, dict[str, str]]]


@dataclass(frozen=True)
class Hang:
    """Answer nothing for ``seconds`` (or until the server stops), then ``answer``; with
    ``after_headers`` the status and headers go out first and the body hangs."""

    seconds: float
    answer: Any = None
    after_headers: bool = False


@dataclass(frozen=True)
class Cut:
    """Send the headers of ``answer`` with its full Content-Length, then only its first
    ``keep`` bytes, and close the connection: a server dying mid-answer."""

    answer: Any
    keep: int = 10


class _Server(ThreadingHTTPServer):
    # A real server's backlog, not http.server's 5: bursts of connections wait, not fail.
    request_queue_size = 128


class FakeServer:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        # Set when the server stops, so that hanging handlers end with it (Event.wait, not
        # time.sleep, which tests replace to make the client's backoff instant).
        self.stopping = threading.Event()
        server = self

        class RequestHandler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server._lock:
                    server.requests.append((self.path, body))
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    status, answer, headers = server.handler(self.path, body)
                finally:
                    with server._lock:
                        server.in_flight -= 1
                try:
                    self._reply(status, answer, headers)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up on a hanging answer: what the test wanted

            def _reply(self, status: int, answer: Any, headers: dict[str, str]) -> None:
                hang = answer if isinstance(answer, Hang) else None
                if hang is not None and not hang.after_headers:
                    server.stopping.wait(hang.seconds)
                inner = answer.answer if isinstance(answer, Hang | Cut) else answer
                payload = (inner if isinstance(inner, str) else json.dumps(inner)).encode()
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if hang is not None and hang.after_headers:
                    server.stopping.wait(hang.seconds)
                if isinstance(answer, Cut):
                    self.wfile.write(payload[: answer.keep])
                    # The client sees the end of the stream now, not when this object is collected.
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self._http = _Server(("127.0.0.1", 0), RequestHandler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stopping.set()
        self._http.shutdown()
        self._http.server_close()


def completion(text: str, finish_reason: str = "stop", tokens: int = 3) -> dict[str, Any]:
    return {
        "choices": [{"index": 0, "text": text, "finish_reason": finish_reason}],
        "usage": {"completion_tokens": tokens},
    }


def slow(seconds: float, answer: tuple[int, Any, dict[str, str]]) -> tuple[int, Any, dict[str, str]]:
    time.sleep(seconds)
    return answer
