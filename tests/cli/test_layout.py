"""A listing is a table where every cell fits whole, else a block per record; lists of
names wrap between their items."""

from __future__ import annotations

import io

from rich.console import Console

from mlbench.cli.layout import Column, Listing, column_widths, pack


def drawn(listing: Listing, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(listing)
    return console.export_text()


def sample() -> Listing:
    listing = Listing("things", [Column("name", no_wrap=True), Column("home"), Column("tags")])
    listing.add("calmqa", "hub: shanearora/CaLMQA", ["Disability Rights", "Free Speech"])
    listing.add("truthfulqa-multi-MT", "github: hitz-zentroa/truthfulqa-multi", ["Arms"])
    return listing


def test_a_table_where_it_fits_a_block_per_record_where_it_does_not():
    wide = drawn(sample(), 100)
    assert "┃ name" in wide and "truthfulqa-multi-MT" in wide
    narrow = drawn(sample(), 36)
    first = ["things", "calmqa", "  home: hub: shanearora/CaLMQA", "  tags: Disability Rights,"]
    assert narrow.splitlines()[:4] == first
    assert "      Free Speech" in narrow and "…" not in narrow
    assert max(map(len, narrow.splitlines())) <= 36
    assert "  home: github:\n      hitz-zentroa/truthfulqa-multi\n" in narrow


def test_table_from_stacks_even_where_a_table_would_fit():
    listing = sample()
    listing.table_from = 120
    assert "┃" not in drawn(listing, 100) and "  tags: Arms" in drawn(listing, 100)


def test_column_widths_give_each_column_its_longest_word_before_sharing_the_rest():
    widths = column_widths(sample(), 70)
    assert widths is not None and widths[0] == len("truthfulqa-multi-MT")
    assert widths[1] >= len("hitz-zentroa/truthfulqa-multi") and sum(widths) + 4 + 6 <= 70
    assert column_widths(sample(), 60) is None  # the names and the longest words need more


def test_pack_keeps_each_item_whole():
    topics = ["Arms", "Children's Rights", "Crisis and Conflict", "Disability Rights", "Free Speech"]
    lines = pack(topics, 30, "  accepts: ", "      ")
    assert lines == ["  accepts: Arms,", "      Children's Rights,", "      Crisis and Conflict,",
                     "      Disability Rights,", "      Free Speech"]  # fmt: skip
    assert pack(["x" * 25], 10, "", "  ") == ["x" * 10, "  " + "x" * 8, "  " + "x" * 7]


def test_one_width_check_for_every_terminal_table():
    # The listings, `mlbench report`'s tables and a run's summary used three checks of their own.
    from pathlib import Path

    from rich.table import Table

    from mlbench.report.layout import fits

    package = Path(__file__).resolve().parents[2] / "mlbench"
    users = sorted(str(p.relative_to(package)) for p in package.rglob("*.py") if "Measurement" in p.read_text())
    assert users == []
    checkers = sorted(str(p.relative_to(package)) for p in package.rglob("*.py") if "export_text()" in p.read_text())
    assert checkers == ["report/layout.py"]
    table = Table("name", "value")
    table.add_row("a-rather-long-name", "0.123")
    assert fits(table, 40) and not fits(table, 12)
