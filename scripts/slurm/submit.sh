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
# MLBENCH says how to call mlbench [mlbench]; the jobs get this shell's environment
# (--export=ALL: HF_HOME, MLBENCH_DATA_DIR, ...). The scripts log to logs/ under the folder
# you submit from (so no --chdir), where the pairs file goes too. A stage starts only when
# the one before it succeeded; a failed job cancels what comes after it. Once no job of the
# pipeline is left (squeue --me), fix the cause and run the same command again: every job
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
# The jobs read the pairs and write the results by absolute path, wherever they start.
[[ "$OUT" == /* ]] || OUT="$PWD/$OUT"

# The pairs, from mlbench's own listing: each benchmark in each language it has.
LISTING="$($MLBENCH tasks --json ${INCLUDES[@]+"${INCLUDES[@]}"})"
PAIRS="$(TASKS="$TASKS" LANGS="$LANGS" python3 -c '
import json, os, sys
listing = {t["name"]: t["languages"] for t in json.load(sys.stdin)["tasks"]}
tasks = list(dict.fromkeys(t for t in os.environ["TASKS"].split(",") if t))
unknown = [t for t in tasks if t not in listing]
if unknown:
    print("UNKNOWN", unknown[0])
    sys.exit()
wanted = list(dict.fromkeys(l for l in os.environ["LANGS"].split(",") if l))
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
        $MLBENCH tasks "${PAIRS#UNKNOWN }" ${INCLUDES[@]+"${INCLUDES[@]}"} >/dev/null || exit 2
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
    LIST="$PWD/$(mktemp logs/mlbench-pairs-XXXXXX.txt)"
    grep '^PAIR ' <<< "$PAIRS" | cut -d' ' -f2- > "$LIST"
    echo "submit: $COUNT $(plural "$COUNT") in ${LIST#"$PWD"/}"
fi

INCLUDE_ARGS="${INCLUDES[*]:-}"
RANGE="1-$COUNT${MAX_RUNNING:+%$MAX_RUNNING}"
SUBMITTED=()
# submit STAGE NAME=VALUE... -- SBATCH_ARGS...: one stage, its settings in the environment
# (--export=ALL: they reach the job also where a site's default is NONE), its id in JOB_ID.
# A stage that sbatch refuses cancels those submitted before it, which would wait for it
# in vain: the command can then simply be run again.
submit() {
    local stage=$1 output
    local -a settings=()
    shift
    while [[ "$1" != -- ]]; do settings+=("$1"); shift; done
    shift
    if (( DRY_RUN )); then
        echo "submit: would run: $(printf '%q ' "${settings[@]}")sbatch --export=ALL $*"
        JOB_ID="<$stage>"
        return
    fi
    if output="$(env "${settings[@]}" sbatch --parsable --export=ALL "$@")" && [[ "${output%%;*}" =~ ^[0-9]+$ ]]; then
        JOB_ID="${output%%;*}"
        SUBMITTED+=("$JOB_ID")
        echo "submit: $stage job $JOB_ID"
        return
    fi
    if (( ${#SUBMITTED[@]} )); then
        scancel "${SUBMITTED[@]}" || true
        echo "submit: sbatch did not submit the $stage stage, so the jobs before it were cancelled (${SUBMITTED[*]})" >&2
    else
        echo "submit: sbatch did not submit the $stage stage${output:+ (it printed '${output:0:80}')}" >&2
    fi
    exit 1
}
# The user's sbatch options first, the pipeline's own (the array, the dependencies) last:
# for sbatch the last of an option wins, and these must.
submit array MODEL="$MODEL" LIST="$LIST" OUT="$OUT" MLBENCH="$MLBENCH" \
    EXTRA_ARGS="${INCLUDE_ARGS:+$INCLUDE_ARGS }$RUN_ARGS" \
    -- $SBATCH $ARRAY_SBATCH --array="$RANGE" "$HERE/array.sbatch"
LAST="$JOB_ID" IDS="array=$JOB_ID"
if [[ -n "$JUDGE_ARGS" ]]; then
    submit judge OUT="$OUT" MLBENCH="$MLBENCH" JUDGE_ARGS="${INCLUDE_ARGS:+$INCLUDE_ARGS }$JUDGE_ARGS" REPORT=0 \
        -- $SBATCH $JUDGE_SBATCH --dependency="afterok:$LAST" --kill-on-invalid-dep=yes "$HERE/judge.sbatch"
    LAST="$JOB_ID" IDS="$IDS judge=$JOB_ID"
fi
submit report OUT="$OUT" MLBENCH="$MLBENCH" REPORT_ARGS="$REPORT_ARGS" \
    -- $SBATCH $REPORT_SBATCH --dependency="afterok:$LAST" --kill-on-invalid-dep=yes "$HERE/report.sbatch"
IDS="$IDS report=$JOB_ID"
echo "submit: the report will be in $OUT/report; squeue --me shows the jobs"
echo "$IDS"
