"""`mlbench run -T key=value`, `--config run.toml`, the removed benchmark flags, and
`mlbench tasks NAME`: what reaches the pipeline, and one line for every bad input."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

import mlbench.engine.pipeline
from mlbench.benchmarks import get_task
from mlbench.benchmarks.calmqa.options import CalmqaOptions
from mlbench.benchmarks.msqad.options import MsqadOptions
from mlbench.benchmarks.truthfulqa_multi.options import TruthfulQAMultiOptions
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
from mlbench.cli.main import _invoke_app, app
from mlbench.engine.pipeline import RunConfig, config_hash

runner = CliRunner()


@pytest.fixture
def captured(monkeypatch) -> list[RunConfig]:
    """The RunConfig each `mlbench run` hands the pipeline (which then does nothing)."""
    configs: list[RunConfig] = []

    def run(config, observer=None, backend_factory=None):
        configs.append(config)
        return []

    monkeypatch.setattr(mlbench.engine.pipeline, "run", run)
    return configs


def run_cli(*args):
    return runner.invoke(app, ["run", *map(str, args)])


def one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mlbench: error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def hashes(config: RunConfig) -> dict[str, str]:
    tasks = [get_task(name) for name in config.tasks]
    return {t.name: config_hash(t, t.mode_names, config, "fingerprint") for t in tasks}


OLD_AND_NEW = [
    (
        "msqad",
        ["--topic", "Disability Rights", "--refusal", "patterns", "--permutations", "99", "--embedder", "none"],
        ["-T", "topics=Disability Rights", "-T", "refusal=patterns", "-T", "permutations=99", "-T", "embedder=none"],
        MsqadOptions(("Disability Rights",), "patterns", permutations=99, embedder="none"),
    ),
    (
        "msqad",
        ["--nli-model", "x/y", "--refusal-threshold", "0.5", "--topic", "all"],
        ["-T", "nli-model=x/y", "-T", "refusal_threshold=0.5"],
        MsqadOptions(nli_model="x/y", refusal_threshold=0.5),
    ),
    (
        "xlinghealth",
        ["--samples", "3", "--temperatures", "0,1", "--verify-scoring", "generate", "--dataset", "liveqa",
         "--bertscore-model", "minilm", "--bertscore-layer", "4"],
        ["-T", "samples=3", "-T", "temperatures=0,1", "-T", "verify_scoring=generate", "-T", "datasets=liveqa",
         "-T", "bertscore_model=minilm", "-T", "bertscore_layer=4"],
        XLingHealthOptions(("liveqa",), None, 3, (0.0, 1.0), bertscore_model="minilm", bertscore_layer=4,
                           verify_scoring="generate"),
    ),
    ("calmqa", ["--kind", "specific"], ["-T", "kind=specific"], CalmqaOptions("specific")),
]  # fmt: skip


@pytest.mark.parametrize(("task", "old", "new", "expected"), OLD_AND_NEW)
def test_t_gives_each_benchmark_its_options(task, old, new, expected, captured, tiny_model, tmp_path):
    result = run_cli("--model", tiny_model, "--task", task, "--output", tmp_path, "--no-cache", *new)
    assert result.exit_code == 0 and result.stderr == "", result.output
    (config,) = captured
    assert config.own_options == {task: expected}


@pytest.mark.parametrize(("task", "old", "new", "expected"), OLD_AND_NEW)
def test_each_removed_benchmark_flag_names_its_t_key(task, old, new, expected, captured, monkeypatch, capsys):
    # The benchmark flags of earlier releases (deprecated, then removed): one line each.
    for (flag, value), (_, setting) in zip(zip(old[::2], old[1::2]), zip(new[::2], new[1::2])):
        line = console_script_error(monkeypatch, capsys, "--model", "m", "--task", task, flag, value)
        key = setting.split("=")[0].replace("-", "_")
        assert line == f"mlbench: error: {flag} is now -T {key}=... (the benchmark's options: mlbench tasks NAME)"
    assert not captured


def test_a_run_of_several_tasks_gives_each_its_own(captured, tiny_model, tmp_path):
    result = run_cli(
        "--model", tiny_model, "--task", "msqad,xlinghealth,truthfulqa_multi", "-T", "embedder=minilm",
        "-T", "refusal=patterns", "--output", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (config,) = captured
    assert config.own_options == {
        "msqad": MsqadOptions(refusal="patterns", embedder="minilm"),
        "xlinghealth": XLingHealthOptions(embedder="minilm"),
        "truthfulqa_multi": TruthfulQAMultiOptions(),  # it takes neither key: its defaults
    }


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--task", "msqad", "-T", "colour=red"], "msqad has no option 'colour' (-T colour); valid: topics, refusal"),
        (["--task", "msqad", "-T", "refusal=regex"], "msqad: -T refusal: 'regex' is not one of nli, patterns, judge"),
        (["--task", "veritasqa", "-T", "kind=specific"], "veritasqa takes no options (-T kind)"),
        (["--task", "msqad,calmqa", "-T", "samples=3"], "-T samples: no task of this run takes it;"),
        (["--task", "xlinghealth", "-T", "samples=many"], "xlinghealth: -T samples: 'many' is not a whole number"),
        (["--task", "msqad", "-T", "refusal"], "-T must look like KEY=VALUE"),
    ],
)
def test_bad_task_options_are_one_line(args, fragment, captured, tiny_model, tmp_path):
    line = one_error_line(run_cli("--model", tiny_model, *args, "--output", tmp_path))
    assert fragment in line and not captured


# -- --config run.toml ----------------------------------------------------------------------


def test_a_run_file_names_the_run_and_the_command_line_wins(captured, tiny_model, tmp_path):
    run_file = tmp_path / "run.toml"
    run_file.write_text(
        f'tasks = ["msqad", "xlinghealth"]\nlangs = ["en", "es"]\nmode = "all"\n'
        f'limit = 5\nseed = 7\noutput = "{tmp_path / "out"}"\nno-cache = true\nchat_template = true\n'
        f'max_new_tokens = 16\n\n[model]\nname = "{tiny_model}"\ngguf_file = "x"\nmax_model_len = 64\n\n'
        '[options]\nembedder = "minilm"\n\n[options.msqad]\nrefusal = "patterns"\ntopics = ["Refugees and Migrants"]\n'
        "permutations = 9\n\n[options.xlinghealth]\ntemperatures = [0, 1]\n",
        encoding="utf-8",
    )
    result = run_cli("--config", run_file, "--limit", "3", "-T", "permutations=11")
    # The file's [model] table reached the model: MODEL/x.
    assert result.exit_code == 2 and f"--model path not found: {tiny_model / 'x'}" in result.output
    run_file.write_text(run_file.read_text().replace('gguf_file = "x"\n', ""), encoding="utf-8")
    result = run_cli("--config", run_file, "--limit", "3", "-T", "permutations=11", "-M", "max_model_len=128")
    assert result.exit_code == 0, result.output
    (config,) = captured
    assert config.model.model == str(tiny_model) and config.tasks == ("msqad", "xlinghealth")
    assert dict(config.model.given)["max_model_len"] == 128  # -M wins over the file's [model] table
    assert config.langs == ("en", "es") and (config.limit, config.seed) == (3, 7)  # --limit 3 wins over 5
    assert config.output == tmp_path / "out" and config.cache_dir is None
    assert config.task_options.chat_template is True and config.task_options.max_new_tokens == 16
    assert config.own_options == {
        "msqad": MsqadOptions(("Refugees and Migrants",), "patterns", permutations=11, embedder="minilm"),
        "xlinghealth": XLingHealthOptions(temperatures=(0.0, 1.0), embedder="minilm"),
    }


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "run.toml: no such file"),
        (
            'model = "m"\ntasks = [\n',
            "run.toml: not valid TOML at its end (invalid value: a list or string left open?)",
        ),
        ('model = "m"\ncolour = "red"\n', "run.toml: unknown key 'colour'; valid: "),
        ('model = "m"\ntopic = "Refugees"\n', "-M, -J and -T options go in the [model], [judge] and [options] tables"),
        ('task = "msqad"\n[model]\nname = "m"\ncolour = 1\n', "(auto) has no option 'colour'"),
        ('model = "m"\ntask = "msqad"\nmodel_option = ["x=1"]\n', "unknown key 'model_option'"),
        ('model = "m"\ntask = "msqad"\nlimit = "many"\n', "run.toml limit: 'many' is not a whole number"),
        ('model = "m"\ntask = "msqad"\n[options.msqad]\ncolour = 1\n', "msqad has no option 'colour'"),
        ('model = "m"\ntask = "msqad"\n[options.nope]\nx = 1\n', "unknown task 'nope'"),
        ('model = "m"\ntask = "msqad"\n[options]\nrefusal = 3\n', "msqad: run.toml [options] refusal: 3 is not one of"),
    ],
)
def test_a_bad_run_file_is_one_line(content, fragment, captured, tmp_path, monkeypatch, capsys):
    run_file = tmp_path / "run.toml"
    if content is not None:
        run_file.write_text(content, encoding="utf-8")
    line = console_script_error(monkeypatch, capsys, "--config", run_file, "--output", tmp_path)
    assert fragment in line and not captured


def test_a_toml_syntax_error_names_its_line(tmp_path, monkeypatch, capsys):
    run_file = tmp_path / "run.toml"
    run_file.write_text('model = "m"\n\nlimit = = 3\n', encoding="utf-8")
    assert "line 3" in console_script_error(monkeypatch, capsys, "--config", run_file)


def console_script_error(monkeypatch, capsys, *args) -> str:
    """The one error line of `mlbench run ARGS` as the console script ends it (click's own
    errors, such as a bad --config, are boxed by CliRunner's standalone mode)."""
    monkeypatch.setattr(sys, "argv", ["mlbench", "run", *map(str, args)])
    assert _invoke_app() == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mlbench: error: "), lines
    return lines[0]


# -- mlbench tasks NAME ---------------------------------------------------------------------


def test_tasks_name_shows_one_benchmark_in_full():
    result = runner.invoke(app, ["tasks", "msqad"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = result.output
    for fragment in (
        "msqad — MSQAD", "en, ko, zh, es, de, hi", "direct", "adversarial", "answers (surface checks, judges)",
        "refusal_threshold", "nli|patterns|judge", "joeddav/xlm-roberta-large-xnli", "PERMANOVA permutations",
        "https://github.com/seungukyu/MSQAD", "-T KEY=VALUE",
    ):  # fmt: skip
        assert fragment in text, fragment
    xling = runner.invoke(app, ["tasks", "xlinghealth"], env={"COLUMNS": "200"}).output
    assert "Yes/No labels" in xling and "verify_f1" in xling and "rows" in xling and "0.0,0.25,0.5,0.75,1.0" in xling
    plain = runner.invoke(app, ["tasks", "veritasqa"], env={"COLUMNS": "200"}).output
    assert "none of its own" in plain and "option log-likelihoods" in plain
    listing = runner.invoke(app, ["tasks"], env={"COLUMNS": "200"})
    assert listing.exit_code == 0 and "xlinghealth" in listing.output and "calmqa" in listing.output
    unknown = runner.invoke(app, ["tasks", "nope"])
    assert unknown.exit_code == 2 and "unknown task 'nope'" in unknown.stderr
