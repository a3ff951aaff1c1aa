"""A stand-in for CUDA graph capture that runs on the CPU and fails where a recorded graph
would fail or silently compute something else: the GPU rehearsal's capture
(``-M rehearse_gpu=true``) and the tests'.

A CUDA graph replays the kernels it recorded: the same operations, with the same constant
arguments, on the same memory. A step is safe to record only if every call would issue the
same operations with the same non-tensor arguments, and read every tensor it did not make
itself (parameters, the decoder's static buffers) at the same address, shape and stride.
``CheckedCapture`` records each call's operations through torch's dispatcher and checks
every replay against the recording: a Python int that moves (a slice at the current
length, say) or a tensor made afresh on the host would differ, as it would be baked into a
real graph. Tensors made inside the step may live anywhere (they come from the graph's own
pool).

Some operations cannot be recorded at all: those that wait for the device to hand a value
to the host (``.item()``, ``bool(tensor)``, ``torch.equal``, ``.tolist()``, ``.cpu()``,
``.numpy()``) and those whose output shape
depends on the data (``nonzero``, ``masked_select``, ``unique``, indexing by a boolean
mask). CUDA refuses them during capture, so the stand-in refuses them too, in the capture
and in every replay. (A copy from pageable host memory cannot be told from a CPU tensor's
copy on the CPU: the GPU run's checks, scripts/bench_gpu_checks.py, look for that.)
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlbench.errors import MlbenchError

# aten operations a CUDA graph cannot hold: a host synchronisation, or an output whose
# shape depends on the values (both read the device's data on the host).
HOST_SYNCS = frozenset({"_local_scalar_dense", "is_nonzero", "equal", "allclose", "item"})
DATA_DEPENDENT_SHAPES = frozenset(
    {
        "nonzero",
        "nonzero_static_fallback",
        "masked_select",
        "_unique",
        "_unique2",
        "unique_dim",
        "unique_consecutive",
        "repeat_interleave",
        "bincount",
        "histc",
    }
)

# Indexing by a boolean mask: the selected count is data (``x[x > 0]``, ``x[mask] = v``).
MASK_INDEXING = frozenset({"index", "index_put", "index_put_", "_index_put_impl_"})


class CaptureError(MlbenchError):
    """A step the rehearsal's capture finds a CUDA graph could not record faithfully."""


def _op_name(func: Any) -> str:
    # "aten.nonzero.default" -> "nonzero"
    parts = str(func).split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "aten" else parts[-1]


def _leaves(value: Any) -> list[Any]:
    """The items of nested tuples, lists and dicts (an operation's arguments), in order."""
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _leaves(item)]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    return [value]


@functools.cache
def _dispatch_mode() -> type:
    """The recorder class, made once, on first use: torch is imported only when needed."""
    import torch

    try:
        # The one private module mlbench imports (tests/hostile/test_private_apis.py names
        # it): torch's dispatcher modes have no public name. If it moves, the rehearsal
        # alone stops, with this line.
        from torch.utils._python_dispatch import TorchDispatchMode
    except ImportError:
        raise MlbenchError(
            f"-M rehearse_gpu needs torch's dispatcher modes, which torch {torch.__version__} does not have"
        ) from None

    def storage(tensor: Any) -> int:
        return tensor.untyped_storage().data_ptr()

    class Recorder(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.ops: list[tuple] = []
            self.made: set[int] = set()  # storages made by this call's own operations
            self.illegal: str | None = None

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's signature
            kwargs = kwargs or {}
            name = _op_name(func)
            leaves = _leaves((args, kwargs))
            indices = _leaves(args[1]) if name in MASK_INDEXING and len(args) > 1 else []
            masked = any(isinstance(a, torch.Tensor) and a.dtype in (torch.bool, torch.uint8) for a in indices)
            if name in HOST_SYNCS or name in DATA_DEPENDENT_SHAPES or masked:
                kind = "waits for the device (a host sync)" if name in HOST_SYNCS else "has a data-dependent shape"
                self.flag(f"aten.{name}{' with a boolean mask' if masked else ''} {kind}")
            signature = []
            for leaf in leaves:
                if isinstance(leaf, torch.Tensor):
                    if storage(leaf) in self.made:
                        signature.append(("made", tuple(leaf.shape), leaf.dtype))
                    else:
                        signature.append(("read", leaf.data_ptr(), tuple(leaf.shape), leaf.stride(), leaf.dtype))
                else:
                    signature.append(("value", repr(leaf)))
            out = func(*args, **kwargs)
            read = {storage(a) for a in leaves if isinstance(a, torch.Tensor)}
            for leaf in _leaves(out):
                if isinstance(leaf, torch.Tensor) and storage(leaf) not in read:
                    self.made.add(storage(leaf))
            self.ops.append((str(func), tuple(signature)))
            return out

        def flag(self, what: str) -> None:
            if self.illegal is None:
                self.illegal = f"{what}{_caller()}"

    return Recorder


# Tensor methods that read a tensor's data on the host without a dispatched operation
# (on the CPU they read memory directly; on a GPU each is a copy to the host, which
# waits for the device).
HOST_READS = ("tolist", "numpy", "cpu", "__array__")


@contextmanager
def _host_reads_flagged(recorder: Any) -> Iterator[None]:
    import torch

    saved = {name: getattr(torch.Tensor, name) for name in HOST_READS}

    def flagged(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def read(self: Any, *args: Any, **kwargs: Any) -> Any:
            recorder.flag(f"Tensor.{name}() reads the device's data on the host (a host sync)")
            return method(self, *args, **kwargs)

        return read

    for name, method in saved.items():
        setattr(torch.Tensor, name, flagged(name, method))
    try:
        yield
    finally:
        for name, method in saved.items():
            setattr(torch.Tensor, name, method)


def _caller() -> str:
    """ " at FILE:LINE": the innermost Python line outside torch and this module."""
    for frame in reversed(traceback.extract_stack()):
        if "/torch/" not in frame.filename and Path(frame.filename) != Path(__file__):
            return f" at {Path(frame.filename).name}:{frame.lineno}"
    return ""


@dataclass
class CheckedCapture:
    """A ``step_graphs.Capture``: the capture is one real step, recorded; each replay runs
    the step again and must record the same thing. An operation no graph can hold raises
    ``CaptureError`` at once; a replay that differs from the recording is listed in
    ``differences``, and raises too when ``strict`` (the rehearsal's setting)."""

    strict: bool = False
    captures: int = 0
    replays: int = 0
    differences: list[str] = field(default_factory=list)

    def _recorded(self, step: Callable[[], None], when: str) -> list[tuple]:
        recorder = _dispatch_mode()()
        with recorder, _host_reads_flagged(recorder):
            step()
        if recorder.illegal is not None:
            raise CaptureError(
                f"a CUDA graph cannot record this step ({when}): {recorder.illegal}; on a GPU this model "
                "would decode without CUDA graphs (-M enforce_eager=true rehearses that)"
            )
        return recorder.ops

    def __call__(self, step: Callable[[], None]) -> Callable[[], None]:
        self.captures += 1
        recorded = self._recorded(step, "capture")

        def replay() -> None:
            self.replays += 1
            again = self._recorded(step, f"replay {self.replays}")
            if again == recorded:
                return
            at = next((i for i, (a, b) in enumerate(zip(recorded, again)) if a != b), None)
            at = min(len(recorded), len(again)) if at is None else at
            before = recorded[at] if at < len(recorded) else None
            now = again[at] if at < len(again) else None
            difference = f"replay {self.replays}: operation {at} differs: {before} vs {now}"
            self.differences.append(difference)
            if self.strict:
                raise CaptureError(f"a CUDA graph would replay another step than this one ({difference[:300]})")

        return replay

    def describe(self) -> dict[str, object]:
        """What ran, for results.json ("not used": nothing was decoded greedily)."""
        if not self.captures:
            return {"path": "not used"}
        return {"path": "checked capture (CPU rehearsal)", "recorded": self.captures, "replayed": self.replays}
