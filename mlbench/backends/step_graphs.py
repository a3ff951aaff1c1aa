"""How the CUDA decoder's one-token step is run again and again: replayed as a CUDA graph,
or called in Python.

A decode step of a small model on a large GPU is mostly Python and kernel launches (the
measured H200 step of a 1 B model took 80 ms where reading its weights takes 0.5 ms). A
CUDA graph records the step's kernels once and replays them with one call, so the step
costs what the GPU does. That works only for a step that reads and writes nothing but
tensors at fixed addresses, with fixed shapes, and never waits for the host: the static
decoder (``static_decode.py``) is written that way, and every change it makes between
steps is an in-place write into those tensors.

``Capture`` is the seam: given the step, it performs one real step and returns what runs
each further one. ``eager`` calls the step in Python (the CPU, and CUDA with
``-M cuda_graphs=false``); ``cuda_graph`` warms the step up on a side stream (the one real
step), records it and returns the graph's replay. Tests drive the decoder through a
capture of their own that checks each replay would read the same tensors as the capture.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from mlbench.errors import terminal_line

Step = Callable[[], None]
# Runs one step now; returns the callable that runs each further step.
Capture = Callable[[Step], Step]


def eager(step: Step) -> Step:
    """The step itself, called in Python every time."""
    step()
    return step


def cuda_graph(step: Step) -> Step:
    """One real step on a side stream (libraries allocate their workspaces there, outside
    the graph), then the step recorded into a CUDA graph, whose replay runs each further
    step. Recording runs nothing, so the state is one step on, as for ``eager``."""
    import torch

    current = torch.cuda.current_stream()
    side = torch.cuda.Stream()
    side.wait_stream(current)
    with torch.cuda.stream(side):
        step()
    current.wait_stream(side)
    graph: Any = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step()
    return graph.replay


def _warn(message: str) -> None:
    print(f"mlbench: warning: {terminal_line(message)}", file=sys.stderr, flush=True)


class GraphsOrEager:
    """``cuda_graph``, falling back to ``eager`` (with one warning) for a model whose step
    cannot be recorded: a kernel that synchronises with the host, say. The real step ran
    before recording began, so the fallback loses nothing; a real step that fails is the
    model's error and is raised. ``describe`` says which ran, and why it fell back, for
    results.json: figures measured eagerly must not pass for graphs'."""

    def __init__(self, warn: Callable[[str], None] = _warn, record: Capture = cuda_graph) -> None:
        self.warn, self.record = warn, record
        self.fallback: str | None = None
        self.recorded = 0

    def __call__(self, step: Step) -> Step:
        if self.fallback is not None:
            return eager(step)
        completed = [0]

        def counted() -> None:
            step()
            completed[0] += 1

        try:
            replay = self.record(counted)
        except Exception as error:  # noqa: BLE001 - any failure to record falls back to Python
            if completed[0] == 0:  # the real step itself failed: an error of the model, not of recording
                raise
            import torch

            if torch.cuda.is_available():
                try:  # what the failed recording queued; a broken device fails the next step anyway
                    torch.cuda.synchronize()
                except RuntimeError:
                    pass
            self.fallback = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.warn(f"decoding without CUDA graphs ({self.fallback})")
            return step
        self.recorded += 1
        return replay

    def describe(self) -> dict[str, object]:
        if self.fallback is not None:
            return {"path": "eager", "fallback": self.fallback, "recorded": self.recorded}
        if not self.recorded:
            return {"path": "not used"}  # nothing was decoded greedily
        return {"path": "CUDA graphs", "recorded": self.recorded}


def graph_or_eager(warn: Callable[[str], None] = _warn, record: Capture = cuda_graph) -> GraphsOrEager:
    """The GPU's capture: graphs where the step records, else eager (``GraphsOrEager``)."""
    return GraphsOrEager(warn, record)
