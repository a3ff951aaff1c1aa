"""XLingHealth's default prompts are the authors', read from their code: checked against the
fixture copy of that code (tests/benchmarks/xlinghealth/upstream_code.py), whose own
functions, run by Python here, say what each prompt must be."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.xlinghealth.authors_prompts import AuthorsPrompts
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions as Own
from mlbench.cli.main import app
from mlbench.data.source import DataSource
from mlbench.data.untrusted.python_source import UpstreamShapeError
from mlbench.errors import MlbenchError
from tests.benchmarks.xlinghealth.upstream_code import FILES, LANGUAGE_NAMES, TEMPLATES, write_upstream_code
from tests.upstream_pins import pin_fixture_copies

TASK = get_task("xlinghealth")
MODES = ("correctness", "consistency", "verifiability")


# -- what the fixture's own code gives, run by Python ----------------------------------------


class Recorder:
    """Stands in for MedAlpaca's model and for a DataFrame: records what the code passes."""

    def __init__(self) -> None:
        self.kwargs: dict = {}

    def batch_inference(self, **kwargs):
        self.kwargs = kwargs
        return []

    def iterrows(self):
        return iter([(0, {"question": "?"})])


def run(path: str, function: str, *args, **names):
    namespace = {"model": names.pop("model", None), "args": names.pop("args", None), **names}
    exec(FILES[path], namespace)  # noqa: S102 - the fixture's code, written for these tests
    return namespace[function](*args)


def medalpaca(script: str, function: str, lang: str, *args) -> dict:
    model = Recorder()

    class Args:
        target_language = LANGUAGE_NAMES[lang]

    if function == "accuracy_medalpaca":
        run(script, function, Recorder(), model, 1, LANGUAGE_NAMES[lang])
    else:
        run(script, function, *args, model=model, args=Args, input_questions=[], batch=[])
    return model.kwargs


def template_text(path: str, lang: str, instruction: str, input_text: str, output: str) -> str:
    t = TEMPLATES[path]
    primer = t["primer"].replace("LANGUAGE_NAME", LANGUAGE_NAMES[lang])
    return f"{primer}{t['instruction']}{instruction}{t['input']}{input_text}{t['output']}{output}"


def expected(mode: str, lang: str, question: str, answer: str, chat: bool) -> tuple[str | None, str]:
    """(system, user) with a chat template, (None, text) without one."""
    name = LANGUAGE_NAMES[lang]
    medical = run("utils/utils_chatgpt.py", "get_response", "x", 0, None, "MEDICAL", const=Const)["content"]
    if mode == "correctness":
        if chat:
            system = run("correctness/correctness_get_gpt_answer.py", "get_eval", Recorder(), name, [], {})[0][0]
            return system["content"], question
        kwargs = medalpaca("correctness/MedAlpaca/correctness_medalpaca_get_answers.py", "accuracy_medalpaca", lang)
        path = "correctness/MedAlpaca/medalpaca_accuracy_prompt.json"
        return None, template_text(path, lang, kwargs["instruction"], question, kwargs["output"])
    if mode == "consistency":
        if chat:
            return medical, run("consistency/prompts.py", "prompt_consistency", question, name, False)
        kwargs = medalpaca("consistency/consistency_get_medalpaca_answer.py", "run_consistency_medalpaca", lang)
        path = "consistency/Medalpaca/prompt_templates/medalpaca_consistency.json"
        return None, template_text(path, lang, kwargs["instruction"], question, kwargs["output"])
    if chat:
        return medical, run("verifiability/prompts.py", "prompt_verifiability", question, answer, name)
    kwargs = medalpaca("verifiability/verifiability_get_answer.py", "run_verifiability", lang, 0.0, "liveqa", name)
    shown = f"FX-Q: {question}\nFX-R: {answer}"  # the fixture's format_question
    path = "consistency/Medalpaca/prompt_templates/medalpaca_consistency.json"
    return None, template_text(path, lang, kwargs["instruction"], shown, kwargs["output"])


class Const:
    MEDICAL, TRANSLATE, PARAPHRASE = "MEDICAL", "TRANSLATE", "PARAPHRASE"


# -- the prompts mlbench builds ----------------------------------------------------------------


@pytest.fixture(scope="module")
def options(fixture_datasets):
    return TaskOptions(DataSource("local", fixture_datasets), own=Own(samples=2, temperatures=(0.0, 1.0)))


@pytest.mark.parametrize("chat", [True, False])
@pytest.mark.parametrize("lang", list(LANGUAGE_NAMES))
def test_every_mode_sends_the_authors_text_filled_as_their_functions_fill_it(options, lang, chat):
    options = replace(options, chat_template=chat)
    data = TASK.load(lang, options)
    sample = next(s for s in data.samples if s.question)
    for mode in MODES:
        request = TASK.requests(mode, sample, data, options)[0]
        answer = sample.meta["candidates"][0]["answer"] if mode == "verifiability" else ""
        system, user = expected(mode, lang, sample.question, answer, chat)
        if chat:
            assert [(m.role, m.content) for m in request.prompt.messages] == [("system", system), ("user", user)]
            assert request.prompt.system_join is not None
        else:
            assert request.prompt.text == user
        assert "FX-" in (user + (system or ""))  # the fixture's text, not mlbench's


def test_the_authors_settings_are_used_and_recorded(options):
    """Their GPT runs (chat): greedy answers of up to 1,000 tokens; their MedAlpaca runs (no
    chat template): 512 tokens, top-p 0.9 where they sampled."""
    chat = replace(options, chat_template=True)
    data = TASK.load("es", chat)
    sample = data.samples[0]
    [answer] = TASK.requests("correctness", sample, data, chat)
    assert answer.temperature == 0 and answer.max_new_tokens == 1000
    assert all(r.max_new_tokens == 1000 and r.top_p == 1.0 for r in TASK.requests("consistency", sample, data, chat))
    medalpaca = TASK.requests("consistency", sample, data, options)
    assert [(r.temperature, r.top_p, r.max_new_tokens) for r in medalpaca] == [(0.0, 1.0, 512), (1.0, 0.9, 512)]
    settings = TASK.settings(options)
    assert settings["prompts"] == "authors" and settings["top_p"] == 0.9
    assert settings["max_new_tokens"] == {"correctness": 512, "consistency": 512}
    assert TASK.settings(chat)["max_new_tokens"] == {"correctness": 1000, "consistency": 1000}
    assert settings["upstream"]["repository"] == "claws-lab/XLingEval"
    assert settings["upstream"]["commit"] == "75ac9c8c5345b5d003bdcdf13a2b0fdcfeddec2a"
    assert set(settings["upstream"]["files"]) == set(FILES) | set(TEMPLATES)
    mlbench_settings = TASK.settings(replace(options, own=replace(options.own, prompts="mlbench")))
    assert "prompts" not in mlbench_settings and "upstream" not in mlbench_settings


def test_sampled_answers_hash_their_seed_and_a_system_prompt_is_refused(options):
    from mlbench.backends.registry import ModelOptions
    from mlbench.engine.pipeline import RunConfig, config_hash

    def hashed(seed: int, own: Own, modes=("consistency",)) -> str:
        config = RunConfig(
            ModelOptions("m"), ("xlinghealth",), "all", task_options=replace(options, own=own), seed=seed
        )
        return config_hash(TASK, modes, config, "fp")

    assert hashed(1, options.own) != hashed(2, options.own)  # sampled: another seed, other answers
    assert hashed(1, options.own, ("correctness",)) == hashed(2, options.own, ("correctness",))  # greedy
    earlier = replace(options.own, prompts="mlbench")
    assert hashed(1, earlier) == hashed(2, earlier)  # mlbench's prompts keep the hash of before
    with pytest.raises(MlbenchError, match="--system-prompt does not apply to the authors' prompts"):
        TASK.validate(replace(options, system_prompt="Be brief."))


def test_the_judges_prompt_and_options_are_the_authors(options):
    prompts = AuthorsPrompts(options.source)
    assert prompts.judge_options() == tuple(f"FX-case {c}" for c in
                                            ("neither similar nor contradictory", "contradictory",
                                             "more comprehensive", "less comprehensive"))  # fmt: skip
    judged = prompts.judge("hi", "Q?", "gold", "theirs", chat=True)
    system = run("correctness/correctness_answer_evaluation.py", "get_eval", Recorder(), "Hindi", [], {})[0]["content"]
    text = run("correctness/correctness_answer_evaluation.py", "prompt_type", "Q?", "gold", "theirs", "Hindi")
    assert [(m.role, m.content) for m in judged.messages] == [("system", system), ("user", text)]


# -- whole runs --------------------------------------------------------------------------------

runner = CliRunner()
FLAGS = ["--task", "xlinghealth", "--mode", "correctness", "--lang", "es", "--limit", "2", "--max-new-tokens", "4",
         "--no-cache"]  # fmt: skip


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_a_run_saves_the_turns_as_sent_and_the_text_the_model_read(tiny_model, fixture_datasets, tmp_path):
    result = cli("run", "--model", tiny_model, *FLAGS, "--data-dir", fixture_datasets, "--output", tmp_path,
                 "--chat-template")  # fmt: skip
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / tiny_model.name / "xlinghealth"
    line = json.loads((run_dir / "samples_es.jsonl").read_text().splitlines()[0])
    system, user = expected("correctness", "es", line["question"], "", True)
    assert line["prompt"] == [{"role": "system", "content": system}, {"role": "user", "content": user}]
    assert system in line["rendered_prompt"] and user in line["rendered_prompt"]
    config = json.loads((run_dir / "results.json").read_text())["config"]
    assert "mode_prompts" not in line["outputs"]  # one mode: its prompt is the sample's
    assert config["task_settings"]["prompts"] == "authors" and config["task_settings"]["upstream"]["files"]
    # mlbench's own prompts: another protocol, another settings hash (a --resume of the
    # first run with them is refused rather than mixed in).
    mixed = cli("run", "--model", tiny_model, *FLAGS, "--data-dir", fixture_datasets, "--output", tmp_path,
                "--chat-template", "-T", "prompts=mlbench", "--resume")  # fmt: skip
    assert mixed.exit_code == 2 and "written with different settings" in mixed.output
    other = tmp_path / "mlbench-prompts"
    ours = cli("run", "--model", tiny_model, *FLAGS, "--data-dir", fixture_datasets, "--output", other,
               "--chat-template", "-T", "prompts=mlbench")  # fmt: skip
    assert ours.exit_code == 0, ours.output
    theirs = json.loads((other / tiny_model.name / "xlinghealth" / "samples_es.jsonl").read_text().splitlines()[0])
    assert theirs["config_hash"] != line["config_hash"] and "FX-" not in json.dumps(theirs["prompt"])


def copy_without_upstream(fixture_datasets: Path, to: Path) -> Path:
    shutil.copytree(fixture_datasets / "xlinghealth", to / "xlinghealth")
    return to


def test_offline_without_the_authors_files_a_run_stops_before_generating(tiny_model, fixture_datasets, tmp_path):
    data = copy_without_upstream(fixture_datasets, tmp_path / "data")
    result = cli("run", "--model", tiny_model, *FLAGS, "--data-dir", data, "--output", tmp_path / "out")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "upstream/xlinghealth/" in lines[0] and "mlbench data fetch xlinghealth" in lines[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("samples_*.jsonl"))
    hub = cli("run", "--model", tiny_model, *FLAGS, "--output", tmp_path / "out2")  # the cache is empty and offline
    assert hub.exit_code == 2 and "mlbench data fetch xlinghealth" in hub.output


def test_a_changed_or_reshaped_authors_file_is_one_line(tiny_model, fixture_datasets, tmp_path, monkeypatch):
    data = copy_without_upstream(fixture_datasets, tmp_path / "data")
    folder = write_upstream_code(data)
    pin_fixture_copies(monkeypatch, data)
    changed = folder / "consistency/prompts.py"
    changed.write_text(changed.read_text() + "\n# edited\n")
    result = cli("run", "--model", tiny_model, *FLAGS, "--data-dir", data, "--output", tmp_path / "out")
    assert result.exit_code == 2 and "consistency/prompts.py: sha256" in result.output
    assert len(result.output.strip().splitlines()) == 1
    # A file of another shape, pinned as it is (a newer release): the function is not read.
    changed.write_text(
        FILES["consistency/prompts.py"].replace("if language ==", "for x in []:\n        pass\n    if language ==", 1)
    )
    pin_fixture_copies(monkeypatch, data)
    with pytest.raises(UpstreamShapeError, match=r"prompt_consistency\(\) has For at line"):
        AuthorsPrompts(DataSource("local", data)).consistency("es", "Q?", chat=True)
    with pytest.raises(MlbenchError, match="no text for"):
        AuthorsPrompts(DataSource("local", data))._text("verifiability/prompts.py", "prompt_verifiability",
                                                         question="q", response="r", language="Basque")  # fmt: skip


def test_every_modes_prompt_is_saved_with_the_sample(tiny_model, fixture_datasets, tmp_path):
    result = cli("run", "--model", tiny_model, "--task", "xlinghealth", "--mode", "all", "--lang", "es",
                 "--limit", "1", "--max-new-tokens", "2", "--no-cache", "--data-dir", fixture_datasets,
                 "--output", tmp_path, "--chat-template", "-T", "samples=1", "-T", "temperatures=0",
                 "-T", "embedder=none", "-T", "bertscore_model=none")  # fmt: skip
    assert result.exit_code == 0, result.output
    line = json.loads((tmp_path / tiny_model.name / "xlinghealth" / "samples_es.jsonl").read_text().splitlines()[0])
    saved = line["outputs"]["mode_prompts"]
    assert set(saved) == {"consistency", "verifiability"}  # correctness's is the sample's own prompt
    _, consistency = expected("consistency", "es", line["question"], "", True)
    assert saved["consistency"]["prompt"][1]["content"] == consistency
    assert consistency in saved["consistency"]["rendered_prompt"]
    assert saved["verifiability"]["prompt"][1]["content"].startswith("FX-es-verify")
