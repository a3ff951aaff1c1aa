"""Flags of earlier releases, each answered by where its setting lives now (one line, exit
2) instead of click's bare "no such option": the engine and server flags became backend
options (-M), the judge's flags judge options (-J), the benchmark flags task options (-T)."""

from __future__ import annotations

TO_MODEL = (
    "batch-size", "device", "trust-remote-code", "tokenizer", "tensor-parallel-size", "data-parallel-size",
    "gpu-memory-utilization", "max-model-len", "enforce-eager", "quantization", "base-url", "api-key-env",
    "max-concurrency", "request-timeout",
)  # fmt: skip
TO_JUDGE = {
    "judge-kind": "kind", "judge-backend": "backend", "judge-base-url": "base_url",
    "judge-chat-template": "chat_template=true", "no-judge-chat-template": "chat_template=false",
    "judge-scoring": "scoring", "search-url": "search_url", "search-api-key-env": "search_api_key_env",
    "search-results": "search_results",
}  # fmt: skip
TO_TASK = {
    "kind": "kind", "dataset": "datasets", "healthqa": "healthqa_file", "samples": "samples",
    "temperatures": "temperatures", "embedder": "embedder", "bertscore-model": "bertscore_model",
    "bertscore-layer": "bertscore_layer", "verify-scoring": "verify_scoring", "topic": "topics",
    "refusal": "refusal", "nli-model": "nli_model", "refusal-threshold": "refusal_threshold",
    "permutations": "permutations",
}  # fmt: skip


def moved_option(option: str | None, command: str | None = None) -> str | None:
    """Where the setting of a flag that no longer exists went; None for any other option.
    ``mlbench judge`` has no -M: its model's options, dtype and seed are -J keys."""
    name = (option or "").lstrip("-")
    flag = "-J" if command == "judge" else "-M"
    if name == "model-arg":
        return f"--model-arg is now {flag} vllm.NAME=VALUE (vLLM's own arguments) or {flag} gguf_file=NAME"
    if name in TO_MODEL:
        return f"--{name} is now {flag} {name.replace('-', '_')}=... (the backend's options: mlbench backends NAME)"
    if command == "judge" and name in ("dtype", "seed", "backend", "kind"):
        return f"--{name} of the judge is now -J {name}=..."
    if command == "judge" and name in ("M", "model-option"):
        return "mlbench judge takes no -M: the judge model's options are -J keys (mlbench backends NAME)"
    if name in TO_JUDGE:
        key = TO_JUDGE[name]
        return f"--{name} is now -J {key if '=' in key else key + '=...'} (the judge's options)"
    if name in TO_TASK:
        return f"--{name} is now -T {TO_TASK[name]}=... (the benchmark's options: mlbench tasks NAME)"
    return None
