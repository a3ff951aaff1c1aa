#!/usr/bin/env python3
"""The GPU benchmark's summary: summary.md and summary.json from what bench_gpu.sh left in
its work folder.

    bench_gpu_summary.py WORK OUT

Reads WORK/steps.jsonl (each step's exit status, wall time and start/end), the GPU samples
(nvidia-smi every 0.5 s: memory used, utilisation), the comparisons, and the logs, from
which it takes each harness's compute phase: lm-eval's progress bar over its requests, and
mlbench's stage lines ("en done in 3.1 s · 5,120 tokens/s generated"). GPU busy is the
mean utilisation over a step's last ``phase`` seconds for lm-eval (the compute phase ends
just before the process does), and for mlbench between the start and end of its model
work that results.json records (``model_work_unix``), with the number of samples inside;
the summary names how mlbench batched MC and decoded (CUDA graphs or eager, and why),
and the GPU code's checks (checks.json). Exits 1, naming them, when any step failed or
was skipped.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

# (name, lm-eval step, mlbench step, lm-eval's progress bar, mlbench's output folder)
PAIRS = (
    ("MC, English", "c_lmeval_mc", "c_mlbench_mc", "Running loglikelihood requests", "mb-mc"),
    ("generation, English", "d_lmeval_gen", "d_mlbench_gen", "Running generate_until requests", "mb-gen"),
    ("MC float32 parity", "e_lmeval_fp32", "e_mlbench_fp32", "Running loglikelihood requests", "mb-fp32"),
    ("MC, English, 8 B", "g_lmeval_mc", "g_mlbench_mc", "Running loglikelihood requests", "mb8-mc"),
    ("generation, English, 8 B", "h_lmeval_gen", "h_mlbench_gen", "Running generate_until requests", "mb8-gen"),
)
MLBENCH_STAGE = re.compile(r"done in (?:(\d+) h (\d+) min|(\d+) min (\d+) s|([\d.]+) s)(?: · ([\d,]+) tokens/s)?")


def _load(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").replace("\r", "\n")
    except OSError:
        return ""


def lm_eval_phase(log: str, bar: str) -> float | None:
    """Seconds of lm-eval's progress bar ``bar`` when it reached 100%."""
    found = re.findall(re.escape(bar) + r": 100%\|[^\[\n]*\[(?:(\d+):)?(\d+):(\d+)<", log)
    if not found:
        return None
    hours, minutes, seconds = found[-1]
    return float(int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds))


def mlbench_phase(log: str) -> tuple[float | None, int | None]:
    """The seconds of mlbench's stage lines (summed) and the last tokens/s they give."""
    total, rate, seen = 0.0, None, False
    for line in log.splitlines():
        if not line.startswith("mlbench: ") or "judge" in line:
            continue
        match = MLBENCH_STAGE.search(line)
        if match:
            seen = True
            h, hm, m, ms, s, tokens = match.groups()
            total += float(s) if s else int(m) * 60 + int(ms) if m else int(h) * 3600 + int(hm) * 60
            rate = int(tokens.replace(",", "")) if tokens else rate
    return (round(total, 2) if seen else None), rate


def gpu_samples(path: Path) -> list[tuple[float, float, float | None]]:
    rows = []
    for line in _text(path).splitlines():
        parts = line.replace(",", " ").split()
        try:
            rows.append((float(parts[0]), float(parts[1]), float(parts[2]) if len(parts) > 2 else None))
        except (IndexError, ValueError):
            continue
    return rows


def gpu_use(samples: list, start: float, end: float) -> dict[str, float | None]:
    inside = [(m, u) for t, m, u in samples if start <= t <= end]
    busy = [u for _, u in inside if u is not None]
    return {
        "peak_mib": max((m for m, _ in inside), default=None),
        "busy_pct": round(sum(busy) / len(busy), 1) if busy else None,
        "gpu_samples": len(busy),
    }


def mlbench_run(folder: Path, samples: list) -> dict:
    """What mlbench's results.json says of a run: how MC was batched, how greedy answers
    were decoded (graphs or eager, and why), and the GPU's busy share between the start
    and end of its model work on each language (``model_work_unix``, mlbench's own clock)."""
    found = sorted(folder.glob("*/*/results.json"))
    config = _load(found[0]).get("config", {}) if found else {}
    if not config:
        return {}
    decoding = config.get("decoding") or {}
    windows = list((config.get("model_work_unix") or {}).values())
    used = [u for t, _, u in samples if u is not None and any(w["start"] <= t <= w["end"] for w in windows)]
    return {
        "mc_batches": config.get("mc_batches"),
        "tokenized_ahead": config.get("tokenized_ahead"),
        "decode_path": decoding.get("path"),
        "decode_fallback": decoding.get("fallback"),
        "work_s": round(sum(w["end"] - w["start"] for w in windows), 2) if windows else None,
        "work_busy_pct": round(sum(used) / len(used), 1) if used else None,
        "work_gpu_samples": len(used),
    }


def failed_steps(steps: dict[str, dict]) -> list[str]:
    """Each step that did not end with exit 0 (failed, killed at its limit, or skipped)."""
    return [
        f"{name} ({'skipped' if record.get('skipped') else 'exit ' + str(record.get('rc'))})"
        for name, record in steps.items()
        if record.get("rc") != 0
    ]


def summarize(work: Path, out: Path) -> dict:
    steps = {}
    for line in _text(work / "steps.jsonl").splitlines():
        record = json.loads(line)
        steps[record["step"]] = record
    settings = _load(work / "settings.json")
    samples = gpu_samples(work / "logs" / "gpu-samples.txt")
    rows = []
    for name, record in steps.items():
        usage = gpu_use(samples, record.get("t0", 0), record.get("t1", 0)) if record.get("t0") else {}
        rows.append({"step": name, "rc": record.get("rc"), "wall_s": record.get("wall_s"), **usage})
    pairs = []
    for label, lm_step, mb_step, bar, mb_folder in PAIRS:
        lm, mb = steps.get(lm_step, {}), steps.get(mb_step, {})
        lm_phase = lm_eval_phase(_text(work / "logs" / f"{lm_step}.log"), bar)
        mb_phase, rate = mlbench_phase(_text(work / "logs" / f"{mb_step}.log"))
        pair = {
            "what": label,
            "lm_eval_s": lm.get("wall_s") if lm.get("rc") == 0 else None,
            "mlbench_s": mb.get("wall_s") if mb.get("rc") == 0 else None,
            "lm_eval_phase_s": lm_phase,
            "mlbench_phase_s": mb_phase,
            "mlbench_tokens_per_s": rate,
        }
        if lm.get("t1") and lm_phase:  # lm-eval writes no timestamps: its phase ends just before it exits
            pair["lm_eval_phase_busy_pct"] = gpu_use(samples, lm["t1"] - lm_phase - 1.0, lm["t1"] - 0.5)["busy_pct"]
        pair["mlbench_run"] = mlbench_run(work / mb_folder, samples)
        if pair["lm_eval_s"] and pair["mlbench_s"]:
            pair["ratio"] = round(pair["lm_eval_s"] / pair["mlbench_s"], 2)
        # Start-up, model load included: the whole process less its phase.
        for harness in ("lm_eval", "mlbench"):
            wall, phase = pair[f"{harness}_s"], pair[f"{harness}_phase_s"]
            pair[f"{harness}_startup_s"] = round(wall - phase, 2) if wall and phase is not None else None
        pairs.append(pair)
    one = steps.get("c_mlbench_one", {})
    one8 = steps.get("g_mlbench_one", {})
    everything = steps.get("f_mlbench_all", {})
    all_phase, all_rate = mlbench_phase(_text(work / "logs" / "f_mlbench_all.log"))
    summary = {
        "settings": settings,
        "machine": _text(work / "logs" / "machine.txt").strip(),
        "model": [json.loads(x) for x in _text(work / "logs" / "b_model.log").splitlines() if x.startswith("{")],
        "steps": rows,
        "pairs": pairs,
        "compare": {k: _load(work / f"compare-{k}.json") for k in ("mc", "gen", "fp32", "all", "mc8", "gen8")},
        "one_question": {
            "wall_s": one.get("wall_s") if one.get("rc") == 0 else None,
            **mlbench_run(work / "mb-one", samples),
        },  # fmt: skip
        "one_question_8b": {
            "wall_s": one8.get("wall_s") if one8.get("rc") == 0 else None,
            **mlbench_run(work / "mb8-one", samples),
        },  # fmt: skip
        "model_8b": [json.loads(x) for x in _text(work / "logs" / "g_model.log").splitlines() if x.startswith("{")],
        "all_languages": {
            "wall_s": everything.get("wall_s"),
            "phase_s": all_phase,
            "tokens_per_s": all_rate,
            **mlbench_run(work / "mb-all", samples),
        },
        "checks": _load(work / "checks.json"),
        "failed": failed_steps(steps),
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False))
    (out / "summary.md").write_text(markdown(summary))
    return summary


def _cell(value: object, digits: int = 1) -> str:
    if value is None:
        return "—"
    return f"{value:,.{digits}f}" if isinstance(value, float) else str(value)


def markdown(summary: dict) -> str:
    settings = summary["settings"]
    lines = [
        f"# bench_gpu.sh ({settings.get('size')}, {settings.get('dtype')}, {summary['machine'] or 'no GPU'})",
        "",
        "| | lm-eval s | mlbench s | ratio | lm-eval phase s | mlbench phase s | busy % (lm-eval / mlbench) "
        "| mlbench's path |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for p in summary["pairs"]:
        run = p.get("mlbench_run") or {}
        samples = f" ({run['work_gpu_samples']} samples)" if run.get("work_busy_pct") is not None else ""
        busy = f"{_cell(p.get('lm_eval_phase_busy_pct'))} / {_cell(run.get('work_busy_pct'))}{samples}"
        lines.append(
            f"| {p['what']} | {_cell(p['lm_eval_s'])} | {_cell(p['mlbench_s'])} | {_cell(p.get('ratio'), 2)}x "
            f"| {_cell(p['lm_eval_phase_s'])} | {_cell(p['mlbench_phase_s'])} | {busy} | {_path(p['what'], run)} |"
        )
    compare = summary["compare"]
    gen, mc, fp32 = compare.get("gen") or {}, compare.get("mc") or {}, compare.get("fp32") or {}
    gen_pair = summary["pairs"][1]
    lm_rate = (
        gen["lm_eval_output_tokens"] / gen_pair["lm_eval_phase_s"]
        if gen.get("lm_eval_output_tokens") and gen_pair["lm_eval_phase_s"]
        else None
    )
    every, one = summary["all_languages"], summary["one_question"]
    lines += [
        "",
        f"- Generation phase, output tokens/s: lm-eval {_cell(lm_rate, 0)}, "
        f"mlbench {_cell(gen_pair['mlbench_tokens_per_s'])} (its own count).",
        f"- MC ({settings.get('dtype')}): MC1 equal {mc.get('mc1_equal')}/{mc.get('matched')}; largest MC2 difference "
        f"{_cell((mc.get('mc2_absdiff') or {}).get('max'), 5)}, option log-likelihood "
        f"{_cell((mc.get('option_ll_absdiff') or {}).get('max'), 5)}.",
        f"- Generation: answers equal {gen.get('answers_equal')}/{gen.get('matched')}; output tokens lm-eval "
        f"{gen.get('lm_eval_output_tokens')}, mlbench {gen.get('mlbench_output_tokens')}.",
        f"- MC float32: MC1 equal {fp32.get('mc1_equal')}/{fp32.get('matched')}, largest option difference "
        f"{_cell((fp32.get('option_ll_absdiff') or {}).get('max'), 7)}: "
        f"{'within 1e-4' if fp32.get('within_tolerance') else 'NOT within 1e-4' if fp32 else 'not run'}.",
        f"- mlbench's start-up: MC on one question, whole process {_cell(one['wall_s'])} s, of which "
        f"{_cell(one.get('work_s'), 2)} s model work.",
        f"- mlbench alone, five languages, MC and generation: {_cell(every['wall_s'])} s "
        f"({_cell(every['phase_s'])} s in its stages, {_cell(every['tokens_per_s'])} tokens/s generated).",
        *_eight_b(summary),
        "",
        "| step | exit | wall s | GPU peak MiB | GPU busy % (whole step) |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in summary["steps"]:
        lines.append(
            f"| {row['step']} | {_cell(row['rc'])} | {_cell(row['wall_s'])} "
            f"| {_cell(row.get('peak_mib'), 0)} | {_cell(row.get('busy_pct'))} |"
        )
    lines += ["", *_checks(summary.get("checks") or {}), ""]
    lines.append(
        f"FAILED or skipped: {', '.join(summary['failed'])}" if summary["failed"] else "Every step ended with exit 0."
    )
    return "\n".join(lines) + "\n"


def _eight_b(summary: dict) -> list[str]:
    """The 8 B steps' lines: the model, the agreement, and each harness's start-up."""
    mc_pair, gen_pair = summary["pairs"][3], summary["pairs"][4]
    mc, gen = summary["compare"].get("mc8") or {}, summary["compare"].get("gen8") or {}
    built = next((m for m in summary.get("model_8b", []) if "params" in m), {})
    one = summary["one_question_8b"]
    return [
        f"- 8 B ({built.get('size', '—')}, {_cell(built['params'] / 1e9 if built else None, 2)} B parameters, built in "
        f"{_cell(built.get('seconds'))} s): MC1 equal {mc.get('mc1_equal')}/{mc.get('matched')}, largest MC2 "
        f"difference {_cell((mc.get('mc2_absdiff') or {}).get('max'), 5)}; answers equal "
        f"{gen.get('answers_equal')}/{gen.get('matched')}.",
        f"- 8 B start-up (process less phase), MC: lm-eval {_cell(mc_pair['lm_eval_startup_s'])} s, mlbench "
        f"{_cell(mc_pair['mlbench_startup_s'])} s; generation: lm-eval {_cell(gen_pair['lm_eval_startup_s'])} s, "
        f"mlbench {_cell(gen_pair['mlbench_startup_s'])} s; mlbench on one question {_cell(one['wall_s'])} s, of "
        f"which {_cell(one.get('work_s'), 2)} s model work.",
    ]


def _path(what: str, run: dict) -> str:
    """mlbench's path for a pair: the MC batching, or the decoding (and its fallback)."""
    if not run:
        return "—"
    if "generation" not in what:
        ahead = run.get("tokenized_ahead")
        return str(run.get("mc_batches")) + (f", {ahead} calls tokenized ahead" if ahead is not None else "")
    fallback = f" (fell back: {run['decode_fallback']})" if run.get("decode_fallback") else ""
    return f"{run.get('decode_path')}{fallback}"


def _checks(checks: dict) -> list[str]:
    """The GPU code's own checks (bench_gpu_checks.py), a line each."""
    if not checks:
        return ["- The GPU code's checks: not run."]
    graphs = checks.get("graphs_vs_eager") or {}
    syncs = checks.get("mc_host_syncs") or {}
    kernels = (checks.get("attention") or {}).get("kernels") or {}
    sync_line = (
        f"{syncs.get('syncs')} host syncs over {syncs.get('questions')} questions at {syncs.get('where')}"
        if syncs.get("run")
        else syncs.get("why") or syncs.get("error") or "not run"
    )
    return [
        f"- Greedy decoding, {(graphs.get('decoding') or {}).get('path')} vs eager: rows equal "
        f"{graphs.get('rows_equal')}, {graphs.get('distinct_ends')} different ends, step shapes "
        f"{graphs.get('step_shapes_rows')}"
        f"{'' if graphs.get('ok') else ' — FAILED: ' + str(graphs.get('why') or graphs.get('error', ''))}.",
        f"- MC path under torch.cuda.set_sync_debug_mode: {sync_line}.",
        f"- Attention in one decode step: {', '.join(kernels) or (checks.get('attention') or {}).get('error')}.",
    ]


def main() -> int:
    """Writes the summary and prints it; exit 1 when a step failed or was skipped, 2 when
    the summary itself could not be made (bench_gpu.sh tells the two apart)."""
    try:
        summary = summarize(Path(sys.argv[1]), Path(sys.argv[2]))
    except Exception as error:  # noqa: BLE001 - any failure here is the summary's, not a step's
        print(f"bench_gpu_summary: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    print((Path(sys.argv[2]) / "summary.md").read_text())
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
