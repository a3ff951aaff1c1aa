"""The download bar shows the data's label and a hub file's name as text: markup in them
is shown, never read (a closing tag "[/]" with nothing to close raised in rich, "[red]"
coloured the bar), and escapes are made visible."""

from __future__ import annotations

import io

from mlbench.data import progress


def test_a_file_name_with_markup_or_escapes_is_shown_as_it_is(monkeypatch):
    screen = io.StringIO()
    monkeypatch.setattr(progress.sys, "stderr", screen)
    monkeypatch.setenv("FORCE_COLOR", "1")  # drawn as on a terminal
    with progress.download_progress("data [bold]x[/]") as report:
        report("repo/train[red]\x1b[2J.parquet", 10, 100)
        report("repo/train[red]\x1b[2J.parquet", 90, 100)
    shown = screen.getvalue()
    assert "data [bold]x[/] train[red]\\x1b[2J.parquet" in shown and "\x1b[2J" not in shown
