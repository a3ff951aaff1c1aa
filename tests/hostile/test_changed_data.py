"""Issue 35, item 2: a data file edited between a run and its --resume. The samples scored
from the old answers must not be kept beside new ones: resume is refused in one line."""

import json

from tests.cli.test_cli import run_model

RUN = "--task veritasqa --no-cache --mode mc --lang en"


def _write(path, incorrect):
    rows = [
        {"id": f"q{i}", "lang": "en", "question": f"Question {i}?", "best_answer": "Yes it is.",
         "correct_answers": ["Yes it is."], "incorrect_answers": [incorrect]}
        for i in range(4)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_resume_over_edited_data_is_refused(tiny_model, tmp_path):
    data = tmp_path / "mine.jsonl"
    _write(data, "No it is not.")
    assert run_model(tiny_model, tmp_path / "out", f"{RUN} --limit 2", "--data-file", data).exit_code == 0
    run_dir = tmp_path / "out" / tiny_model.name / "veritasqa"
    written = json.loads((run_dir / "results.json").read_text())["config"]["data_sha256"]["en"]
    lines = [json.loads(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
    assert {line["data_hash"] for line in lines} == {written}

    # The same data: resume goes on (and scores the two samples left).
    same = run_model(tiny_model, tmp_path / "out", f"{RUN} --limit 3 --resume", "--data-file", data)
    assert same.exit_code == 0, same.output

    _write(data, "Never.")
    resumed = run_model(tiny_model, tmp_path / "out", f"{RUN} --limit 4 --resume", "--data-file", data)
    assert resumed.exit_code == 2, resumed.output
    assert "veritasqa en: the data changed since 3 saved samples were scored from it" in resumed.output
    assert "Traceback" not in resumed.output
    assert len((run_dir / "samples_en.jsonl").read_text().splitlines()) == 3  # nothing added

    again = run_model(tiny_model, tmp_path / "out", f"{RUN} --limit 4 --overwrite", "--data-file", data)
    assert again.exit_code == 0, again.output
    assert json.loads((run_dir / "results.json").read_text())["config"]["data_sha256"]["en"] != written
