"""Data parallelism: N copies of a model, one per worker process and GPU group.

vLLM's offline ``LLM`` refuses ``data_parallel_size > 1`` in one process, so each replica
is a worker process of its own that sees only its GPUs (``CUDA_VISIBLE_DEVICES``), builds
the ordinary single-replica backend and answers requests sent over a pipe. Log-likelihood
requests are split by context, so every question's options land on the same replica and
its prefix cache still serves them.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from mlbench.backends.base import Backend, ProgressCallback
from mlbench.errors import MlbenchError
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult

BackendFactory = Callable[[], Backend]


def replica_devices(rank: int, gpus_per_replica: int, visible: str | None) -> str:
    """The CUDA_VISIBLE_DEVICES value of replica ``rank``: its slice of the visible GPUs."""
    devices = [d.strip() for d in visible.split(",")] if visible else []
    if not devices:
        devices = [str(i) for i in range((rank + 1) * gpus_per_replica)]
    chosen = devices[rank * gpus_per_replica : (rank + 1) * gpus_per_replica]
    if len(chosen) < gpus_per_replica:
        raise MlbenchError(
            f"data parallel replica {rank} needs {gpus_per_replica} GPU(s) but only {len(devices)} are visible"
        )
    return ",".join(chosen)


def gpu_count() -> int:
    """The GPUs torch sees (CUDA_VISIBLE_DEVICES applied). A function of its own so that
    tests can give the replica check any machine."""
    import torch

    return torch.cuda.device_count()


def cpu_cores() -> int:
    """The CPU cores this process may run on: its affinity, which a container, a cluster's
    job or taskset narrows, where it can be read; else os.cpu_count()."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def replicas_on_gpus(backend: str, device: str) -> bool:
    """Whether each replica gets GPUs of its own (its slice of CUDA_VISIBLE_DEVICES): vLLM's
    always; hf's with device=cuda, or auto on a machine that has a GPU (else every replica
    would pick the first GPU)."""
    return backend == "vllm" or device == "cuda" or (device == "auto" and gpu_count() > 0)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def check_replica_count(size: int, backend: str, device: str, tensor_parallel_size: int, flag: str = "-M") -> None:
    """``size`` replicas fit the devices they would run on, else one line before any
    process starts: at most the visible GPUs (tensor_parallel_size of them a vLLM replica),
    or the CPU cores where the replicas run on the CPU. Each replica is a process holding a
    whole model, so a size past the devices only queues processes that fight for them (and
    100000 of them start until the machine gives out)."""
    if size <= 1:
        return
    where = f"{flag} data_parallel_size={size}"
    if backend == "hf" and device == "cpu":
        cores = cpu_cores()
        if size > cores:
            has = _plural(cores, "CPU core")
            raise MlbenchError(f"{where}: device=cpu, and this machine has {has}; at most {cores}")
        return
    gpus = gpu_count()
    if gpus == 0:
        if backend == "hf" and device == "cuda":
            raise MlbenchError(f"{where}: device=cuda, but torch sees no CUDA GPU; use device=cpu or auto")
        cores = cpu_cores()  # the replicas run on the CPU
        if size > cores:
            raise MlbenchError(f"{where}: this machine has {_plural(cores, 'CPU core')} and no GPU; at most {cores}")
        return
    each = tensor_parallel_size if backend == "vllm" else 1
    if size * each > gpus:
        takes = f"{each} (tensor_parallel_size)" if backend == "vllm" else "1"
        most = f"at most {gpus // each}" if gpus >= each else "not one fits"
        raise MlbenchError(f"{where}: this machine has {_plural(gpus, 'GPU')} and a replica takes {takes}; {most}")


def _serve(factory: BackendFactory, devices: str | None, connection: Any) -> None:
    """A worker: build the backend, then answer (method, requests) until told to stop."""
    if devices is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = devices
    try:
        backend = factory()
        ready = {
            "fingerprint": backend.fingerprint,
            "describe": backend.describe(),
            "samples_per_call": backend.samples_per_call,
        }
        connection.send(("ready", ready))
    except MlbenchError as error:
        connection.send(("error", str(error)))
        return
    while True:
        message = connection.recv()
        if message is None:
            return
        method, requests = message
        try:
            answer = _answer(backend, method, requests)
            connection.send(("ok", answer))
        except MlbenchError as error:
            connection.send(("error", str(error)))


def merged_decoding(replicas: list[dict[str, object]]) -> dict[str, object]:
    """One ``decoding`` record for all replicas: the first that fell back, else the first
    that decoded, else the first; the recorded and replayed steps summed."""
    if not replicas:
        return {}
    chosen = next((r for r in replicas if r.get("fallback")), None)
    chosen = chosen or next((r for r in replicas if r.get("path") != "not used"), replicas[0])
    merged = dict(chosen)
    for count in ("recorded", "replayed"):
        if any(count in r for r in replicas):
            merged[count] = sum(int(str(r.get(count, 0))) for r in replicas)
    return merged


def _answer(backend: Backend, method: str, requests: Any) -> Any:
    """What a worker sends back for ``method`` (``requests`` as unpickled from the pipe): the
    replica's settings, or a call's results."""
    if method == "describe":
        return backend.describe()
    if method == "loglikelihood":
        return backend.loglikelihood(requests)
    return backend.generate(requests)


class DataParallelBackend(Backend):
    """Splits each call over ``size`` worker replicas and merges the answers in order. The
    requests of a later call are not sent ahead (``prefetch``): each replica gets copies of
    its share, which no later call would match."""

    def __init__(
        self, factory: BackendFactory, size: int, *, name: str, gpus_per_replica: int = 1, use_gpus: bool = True
    ) -> None:
        context = multiprocessing.get_context("spawn")  # CUDA and vLLM engines do not survive fork
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        self.name = name
        self.size = size
        self._connections = []
        self._workers = []
        for rank in range(size):
            devices = replica_devices(rank, gpus_per_replica, visible) if use_gpus else None
            parent, child = context.Pipe()
            worker = context.Process(target=_serve, args=(factory, devices, child), daemon=True)
            worker.start()
            self._connections.append(parent)
            self._workers.append(worker)
        replies = [self._receive(rank) for rank in range(size)]
        self.fingerprint = replies[0]["fingerprint"]
        self._describe = {**replies[0]["describe"], "data_parallel_size": size}
        # Each replica gets its share of a call: a call as large as all of them take.
        each = replies[0].get("samples_per_call")
        self.samples_per_call = each * size if each else None

    def _receive(self, rank: int) -> Any:
        try:
            status, payload = self._connections[rank].recv()
        except EOFError:
            self.close()
            raise MlbenchError(f"data parallel replica {rank} died (see its messages above)") from None
        if status == "error":
            self.close()
            raise MlbenchError(payload)
        return payload

    def describe(self) -> dict[str, object]:
        """Replica 0's settings; the decoding asked of every replica now (what ran since
        the start: a replica that fell back to eager makes the run's path eager)."""
        for connection in self._connections:
            connection.send(("describe", None))
        replies = [self._receive(rank) for rank in range(self.size)]
        decoding = merged_decoding([r["decoding"] for r in replies if isinstance(r.get("decoding"), dict)])
        return {**self._describe, **({"decoding": decoding} if decoding else {})}

    def _scatter(
        self, method: str, requests: list[Any], shards: list[list[int]], progress: ProgressCallback | None
    ) -> list[Any]:
        for connection, shard in zip(self._connections, shards):
            connection.send((method, [requests[i] for i in shard]))
        results: list[Any] = [None] * len(requests)
        for rank, shard in enumerate(shards):
            for i, result in zip(shard, self._receive(rank)):
                results[i] = result
            if progress:
                progress(len(shard))
        return results

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        by_prompt: dict[Any, list[int]] = defaultdict(list)
        for index, request in enumerate(requests):
            by_prompt[request.prompt].append(index)
        return self._scatter("loglikelihood", requests, _balance(list(by_prompt.values()), self.size), progress)

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        return self._scatter("generate", requests, _balance([[i] for i in range(len(requests))], self.size), progress)

    def close(self) -> None:
        for connection in self._connections:
            try:
                connection.send(None)
            except (BrokenPipeError, OSError):
                pass
        for worker in self._workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()
        self._connections, self._workers = [], []


def _balance(groups: list[list[int]], size: int) -> list[list[int]]:
    """Whole groups to the least-loaded shard, largest first."""
    shards: list[list[int]] = [[] for _ in range(size)]
    for group in sorted(groups, key=len, reverse=True):
        min(shards, key=len).extend(group)
    return shards
