"""scripts/bench_gpu*: the GPU benchmark's pieces, without a GPU or lm-eval: the shell
scripts parse, the model builder makes a model whose designed walks win, the comparisons
and the summary read both harnesses' logs as they write them. (The whole script runs on the
CPU with `scripts/bench_gpu.sh --tiny`, which needs its wheel bundle.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _python(*args: object) -> str:
    done = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("script", ["bench_gpu.sh", "bench_gpu_prepare.sh"])
def test_the_shell_scripts_parse(script):
    assert subprocess.run(["bash", "-n", SCRIPTS / script]).returncode == 0


def test_the_model_is_built_with_designed_walks(tiny_model, tmp_path):
    out = _python(
        SCRIPTS / "bench_gpu_model.py",
        tmp_path / "m",
        "--tokenizer",
        tiny_model,
        "--size",
        "tiny",
        "--device",
        "cpu",
        "--dtype",
        "float32",
    )
    built, check = (json.loads(line) for line in out.splitlines() if line.startswith("{"))
    assert built["size"] == "tiny" and built["params"] > 0
    hits, total = map(int, check["designed_argmax"].split("/"))
    assert hits >= 0.9 * total and check["margin_median"] > 2
    assert (tmp_path / "m" / "config.json").exists()
    # A generation prompt ends with its question ("?"), an MC one with "A:": both walks
    # end with end-of-sequence as their 192nd token.
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tmp_path / "m")
    successor = json.loads((tmp_path / "m" / "designed_successors.json").read_text())
    for start in tokenizer.convert_tokens_to_ids(["?", ":"]):
        walk = [successor[start]]
        while walk[-1] != tokenizer.eos_token_id and len(walk) < 1000:
            walk.append(successor[walk[-1]])
        assert len(walk) == 192, tokenizer.convert_ids_to_tokens([start])


def _lm_eval_log(folder: Path, task: str, rows: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"samples_{task}_2026-11-27.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")


def _mlbench_log(folder: Path, rows: list[dict]) -> None:
    run = folder / "model" / "truthfulqa_multi"
    run.mkdir(parents=True)
    (run / "samples_en.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")


def test_mc_runs_are_compared_question_by_question(tmp_path):
    for metric, acc, lls in (("mc1", 1.0, [-1.0, -2.0]), ("mc2", 0.7, [-1.0, -2.0, -3.0])):
        _lm_eval_log(
            tmp_path / "lm",
            f"hitz_{metric}_en",
            [
                {"doc": {"id": 7}, "acc": acc, "filtered_resps": [[v, False] for v in lls]},
                {"doc": {"id": 8}, "acc": acc, "filtered_resps": [[v, False] for v in lls]},
            ],
        )
    outputs = {"mc1_loglikelihoods": [-1.00002, -2.0], "mc2_loglikelihoods": [-1.0, -2.0, -3.0]}
    _mlbench_log(
        tmp_path / "mb",
        [
            {"id": "7", "metrics": {"mc1": 1.0, "mc2": 0.7}, "outputs": outputs},
            {"id": "8", "metrics": {"mc1": 0.0, "mc2": 0.7}, "outputs": outputs},
        ],
    )
    compared = subprocess.run(
        [sys.executable, SCRIPTS / "bench_gpu_tools.py", "compare-mc", tmp_path / "lm", tmp_path / "mb", "--exact"],
        capture_output=True,
        text=True,
    )
    result = json.loads(compared.stdout)
    assert result["matched"] == 2 and result["mc1_equal"] == 1 and result["mc1_differ_ids"] == ["8"]
    assert result["option_ll_absdiff"]["max"] == pytest.approx(2e-5) and result["within_tolerance"] is False
    # A float32 disagreement fails the step, and so the bench.
    assert compared.returncode == 1 and "MC outside 0.0001: MC1 1/2 equal" in compared.stderr
    # bfloat16 is reported, not judged.
    assert json.loads(_python(SCRIPTS / "bench_gpu_tools.py", "compare-mc", tmp_path / "lm", tmp_path / "mb"))


def test_a_generated_answer_that_differs_fails_the_comparison():
    sys.path.insert(0, str(SCRIPTS))
    try:
        from bench_gpu_tools import disagreement
    finally:
        sys.path.remove(str(SCRIPTS))
    equal = {"questions_lm_eval": 100, "matched": 100, "answers_equal": 100}
    assert disagreement("compare-gen", equal) is None
    assert disagreement("compare-gen", {**equal, "answers_equal": 99}) == "generation: 99 of 100 answers equal"
    assert disagreement("compare-gen", {**equal, "matched": 0, "answers_equal": 0}) is not None
    assert disagreement("compare-mc", {"matched": 9, "mc1_equal": 9}) is None  # bfloat16: not judged


def test_the_summary_reads_steps_logs_and_gpu_samples(tmp_path):
    work, logs = tmp_path / "work", tmp_path / "work" / "logs"
    logs.mkdir(parents=True)
    steps = [
        ("c_lmeval_mc", 40.0, 100.0),
        ("c_mlbench_mc", 8.0, 150.0),
        ("c_mlbench_one", 6.5, 158.0),
        ("d_lmeval_gen", 60.0, 200.0),
        ("d_mlbench_gen", 12.0, 300.0),
        ("g_model", 70.0, 400.0),
        ("g_lmeval_mc", 50.0, 450.0),
        ("g_mlbench_mc", 30.0, 480.0),
        ("g_mlbench_one", 21.0, 501.0),
        ("h_lmeval_gen", 45.0, 546.0),
        ("h_mlbench_gen", 28.0, 574.0),
    ]
    (work / "steps.jsonl").write_text(
        "".join(json.dumps({"step": n, "rc": 0, "wall_s": w, "t0": end - w, "t1": end}) + "\n" for n, w, end in steps)
    )
    (work / "settings.json").write_text(json.dumps({"size": "full", "dtype": "bfloat16"}))
    (logs / "machine.txt").write_text("NVIDIA H200, 580.1, 143771 MiB\n")
    (logs / "c_lmeval_mc.log").write_text("Running loglikelihood requests: 100%|████| 10053/10053 [00:10<00:00]\n")
    (logs / "c_mlbench_mc.log").write_text("mlbench: truthfulqa_multi: en done in 3.5 s\n")
    (logs / "d_lmeval_gen.log").write_text("Running generate_until requests: 100%|██| 100/100 [00:48<00:00]\n")
    (logs / "d_mlbench_gen.log").write_text("mlbench: truthfulqa_multi: en done in 5.0 s · 5,400 tokens/s generated\n")
    (logs / "g_model.log").write_text('{"params": 7382241280, "size": "8b", "dtype": "bfloat16", "seconds": 61.5}\n')
    (logs / "g_lmeval_mc.log").write_text("Running loglikelihood requests: 100%|████| 1230/1230 [00:20<00:00]\n")
    (logs / "g_mlbench_mc.log").write_text("mlbench: truthfulqa_multi: en done in 12.5 s\n")
    (logs / "h_lmeval_gen.log").write_text("Running generate_until requests: 100%|██| 64/64 [00:15<00:00]\n")
    (logs / "h_mlbench_gen.log").write_text("mlbench: truthfulqa_multi: en done in 9.0 s · 1,365 tokens/s generated\n")
    (work / "compare-mc8.json").write_text(json.dumps({"mc1_equal": 99, "matched": 100, "mc2_absdiff": {"max": 0.004}}))
    (work / "compare-gen8.json").write_text(json.dumps({"answers_equal": 64, "matched": 64}))
    _results_json(work / "mb8-one", {"mc_batches": "questions batched"}, {"en": {"start": 499.0, "end": 499.5}})
    (logs / "gpu-samples.txt").write_text("".join(f"{t} {1000 + t}, {50 if t > 140 else 5}\n" for t in range(60, 301)))
    (work / "compare-gen.json").write_text(
        json.dumps(
            {"answers_equal": 99, "matched": 100, "lm_eval_output_tokens": 25600, "mlbench_output_tokens": 25600}
        )
    )
    # mlbench's own record of its model work: busy is read between these (the samples
    # before 141 read 5%, after it 50%), not guessed from the end of the process.
    mc_config = {"mc_batches": "questions batched", "decoding": {"path": "CUDA graphs"}, "tokenized_ahead": 3}
    _results_json(work / "mb-mc", mc_config, {"en": {"start": 143.0, "end": 146.6, "samples": 817}})
    _results_json(work / "mb-one", {"mc_batches": "questions batched"}, {"en": {"start": 157.0, "end": 157.25}})
    fallback = {"path": "eager", "fallback": "operation not permitted when stream is capturing"}
    _results_json(work / "mb-gen", {"decoding": fallback}, {"en": {"start": 130.0, "end": 150.0, "samples": 100}})
    (work / "checks.json").write_text(json.dumps(CHECKS))
    done = subprocess.run(
        [sys.executable, SCRIPTS / "bench_gpu_summary.py", work, tmp_path / "out"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    mc, gen = summary["pairs"][0], summary["pairs"][1]
    assert mc["ratio"] == 5.0 and mc["lm_eval_phase_s"] == 10.0 and mc["mlbench_phase_s"] == 3.5
    assert mc["lm_eval_phase_busy_pct"] == 5.0
    assert mc["mlbench_run"]["work_busy_pct"] == 50.0 and mc["mlbench_run"]["work_gpu_samples"] == 4
    assert gen["mlbench_run"]["work_busy_pct"] == round((11 * 5 + 10 * 50) / 21, 1)  # 130..140 at 5%, 141..150 at 50%
    assert gen["mlbench_tokens_per_s"] == 5400 and gen["ratio"] == 5.0
    text = (tmp_path / "out" / "summary.md").read_text()
    assert "NVIDIA H200" in text and "| MC, English | 40.0 | 8.0 | 5.00x |" in text
    assert "| 5.0 / 50.0 (4 samples) | questions batched, 3 calls tokenized ahead |" in text
    assert "start-up: MC on one question, whole process 6.5 s, of which 0.25 s model work" in text
    assert "| eager (fell back: operation not permitted when stream is capturing) |" in text
    assert "lm-eval 533, mlbench 5400" in text  # 25,600 tokens in lm-eval's 48 s
    assert "CUDA graphs vs eager: rows equal 16/16, 12 different ends" in text
    assert "3 host syncs over 64 questions" in text and "flash_fwd_kernel" in text
    assert text.rstrip().endswith("Every step ended with exit 0.")
    mc8, gen8 = summary["pairs"][3], summary["pairs"][4]
    assert mc8["what"] == "MC, English, 8 B" and mc8["ratio"] == round(50 / 30, 2)
    assert (mc8["lm_eval_startup_s"], mc8["mlbench_startup_s"]) == (30.0, 17.5)  # 50 - 20, 30 - 12.5
    assert (gen8["lm_eval_startup_s"], gen8["mlbench_startup_s"]) == (30.0, 19.0)
    assert "| MC, English, 8 B | 50.0 | 30.0 | 1.67x |" in text
    assert "| generation, English, 8 B | 45.0 | 28.0 | 1.61x |" in text
    assert "- 8 B (8b, 7.38 B parameters, built in 61.5 s): MC1 equal 99/100" in text
    assert "answers equal 64/64" in text
    assert ("8 B start-up (process less phase), MC: lm-eval 30.0 s, mlbench 17.5 s; generation: lm-eval 30.0 s, "
            "mlbench 19.0 s; mlbench on one question 21.0 s, of which 0.50 s model work") in text  # fmt: skip


CHECKS = {
    "graphs_vs_eager": {"ok": True, "rows_equal": "16/16", "distinct_ends": 12, "step_shapes_rows": [16, 8, 4],
                        "decoding": {"path": "CUDA graphs"}},
    "mc_host_syncs": {"ok": True, "run": True, "questions": 64, "syncs": 3, "where": {"packed_batches.py:90": 3}},
    "attention": {"ok": True, "kernels": {"flash_fwd_kernel": 2}},
    "failed": [],
}  # fmt: skip


def _results_json(folder: Path, config: dict, work: dict) -> None:
    run = folder / "model" / "truthfulqa_multi"
    run.mkdir(parents=True)
    (run / "results.json").write_text(json.dumps({"config": {**config, "model_work_unix": work}}))


def test_the_summary_fails_naming_the_steps_that_failed_or_were_skipped(tmp_path):
    work = tmp_path / "work"
    (work / "logs").mkdir(parents=True)
    steps = [{"step": "a_setup", "rc": 0, "wall_s": 1.0}, {"step": "b_model", "rc": 124, "wall_s": 9.0},
             {"step": "c_lmeval_mc", "rc": None, "skipped": True}]  # fmt: skip
    (work / "steps.jsonl").write_text("".join(json.dumps(r) + "\n" for r in steps))
    done = subprocess.run(
        [sys.executable, SCRIPTS / "bench_gpu_summary.py", work, tmp_path / "out"], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert done.stdout.rstrip().endswith("FAILED or skipped: b_model (exit 124), c_lmeval_mc (skipped)")


def test_the_bench_exits_non_zero_when_its_steps_fail(tmp_path):
    """Without its bundle the setup fails, and with no budget left every later step is
    skipped: the script says so and exits 1 (it used to exit 0 with a summary of dashes)."""
    env = {**os.environ, "GPU_BUNDLE": str(tmp_path / "none"), "BUDGET": "1", "OUT": str(tmp_path / "out"),
           "BENCH_WORK": str(tmp_path / "work"), "PYTHON": sys.executable}  # fmt: skip
    done = subprocess.run(["bash", SCRIPTS / "bench_gpu.sh", "--tiny"], capture_output=True, text=True, env=env)
    assert done.returncode == 1, done.stdout[-2000:]
    last = done.stdout.rstrip().splitlines()[-1]
    assert last.startswith("bench_gpu.sh: FAILED (FAILED or skipped: a_setup (exit 2), b_model (skipped)")
    steps = ("b_checks", "c_lmeval_mc", "c_mlbench_mc", "c_mlbench_one", "d_mlbench_gen", "e_mlbench_fp32")
    steps += ("g_model", "g_lmeval_mc", "g_mlbench_mc", "g_mlbench_one", "h_lmeval_gen", "h_mlbench_gen")
    for name in (*steps, "f_mlbench_all"):
        assert f"{name} (skipped)" in last
