"""A small synthetic ``--data-dir`` tree for the test suite, in the layouts mlbench's local
loaders read (mlbench/data/*.py):

- ``truthfulqa-multi/<lang>/{train,validation}.json`` for en es ca gl eu: 20 questions per
  language (the questions of mlbench's own sample set, ``data/sample``, with a few changes
  that the real release also shows: a question ending in a space, Galician best answers that
  are not verbatim in the correct answers) and the six-pair QA primer (lm-eval's English
  primer and our own translations of it);
- ``veritasqa/veritasqa_<lang>.csv`` for en es ca gl: 12 questions, ``veritas_001``–``veritas_012``;
- ``xlinghealth/{LiveQA,MedicationQA}.csv``: 6 questions each, five rows per question, with
  the release's defects (a LiveQA question empty in English, a MedicationQA question without
  an English gold answer, a Chinese candidate answer left empty);
- ``msqad/<Topic>.json`` (UTF-8 with a byte-order mark): three topics, 6 + 6 + 30 rows;
- ``calmqa/questions.jsonl``: 36 questions in 8 languages (12 culturally specific, 3 agnostic
  questions asked in every language).

Every text here was written for these tests; nothing is copied from the benchmarks' data.
Each benchmark's fixture lives beside its tests, ``tests/benchmarks/<name>/fixtures.py``
(``DATA_FOLDER`` and ``write_fixtures``), found here: adding a benchmark adds its own file
and touches none of the others'. ``write_fixture_datasets(folder)`` writes the tree (a few
hundred KB, deterministic); ``python tests/fixture_data.py DIR`` writes it to DIR for a look.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent / "benchmarks"


def fixture_modules() -> list:
    """Each benchmark's fixtures module (``tests/benchmarks/<name>/fixtures.py``), by name."""
    root = str(BENCHMARKS.parent.parent)
    if root not in sys.path:  # the modules import each other as tests.benchmarks.<name>.fixtures
        sys.path.insert(0, root)
    names = sorted(path.parent.name for path in BENCHMARKS.glob("*/fixtures.py"))
    return [importlib.import_module(f"tests.benchmarks.{name}.fixtures") for name in names]


def write_fixture_datasets(root: Path) -> Path:
    """Write the whole ``--data-dir`` tree under ``root`` (created if missing); returns ``root``."""
    root = Path(root)
    for module in fixture_modules():
        module.write_fixtures(root / module.DATA_FOLDER)
    return root


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/fixture_data.py DIR")
    print(write_fixture_datasets(Path(sys.argv[1])))
