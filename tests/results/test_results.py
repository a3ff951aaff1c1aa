import json

import pytest

from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord
from mlbench.results import append_samples, model_slug, read_samples


def record(i: int) -> SampleRecord:
    return SampleRecord(str(i), "en", "Q: x\nA:", {"mc1_loglikelihoods": [-1.0]}, {"mc1": 1.0}, "h")


def test_append_then_read(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    append_samples(path, [record(1), record(2)])
    append_samples(path, [record(3)])
    assert list(read_samples(path, "h")) == ["1", "2", "3"]


def test_torn_last_line_is_cut(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    append_samples(path, [record(1)])
    with path.open("a") as handle:
        handle.write(json.dumps(record(2).to_json())[:20])
    assert list(read_samples(path, "h")) == ["1"]
    assert path.read_text().endswith("}\n")


def test_corrupt_middle_line_is_an_error(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    path.write_text('{"id": "1", "config_hash": "h"}\nnot json\n{"id": "2", "config_hash": "h"}\n')
    with pytest.raises(MlbenchError, match="samples_en.jsonl:2"):
        read_samples(path, "h")


def test_other_settings_are_refused(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    append_samples(path, [record(1)])
    with pytest.raises(MlbenchError, match="different settings"):
        read_samples(path, "other")


def test_model_slug(tmp_path):
    assert model_slug("HiTZ/Latxa-Llama-3.1-8B") == "HiTZ__Latxa-Llama-3.1-8B"
    assert model_slug(str(tmp_path / "tiny")) == "tiny"


def _write_language_many_times(run_dir, lang: str, times: int) -> None:
    from mlbench.records import LanguageResult, MetricValue, RunResult
    from mlbench.results import merge_run, write_language

    for i in range(times):
        result = LanguageResult(lang, 10 + i, {"mc1": MetricValue(0.5, 0.4, 0.6, 0.05)})
        write_language(run_dir, result, {"timings_s": {lang: float(i)}}, "same-settings", None)
        merge_run(run_dir, RunResult("m", "t", {"backend": "hf"}, {}), "same-settings", ["mc1"], ("en", "es", "eu"))


def test_jobs_writing_other_languages_of_one_run_never_lose_each_other(tmp_path):
    import multiprocessing

    from mlbench.results import find_runs

    # Three "cluster jobs" rebuild results.json at the same time, 60 times each.
    context = multiprocessing.get_context("spawn")
    jobs = [
        context.Process(target=_write_language_many_times, args=(tmp_path, lang, 60)) for lang in ("eu", "es", "en")
    ]
    for job in jobs:
        job.start()
    for job in jobs:
        job.join(timeout=120)
    assert [job.exitcode for job in jobs] == [0, 0, 0]
    [(_, run)] = find_runs(tmp_path)
    assert list(run.languages) == ["en", "es", "eu"]  # the task's language order
    assert {lang: r.n for lang, r in run.languages.items()} == {"en": 69, "es": 69, "eu": 69}
    assert run.config["timings_s"] == {"en": 59.0, "es": 59.0, "eu": 59.0}


def test_languages_written_with_other_settings_are_left_out(tmp_path):
    from mlbench.records import LanguageResult, MetricValue, RunResult
    from mlbench.results import merge_run, write_language

    value = MetricValue(0.5, 0.4, 0.6, 0.05)
    write_language(tmp_path, LanguageResult("es", 3, {"mc1": value}), {"timings_s": {"es": 1.0}}, "old", None)
    write_language(tmp_path, LanguageResult("en", 4, {"mc1": value}), {"timings_s": {"en": 2.0}}, "new", None)
    merged, other = merge_run(tmp_path, RunResult("m", "t", {}, {}), "new", ["mc1"])
    assert list(merged.languages) == ["en"] and other == ["es"]
    assert json.loads((tmp_path / "results.json").read_text())["results"]["en"]["n-samples"] == 4
