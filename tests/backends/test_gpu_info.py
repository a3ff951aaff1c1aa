"""What a GPU run records about its GPU (gpu_info.py)."""

from __future__ import annotations

import subprocess

from mlbench.backends import gpu_info


def test_nothing_is_recorded_on_the_cpu():
    assert gpu_info.gpu_record("cpu") == {}


def test_a_gpu_run_records_its_gpu_driver_versions_and_peak_memory(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index: f"Test GPU {index}")
    monkeypatch.setattr(torch.cuda, "max_memory_allocated", lambda index: 3 * 2**30)
    monkeypatch.setattr(gpu_info, "driver_version", lambda: "580.1")
    record = gpu_info.gpu_record("cuda:1")
    assert record == {
        "gpu": "Test GPU 1",
        "gpu_driver": "580.1",
        "cuda": torch.version.cuda,
        "torch": torch.__version__,
        "gpu_peak_memory_mib": 3072,
    }


def test_no_driver_version_without_nvidia_smi(monkeypatch):
    def missing(*args, **kwargs):
        raise FileNotFoundError("nvidia-smi")

    gpu_info.driver_version.cache_clear()
    monkeypatch.setattr(subprocess, "run", missing)
    try:
        assert gpu_info.driver_version() is None
    finally:
        gpu_info.driver_version.cache_clear()
