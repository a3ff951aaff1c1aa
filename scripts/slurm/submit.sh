#!/usr/bin/env bash
# The whole pipeline in one command: writes the (task, language) pairs, submits the array
# that runs them (array.sbatch), the judge stage after it (judge.sbatch, with
# --judge-args) and the report after that (report.sbatch), and prints the job ids.
#
#   scripts/slurm/submit.sh --model meta-llama/Llama-3.1-8B --task truthfulqa_multi,veritasqa \
#       --lang all --output results --run-args "--backend vllm" \
#       --judge-args "--judge HiTZ/Llama-3.1-8B-Instruct-multi-truth-judge -J kind=truth"
#
#   --model M            hub id or path (required)
#   --task LIST          benchmarks, comma-separated (required)
#   --lang LIST          languages, comma-separated, or all: each benchmark runs those it
#                        has, and a language none of them has is an error      [all]
#   --output DIR         the results folder                                    [results]
#   --include PATH       your own benchmarks (.py, .toml or a folder), repeatable
#   --run-args ARGS      more `mlbench run` options for every pair, e.g. "--mode gen"
#   --judge-args ARGS    `mlbench judge` options; without them, no judge stage
#   --report-args ARGS   more `mlbench report` options, e.g. "--by scope --plots"
#   --sbatch ARGS        sbatch options of every stage, e.g. "--account=X --qos=Y"
#   --array-sbatch ARGS, --judge-sbatch ARGS, --report-sbatch ARGS
#                        sbatch options of one stage, e.g. --report-sbatch "--partition=cpu"
#   --max-running N      at most N array jobs at once
#   --dry-run            print the pairs and the sbatch commands; submit nothing
#
# MLBENCH says how to call mlbench [mlbench]; sbatch passes the environment on to the jobs
# (HF_HOME, MLBENCH_DATA_DIR, ...). The scripts log to logs/ under this folder, and so does
# the pairs file. A stage starts only when the one before it succeeded; a failed job
# cancels what comes after it. Fix the cause and run the same command again: every job
# passes --resume, so what finished is kept.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MLBENCH="${MLBENCH:-mlbench}"

plural() {
    if (( $1 == 1 )); then echo pair; else echo pairs; fi
}

fail() {
    echo "submit: $*" >&2
    exit 2
}

MODEL="" TASKS="" LANGS="all" OUT="results" RUN_ARGS="" JUDGE_ARGS="" REPORT_ARGS=""
SBATCH="" ARRAY_SBATCH="" JUDGE_SBATCH="" REPORT_SBATCH="" MAX_RUNNING="" DRY_RUN=0
INCLUDES=()
while (( $# )); do
    option="$1"
    case "$option" in
        --dry-run) DRY_RUN=1; shift; continue ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --*=*) set -- "${option%%=*}" "${option#*=}" "${@:2}"; continue ;;
    esac
    (( $# >= 2 )) || fail "$option needs a value"
    case "$option" in
        --model) MODEL="$2" ;;
        --task) TASKS="$2" ;;
        --lang) LANGS="$2" ;;
        --output) OUT="$2" ;;
        --include) INCLUDES+=(--include "$2") ;;
        --run-args) RUN_ARGS="$2" ;;
        --judge-args) JUDGE_ARGS="$2" ;;
        --report-args) REPORT_ARGS="$2" ;;
        --sbatch) SBATCH="$2" ;;
        --array-sbatch) ARRAY_SBATCH="$2" ;;
        --judge-sbatch) JUDGE_SBATCH="$2" ;;
        --report-sbatch) REPORT_SBATCH="$2" ;;
        --max-running)
            [[ "$2" =~ ^[1-9][0-9]*$ ]] || fail "--max-running takes a whole number above 0, not '${2:0:40}'"
            MAX_RUNNING="$2" ;;
        *) fail "unknown option '${option:0:40}' (see --help)" ;;
    esac
    shift 2
done
[[ -n "$MODEL" ]] || fail "--model is required (a hub id or a local path)"
[[ -n "$TASKS" ]] || fail "--task is required (benchmarks, comma-separated; \`mlbench tasks\` lists them)"

# The pairs, from mlbench's own listing: each benchmark in each language it has.
LISTING="$($MLBENCH tasks --json "${INCLUDES[@]}")"
PAIRS="$(TASKS="$TASKS" LANGS="$LANGS" python3 -c '
import json, os, sys
listing = {t["name"]: t["languages"] for t in json.load(sys.stdin)["tasks"]}
tasks = [t for t in os.environ["TASKS"].split(",") if t]
unknown = [t for t in tasks if t not in listing]
if unknown:
    print("UNKNOWN", unknown[0])
    sys.exit()
wanted = [l for l in os.environ["LANGS"].split(",") if l]
everywhere = wanted == ["all"]
nowhere = [l for l in wanted if not everywhere and not any(l in listing[t] for t in tasks)]
if nowhere:
    print("NOWHERE", nowhere[0])
    sys.exit()
for task in tasks:
    for lang in listing[task] if everywhere else wanted:
        print("PAIR" if lang in listing[task] else "LACKS", task, lang)
' <<< "$LISTING")"
case "$PAIRS" in
    UNKNOWN*)
        # mlbench's own line, with its "did you mean".
        $MLBENCH tasks "${PAIRS#UNKNOWN }" "${INCLUDES[@]}" >/dev/null || exit 2
        fail "unknown benchmark '${PAIRS#UNKNOWN }'" ;;
    NOWHERE*) fail "no benchmark of ${TASKS:0:80} has language '${PAIRS#NOWHERE }' (\`mlbench tasks NAME\` lists a benchmark's)" ;;
esac
while read -r kind task lang; do
    [[ "$kind" == LACKS ]] && echo "submit: $task has no $lang: not submitted"
done <<< "$PAIRS"
COUNT="$(grep -c '^PAIR ' <<< "$PAIRS" || true)"
(( COUNT > 0 )) || fail "nothing to run"

if (( DRY_RUN )); then
    LIST="logs/mlbench-pairs-XXXXXX.txt"
    echo "submit: $COUNT $(plural "$COUNT"), to be written to $LIST:"
    grep '^PAIR ' <<< "$PAIRS" | cut -d' ' -f2- | sed 's/^/  /'
else
    mkdir -p logs
    LIST="$(mktemp logs/mlbench-pairs-XXXXXX.txt)"
    grep '^PAIR ' <<< "$PAIRS" | cut -d' ' -f2- > "$LIST"
    echo "submit: $COUNT $(plural "$COUNT") in $LIST"
fi

INCLUDE_ARGS="${INCLUDES[*]:-}"
RANGE="1-$COUNT${MAX_RUNNING:+%$MAX_RUNNING}"
# One stage: `submit NAME=VALUE... -- SBATCH_ARGS...`. The settings go to the job through
# the environment (sbatch passes it on); the job id comes out on stdout.
submit() {
    local -a settings=()
    while [[ "$1" != -- ]]; do settings+=("$1"); shift; done
    shift
    if (( DRY_RUN )); then
        echo "submit: would run: $(printf '%q ' "${settings[@]}")sbatch $*"
        echo "<${STAGE}>" >&3
    else
        env "${settings[@]}" sbatch --parsable "$@" | cut -d';' -f1 >&3
    fi
}
exec 4>&1  # the terminal, while fd 3 carries a stage's id out of \$(...)
STAGE=array
ARRAY_ID="$(submit MODEL="$MODEL" LIST="$LIST" OUT="$OUT" MLBENCH="$MLBENCH" EXTRA_ARGS="${INCLUDE_ARGS:+$INCLUDE_ARGS }$RUN_ARGS" \
    -- --array="$RANGE" $SBATCH $ARRAY_SBATCH "$HERE/array.sbatch" 3>&1 >&4)"
LAST="$ARRAY_ID" IDS="array=$ARRAY_ID"
if [[ -n "$JUDGE_ARGS" ]]; then
    STAGE=judge
    JUDGE_ID="$(submit OUT="$OUT" MLBENCH="$MLBENCH" JUDGE_ARGS="${INCLUDE_ARGS:+$INCLUDE_ARGS }$JUDGE_ARGS" REPORT=0 \
        -- --dependency="afterok:$LAST" --kill-on-invalid-dep=yes $SBATCH $JUDGE_SBATCH "$HERE/judge.sbatch" 3>&1 >&4)"
    LAST="$JUDGE_ID" IDS="$IDS judge=$JUDGE_ID"
fi
STAGE=report
REPORT_ID="$(submit OUT="$OUT" MLBENCH="$MLBENCH" REPORT_ARGS="$REPORT_ARGS" \
    -- --dependency="afterok:$LAST" --kill-on-invalid-dep=yes $SBATCH $REPORT_SBATCH "$HERE/report.sbatch" 3>&1 >&4)"
IDS="$IDS report=$REPORT_ID"
echo "submit: the report will be in $OUT/report; squeue --me shows the jobs"
echo "$IDS"
