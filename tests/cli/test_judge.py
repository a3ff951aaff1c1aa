"""`mlbench run --judge`, `mlbench judge` and `mlbench agree` end to end on the tiny model."""

import json

import pytest
from sklearn.metrics import cohen_kappa_score

from tests.cli.test_cli import run_cli, run_model

SAMPLE_GEN = "--task truthfulqa_multi --lang en,es --limit 3 --sample --mode gen --backend hf --no-cache"


@pytest.fixture(scope="module")
def judged_run(tiny_model, tmp_path_factory):
    out = tmp_path_factory.mktemp("judged")
    result = run_model(tiny_model, out, f"{SAMPLE_GEN} -J kind=truth,info -J backend=hf --judge", tiny_model)
    assert result.exit_code == 0, result.output
    return out / tiny_model.name / "truthfulqa_multi"


def read(run_dir, name):
    return json.loads((run_dir / name).read_text())


def lines(run_dir, lang):
    return [json.loads(line) for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]


def test_run_with_judge_adds_truth_and_info(judged_run, tiny_model):
    results = read(judged_run, "results.json")
    for lang in ("en", "es"):
        block = results["results"][lang]
        assert {"bleu_max", "truthful", "informative", "truthful_informative"} <= set(block)
        records = lines(judged_run, lang)
        assert block["truthful"]["value"] == sum(r["judges"]["truth"]["label"] == "yes" for r in records) / 3
    judges = results["config"]["judges"]
    assert judges["truth"]["judge"] == str(tiny_model) and judges["truth"]["chat"] is True  # it has a template
    assert judges["info"]["scoring"] == "logprob"


def test_judge_command_with_a_prompted_judge(judged_run, tiny_model):
    result = run_cli("judge", judged_run, "--judge", tiny_model, "-J", "kind=relevance", "-J", "backend=hf",
                     "--no-cache", "--lang", "en")  # fmt: skip
    assert result.exit_code == 0, result.output
    records = lines(judged_run, "en")
    labels = [r["judges"]["relevance"]["label"] for r in records]
    assert set(labels) <= {"relevant", "irrelevant", "unparsed"} and len(labels) == 3
    block = read(judged_run, "results.json")["results"]["en"]
    assert block.get("unparsed_relevance", 0) == labels.count("unparsed")
    assert all("relevance" not in r.get("judges", {}) for r in lines(judged_run, "es"))


def test_agree_on_a_label_file(tmp_path):
    rows = [
        ("1", "en", "yes", "yes"), ("2", "en", "no", "no"), ("3", "en", "Yes", "no"), ("4", "en", "no", "NO"),
        ("5", "es", "yes", "yes"), ("6", "es", "", "yes"), ("7", "es", "no", "yes"), ("8", "es", "no", "no"),
    ]  # fmt: skip
    path = tmp_path / "labels.csv"
    path.write_text("id,lang,human,judge\n" + "".join(",".join(r) + "\n" for r in rows))
    out = tmp_path / "agree.json"
    result = run_cli("agree", path, "--a", "human", "--b", "judge", "--by", "lang", "--output", out)
    assert result.exit_code == 0, result.output
    assert "Cohen's κ" in result.output
    by_group = {line["group"]: line for line in json.loads(out.read_text())}
    assert list(by_group) == ["en", "es", "all"]
    en = by_group["en"]
    assert en["n"] == 4 and en["agreement"] == 0.75
    assert en["kappa"] == cohen_kappa_score(["yes", "no", "yes", "no"], ["yes", "no", "no", "no"])
    assert by_group["es"]["n"] == 3 and by_group["es"]["missing_a"] == 1


def test_agree_joins_human_labels_with_the_run(judged_run, tmp_path):
    records = {lang: lines(judged_run, lang) for lang in ("en", "es")}
    human = tmp_path / "human.jsonl"
    rows = [{"id": r["id"], "lang": lang, "truth": "yes" if i % 2 else "no"} for lang in records
            for i, r in enumerate(records[lang])]  # fmt: skip
    rows.append({"id": "not-a-question", "lang": "en", "truth": "yes"})
    human.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "agree.json"
    result = run_cli("agree", judged_run, "--human", human, "--kind", "truth", "--output", out)
    assert result.exit_code == 0, result.output
    assert "1 of 7 human labels match no sample" in result.output
    by_group = {line["group"]: line for line in json.loads(out.read_text())}
    assert list(by_group) == ["en", "es", "all"]
    judge = [r["judges"]["truth"]["label"] for r in records["en"]]
    human_en = [row["truth"] for row in rows if row["lang"] == "en"][:3]
    assert by_group["en"]["agreement"] == sum(a == b for a, b in zip(human_en, judge)) / 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["judge", "{run}", "--judge", "{model}", "-J", "kind=truthy"], "unknown judge kind 'truthy'"),
        (["judge", "{run}", "--judge", "{model}", "-J", "kind=relevance", "-J", "scoring=logprob",
          "-J", "backend=hf", "--no-cache"], "needs -J scoring=generate"),
        (["judge", "{missing}", "--judge", "{model}"], "no such run folder"),
        (["judge", "{run}", "--judge", "{model}", "--lang", "eu"], "no run has results in eu"),
        (["run", "--model", "{model}", "--task", "veritasqa", "--sample", "--mode", "mc", "--judge", "{model}"],
         "--judge reads generated answers"),
        (["judge", "{run}", "--judge", "{model}", "-J", "backend=openai"],
         "-J backend=openai needs -J base_url=URL"),
        (["run", "--model", "{model}", "--task", "veritasqa", "--sample", "--judge", "j", "-J", "backend=openai"],
         "-J backend=openai needs -J base_url=URL"),
        (["agree", "{labels}", "--a", "human"], "give the two label columns"),
        (["agree", "{labels}", "--a", "human", "--b", "nope"], "has no column nope; it has human, id, judge, lang"),
        (["agree", "{bad_jsonl}", "--a", "x", "--b", "y"], "bad.jsonl:2: invalid JSON"),
        (["agree", "{labels_txt}", "--a", "x", "--b", "y"], "label files are .csv or .jsonl"),
        (["agree", "{labels}", "--human", "{labels}"], "with --human, SOURCE is a run folder"),
        (["agree", "{run}", "--human", "{no_id}"], "has no column id"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(args, message, judged_run, tiny_model, tmp_path):
    files = {
        "labels": "id,lang,human,judge\n1,en,yes,no\n",
        "bad_jsonl": '{"x": 1, "y": 1}\n{oops\n',
        "labels_txt": "x y\n",
        "no_id": "lang,truth\nen,yes\n",
    }
    names = {"labels": "labels.csv", "bad_jsonl": "bad.jsonl", "labels_txt": "labels.txt", "no_id": "no_id.csv"}
    paths = {}
    for key, text in files.items():
        paths[key] = tmp_path / names[key]
        paths[key].write_text(text)
    values = {"run": judged_run, "model": tiny_model, "missing": tmp_path / "missing", **paths}
    result = run_cli(*[a.format(**values) for a in args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
