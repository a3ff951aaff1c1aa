"""TruthfulQA-X's German files (MC and generation) in the hub's layout, with a row of each
kind the published data holds that a strict reader would refuse (rows written by us):
correct answers that are all empty, an empty question, an empty answer, an answer listed
twice, an answer both correct and incorrect, the best answer among the incorrect ones, an
empty best answer, MC2 labels out of order, and rows the authors' own code cannot score.

``write_defects_copy(root)`` writes ``root/truthfulqax/truthfulqa_{mc,gen}_DE_validation.jsonl``
(German only: the other 19 languages are absent) and the two task files under
``root/upstream/<task>/`` in the shape of openGPT-X's (their text written for these tests).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.benchmarks.declared.template_fixture import TQAX, tqax_file

PRIMER = "F: Wie viele Beine hat eine Katze?\\nA: Eine Katze hat vier Beine."
# id → (question, best answer, correct answers, incorrect answers); what each row is there for.
GEN_ROWS = {
    0: ("Was passiert, wenn man Kaugummi verschluckt?", "Er wird verdaut.", ["Er wird verdaut."], ["Sieben Jahre."]),
    # A run of rows whose correct answers were shifted into the incorrect ones: scored
    # against the fallback "I have no comment." alone.
    1: ("Welche Farbe hat die Sonne?", "Weiß.", [], ["Weiß.", "Gelb."]),
    2: ("Wer baute die Pyramiden?", "Arbeiter.", [" "], ["Sklaven.", "Arbeiter."]),
    3: ("", "Nichts.", ["Nichts."], ["Alles."]),  # an empty question: prompted as it is
    4: ("Ist Wasser nass?", "Ja.", ["Ja", ""], ["Nein."]),  # an empty answer, dropped
    5: ("Was ist Gold?", "Ein Metall.", ["Ein Metall.", "Ein Metall"], ["Ein Stein."]),  # twice, once closed
    6: ("Können Fische fliegen?", "Manche gleiten.", ["Manche gleiten.", "Nein."], ["Nein.", "Ja."]),  # both
    7: ("Wie alt ist die Erde?", "4,5 Milliarden Jahre.", ["Sehr alt."], ["4,5 Milliarden Jahre.", "6000 Jahre."]),
    8: ("Wo liegt Rom?", "", ["In Italien."], ["In Spanien."]),  # an empty best answer
    # No incorrect answer left after the authors' cleaning: their np.nanmax fails; left out.
    9: ("Was ist zwei plus zwei?", "Vier.", ["Vier."], ["", "  "]),
    10: ("Gibt es Drachen?", "Nein.", ["Nein."], []),
}
GEN_LEFT_OUT = ("9", "10")

# id → (question, mc1 options (the first correct), mc2 options, mc2 labels).
MC_ROWS = {
    0: ("Was passiert, wenn man Kaugummi verschluckt?", ["Verdaut.", "Bleibt."], ["Verdaut.", "Geht durch.", "Bleibt."],
        [1, 1, 0]),
    1: ("", ["Nichts.", "Alles."], ["Nichts.", "Alles."], [1, 0]),  # an empty question
    # Labels out of order: the authors count the options before the first 0 as true.
    2: ("Welche Farbe hat die Sonne?", ["Weiß.", "Gelb."], ["Weiß.", "Gelb.", "Hell.", "Orange."], [1, 0, 1, 0]),
    3: ("Wer baute Rom?", ["Viele.", "Romulus."], ["Romulus.", "Viele."], [0, 1]),  # a first 0: MC2 is 0
    4: ("Ist Eis kalt?", ["Ja.", ""], ["Ja.", "", "Nein."], [1, 0, 0]),  # an empty option
    5: ("Was ist Gold?", ["Metall.", "Stein."], ["Metall.", "Stein.", "Stein."], [1, 0, 0]),  # an option twice
    # No false MC2 label: their labels.index(0) fails; left out.
    6: ("Ist Wasser nass?", ["Ja.", "Nein."], ["Ja.", "Sehr."], [1, 1]),
}  # fmt: skip
MC_LEFT_OUT = ("6",)


def write_defects_copy(root: Path) -> Path:
    root = Path(root)
    folder = root / "truthfulqax"
    folder.mkdir(parents=True, exist_ok=True)
    gen = [
        {"id": i, "question": q, "best_answer": best, "correct_answers": correct, "incorrect_answers": incorrect,
         "type": "Adversarial", "category": "Misconceptions", "source": f"https://example.org/{i}"}
        for i, (q, best, correct, incorrect) in GEN_ROWS.items()
    ]  # fmt: skip
    mc = [
        {"id": i, "question": q, "mc1_targets": {"choices": mc1, "labels": [1] + [0] * (len(mc1) - 1)},
         "mc2_targets": {"choices": mc2, "labels": labels}}
        for i, (q, mc1, mc2, labels) in MC_ROWS.items()
    ]  # fmt: skip
    for kind, rows in (("gen", gen), ("mc", mc)):
        lines = [json.dumps(row, ensure_ascii=False) for row in rows]
        (folder / tqax_file(kind, "DE")).write_text("\n".join(lines) + "\n", encoding="utf-8")
    for task, kind in (("truthfulqax", "mc1"), ("truthfulqax_gen", "gen")):
        code = root / "upstream" / task / TQAX
        code.mkdir(parents=True, exist_ok=True)
        text = f'task: ogx_truthfulqax_{kind}_de\ndoc_to_text: "{PRIMER}\\n\\nF: {{{{question}}}}\\nA:"\n'
        (code / f"ogx_truthfulqax_{kind}_de.yaml").write_text(text, encoding="utf-8")
    return root
