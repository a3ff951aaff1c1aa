"""Evidence for claim verification from a web-search service (CaLMQA factuality, docs/protocols.md#calmqa).

The service is any HTTP endpoint that takes ``POST {"q": query, "num": k}`` and answers
JSON with its results under ``organic`` (the shape Serper, the paper's search API,
returns), ``results`` or ``snippets``: a list of strings or of objects with a ``snippet``
(and optionally ``title``). An API key, when the service needs one, is read from the
environment variable ``-J search_api_key_env`` names and sent as ``X-API-KEY``; no error
this client raises carries it, nor the URL's credentials.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from mlbench.backends.redact import redact_text
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject, JsonValue

DEFAULT_RESULTS = 10  # the paper verifies each claim against the top 10 results
RETRIES = 3


class SearchError(MlbenchError):
    """The search service failed or answered something that is not a result list."""


@dataclass
class SearchClient:
    url: str
    results: int = DEFAULT_RESULTS
    key_env: str | None = None  # the variable holding the key (-J search_api_key_env)
    timeout_s: float = 30.0
    retries: int = RETRIES
    _cache: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def headers(self) -> dict[str, str]:
        if not self.key_env:
            return {}
        key = os.environ.get(self.key_env)
        if not key:
            raise MlbenchError(f"-J search_api_key_env {self.key_env}: that variable is not set")
        return {"X-API-KEY": key}

    def snippets(self, query: str) -> list[str]:
        """The top results' texts for ``query`` (asked once per query per job)."""
        if query not in self._cache:
            self._cache[query] = parse_results(self._post({"q": query, "num": self.results}))[: self.results]
        return self._cache[query]

    def _post(self, payload: JsonObject) -> JsonValue:
        import httpx  # only a judge with search evidence needs it; the layers keep httpx lazy

        error = ""
        for attempt in range(self.retries):
            try:
                response = httpx.post(self.url, json=payload, headers=self.headers(), timeout=self.timeout_s)
                if response.status_code < 500 and response.status_code != 429:
                    response.raise_for_status()
                    return response.json()
                error = f"HTTP {response.status_code}"
            except httpx.HTTPStatusError as failure:
                raise SearchError(f"search service: HTTP {failure.response.status_code}") from None
            except (httpx.HTTPError, ValueError) as failure:
                error = str(failure) or type(failure).__name__
            time.sleep(min(2.0**attempt, 8.0) * 0.25)
        # An httpx error may quote the request (URL, headers): what reaches a warning or a file
        # goes without the key.
        secret = os.environ.get(self.key_env) if self.key_env else None
        raise SearchError(redact_text(f"search service failed after {self.retries} attempts: {error}", [secret]))


def parse_results(payload: JsonValue) -> list[str]:
    """Snippet texts from a search answer, in rank order."""
    if isinstance(payload, dict):
        for key in ("organic", "results", "snippets"):
            if key in payload:
                payload = payload[key]
                break
        else:
            raise SearchError(f"search service answered without organic/results/snippets: {sorted(payload)[:5]}")
    if not isinstance(payload, list):
        raise SearchError("search service answered something that is not a result list")
    texts = []
    for item in payload:
        if isinstance(item, str):
            texts.append(item)
        elif isinstance(item, dict) and item.get("snippet"):
            title = item.get("title")
            texts.append(f"{title}: {item['snippet']}" if title else str(item["snippet"]))
    return texts


def evidence_text(snippets: list[str]) -> str:
    """The snippets as one evidence passage for the claim-support judge."""
    return "\n".join(f"[{i}] {snippet}" for i, snippet in enumerate(snippets, start=1))
