"""``mlbench`` with a pause before each batch the model scores (MLBENCH_TEST_PAUSE
seconds; with ``--chunk-size 1``, before each sample): a run of the tiny model that lasts
long enough for a requeue, a time limit's signal or a ``scancel`` to reach it mid-run.
The sbatch scripts run it in mlbench's place (``MLBENCH="python slowed_mlbench.py"``):
the same process, the same signal handling, only slower."""

import os
import sys
import time

from mlbench.backends.hf import HFBackend

PAUSE_S = float(os.environ.get("MLBENCH_TEST_PAUSE", "1"))


def _slowed(method):
    def slowed(self, *args, **kwargs):
        time.sleep(PAUSE_S)
        return method(self, *args, **kwargs)

    return slowed


HFBackend.loglikelihood = _slowed(HFBackend.loglikelihood)
HFBackend.generate = _slowed(HFBackend.generate)
sys.argv[0] = "mlbench"
from mlbench.cli.main import main  # noqa: E402

main()
