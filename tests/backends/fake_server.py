"""A scripted OpenAI-compatible server on 127.0.0.1, for the client's failure paths."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# A handler gets (path, request body) and returns (status, body, headers).
Handler = Callable[[str, dict[str, Any]], tuple[int, Any, dict[str, str]]]


class FakeServer:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
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
                payload = (answer if isinstance(answer, str) else json.dumps(answer)).encode()
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
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
