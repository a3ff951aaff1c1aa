"""Secrets kept out of what mlbench records or prints: run files, reports, warnings.

A server URL may carry credentials (``http://user:password@host/v1``, ``?api_key=...``)
and a server's error text may echo the key it was sent. Requests still use the real URL
and key; only what is written down or shown goes through these functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "REDACTED"

# Query parameters whose value is a credential, compared without case, "-" and "_".
SECRET_PARAMS = frozenset(
    {
        "key", "apikey", "token", "accesstoken", "authtoken", "idtoken", "refreshtoken", "secret", "clientsecret",
        "password", "passwd", "pwd", "sig", "signature", "code", "auth", "credential", "credentials",
        "xamzsignature", "xamzcredential", "xamzsecuritytoken", "xgoogsignature", "xgoogcredential",
    }
)  # fmt: skip
# Shorter secrets are not replaced in free text: they would garble every word holding them.
_SHORTEST_SECRET = 4
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@?#]+@")
_QUERY_VALUE = re.compile(r"([?&;])([^=&\s#\"']+)=([^&\s#\"']*)")
# "Authorization: Bearer x", "authorization": "Basic x", "X-API-KEY: x", and a bare "Bearer x".
_HEADER_VALUE = re.compile(
    r"(?i)\b((?:authorization|proxy-authorization|x-api-key|api-key)[\"']?\s*[:=]\s*[\"']?)"
    r"(?:(bearer|basic|token)\s+)?[^\s\"',;}]+"
)
# A bare "Bearer x" only where x looks like a token (8+ characters, a digit among them),
# so that "missing bearer token" stays readable.
_BEARER = re.compile(r"(?i)\b(bearer)\s+(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}")


def _secret_param(name: str) -> bool:
    return name.lower().replace("-", "").replace("_", "") in SECRET_PARAMS


def redact_url(url: str) -> str:
    """``url`` without its userinfo, and with the values of secret-looking query
    parameters replaced by ``REDACTED``; anything that is not a URL is returned as is."""
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return redact_text(url)
    netloc = parts.netloc.rpartition("@")[2]
    if query and any(_secret_param(name) for name, _ in query):
        cleaned = urlencode([(name, REDACTED if _secret_param(name) else value) for name, value in query])
    else:
        cleaned = parts.query
    return urlunsplit((parts.scheme, netloc, parts.path, cleaned, parts.fragment))


def redact_text(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` (an error message, a warning) with each of ``secrets``, any Authorization,
    API-key header or Bearer value, URL userinfo and secret query values replaced."""
    for secret in sorted({s for s in secrets if s and len(s) >= _SHORTEST_SECRET}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    text = _USERINFO.sub(r"\1", text)
    text = _QUERY_VALUE.sub(lambda m: f"{m[1]}{m[2]}={REDACTED}" if _secret_param(m[2]) else m[0], text)
    text = _HEADER_VALUE.sub(lambda m: f"{m[1]}{m[2] + ' ' if m[2] else ''}{REDACTED}", text)
    return _BEARER.sub(rf"\1 {REDACTED}", text)
