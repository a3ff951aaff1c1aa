"""What a run on a GPU records about the GPU: its name, driver, the CUDA torch was built
with, and the most memory the run held at once (results.json, beside the backend's dtype)."""

from __future__ import annotations

import functools
import subprocess


@functools.cache
def driver_version() -> str | None:
    """The NVIDIA driver's version, as nvidia-smi reports it (None without nvidia-smi)."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip().splitlines()[0] if out.stdout.strip() else None


def gpu_record(device: str) -> dict[str, object]:
    """The GPU's facts for results.json; nothing on the CPU. ``gpu_peak_memory_mib`` is
    the peak of tensors allocated by this process so far (its languages before included)."""
    if not device.startswith("cuda"):
        return {}
    import torch

    index = torch.device(device).index or 0
    return {
        "gpu": torch.cuda.get_device_name(index),
        "gpu_driver": driver_version(),
        "cuda": torch.version.cuda,
        "torch": torch.__version__,
        "gpu_peak_memory_mib": round(torch.cuda.max_memory_allocated(index) / 2**20),
    }
