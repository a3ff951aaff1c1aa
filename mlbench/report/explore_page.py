"""The explorer as one self-contained HTML file: its script, style and data inline, and a
Content-Security-Policy that lets only that script and style run and loads nothing from
anywhere, so the file opens offline and can be mailed. Data is a JSON block the script
reads; it is never markup."""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from importlib.resources import files

from mlbench.report.explore_data import ExplorerData


def _asset(name: str) -> str:
    return (files("mlbench.report") / "assets" / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def data_block(data: ExplorerData) -> str:
    """The data as JSON safe inside a <script> element: no ``<`` (so no ``</script>``)
    and no line separators JavaScript would not read."""
    text = json.dumps(data.to_json(), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def explorer_page(data: ExplorerData, title: str = "mlbench explorer") -> str:
    script, style = _asset("explorer.js"), _asset("explorer.css")
    policy = (
        f"default-src 'none'; script-src {_csp_hash(script)}; style-src {_csp_hash(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{escape(policy, quote=False)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{style}</style>
</head>
<body>
<header><h1>{escape(title)}</h1><div class="controls" id="controls"></div></header>
<div class="notice" id="notice" hidden></div>
<main id="questions"></main>
<script id="explorer-data" type="application/json">{data_block(data)}</script>
<script>{script}</script>
</body>
</html>
"""
