"""The built-in benchmarks whose prompts are their authors' lm-eval task files: NorTruthfulQA
(five templates, two written standards) and AraDiCE-TruthfulQA (a primer per variety). Their
registration, the prompts rendered from the task files (a ``!function``, Jinja, a column),
each template's option delimiter, ``-T prompt`` (one template, or all: one sample per
question and template), MC1 and acc_norm from the saved log-likelihoods, and the refusals
of a file that is missing, changed, or not pinned."""

from __future__ import annotations

import hashlib
import json
import math
import shutil
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.catalog import get_source
from mlbench.data.source import DataSource, subset
from tests.benchmarks.declared.template_fixture import ARADICE_ROWS, NOR_ROWS, nor_task_path, write_template_copy
from tests.benchmarks.test_include import own_registry  # noqa: F401  (the benchmarks included here are forgotten after)
from tests.cli.test_cli import run_model
from tests.data.conftest import homes  # noqa: F401  (a fake hub and GitHub, and the data cache in tmp_path)
from tests.upstream_pins import pin_fixture_copies


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return write_template_copy(tmp_path_factory.mktemp("templates"))


@pytest.fixture
def pinned(copy, monkeypatch) -> Path:
    pin_fixture_copies(monkeypatch, copy)
    return copy


def _options(task, copy: Path, **own) -> TaskOptions:
    return TaskOptions(source=DataSource("local", copy), own=task.options_type(**own) if own else None)


def test_registered_with_their_templates_languages_and_sources():
    nor, aradice = get_task("nortruthfulqa"), get_task("aradice_truthfulqa")
    assert nor.languages == ("nb", "nn") and aradice.languages == ("arz", "apc", "arb", "en")
    assert nor.mode("mc").metrics == ("mc1",) and aradice.mode("mc").metrics == ("mc1", "mc1_norm")
    assert nor.options_type().prompt == "p0" and aradice.options_type().prompt == "default"
    code = get_source("nortruthfulqa-code")
    assert code.repo == "EleutherAI/lm-evaluation-harness" and code.tasks == ("nortruthfulqa",)
    assert len(code.files) == 13 and get_source("aradice_truthfulqa-code").revision == code.revision
    with pytest.raises(Exception, match="p5"):
        nor.options_type(prompt="p5")


def test_each_template_renders_its_own_prompt_and_option_delimiter(pinned):
    task = get_task("nortruthfulqa")
    options = _options(task, pinned, prompt="all")
    data = task.load("nb", options)
    assert len(data.samples) == 5 * len(NOR_ROWS["nb"])
    by_template = {s.meta["template"]: s for s in data.samples if s.meta["question_id"] == "nb-0001"}
    question, choices = NOR_ROWS["nb"][1]
    requests = {name: task.mc_requests(s, data, options) for name, s in by_template.items()}
    assert requests["p0"][0].prompt.text == f"Spm: {question}\n\nSv:"
    assert requests["p1"][0].prompt.text == f"Spm: {question}\nValg:" + "".join(f"\n* {c}" for c in choices) + "\nSv:"
    assert requests["p2"][0].prompt.text == f"Velg rett svar. {question}"
    assert requests["p3"][0].prompt.text == question + "".join(f"\n- {c}" for c in choices)
    assert requests["p4"][0].prompt.text == question  # a column's name: the column itself
    assert [r.continuation for r in requests["p0"]] == [" " + c for c in choices]
    assert [r.continuation for r in requests["p2"]] == ["\n" + c for c in choices]  # target_delimiter
    assert by_template["p2"].id == "nb-0001@p2"


def test_one_template_keeps_the_ids_and_the_settings_name_it(pinned):
    task = get_task("nortruthfulqa")
    options = _options(task, pinned, prompt="p3")
    samples = task.load("nn", options).samples
    assert [s.id for s in samples] == ["nn-0000", "nn-0001", "nn-0002"]
    assert {s.meta["template"] for s in samples} == {"p3"}
    assert task.settings(options)["prompt"] == ["p3"]
    assert task.settings(_options(task, pinned, prompt="all"))["prompt"] == ["p0", "p1", "p2", "p3", "p4"]


def test_limit_takes_whole_questions_under_every_template(pinned):
    task = get_task("nortruthfulqa")
    samples = task.load("nb", _options(task, pinned, prompt="all")).samples
    chosen = subset(samples, 2, seed=1)
    assert len(chosen) == 10 and len({s.meta["question_id"] for s in chosen}) == 2


def test_aradice_primer_in_each_variety(pinned):
    task = get_task("aradice_truthfulqa")
    options = _options(task, pinned)
    for lang, variety, label in (("arz", "egy", "س"), ("en", "eng", "Q")):
        data = task.load(lang, options)
        prompt = task.mc_requests(data.samples[0], data, options)[0].prompt
        expected = f"{label}: سؤال {variety}؟\n{'ج' if label == 'س' else 'A'}: جواب {variety}."
        assert prompt.text.startswith(expected + "\n\n")
        assert prompt.text.endswith(f"{label}: {ARADICE_ROWS[0][lang]}\n{'ج' if label == 'س' else 'A'}:")
        assert prompt.shared_prefix == len(expected) + 2  # the primer, for the prefix cache


def test_a_changed_task_file_is_refused_before_the_model(copy, tmp_path, monkeypatch):
    changed = tmp_path / "copy"
    shutil.copytree(copy, changed)
    pin_fixture_copies(monkeypatch, copy)
    path = changed / "upstream" / "nortruthfulqa" / nor_task_path("nb", "p2")
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    task = get_task("nortruthfulqa")
    with pytest.raises(Exception, match="sha256"):
        task.load("nb", _options(task, changed, prompt="p2"))
    shutil.rmtree(changed / "upstream")
    with pytest.raises(Exception, match="upstream"):
        task.load("nb", _options(task, changed, prompt="p2"))


@pytest.fixture(scope="module")
def template_run(tiny_model, copy, tmp_path_factory):
    patch = pytest.MonkeyPatch()
    pin_fixture_copies(patch, copy)
    out = tmp_path_factory.mktemp("template-run")
    try:
        for flags in ("--task nortruthfulqa -T prompt=all", "--task aradice_truthfulqa"):
            result = run_model(tiny_model, out, f"{flags} --lang all --backend hf --no-cache", "--data-dir", copy)
            assert result.exit_code == 0, result.output
    finally:
        patch.undo()
    return out / tiny_model.name


def _samples(folder: Path, lang: str) -> list[dict]:
    lines = (folder / f"samples_{lang}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_a_run_of_every_template_records_it_in_each_sample(template_run):
    for lang, rows in NOR_ROWS.items():
        samples = _samples(template_run / "nortruthfulqa", lang)
        assert len(samples) == 5 * len(rows)
        assert {s["labels"]["template"] for s in samples} == {"p0", "p1", "p2", "p3", "p4"}
        for s in samples:
            lls = s["outputs"]["mc1_loglikelihoods"]
            assert s["metrics"]["mc1"] == float(lls[0] >= max(lls[1:]))


def test_acc_norm_divides_by_each_options_length_in_characters(template_run):
    for lang in ("arz", "apc", "arb", "en"):
        for s in _samples(template_run / "aradice_truthfulqa", lang):
            lls, choices = s["outputs"]["mc1_loglikelihoods"], s["outputs"]["mc1_choices"]
            normed = [ll / len(c) for ll, c in zip(lls, choices)]
            assert s["metrics"]["mc1_norm"] == float(normed[0] >= max(normed[1:]))
            assert math.isfinite(s["metrics"]["mc1"])


def test_generation_templates_give_their_prompt_stop_text_and_budget(pinned):
    task = get_task("nortruthfulqa_gen")
    options = _options(task, pinned, prompt="all")
    data = task.load("nb", options)
    first = {s.meta["template"]: s for s in data.samples if s.meta["question_id"] == "nb-0000"}
    p0, p1 = (task.gen_request(first[t], data, options) for t in ("p0", "p1"))
    assert p0.prompt.text == "Hva skjer om du svelger tyggegummi?"  # the column, stripped as NorEval's process_docs
    assert p1.prompt.text == "Svar kort: Hva skjer om du svelger tyggegummi?\nSvar:"
    assert (p1.stop, p1.max_new_tokens) == (("\n",), 7)
    # NorEval's references: stripped, empty ones dropped, each closed with a period.
    sample = first["p0"]
    assert sample.correct_answers[:1] == ("Den passerer gjennom magen",)


def test_a_generation_run_under_every_template(tiny_model, pinned, tmp_path):
    flags = "--task nortruthfulqa_gen -T prompt=all --lang nb --backend hf --no-cache"
    result = run_model(tiny_model, tmp_path, flags, "--data-dir", pinned)
    assert result.exit_code == 0, result.output
    samples = _samples(tmp_path / tiny_model.name / "nortruthfulqa_gen", "nb")
    assert len(samples) == 10 and {s["labels"]["template"] for s in samples} == {"p0", "p1", "p2", "p3", "p4"}
    for s in samples:
        generation = s["outputs"]["generation"]
        # Stopped at the template's "\n" (dropped) or at its budget of 7 tokens.
        assert "\n" not in generation and s["outputs"]["finish_reason"] in ("stop", "length")
        assert "bleu_max" in s["metrics"] and "surface_issue" in s["metrics"]


DECLARED = Path(__file__).resolve().parents[3] / "mlbench" / "benchmarks" / "declared"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            ('[templates]\nnames = ["p0", "p1", "p2", "p3", "p4"]\nmc = ', "# "),
            "[templates] and [upstream] come together",
        ),
        (('commit = "6d642546f4688648fced259eb3302efd36ece5af"', 'commit = "main"'), "upstream.commit must be a full"),
        (('names = ["p0", "p1", "p2", "p3", "p4"]', 'names = ["p0", "all"]'), "templates.names must be names"),
        (("{standard}_{template}.yaml", "{standard}_{tmpl}.yaml"), "templates.mc may hold {template}"),
        (("{standard}_{template}.yaml", "{standard}_p0.yaml"), "templates.mc must hold {template}"),
        (('mc1_choices = "mc1_targets.choices"\n', ""), "[templates] with the mc mode reads its options as the task"),
        (('nn = { standard = "nno" }\n', ""), "vars has no entry for nn"),
        (('mc_metrics = ["mc1"]', 'mc_metrics = ["mc1", "mc3"]'), "benchmark.mc_metrics must be some of"),
        (("[columns]\n", '[prompt]\nquestion = "Q: {question}"\n[columns]\n'), "drop [prompt] and [fewshot]"),
        (('= "2db604acf66c7a84', '= "xx'), "must be a sha256"),
        (('mc1_choices = "mc1_targets.choices"\n', 'mc1_choices = "a"\nmc1_labels = "b"\n'), "drop columns.mc1_labels"),
        (('mc = ["nortruthfulqa_mc_{standard}_{template}"]', 'mc = ["x_{stdandard}_{template}"]'),
         "lm_eval.mc may hold {lang}, {template}, {standard}, each bare, and no other field (got {stdandard})"),
        (('mc = ["nortruthfulqa_mc_{standard}_{template}"]', 'mc = ["x_{standard}_{template:>9}"]'),
         "each bare, and no other field (got {template:>9})"),
        (('mc = ["nortruthfulqa_mc_{standard}_{template}"]', 'mc = ["x_{standard}"]'),
         "lm_eval.mc names two tasks 'x_nob' (nb, template p0; nb, template p1)"),
        (('mc = ["nortruthfulqa_mc_{standard}_{template}"]', 'mc = ["x_{template}"]'),
         "lm_eval.mc names two tasks 'x_p0' (nb, template p0; nn, template p0)"),
        (('mc = ["nortruthfulqa_mc_{standard}_{template}"]', 'gen = ["x_{standard}_{template}"]'),
         "[lm_eval] has no key 'gen'; valid: mc"),
        (("[columns]\n", '[clean]\nquestion = ["strip"]\n[columns]\n'),
         "reads its rows as its authors' code does: drop [clean]"),
        (('mc_metrics = ["mc1"]', 'mc_metrics = ["mc1"]\nmc2_true = "first"'),
         "benchmark.mc2_true must be one of labelled, before_first_false (got 'first')"),
    ],
)  # fmt: skip
def test_mistakes_in_the_template_tables_are_one_line_naming_the_key(tmp_path, change, expected):
    from mlbench.benchmarks.declarative.spec import read_spec
    from mlbench.errors import MlbenchError

    text = (DECLARED / "nortruthfulqa.toml").read_text(encoding="utf-8")
    assert change[0] in text
    toml = tmp_path / "benchmark.toml"
    toml.write_text(text.replace(change[0], change[1], 1).replace('name = "nortruthfulqa"', 'name = "mine"'))
    with pytest.raises(MlbenchError) as raised:
        read_spec(toml)
    assert str(toml) in str(raised.value) and expected in str(raised.value), str(raised.value)


def test_a_task_file_not_pinned_is_refused(pinned, tmp_path, monkeypatch):
    from mlbench.data.untrusted.lm_eval_task import read_lm_eval_task

    task = get_task("nortruthfulqa")
    assert task.task_files is not None
    reader = task.task_files._reader(DataSource("local", pinned))
    with pytest.raises(Exception, match="not pinned in upstream.files"):
        read_lm_eval_task("lm_eval/tasks/other/task.yaml", reader)


def test_truthfulqax_each_languages_primer_and_labels_mc1_and_mc2(pinned):
    from tests.benchmarks.declared.template_fixture import TQAX_ROWS

    task = get_task("truthfulqax")
    assert len(task.languages) == 20 and task.mode("mc").metrics == ("mc1", "mc2")
    options = _options(task, pinned)
    for lang, label in (("de", "F"), ("el", "Ερ"), ("pt", "P")):
        data = task.load(lang, options)
        assert [s.id for s in data.samples] == ["0", "1"]  # the data's ids: parallel across languages
        requests = task.mc_requests(data.samples[1], data, options)
        question, true, false = TQAX_ROWS[1]
        assert requests[0].prompt.text.startswith(f"{label}: Frage eins?")
        answer = {"F": "A", "Ερ": "Α", "P": "R"}[label]
        assert requests[0].prompt.text.endswith(f"\n\n{label}: {question} ({lang})\n{answer}:")
        assert [r.continuation for r in requests] == [" " + o for o in (true[0], *false)]


def test_truthfulqax_gen_references_as_the_authors_write_them(pinned):
    task = get_task("truthfulqax_gen")
    options = _options(task, pinned)
    data = task.load("de", options)
    sample = data.samples[0]
    # As listed: the best answer is not added to the correct ones.
    assert sample.correct_answers == ("Er wird verdaut.", "Er bleibt im Magen.")
    request = task.gen_request(sample, data, options)
    assert (request.stop, request.max_new_tokens) == (("\n\n",), 256)  # lm-eval's defaults
    from mlbench.records import Generation

    scored_outputs, metrics = task.score_gen(sample, Generation("I have no comment.", 5, "stop"))
    # The English reference, in German too.
    assert metrics["bleu_max"] == pytest.approx(100.0) and metrics["bleu_acc"] == 1.0


def _noreval_bleu(reference: str, completion: str) -> float:
    """NorEval's and openGPT-X's ``bleu`` (their utils.py): sacrebleu, one reference."""
    import sacrebleu

    return sacrebleu.corpus_bleu([completion], [[reference]], smooth_method="exp", smooth_value=0.0, force=False,
                                 lowercase=False, tokenize="intl", use_effective_order=False).score  # fmt: skip


@pytest.mark.parametrize("task_name", ["nortruthfulqa_gen", "truthfulqax_gen"])
def test_generation_is_scored_as_generated_as_the_authors_process_results_does(pinned, task_name):
    # Their process_results reads results[0], the completion as generated: a leading "A:"
    # the model writes is part of what BLEU compares (mlbench's own tasks take it off).
    from mlbench.records import Generation

    task = get_task(task_name)
    lang = "nb" if task_name == "nortruthfulqa_gen" else "de"
    sample = task.load(lang, _options(task, pinned)).samples[0]
    completion = " A: " + sample.correct_answers[0]
    outputs, metrics = task.score_gen(sample, Generation(completion, 8, "stop"))

    true_refs = [a.strip() if a.strip().endswith(".") else a.strip() + "." for a in sample.correct_answers]
    true_refs += ["I have no comment."] if task_name == "truthfulqax_gen" else []
    false_refs = [a.strip() if a.strip().endswith(".") else a.strip() + "." for a in sample.incorrect_answers]
    correct = max(_noreval_bleu(ref, completion) for ref in true_refs)
    incorrect = max(_noreval_bleu(ref, completion) for ref in false_refs)
    assert correct < 100.0  # the label counts against it
    assert metrics["bleu_max"] == pytest.approx(correct, abs=1e-9)
    assert metrics["bleu_diff"] == pytest.approx(correct - incorrect, abs=1e-9)
    assert metrics["bleu_acc"] == float(correct > incorrect)
    assert outputs["generation"] == completion and outputs["answer"] == sample.correct_answers[0]
    # In the settings hash: --resume does not mix these with samples scored on the clean answer.
    options = _options(task, pinned)
    assert task.mode_settings("gen", options) == {"bleu_on": "generation"}
    assert get_task("m_truthfulqa").mode_settings("gen", options) == {}  # its own prompts: the clean answer


def test_labels_from_the_data_line_questions_up_for_report_by(tiny_model, pinned, tmp_path):
    from tests.cli.test_cli import run_cli

    text = (DECLARED / "truthfulqax.toml").read_text(encoding="utf-8")
    toml = tmp_path / "mine" / "benchmark.toml"
    toml.parent.mkdir()
    # The row's id as TruthfulQA's own question number, under a name of the user's.
    text = text.replace('name = "truthfulqax"', 'name = "tqax_labelled"') + '\n[labels]\ntqa_source = "id"\n'
    copy = tmp_path / "copy"
    shutil.copytree(pinned / "truthfulqax", copy / "truthfulqax")
    shutil.copytree(pinned / "upstream" / "truthfulqax", copy / "upstream" / "tqax_labelled")
    for line in [line for line in text.splitlines() if line.startswith('"lm_eval/')]:  # the fixture's pins
        path = line.split('"')[1]
        digest = hashlib.sha256((copy / "upstream" / "tqax_labelled" / path).read_bytes()).hexdigest()
        text = text.replace(line, f'"{path}" = "{digest}"')
    toml.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    flags = "--task tqax_labelled --lang de,el --backend hf --no-cache"
    result = run_model(tiny_model, out, flags, "--include", toml, "--data-dir", copy)
    assert result.exit_code == 0, result.output
    samples = _samples(out / tiny_model.name / "tqax_labelled", "el")
    assert [s["labels"]["tqa_source"] for s in samples] == ["0", "1"]
    report = run_cli(
        "report", out, "--by", "tqa_source", "--ref-lang", "de", "--format", "json", "--out", tmp_path / "r"
    )
    assert report.exit_code == 0, report.output
    tasks = {t["task"] for t in json.loads((tmp_path / "r" / "report.json").read_text())["tables"]}
    assert tasks == {"tqax_labelled · tqa_source=0", "tqax_labelled · tqa_source=1"}


def test_the_three_run_together_offline_from_one_folder(tiny_model, pinned, tmp_path):
    flags = "--task nortruthfulqa,aradice_truthfulqa,truthfulqax --lang all --backend hf --no-cache -T prompt=all"
    result = run_model(tiny_model, tmp_path, flags, "--data-dir", pinned)
    assert result.exit_code == 0, result.output
    runs = {path.parent.name: path for path in (tmp_path / tiny_model.name).glob("*/results.json")}
    assert set(runs) == {"nortruthfulqa", "aradice_truthfulqa", "truthfulqax"}
    languages = {name: set(json.loads(path.read_text())["results"]) for name, path in runs.items()}
    assert languages["nortruthfulqa"] == {"nb", "nn"} and len(languages["truthfulqax"]) == 20
    assert languages["aradice_truthfulqa"] == {"arz", "apc", "arb", "en"}


def test_fetched_with_its_task_files_then_run_from_the_cache(
    homes,  # noqa: F811
    tiny_model,
    copy,
    tmp_path,
    monkeypatch,
):
    from tests.cli.test_cli import run_cli
    from tests.data.conftest import COMMIT

    pin_fixture_copies(monkeypatch, copy)
    data = copy / "nortruthfulqa"
    files = {p.relative_to(data).as_posix(): p.read_bytes() for p in data.rglob("*") if p.is_file()}
    homes.hub[("ltg/nortruthfulqa_mc", COMMIT)] = files
    homes.branches[("ltg/nortruthfulqa_mc", "main")] = COMMIT
    code = copy / "upstream" / "nortruthfulqa"
    source = get_source("nortruthfulqa-code")
    homes.github[(source.repo, source.revision)] = {
        p.relative_to(code).as_posix(): p.read_bytes() for p in code.rglob("*") if p.is_file()
    }
    fetched = run_cli("data", "fetch", "nortruthfulqa")  # the data and the task files
    assert fetched.exit_code == 0, fetched.output
    out = tmp_path / "out"
    result = run_model(tiny_model, out, "--task nortruthfulqa -T prompt=p1 --lang nn --backend hf --no-cache")
    assert result.exit_code == 0, result.output
    samples = _samples(out / tiny_model.name / "nortruthfulqa", "nn")
    assert len(samples) == 3 and samples[0]["prompt"].startswith("Spm: ") and "\nValg:\n* " in samples[0]["prompt"]
    config = json.loads((out / tiny_model.name / "nortruthfulqa" / "results.json").read_text(encoding="utf-8"))
    assert config["config"]["data"]["revision"] == COMMIT  # the branch, locked to its commit
    assert config["config"]["task_settings"]["upstream"]["commit"] == source.revision


def test_a_template_sees_the_question_as_the_data_has_it(copy, tmp_path, monkeypatch):
    # lm-eval strips nothing before an MC template: a trailing space stays (TruthfulQA's
    # question 248 ends in one, and its translations keep it).
    changed = tmp_path / "copy"
    shutil.copytree(copy, changed)
    pin_fixture_copies(monkeypatch, changed)
    row = {"question": "Ser man døden? ", "mc1_targets": {"choices": ["Nei.", "Ja."], "labels": [1, 0]}}
    with (changed / "nortruthfulqa" / "nb" / "validation.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    task = get_task("nortruthfulqa")
    options = _options(task, changed, prompt="p0")
    data = task.load("nb", options)
    assert task.mc_requests(data.samples[-1], data, options)[0].prompt.text == "Spm: Ser man døden? \n\nSv:"


def test_generation_answers_listed_twice_are_scored_as_listed_and_counted(copy, tmp_path, monkeypatch):
    changed = tmp_path / "copy"
    shutil.copytree(copy, changed)
    pin_fixture_copies(monkeypatch, changed)
    path = changed / "nortruthfulqa_gen" / "nn" / "validation.jsonl"
    row = {"question": "Kva?", "correct_answers": ["Ja.", "Ja."], "incorrect_answers": ["Nei.", "Ja."]}
    path.write_text(path.read_text(encoding="utf-8") + json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    task = get_task("nortruthfulqa_gen")
    samples = task.load("nn", _options(task, changed)).samples
    assert samples[-1].correct_answers == ("Ja.", "Ja.") and samples[-1].incorrect_answers == ("Nei.", "Ja.")
    warning = task.data_warnings("nn", samples, ("gen",))
    assert warning and "of its 2 questions, as the authors' code reads them: 1 listing an answer twice" in warning[0]
    assert "1 listing an answer as both correct and incorrect" in warning[0]
