"""The TruthfulQA-Multi authors' split of TruthfulQA into universal and local questions.

Universal questions are general knowledge, true the same way in every country (why veins
look blue); local ones depend on a place or a time (a country's laws, who is president).
The authors took the split from VeritasQA, which kept 288 of TruthfulQA's 817 questions
as universal and left the rest out as local; their map (``analysis/cultural_nuances/
veritasqa.csv``: Question, ``tru_<TruthfulQA-Multi id>``, VeritasQA's id) names the 288.
It is read as pinned data (the source ``truthfulqa-multi-scope``, which TruthfulQA-Multi's
package declares beside its data) and gives two things: each TruthfulQA row's ``scope``
label, and the TruthfulQA row of each VeritasQA question that came from one.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from mlbench.data.alignment import tqa_index
from mlbench.data.catalog import get_source
from mlbench.data.source import DataSource
from mlbench.data.untrusted.upstream import UpstreamFiles
from mlbench.errors import MlbenchError
from mlbench.records.budgets import shown

SCOPE_SOURCE = "truthfulqa-multi-scope"
SCOPE_MAP = "analysis/cultural_nuances/veritasqa.csv"
UPSTREAM = UpstreamFiles(
    SCOPE_SOURCE, SCOPE_SOURCE, "truthfulqa-multi", (SCOPE_MAP,), instead="",
    reads="the universal/local split of TruthfulQA (labels.scope)",
)  # fmt: skip
TRU_ID_OFFSET = -1  # tru_<n>: n is TruthfulQA-Multi's id of the row, which counts from 1
UNIVERSAL, LOCAL = "universal", "local"
COLUMNS = ("Question", "tru_ID", "veritas_ID")
_TRU_ID = re.compile(r"tru_(\d{1,6})")
_VERITAS_ID = re.compile(r"veritas_\d{1,6}")


@dataclass(frozen=True)
class ScopeMap:
    """The universal rows of TruthfulQA, each with the VeritasQA question it became."""

    veritas_rows: dict[str, str]  # VeritasQA id → TruthfulQA row (0-based, as tqa_index)
    origin: str  # where it was read, for notes

    @property
    def universal_rows(self) -> frozenset[str]:
        return frozenset(self.veritas_rows.values())

    def scope(self, row: str) -> str:
        return UNIVERSAL if row in self.universal_rows else LOCAL


def parse_scope_map(text: str, where: str) -> ScopeMap:
    """The map from its CSV text; a row that names no TruthfulQA row, or a row or a
    VeritasQA id twice, is refused (it would pair two questions as one)."""
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise MlbenchError(f"{where}: missing column(s) {', '.join(missing)}")
    veritas_rows: dict[str, str] = {}
    seen_rows: dict[str, str] = {}
    try:
        for line in reader:
            at = f"{where}:{reader.line_num}"
            tru, veritas = (line.get("tru_ID") or "").strip(), (line.get("veritas_ID") or "").strip()
            tru_match = _TRU_ID.fullmatch(tru)
            if tru_match is None or not _VERITAS_ID.fullmatch(veritas):
                raise MlbenchError(f"{at}: expected tru_<n> and veritas_<n>, found {shown(tru)} and {shown(veritas)}")
            # tru_<n> is TruthfulQA-Multi's id of the row (zero-padded: tru_01).
            row = tqa_index(tru_match.group(1), TRU_ID_OFFSET, at)
            if veritas in veritas_rows or row in seen_rows:
                raise MlbenchError(f"{at}: {shown(veritas if veritas in veritas_rows else tru)} is mapped twice")
            veritas_rows[veritas] = row
            seen_rows[row] = veritas
    except csv.Error as error:
        raise MlbenchError(f"{where}:{reader.line_num}: not readable as CSV ({error})") from None
    return ScopeMap(veritas_rows, where)


def scope_map(source: DataSource) -> ScopeMap | None:
    """The map from the copy at hand for a run reading ``source`` (``UpstreamFiles.
    text_at_hand``: a hub run fetches it on first use; others read a copy, or the cache's),
    None where there is none."""
    text = UPSTREAM.text_at_hand(source, SCOPE_MAP)
    if text is None:
        return None
    source_pin = get_source(SCOPE_SOURCE)
    return parse_scope_map(text, f"{source_pin.repo}@{source_pin.revision[:7]}:{SCOPE_MAP}")


def not_at_hand(source: DataSource) -> str:
    """What a run is told when the map is not at hand, and how to bring it."""
    where = (
        f"copy it to {source.path}/upstream/truthfulqa-multi/{SCOPE_MAP} or run `mlbench data fetch {SCOPE_SOURCE}`"
        if source.kind == "local"
        else f"run `mlbench data fetch {SCOPE_SOURCE}` where GitHub is reachable"
    )
    return f"the authors' universal/local map ({get_source(SCOPE_SOURCE).repo}:{SCOPE_MAP}) is not at hand: {where}"
