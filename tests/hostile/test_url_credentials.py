"""Issue 35, item 9: credentials in a server URL (``-M base_url=http://user:PASSWORD@host/v1``,
``?api_key=...``) reach no run file and no report; requests still carry them."""

from __future__ import annotations

import base64

import pytest
from typer.testing import CliRunner

from mlbench.backends.redact import redact_url
from mlbench.cli.main import app
from tests.backends.fake_server import FakeServer, completion

PASSWORD = "hunter2-s3cret"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:zz1@host:8000/v1", "http://host:8000/v1"),
        ("https://zz2@host/v1", "https://host/v1"),
        ("https://host/v1?api_key=zz3&region=eu", "https://host/v1?api_key=REDACTED&region=eu"),
        ("https://host/search?Key=zz4&access_token=zz5&X-Amz-Signature=zz6&q=x", None),
        ("https://host/s?sig=zz7&secret=zz8&password=zz9&api-key=zz10&token=zz11", None),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
    ],
)
def test_redact_url_drops_userinfo_and_secret_query_values(url, shown):
    redacted = redact_url(url)
    if shown is not None:
        assert redacted == shown
    assert "zz" not in redacted and redacted.startswith(url.split(":")[0] + "://")


def test_a_password_in_base_url_reaches_no_run_file_and_no_report(tiny_model, tmp_path):
    runner = CliRunner()
    with FakeServer(lambda path, body: (200, completion(" Yes."), {})) as server:
        url = server.url.replace("http://", f"http://mlbench:{PASSWORD}@")
        result = runner.invoke(
            app,
            ["run", "--model", str(tiny_model), "--task", "veritasqa", "--lang", "en,es", "--mode", "gen",
             "--sample", "--limit", "2", "--output", str(tmp_path / "out"), "--no-cache",
             "--backend", "openai", "-M", f"base_url={url}"],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    # The requests were sent with the credentials of the URL (basic auth).
    expected = "Basic " + base64.b64encode(f"mlbench:{PASSWORD}".encode()).decode()
    assert server.headers and all(headers["authorization"] == expected for headers in server.headers)
    report = runner.invoke(
        app, ["report", str(tmp_path / "out"), "--format", "html,json", "--out", str(tmp_path / "r")]
    )
    assert report.exit_code == 0, report.output
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert {"results.json", "results_en.json", "report.html", "report.json"} <= {path.name for path in written}
    for path in written:
        assert PASSWORD not in path.read_text(encoding="utf-8", errors="replace"), path
    assert PASSWORD not in result.output + report.output
    assert server.url in (tmp_path / "out" / tiny_model.name / "veritasqa" / "results.json").read_text()
