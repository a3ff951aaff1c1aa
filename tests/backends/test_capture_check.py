"""The rehearsal's stand-in for CUDA graph capture (capture_check.py): it fails, on the CPU,
where a recorded graph would fail or replay something else."""

from __future__ import annotations

import pytest
import torch

from mlbench.backends.capture_check import CaptureError, CheckedCapture
from mlbench.backends.static_decode import StaticDecoder
from tests.backends.test_greedy_decode import greedy_prompts, prompts
from tests.backends.test_static_decode import static_decoder


def test_a_step_that_reads_a_moving_python_value_differs_on_replay():
    """A step that slices at a Python int it advances would be recorded with the first
    value baked in: listed, and refused when strict."""
    buffer, state = torch.zeros(8), {"at": 0}

    def step():
        buffer[state["at"]] += 1
        state["at"] += 1

    capture = CheckedCapture()
    capture(step)()
    assert capture.differences and "differs" in capture.differences[0]
    with pytest.raises(CaptureError, match="would replay another step"):
        CheckedCapture(strict=True)(step)()


def test_a_step_that_keeps_to_its_buffers_replays_cleanly():
    buffer, at = torch.zeros(8), torch.zeros(1, dtype=torch.long)

    def step():
        buffer.index_add_(0, at, torch.ones(1))
        at.add_(1)

    capture = CheckedCapture(strict=True)
    replay = capture(step)
    for _ in range(3):
        replay()
    assert capture.differences == [] and buffer.tolist()[:4] == [1.0] * 4


@pytest.mark.parametrize(
    "planted, kind",
    [
        (lambda x: x.sum().item(), "_local_scalar_dense waits for the device"),
        (lambda x: bool(x.sum() > 0), "waits for the device"),
        (lambda x: x.nonzero(), "nonzero has a data-dependent shape"),
        (lambda x: x[x > 0], "has a data-dependent shape"),
        (lambda x: torch.unique(x), "has a data-dependent shape"),
    ],
    ids=["item", "bool", "nonzero", "boolean index", "unique"],
)
def test_host_syncs_and_data_dependent_shapes_are_refused_at_capture(planted, kind):
    x = torch.arange(4.0)

    def step():
        x.add_(1)
        planted(x)

    with pytest.raises(CaptureError, match=kind):
        CheckedCapture()(step)


@pytest.mark.parametrize("read", ["tolist", "cpu", "numpy"])
def test_reading_the_data_on_the_host_is_refused_and_located(read):
    """On the CPU these read memory without a dispatched operation; on a GPU each is a
    copy to the host. The error names the line and what a GPU would do."""
    x = torch.arange(4.0)

    def step():
        x.add_(1)
        getattr(x, read)()

    with pytest.raises(CaptureError, match=rf"Tensor.{read}\(\) reads .* at test_capture_check.py:\d+; on a GPU"):
        CheckedCapture()(step)
    assert torch.Tensor.tolist(x) == [1.0, 2.0, 3.0, 4.0]  # the methods are put back


def test_indexing_by_positions_with_a_boolean_value_is_allowed():
    """Only a boolean *index* has a data-dependent count, not a boolean value written."""
    flags, at, true = torch.zeros(4, dtype=torch.bool), torch.tensor([1]), torch.tensor(True)

    def step():
        flags.index_put_((at,), true)

    CheckedCapture(strict=True)(step)()
    assert flags.tolist() == [False, True, False, False]


def test_one_planted_in_a_later_step_is_refused_at_that_replay():
    x, calls = torch.arange(4.0), [0]

    def step():
        calls[0] += 1
        if calls[0] == 3:
            x.nonzero()

    replay = CheckedCapture()(step)
    replay()
    with pytest.raises(CaptureError, match="replay 2.*nonzero"):
        replay()


def test_the_static_decoder_with_a_planted_item_fails_in_the_rehearsal(hf_backend, monkeypatch):
    """The decoder's real step, with one host sync added: the rehearsal's capture stops it."""
    real_step = StaticDecoder._one_step

    def syncing_step(self, slots):
        real_step(self, slots)
        slots.step.item()

    monkeypatch.setattr(StaticDecoder, "_one_step", syncing_step)
    decoder = static_decoder(hf_backend, CheckedCapture(strict=True))
    with pytest.raises(CaptureError, match=r"\(capture\): aten.item waits for the device"):
        decoder.decode(greedy_prompts(hf_backend, prompts()[:2], 12))
