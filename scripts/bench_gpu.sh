#!/usr/bin/env bash
# mlbench against lm-eval 0.4.13 on one GPU, in one command, on a machine with no network:
#
#     scripts/bench_gpu_prepare.sh            # where PyPI is reachable: fills .gpu/
#     scripts/bench_gpu.sh                    # on the GPU machine, .gpu/ carried
#     scripts/bench_gpu.sh --tiny             # the same steps on the CPU, a tiny model
#
# A seeded random-init Llama (scripts/bench_gpu_model.py: ~1.17 B parameters, bfloat16,
# SmolLM2's tokenizer; --tiny: 2 layers, float32) is built on the spot, and the GPU code is
# checked on it first (scripts/bench_gpu_checks.py: CUDA graphs against eager decoding on
# rows ending at 16 different steps, host syncs in the MC path, the attention kernel); then
# each harness runs as one whole process, start-up and model load included, as a user runs it:
#   c  MC, English, MC_N questions (817), 6-shot: lm-eval's hitz_mc1_en + hitz_mc2_en,
#      batch size BS (64), against mlbench --mode mc (its own batching); then mlbench on
#      one question: its start-up, model load included, apart from its work
#   d  generation, English, GEN_N questions (100) x 256 tokens, 6-shot greedy: lm-eval's
#      truthfulqa-multi_gen_en against mlbench --mode gen
#   e  float32 parity: MC on PARITY_N (100; --tiny 10) questions, both harnesses in
#      float32, where every option's log-likelihood must agree within 1e-4
#   f  mlbench alone: five languages, MC and generation, --limit ALL_N (100)
#   g  MC at 8 B: a Llama of Llama-3.1-8B's shape (~7.4 B parameters with this tokenizer,
#      random bfloat16 weights built on the device; --tiny: its 4-layer miniature), MC8_N
#      questions (100), 6-shot: lm-eval against mlbench, then mlbench on one question
#   h  generation at 8 B: GEN8_N questions (64) x 256 tokens, 6-shot greedy, both harnesses
#   (each harness's start-up, model load included, is its whole process less its phase;
#   mlbench's also from its run on one question)
# Each step runs under its own timeout inside one budget (BUDGET seconds); a failed step is
# recorded and the next one runs (the setup runs whatever the budget; a comparison only
# when the steps it reads passed, and it fails when the harnesses disagree: float32 MC
# beyond 1e-4, or any generated answer); the script exits 1 when any step failed or was
# skipped, naming them last. nvidia-smi is sampled every 0.5 s for GPU memory and busy share, read
# between the start and end of mlbench's model work as its results.json records them.
# --tiny runs mlbench with -M rehearse_gpu=true: the GPU's paths on the CPU (batched MC,
# the static decoder under a capture that checks each step as a CUDA graph would need).
# OUT/summary.md and summary.json (scripts/bench_gpu_summary.py), OUT/bench.log and
# OUT/logs.tar.gz. Knobs: PYTHON, OUT, BENCH_WORK, BUDGET, MC_N, GEN_N, ALL_N, PARITY_N, BS,
# MC8_N, GEN8_N, GPU_BUNDLE (.gpu), MLBENCH_SOURCE (another mlbench checkout, to measure
# "before"), STEPS (the letters of the steps to run, bcdefgh: all). On a GPU lent for 15
# minutes with 10 a command, run the 1.17 B steps (STEPS=bcdef, BUDGET 450 s) or the 8 B
# ones (STEPS=gh, 540 s) in one command; the default runs both (990 s).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SIZE=full
[ "${1:-}" = "--tiny" ] && SIZE=tiny
G=${GPU_BUNDLE:-$ROOT/.gpu}
PY=${PYTHON:-$( [ -x .venv/bin/python ] && echo "$ROOT/.venv/bin/python" || command -v python3 )}
SRC=${MLBENCH_SOURCE:-$ROOT}
OUT=${OUT:-$(mktemp -d)}
STEPS=${STEPS:-bcdefgh}
W=${BENCH_WORK:-/tmp/bench-gpu}
M=$W/model
M8=$W/model-8b
has() { [[ $STEPS =~ [$1] ]]; }  # has LETTERS: STEPS asks for one of them
if [ "$SIZE" = tiny ]; then
  MC_N=${MC_N:-40}; GEN_N=${GEN_N:-8}; ALL_N=${ALL_N:-3}; PARITY_N=${PARITY_N:-10}; BS=${BS:-16}
  MC8_N=${MC8_N:-10}; GEN8_N=${GEN8_N:-4}; SIZE8=8b-tiny
  BUDGET=${BUDGET:-$(( $(has bcdef && echo 560 || echo 0) + $(has gh && echo 300 || echo 0) ))}; DT=float32; SCALE=4
else
  MC_N=${MC_N:-817}; GEN_N=${GEN_N:-100}; ALL_N=${ALL_N:-100}; PARITY_N=${PARITY_N:-100}; BS=${BS:-64}
  MC8_N=${MC8_N:-100}; GEN8_N=${GEN8_N:-64}; SIZE8=8b
  BUDGET=${BUDGET:-$(( $(has bcdef && echo 450 || echo 0) + $(has gh && echo 540 || echo 0) ))}; DT=bfloat16; SCALE=1
fi
mkdir -p "$OUT"
rm -rf "$W"
mkdir -p "$W/logs"
exec > >(tee "$OUT/bench.log") 2>&1
T0=$(date +%s)
# Tokenizers' threads as a user gets them (TOKENIZERS_PARALLELISM unset): both harnesses
# tokenize in batches, and turning them off cost mlbench's MC ~3 s of 18 on an H200 machine.
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1 \
  HF_HOME=$W/hf MLBENCH_CACHE_DIR=$W/mlbench-cache TRANSFORMERS_VERBOSITY=error
unset TOKENIZERS_PARALLELISM
echo "bench_gpu.sh $(date -u +%FT%TZ) size=$SIZE mc=$MC_N gen=$GEN_N all=$ALL_N parity=$PARITY_N batch=$BS" \
  "8b: $SIZE8 mc=$MC8_N gen=$GEN8_N; steps=$STEPS budget=${BUDGET}s"

# step NAME CAP CMD...: CMD under min(CAP x SCALE, what is left of BUDGET), its output in
# logs/NAME.log, a JSON line in steps.jsonl. post: the same, outside the budget. A step
# whose letter STEPS leaves out is not run and not recorded (every run starts from an
# empty work folder, so steps c to f need b, their model, and h needs g, its own).
step() {
  local name=$1 cap=$(($2 * SCALE)); shift 2
  case $name in
    a_*) ;;
    *) if [[ $STEPS != *${name:0:1}* ]]; then echo "[$name] not asked for (STEPS=$STEPS)"; return 0; fi ;;
  esac
  local left=$((BUDGET - ($(date +%s) - T0)))
  [[ $name == a_* ]] && left=$cap  # the setup runs whatever the budget: without it nothing can
  local limit=$((cap < left ? cap : left))
  if [ "$limit" -lt 10 ]; then
    echo "[$name] skipped: ${left}s of the budget left"
    echo "{\"step\": \"$name\", \"rc\": null, \"skipped\": true}" >> "$W/steps.jsonl"
    return 0
  fi
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout -k 5 "$limit" "$@" > "$W/logs/$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local wall
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  echo "{\"step\": \"$name\", \"rc\": $rc, \"wall_s\": $wall, \"limit_s\": $limit, \"t0\": $t0, \"t1\": $t1}" >> "$W/steps.jsonl"
  echo "[$name] rc=$rc ${wall}s (limit ${limit}s)"
  [ "$rc" -ne 0 ] && tail -n 6 "$W/logs/$name.log" | sed 's/^/    /'
  return 0
}
post() {  # run only when every step of its letter passed: else there is nothing to compare
  if grep -s "\"step\": \"${1:0:1}_" "$W/steps.jsonl" | grep -qv '"rc": 0,'; then
    echo "[$1] skipped: a step it reads did not pass"
    echo "{\"step\": \"$1\", \"rc\": null, \"skipped\": true}" >> "$W/steps.jsonl"
    return 0
  fi
  BUDGET=100000 step "$@"
}
untar() { "$PY" -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter='data')" "$1" "$2"; }

if command -v nvidia-smi > /dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$W/logs/machine.txt" 2>&1
  ( while :; do
      echo "$(date +%s.%N) $(nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader,nounits | head -1)"
      sleep 0.5
    done ) > "$W/logs/gpu-samples.txt" 2>/dev/null &
  SAMPLER=$!
else
  echo "CPU ($(nproc) cores)" > "$W/logs/machine.txt"
  SAMPLER=
fi

# -- a: the packages, the data, the tokenizer ------------------------------------------------
setup() {
  set -e
  [ -f "$G/whl/wheels.tar.xz" ] || { echo "no $G: run scripts/bench_gpu_prepare.sh where PyPI is reachable"; exit 2; }
  mkdir -p "$W/whl" "$W/site" "$W/tok"
  untar "$G/whl/wheels.tar.xz" "$W/whl"
  # By name, from the bundle: pip takes the wheel that fits this Python.
  local names
  names=$(ls "$W/whl" | sed -E 's/-[0-9].*//' | sort -u)
  "$PY" -m pip install -q --no-index --no-deps --no-compile --find-links "$W/whl" --target "$W/site" $names
  untar "$G/data.tar.xz" "$W/data"
  cp "$G"/tok/* "$W/tok/"
  "$PY" -c "import lzma, sys; open(sys.argv[2], 'wb').write(lzma.open(sys.argv[1]).read())" \
    "$W/tok/tokenizer.json.xz" "$W/tok/tokenizer.json" && rm "$W/tok/tokenizer.json.xz"
  # Both harnesses' sources compiled now, so that neither pays it inside its timed step.
  "$PY" -m compileall -q -j 0 "$W/site" "$SRC/mlbench" > /dev/null || true
  PYTHONPATH=$W/site:$SRC "$PY" -c "
import importlib.metadata as md, torch, mlbench, transformers, datasets, lm_eval.models.huggingface
print('python', __import__('sys').version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda)
for name in ('transformers', 'lm_eval', 'datasets', 'typer'):
    print(name, md.version(name))
print('mlbench from', mlbench.__file__)"
}
export -f setup untar
export PY G W SRC
step a_setup 150 bash -c setup
export PYTHONPATH=$W/site:$SRC
if "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2> /dev/null; then
  LM_DEVICE=cuda:0; MB_DEVICE=cuda; REHEARSE=
else
  LM_DEVICE=cpu; MB_DEVICE=cpu; REHEARSE="-M rehearse_gpu=true"
fi
printf '{"size": "%s", "dtype": "%s", "mc_n": %s, "gen_n": %s, "all_n": %s, "parity_n": %s, "batch_size": %s, "device": "%s", "size_8b": "%s", "mc8_n": %s, "gen8_n": %s, "steps": "%s"}\n' \
  "$SIZE" "$DT" "$MC_N" "$GEN_N" "$ALL_N" "$PARITY_N" "$BS" "$MB_DEVICE" "$SIZE8" "$MC8_N" "$GEN8_N" "$STEPS" > "$W/settings.json"

# -- b: the model and each step's data ---------------------------------------------------------
step b_model 120 "$PY" scripts/bench_gpu_model.py "$M" --tokenizer "$W/tok" --size "$SIZE" --device "$MB_DEVICE" --dtype "$DT"
step b_checks 120 bash -c "'$PY' scripts/bench_gpu_checks.py '$M' --device $MB_DEVICE > '$W/checks.json'"
step b_stage 60 "$PY" scripts/bench_gpu_tools.py stage "$W/data" "$W" --mc-n "$MC_N" --gen-n "$GEN_N" --parity-n "${PARITY_N:-0}"

lm_eval() {  # lm_eval DTYPE TASK-FOLDER OUTPUT TASKS (the model: MODEL, else M)
  "$PY" -m lm_eval --model hf --model_args "pretrained=${MODEL:-$M},dtype=$1" --device "$LM_DEVICE" --batch_size "$BS" \
    --include_path "$2" --tasks "$4" --num_fewshot 6 --log_samples --output_path "$3"
}
mlbench() {  # mlbench DTYPE MODE DATA OUTPUT [more flags] (the model: MODEL, else M)
  local dtype=$1 mode=$2 data=$3 out=$4; shift 4
  "$PY" -m mlbench run --model "${MODEL:-$M}" --backend hf --task truthfulqa_multi --fewshot 6 --dtype "$dtype" \
    -M "device=$MB_DEVICE" $REHEARSE --mode "$mode" --data-dir "$data" --output "$out" --no-cache --yes "$@"
}
export -f lm_eval mlbench
export M M8 LM_DEVICE MB_DEVICE BS REHEARSE

# -- c: MC -----------------------------------------------------------------------------------------
step c_lmeval_mc 150 bash -c "lm_eval $DT '$W/tasks-mc' '$W/lm-mc' hitz_mc1_en,hitz_mc2_en"
step c_mlbench_mc 90 bash -c "mlbench $DT mc '$W/data-mc' '$W/mb-mc' --lang en"
step c_mlbench_one 60 bash -c "mlbench $DT mc '$W/data-mc' '$W/mb-one' --lang en --limit 1"
post c_compare 60 bash -c "'$PY' scripts/bench_gpu_tools.py compare-mc '$W/lm-mc' '$W/mb-mc' $([ "$SIZE" = tiny ] && echo --exact) > '$W/compare-mc.json'"

# -- d: generation -----------------------------------------------------------------------------------
step d_lmeval_gen 240 bash -c "lm_eval $DT '$W/tasks-gen' '$W/lm-gen' truthfulqa-multi_gen_en"
step d_mlbench_gen 90 bash -c "mlbench $DT gen '$W/data-gen' '$W/mb-gen' --lang en"
post d_compare 60 bash -c "'$PY' scripts/bench_gpu_tools.py compare-gen '$W/lm-gen' '$W/mb-gen' '$M' > '$W/compare-gen.json'"

# -- e: float32 parity ------------------------------------------------------------------------------
if [ "$PARITY_N" -gt 0 ]; then
  step e_lmeval_fp32 90 bash -c "lm_eval float32 '$W/tasks-parity' '$W/lm-fp32' hitz_mc1_en,hitz_mc2_en"
  step e_mlbench_fp32 60 bash -c "mlbench float32 mc '$W/data-parity' '$W/mb-fp32' --lang en"
  post e_compare 60 bash -c "'$PY' scripts/bench_gpu_tools.py compare-mc '$W/lm-fp32' '$W/mb-fp32' --exact > '$W/compare-fp32.json'"
fi

# -- f: mlbench alone, five languages -----------------------------------------------------------------
step f_mlbench_all 150 bash -c "mlbench $DT all '$W/data' '$W/mb-all' --lang all --limit $ALL_N"
post f_count 60 bash -c "'$PY' scripts/bench_gpu_tools.py count '$W/mb-all' '$M' > '$W/compare-all.json'"

# -- g: MC at 8 B (its own model and data, under $W/8b) -------------------------------------------
step g_model 240 "$PY" scripts/bench_gpu_model.py "$M8" --tokenizer "$W/tok" --size "$SIZE8" --device "$MB_DEVICE" --dtype "$DT"
step g_stage 60 "$PY" scripts/bench_gpu_tools.py stage "$W/data" "$W/8b" --mc-n "$MC8_N" --gen-n "$GEN8_N" --parity-n 0
step g_lmeval_mc 150 bash -c "MODEL='$M8' lm_eval $DT '$W/8b/tasks-mc' '$W/lm8-mc' hitz_mc1_en,hitz_mc2_en"
step g_mlbench_mc 120 bash -c "MODEL='$M8' mlbench $DT mc '$W/8b/data-mc' '$W/mb8-mc' --lang en"
step g_mlbench_one 90 bash -c "MODEL='$M8' mlbench $DT mc '$W/8b/data-mc' '$W/mb8-one' --lang en --limit 1"
post g_compare 60 bash -c "'$PY' scripts/bench_gpu_tools.py compare-mc '$W/lm8-mc' '$W/mb8-mc' $([ "$SIZE" = tiny ] && echo --exact) > '$W/compare-mc8.json'"

# -- h: generation at 8 B ----------------------------------------------------------------------------
step h_lmeval_gen 150 bash -c "MODEL='$M8' lm_eval $DT '$W/8b/tasks-gen' '$W/lm8-gen' truthfulqa-multi_gen_en"
step h_mlbench_gen 120 bash -c "MODEL='$M8' mlbench $DT gen '$W/8b/data-gen' '$W/mb8-gen' --lang en"
post h_compare 60 bash -c "'$PY' scripts/bench_gpu_tools.py compare-gen '$W/lm8-gen' '$W/mb8-gen' '$M8' > '$W/compare-gen8.json'"

# -- the summary ---------------------------------------------------------------------------------------
[ -n "$SAMPLER" ] && kill "$SAMPLER" 2> /dev/null
"$PY" scripts/bench_gpu_summary.py "$W" "$OUT"
RC=$?  # 1: a step failed or was skipped (the summary names them); other: the summary failed
[ "$RC" -gt 1 ] && echo "the summary failed (exit $RC)" && rm -f "$OUT/summary.md"
results=$(cd "$W" && ls -d compare-*.json checks.json mb-*/*/*/results.json 2> /dev/null)
tar -C "$W" -czf "$OUT/logs.tar.gz" logs steps.jsonl settings.json $results 2> /dev/null
echo "total $(($(date +%s) - T0)) s; $OUT: $(ls "$OUT" | tr '\n' ' ')"
if [ "$RC" -ne 0 ]; then
  echo "bench_gpu.sh: FAILED ($( [ "$RC" -eq 1 ] && grep -o 'FAILED or skipped: .*' "$OUT/summary.md" || echo "no summary"))"
  exit 1
fi
echo "bench_gpu.sh: every step passed"
