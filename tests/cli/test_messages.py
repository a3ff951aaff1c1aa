"""Messages that help: every bad value ends in one line of our own words and exit code 2
(no validation library's "Value error," or "Input should be"), and a name mlbench does not
know gets the nearest one it does as "did you mean". Run as the console script runs them
(``_invoke_app``: click's errors are ours to word, not CliRunner's boxed usage)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mlbench.cli.main import _invoke_app
from tests.benchmarks.declared.okapi_fixture import write_okapi_copy
from tests.cli.test_cli import run_model

# What no line may show: the validation library's words, or a traceback.
LIBRARY_WORDS = ("Value error", "Input should be", "validation error", "Traceback", "pydantic", "Invalid value for")
QA = ("--task", "truthfulqa_multi", "--sample")


def one_error_line(monkeypatch, capsys, *args: object) -> str:
    """The one ``mlbench: error:`` line of ``mlbench ARGS``, checked for exit code 2 and
    for none of the library's words anywhere in what was printed."""
    monkeypatch.setattr(sys, "argv", ["mlbench", *map(str, args)])
    code = _invoke_app()
    printed = capsys.readouterr()
    lines = printed.err.strip().splitlines()
    assert code == 2, printed
    assert len(lines) == 1 and lines[0].startswith("mlbench: error: "), lines
    for words in LIBRARY_WORDS:
        assert words not in printed.err + printed.out, printed
    return lines[0].removeprefix("mlbench: error: ")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # Flag values typer checks: our words, the flag first.
        (("--limit", "abc"), "--limit: 'abc' is not a whole number"),
        (("--limit", "-1"), "--limit: -1 must be at least 1"),
        (("--limit", "2.5"), "--limit: '2.5' is not a whole number"),
        (("--seed", "x"), "--seed: 'x' is not a whole number"),
        (("--seed", "-3"), "--seed: -3 must be between 0 and 4294967295"),
        (("--fewshot", "x"), "--fewshot: 'x' is not a whole number"),
        (("--max-new-tokens", "0"), "--max-new-tokens: 0 must be at least 1"),
        (("--backend", "vlm"), "--backend must be one of auto, hf, vllm, openai, not 'vlm' (did you mean vllm?)"),
        (("--dtype", "bfloat"), "(did you mean bfloat16?)"),
        (("--limt", "3"), "No such option: --limt (did you mean --limit?); see mlbench run --help"),
        # Backend options (-M): values and keys.
        (("-M", "batch_size=0"), "-M batch_size must be 'auto' or a positive integer, not '0'"),
        (("-M", "max_model_len=abc"), "-M max_model_len: 'abc' is not a whole number"),
        (("-M", "gpu_memory_utilization=lots"), "-M gpu_memory_utilization: 'lots' is not a number"),
        (("-M", "trust_remote_code=maybe"), "-M trust_remote_code: 'maybe' is not true or false"),
        (("-M", "device=cdua"), "-M device: 'cdua' is not one of auto, cpu, cuda (did you mean cuda?)"),
        (("-M", "batchsize=4"), "(auto) has no option 'batchsize' (did you mean batch_size?)"),
        (("--backend", "hf", "-M", "base_url=http://x/v1"), "has no option 'base_url' (backend openai takes it)"),
        # Task options (-T): values and keys, and a run flag given as -T.
        (("-T", "answer_format=cleen"), "-T answer_format: 'cleen' is not one of authors, clean (did you mean clean?)"),
        (("-T", "answer_fromat=clean"), "no option 'answer_fromat' (-T answer_fromat; did you mean answer_format?)"),
        (("-T", "fewshoot=3"), "(-T fewshoot; did you mean --fewshot, a flag of run?); valid: answer_format"),
        # Judge options (-J).
        (
            ("--judge", "J", "-J", "scorng=logprob"),
            "-J scorng: the judge has no option 'scorng' (did you mean scoring?)",
        ),
        (("--judge", "J", "-J", "scoring=logprb"), "-J scoring: 'logprb' is not one of auto, logprob, generate (did"),
        (("--judge", "J", "-J", "seed=x"), "-J seed: 'x' is not a whole number"),
        (("--judge", "J", "-J", "chat_template=maybe"), "-J chat_template: 'maybe' is not true or false"),
        (("--judge", "J", "-J", "kind=truht"), "unknown judge kind 'truht' (did you mean truth?)"),
    ],
)
def test_a_bad_value_or_key_of_run_is_one_line_of_ours(args, expected, tiny_model, tmp_path, monkeypatch, capsys):
    line = one_error_line(monkeypatch, capsys, "run", "--model", tiny_model, "-o", tmp_path, *QA, *args)
    assert expected in line, line


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--task", "truthfulqa_mult"), "unknown task 'truthfulqa_mult' (did you mean truthfulqa_multi?); available:"),
        (("--task", "TruthfulQA_Multi"), "(did you mean truthfulqa_multi?)"),
        (("--task", "truthfulqa_multi", "--mode", "mcc"), "task truthfulqa_multi has no mode mcc (did you mean mc?)"),
        (("--task", "truthfulqa_multi", "--mode", "MC"), "has no mode MC (did you mean mc?); valid: mc, gen"),
        (("--task", "truthfulqa_multi", "--lang", "esp"), "has no language esp (did you mean es?); valid: en, es"),
        (
            ("--task", "truthfulqa_multi", "--lang", "pt-BR"),
            "task truthfulqa_multi has no language pt-BR (Portuguese);",
        ),
        (("--task", "truthfulqa_multi", "--lang", "en,Basqe"), "has no language Basqe (did you mean eu?)"),
    ],
)
def test_an_unknown_task_mode_or_language_names_the_nearest(args, expected, tiny_model, tmp_path, monkeypatch, capsys):
    line = one_error_line(monkeypatch, capsys, "run", "--model", tiny_model, "-o", tmp_path, "--sample", *args)
    assert expected in line, line


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('limit = "many"\n', "run.toml limit: 'many' is not a whole number"),
        ("limit = 0\n", "run.toml limit: 0 must be at least 1"),
        ("seed = 1.5\n", "run.toml seed: 1.5 is not a whole number"),
        ("resume = 3\n", "run.toml resume: 3 is not true or false"),
        ('taks = "msqad"\n', "run.toml: unknown key 'taks' (did you mean tasks?); valid: "),
        ('lingo = "en"\n', ", judge, lang, langs, limit, "),  # the aliases the docs give are valid
        ('lingo = "en"\n', ", task, tasks, "),
        (
            'model = "x"\n[model]\nmax_model_len = 64\n',
            "run.toml line 4: 'model' is given twice (a value and a table?); "
            'the model\'s name goes in [model] as name = "...", or, without a [model] table, model = "..."',
        ),
        ("limit = 3\nlimit = 4\n", "run.toml line 4: 'limit' is given twice"),
        (
            "limit = \n",
            "run.toml line 3, column 9: not valid TOML (no value, or one TOML cannot read: text needs quotes)",
        ),
        ("[model]\nbatchsize = 2\n", "(auto) has no option 'batchsize' (did you"),
        ('[options]\nanswer_fromat = "clean"\n', "(run.toml [options] answer_fromat; did you mean answer_format?)"),
        ('[options]\nanswer_format = "Clean"\n', "'Clean' is not one of authors, clean (did you mean clean?)"),
        ('[judge]\nname = "J"\nscorng = "logprob"\n', "the judge has no option 'scorng' (did you mean scoring?)"),
    ],
)
def test_a_run_file_with_a_wrong_key_or_type_is_one_line(content, expected, tiny_model, tmp_path, monkeypatch, capsys):
    run_file = tmp_path / "run.toml"
    run_file.write_text(f'task = "truthfulqa_multi"\nsample = true\n{content}', encoding="utf-8")
    line = one_error_line(monkeypatch, capsys, "run", "--model", tiny_model, "-o", tmp_path, "--config", run_file)
    assert expected in line, line


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--format", "xyz"), "--format must be one of md, csv, latex, html, json, explore, not 'xyz'"),
        (("--format", "jsno"), "not 'jsno' (did you mean json?)"),
        (("--resamples", "5"), "--resamples: 5 must be at least 100"),
        (("--resamples", "x"), "--resamples: 'x' is not a whole number"),
        (("--seed", "y"), "--seed: 'y' is not a whole number"),
    ],
)
def test_a_bad_value_of_report_is_one_line_of_ours(args, expected, tmp_path, monkeypatch, capsys):
    line = one_error_line(monkeypatch, capsys, "report", tmp_path, *args)
    assert expected in line, line


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("run", "--task", "msqad"), "mlbench run needs --model NAME (see mlbench run --help)"),
        (("report",), "mlbench report needs RESULTS_DIR (see mlbench report --help)"),
        (("data", "fetch", "--lang", "en"), "No such option: --lang; see mlbench data fetch --help"),
        (("data", "path", "truthfulqa_mult"), "unknown data source 'truthfulqa_mult' (did you mean truthfulqa_multi?)"),
    ],
)
def test_a_missing_value_or_unknown_option_is_one_line(args, expected, monkeypatch, capsys):
    assert expected in one_error_line(monkeypatch, capsys, *args)


def test_language_codes_are_read_whatever_their_case_and_tags_name_their_language(tiny_model, tmp_path):
    out = tmp_path / "out"
    result = run_model(tiny_model, out, "--task truthfulqa_multi --sample --mode mc --limit 1 --no-cache",
                       "--lang", "EN,es-ES,es_es,ES")  # fmt: skip
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if line.startswith("mlbench: --lang")]
    # A tag read as another code is said once, a change of case not at all.
    assert notes == ["mlbench: --lang es-ES: using es", "mlbench: --lang es_es: using es"], result.output
    written = sorted(path.name for path in (out / Path(tiny_model).name / "truthfulqa_multi").glob("samples_*.jsonl"))
    assert written == ["samples_en.jsonl", "samples_es.jsonl"]


def test_a_bcp47_tag_runs_the_language_the_benchmark_has(tiny_model, tmp_path):
    out = tmp_path / "out"
    flags = "--task m_truthfulqa --mode mc --limit 1 --backend hf --no-cache --lang pt-BR,zh-CN,PT"
    result = run_model(tiny_model, out, flags, "--data-dir", write_okapi_copy(tmp_path / "okapi"))
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if line.startswith("mlbench: --lang")]
    assert notes == ["mlbench: --lang pt-BR: using pt", "mlbench: --lang zh-CN: using zh"], result.output
    written = sorted(path.name for path in (out / Path(tiny_model).name / "m_truthfulqa").glob("samples_*.jsonl"))
    assert written == ["samples_pt.jsonl", "samples_zh.jsonl"]


def test_a_column_agree_does_not_find_names_the_nearest(tmp_path, monkeypatch, capsys):
    labels = tmp_path / "labels.csv"
    labels.write_text("id,lang,human,judge\n1,en,yes,yes\n2,en,no,yes\n", encoding="utf-8")
    line = one_error_line(monkeypatch, capsys, "agree", labels, "--a", "human", "--b", "jugde")
    assert line.endswith("has no column jugde (did you mean judge?); it has human, id, judge, lang"), line


def test_surface_reads_a_language_whatever_its_case_or_tag(tmp_path, monkeypatch, capsys):
    answers = tmp_path / "answers.jsonl"
    rows = [{"answer": "Hello there, how are you?", "lang": "EN"}, {"answer": "Hola, ¿qué tal?", "lang": "es-ES"}]
    answers.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    out = tmp_path / "surface.jsonl"
    monkeypatch.setattr(sys, "argv", ["mlbench", "surface", str(answers), "-o", str(out)])
    assert _invoke_app() in (0, None), capsys.readouterr()
    assert [json.loads(line)["lang"] for line in out.read_text(encoding="utf-8").splitlines()] == ["en", "es"]
    line = one_error_line(monkeypatch, capsys, "surface", answers, "--lang", "Englsh")
    assert line.startswith("--lang: language 'Englsh' is not a known ISO code (did you mean en?); known: aa,"), line


def test_the_data_file_help_points_to_the_page_that_documents_it():
    from typing import get_args

    from mlbench.cli.options import DataFileOpt

    text = get_args(DataFileOpt)[1].help
    assert "docs/data.md" in text and "README" not in text
    assert "`--data-file F.jsonl`" in (Path(__file__).parents[2] / "docs" / "data.md").read_text(encoding="utf-8")
