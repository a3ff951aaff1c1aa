"""``mlbench report``: many runs → per-language tables, gaps to a reference language with
paired tests, models that answered the same questions compared with each other, plots,
and report files (md, csv, latex, html, json).

collect (read runs) → build (tables and gaps, via gaps.py and stats/) → pairs (model
against model, the same gaps.py) → terminal, or write (markdown, latex, machine, html,
plots). Never imports torch.
"""

from mlbench.report.build import Cell, ReportTable, build_tables
from mlbench.report.collect import Collection, collect
from mlbench.report.make import Report, make_report
from mlbench.report.write import FORMATS, write_report

__all__ = [
    "FORMATS",
    "Cell",
    "Collection",
    "Report",
    "ReportTable",
    "build_tables",
    "collect",
    "make_report",
    "write_report",
]
