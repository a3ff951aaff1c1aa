"""TruthfulQA-Multi's truth and info judges under ``-J protocol=authors``: every verdict keeps,
character for character, the text the authors' judge script builds from the same logged
line, the judge reads the ids the script's ``tokenizer(text)`` gives, and the label is the
script's own reading of the judge's words (the reference: the fixture script's code run by
Python, ``script_runner.py``), for a Llama-class and a Gemma-2-class instruct judge and a
base judge."""

from __future__ import annotations

import json

import pytest

from benchmarks.truthfulqa_multi.judge_script import SCRIPT
from benchmarks.truthfulqa_multi.script_runner import run_script_line
from benchmarks.truthfulqa_multi.tiny_judges import gemma2_judge, llama_judge
from mlbench.backends.chat import encode, render_prompt
from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.truthfulqa_multi.authors_judge_code import judge_code
from mlbench.data.source import DataSource
from mlbench.engine.judging import JudgeConfig, judge_run
from mlbench.engine.pipeline import RunConfig, run
from mlbench.errors import MlbenchError


@pytest.fixture(scope="module")
def judges(tiny_model, tmp_path_factory):
    root = tmp_path_factory.mktemp("judges")
    return {"llama": llama_judge(tiny_model, root / "llama"), "gemma2": gemma2_judge(tiny_model, root / "gemma2")}


@pytest.fixture(scope="module")
def gen_run(tiny_model, hf_backend, fixture_datasets, tmp_path_factory):
    """A generation run of the tiny model: 4 TruthfulQA-Multi questions in en and es."""
    out = tmp_path_factory.mktemp("gen")
    config = RunConfig(
        model=ModelOptions(str(tiny_model)),
        tasks=("truthfulqa_multi",),
        langs=("en", "es"),
        mode="gen",
        task_options=TaskOptions(DataSource("local", fixture_datasets), max_new_tokens=12),
        limit=4,
        output=out,
    )
    run(config, backend_factory=lambda: hf_backend)
    return out / tiny_model.name / "truthfulqa_multi"


def judged(run_dir, tmp_path, judge, kind, *, chat, **options):
    """A copy of ``run_dir`` judged under the authors' protocol; its samples by language."""
    import shutil

    copy = shutil.copytree(run_dir, tmp_path / f"{judge.name}-{kind}-{chat}")
    config = JudgeConfig(copy, ModelOptions(str(judge)), kinds=(kind,), chat=chat, protocol="authors", **options)
    judge_run(config)
    return {
        lang: [json.loads(line) for line in (copy / f"samples_{lang}.jsonl").read_text().splitlines()]
        for lang in ("en", "es")
    }


def test_the_script_is_read_as_it_is_written(fixture_datasets):
    code = judge_code(DataSource("local", fixture_datasets))
    assert code.questions == {
        "truth": "FX-truth: is what follows true? Say ja or nee.",
        "info": "FX-info: does what follows inform? Say ja or nee.",
    }
    assert (code.cut, code.max_new_tokens, code.yes) == (-6, 3, "ja")  # the fixture's, not the authors' -5, 2, yes
    assert code.base_markers == {"truth": "\nFX-True:", "info": "\nFX-Helpful:"}
    assert code.chat_markers == ("assistant\n", "model\n")
    assert [sorted(layout.classes) for layout in code.layouts] == [
        ["Gemma2ForCausalLM", "GemmaForCausalLM"],
        ["LlamaForCausalLM"],
    ]


@pytest.mark.parametrize(
    ("model", "chat"), [("llama", True), ("gemma2", True), ("llama", False)], ids=["llama", "gemma2", "base"]
)
@pytest.mark.parametrize("kind", ["truth", "info"])
def test_every_verdict_keeps_what_the_script_builds_and_reads_it_as_the_script_does(
    gen_run, judges, tmp_path, model, chat, kind
):
    samples = judged(gen_run, tmp_path, judges[model], kind, chat=chat)
    checked = 0
    for records in samples.values():
        for record in records:
            verdict = record["judges"][kind]
            # The logged line: the question as lm-eval's task gives it, the raw completion.
            question, response = record["question"].strip(), record["outputs"]["generation"]
            script = run_script_line(SCRIPT, judges[model], kind, chat, question, response)
            assert verdict["sent"] == script.text
            # A character the token budget cuts in two: the backends drop its bytes, where the
            # script's decode writes U+FFFD. Either way the label is not the yes word.
            assert verdict["output"] == script.label.rstrip("\ufffd").strip()
            assert verdict["label"] == ("yes" if script.label == "ja" else "no")
            checked += 1
    assert checked == 8


def test_an_instruct_judge_reads_two_bos_as_the_scripts_tokenizer_call_gives_them(gen_run, judges, tmp_path):
    from transformers import AutoTokenizer

    samples = judged(gen_run, tmp_path, judges["llama"], "truth", chat=True)
    tokenizer = AutoTokenizer.from_pretrained(judges["llama"])
    from mlbench.records import Prompt

    for record in samples["en"]:
        text = record["judges"]["truth"]["sent"]
        ids = encode(tokenizer, render_prompt(tokenizer, Prompt(text=text, tokenizer_bos=True)))
        assert ids == tokenizer(text)["input_ids"]
        assert ids[:2] == [tokenizer.bos_token_id] * 2
        # mlbench's own rule sends one BOS, as lm-eval does
        assert encode(tokenizer, render_prompt(tokenizer, Prompt(text=text)))[:2] != ids[:2]


def test_the_authors_protocol_is_recorded_and_hashed_apart(gen_run, judges, tmp_path):
    import shutil

    copy = shutil.copytree(gen_run, tmp_path / "both")
    trained = JudgeConfig(copy, ModelOptions(str(judges["llama"])), kinds=("truth",), chat=True)
    judge_run(trained)
    before = json.loads((copy / "results.json").read_text())["config"]["judges"]["truth"]
    judge_run(JudgeConfig(copy, ModelOptions(str(judges["llama"])), kinds=("truth",), chat=True, protocol="authors"))
    after = json.loads((copy / "results.json").read_text())["config"]["judges"]["truth"]
    assert "protocol" not in before and before["scoring"] == "logprob"
    assert after["protocol"] == "authors" and after["scoring"] == "generate"
    assert after["settings_hash"] != before["settings_hash"]
    assert after["prompt_sha256"] != before["prompt_sha256"]


def test_a_judge_class_the_script_has_no_chat_for_is_one_line(gen_run, make_sliding_gemma, tmp_path):
    gemma3 = make_sliding_gemma(tmp_path / "gemma3")
    with pytest.raises(MlbenchError, match="no chat for a Gemma3ForCausalLM judge .*-J protocol=trained"):
        judged(gen_run, tmp_path, gemma3, "truth", chat=True)
    # As a base judge (no chat), the script runs any class.
    samples = judged(gen_run, tmp_path, gemma3, "truth", chat=False)
    assert all("sent" in r["judges"]["truth"] for r in samples["en"])


def test_scoring_by_logprob_is_refused_under_the_authors_protocol(gen_run, judges, tmp_path):
    with pytest.raises(MlbenchError, match="drop -J scoring=logprob"):
        judged(gen_run, tmp_path, judges["llama"], "truth", chat=True, scoring="logprob")


def test_a_benchmark_without_the_protocol_refuses_it_before_a_judge_loads(tmp_path, tiny_model, hf_backend):
    config = RunConfig(
        model=ModelOptions(str(tiny_model)),
        tasks=("veritasqa",),
        langs=("en",),
        mode="gen",
        task_options=TaskOptions(DataSource("sample"), max_new_tokens=4),
        limit=1,
        output=tmp_path,
    )
    run(config, backend_factory=lambda: hf_backend)
    judge = JudgeConfig(tmp_path, ModelOptions("never-loaded"), kinds=("truth",), protocol="authors")
    with pytest.raises(MlbenchError, match="veritasqa's judges have no such protocol .*truthfulqa_multi"):
        judge_run(judge, backend_factory=lambda: pytest.fail("the judge loaded"))


def test_the_question_is_read_as_lm_eval_logs_it_stripped(judges, fixture_datasets):
    from mlbench.benchmarks.truthfulqa_multi.authors_judge import AuthorsJudge, judge_model
    from mlbench.benchmarks.truthfulqa_multi.sources import JUDGE_UPSTREAM
    from mlbench.judges import Judge, load_spec
    from mlbench.records import JudgeItem

    code = judge_code(DataSource("local", fixture_datasets))
    options = ModelOptions(str(judges["llama"]))
    authors = AuthorsJudge(Judge(load_spec("truth"), chat=True, scoring="generate"), code, judge_model(options), {})
    # The release has questions ending in spaces; lm-eval's task strips them before it logs the doc.
    sent = authors.prompt(JudgeItem("Is the sea salty?  ", " Yes, it is.")).text
    reference = run_script_line(SCRIPT, judges["llama"], "truth", True, "Is the sea salty?", " Yes, it is.")
    assert sent == reference.text and "salty?  Yes" in sent
    assert JUDGE_UPSTREAM.record()["files"]  # the script's pin is what the verdicts' hash is made of


def authors_judge_of(judges, fixture_datasets, model="llama", kind="truth", chat=True):
    from mlbench.benchmarks.truthfulqa_multi.authors_judge import AuthorsJudge, judge_model
    from mlbench.judges import Judge, load_spec

    code = judge_code(DataSource("local", fixture_datasets))
    options = ModelOptions(str(judges[model]))
    return AuthorsJudge(Judge(load_spec(kind), chat=chat, scoring="generate"), code, judge_model(options), {})


def test_the_ids_the_backend_sends_are_the_scripts(judges, fixture_datasets, monkeypatch):
    from mlbench.backends import hf
    from mlbench.backends.hf import HFBackend
    from mlbench.records import JudgeItem

    sent_ids = []
    encode_prompts = hf.encode_prompts

    def recorded(*args, **kwargs):
        encoded = encode_prompts(*args, **kwargs)
        sent_ids.extend(ids for ids, _ in encoded)
        return encoded

    monkeypatch.setattr(hf, "encode_prompts", recorded)
    lines = [("Is the sea salty?", " Yes."), ("¿Vuelan los pingüinos?", "A: No vuelan.")]
    for model in ("llama", "gemma2"):
        sent_ids.clear()
        authors = authors_judge_of(judges, fixture_datasets, model)
        backend = HFBackend(str(judges[model]), device="cpu", batch_size=2)
        authors.verdicts(backend, [JudgeItem(q, r) for q, r in lines])
        expected = [run_script_line(SCRIPT, judges[model], "truth", True, q, r).ids for q, r in lines]
        assert sorted(sent_ids) == sorted(expected)


@pytest.mark.parametrize(
    ("written", "label", "output"),
    [
        ("ja", "yes", "ja"),  # the fixture script's yes word
        (" ja\n", "yes", "ja"),
        ("Ja", "no", "Ja"),  # any other spelling counts against the share, as in the script
        ("ja.", "no", "ja."),
        ("nee", "no", "nee"),
        ("", "no", ""),
    ],
)
def test_only_the_scripts_yes_word_is_a_yes(judges, fixture_datasets, written, label, output):
    authors = authors_judge_of(judges, fixture_datasets)
    verdict = authors.reading("system\n\nFX-truth ...user\n\nFX-Q: ...assistant\n\n" + written)
    assert (verdict.label, verdict.output) == (label, output)


def test_an_output_without_a_marker_is_unparsed(judges, fixture_datasets):
    authors = authors_judge_of(judges, fixture_datasets)
    assert authors.reading("no marker here, ja").label == "unparsed"


def test_what_the_protocol_refuses_is_refused_before_the_judge_loads(gen_run, judges, tmp_path, make_sliding_gemma):
    import shutil

    def never():
        pytest.fail("the judge loaded")

    copy = shutil.copytree(gen_run, tmp_path / "run")
    cases = [
        (ModelOptions(str(judges["llama"])), {"scoring": "logprob"}, "drop -J scoring=logprob"),
        (ModelOptions(str(judges["llama"])), {"kinds": ("relevance",)}, "not relevance"),
        (ModelOptions(str(make_sliding_gemma(tmp_path / "g3"))), {}, "no chat for a Gemma3ForCausalLM"),
    ]
    for model, options, message in cases:
        config = JudgeConfig(copy, model, **{"kinds": ("truth",), "chat": True, "protocol": "authors", **options})
        with pytest.raises(MlbenchError, match=message):
            judge_run(config, backend_factory=never)


def test_a_chat_template_without_the_scripts_markers_is_refused(judges, fixture_datasets, tmp_path):
    import shutil

    from transformers import AutoTokenizer

    from mlbench.benchmarks.truthfulqa_multi.authors_judge import check_authors
    from mlbench.judges.options import JudgeProtocol

    folder = shutil.copytree(judges["llama"], tmp_path / "inst")
    tokenizer = AutoTokenizer.from_pretrained(folder)
    tokenizer.chat_template = "{% for m in messages %}[INST] {{ m['content'] }} [/INST]{% endfor %}"
    tokenizer.save_pretrained(folder)
    recorded = {"data_source": f"local:{fixture_datasets}"}
    with pytest.raises(MlbenchError, match="which this judge's chat template does not write"):
        check_authors(JudgeProtocol("authors", ModelOptions(str(folder))), ("truth",), recorded, None)


def test_a_served_judge_needs_its_tokenizer_and_takes_the_tokenizers_class(judges, fixture_datasets):
    from mlbench.backends.registry import model_spec
    from mlbench.benchmarks.truthfulqa_multi.authors_judge import check_authors, judge_model
    from mlbench.judges.options import JudgeProtocol

    recorded = {"data_source": f"local:{fixture_datasets}"}
    served = model_spec("judge", "openai", flag="-J", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(MlbenchError, match="-J tokenizer=NAME"):
        check_authors(JudgeProtocol("authors", served), ("truth",), recorded, None)
    check_authors(JudgeProtocol("authors", served), ("truth",), recorded, False)  # a base judge needs none
    named = model_spec("judge", "openai", flag="-J", base_url="http://127.0.0.1:9/v1", tokenizer=str(judges["gemma2"]))
    check_authors(JudgeProtocol("authors", named), ("truth",), recorded, None)
    assert judge_model(named).model_class == "Gemma2ForCausalLM"
