"""A stand-in for CUDA graph capture that runs on the CPU and fails where a recorded graph
would silently compute something else.

A CUDA graph replays the kernels it recorded: the same operations, with the same constant
arguments, on the same memory. A step is safe to record only if every call would issue the
same operations with the same non-tensor arguments, and read every tensor it did not make
itself (parameters, the decoder's static buffers) at the same address, shape and stride.
``CheckedCapture`` records each call's operations through torch's dispatcher and checks
every replay against the recording: a Python int that moves (a slice at the current
length, say) or a tensor made afresh on the host would differ, as it would be baked into a
real graph. Tensors made inside the step may live anywhere (they come from the graph's own
pool)."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves


class _Recorder(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.ops: list[tuple] = []
        self.made: set[int] = set()  # storages made by this call's own operations

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        signature = []
        for leaf in tree_leaves((args, kwargs)):
            if isinstance(leaf, torch.Tensor):
                storage = leaf.untyped_storage().data_ptr()
                if storage in self.made:
                    signature.append(("made", tuple(leaf.shape), leaf.dtype))
                else:
                    signature.append(("read", leaf.data_ptr(), tuple(leaf.shape), leaf.stride(), leaf.dtype))
            else:
                signature.append(("value", repr(leaf)))
        out = func(*args, **kwargs)
        for leaf in tree_leaves(out):
            if isinstance(leaf, torch.Tensor) and leaf.untyped_storage().data_ptr() not in self._read_storages(
                args, kwargs
            ):
                self.made.add(leaf.untyped_storage().data_ptr())
        self.ops.append((str(func), tuple(signature)))
        return out

    @staticmethod
    def _read_storages(args, kwargs) -> set[int]:
        return {a.untyped_storage().data_ptr() for a in tree_leaves((args, kwargs)) if isinstance(a, torch.Tensor)}


def _recorded(step) -> list[tuple]:
    recorder = _Recorder()
    with recorder:
        step()
    return recorder.ops


@dataclass
class CheckedCapture:
    """A ``step_graphs.Capture``: the capture is one real step, recorded; each replay runs
    the step again and must record the same thing."""

    captures: int = 0
    replays: int = 0
    differences: list[str] = field(default_factory=list)

    def __call__(self, step):
        self.captures += 1
        recorded = _recorded(step)

        def replay() -> None:
            self.replays += 1
            again = _recorded(step)
            if again != recorded:
                at = next((i for i, (a, b) in enumerate(zip(recorded, again)) if a != b), None)
                at = min(len(recorded), len(again)) if at is None else at
                before = recorded[at] if at < len(recorded) else None
                now = again[at] if at < len(again) else None
                self.differences.append(f"replay {self.replays}: operation {at} differs: {before} vs {now}")

        return replay
