"""A real single-node Slurm for the tests that submit the project's sbatch scripts.

Debian's ``slurmctld``, ``slurmd`` and ``munge`` (``make install`` installs them, as root),
started in the foreground by the test session with every file they write (configuration,
munge key and socket, state, spool, logs) in a temporary folder, on free ports of the
loopback address, and stopped at its end. The node offers this machine's cores and no GPU:
the tests override the scripts' GPU and memory requests on the command line, as a user on
a CPU partition does."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "scontrol", "scancel", "sinfo", "squeue")
# Where Debian puts the daemons; root's PATH has them, a user's may not.
SBIN = ("/usr/sbin", "/usr/local/sbin", "/sbin")
# A job that ended stays in `scontrol show job` this long, for the tests to read it.
MIN_JOB_AGE_S = 900
# The states a job leaves only by being requeued or resubmitted.
ENDED = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY", "DEADLINE",
         "BOOT_FAIL", "SPECIAL_EXIT"}  # fmt: skip
# Per-node CPU requests the tests use in place of the scripts' GPU node shape.
ON_A_CPU_PARTITION = ("--gpus=0", "--mem=1G", "--cpus-per-task=1")
NODE_MEMORY_MB = 4096


class SlurmMissing(RuntimeError):
    pass


def _program(name: str) -> str:
    found = shutil.which(name) or next(
        (str(Path(d) / name) for d in SBIN if (Path(d) / name).is_file()), None
    )  # fmt: skip
    if found is None:
        raise SlurmMissing(
            f"no {name} on this machine: `make install` installs Debian's slurmctld, slurmd, "
            "slurm-client and munge (as root), or apt-get them"
        )
    return found


def _free_ports(count: int) -> list[int]:
    """Ports free on the loopback address now, distinct (each held until all are chosen)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _config(folder: Path, node: str, user: str) -> str:
    cpus = os.cpu_count() or 1
    controller_port, node_port = _free_ports(2)
    return f"""\
ClusterName=mlbenchtest
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={controller_port}
SlurmdPort={node_port}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
AuthInfo=socket={folder}/munge.socket
CredType=cred/munge
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool
SlurmctldPidFile={folder}/slurmctld.pid
SlurmdPidFile={folder}/slurmd.pid
SlurmctldLogFile={folder}/log/slurmctld.log
SlurmdLogFile={folder}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MinJobAge={MIN_JOB_AGE_S}
NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={NODE_MEMORY_MB} State=UNKNOWN
PartitionName=cpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""


@dataclass
class Slurm:
    """The running cluster: its configuration file and the client commands against it."""

    folder: Path

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "SLURM_CONF": str(self.folder / "slurm.conf")}

    def command(self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
                check: bool = True) -> subprocess.CompletedProcess:  # fmt: skip
        done = subprocess.run(
            list(args), cwd=cwd, env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=60
        )  # fmt: skip
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
        return done

    def sbatch(self, *args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
        """Submits and returns the job id (an array's own id)."""
        return self.command("sbatch", "--parsable", *args, cwd=cwd, env=env).stdout.strip().split(";")[0]

    def jobs(self, job: str) -> list[dict[str, str]]:
        """``scontrol show job``'s fields, one dict per job (each task of an array)."""
        shown = self.command("scontrol", "--oneliner", "show", "job", job).stdout
        return [dict(re.findall(r"(\w+)=(\S*)", line)) for line in shown.splitlines() if line.strip()]

    def job(self, job: str) -> dict[str, str]:
        (only,) = self.jobs(job)
        return only

    def wait(self, job: str, *, timeout: float = 300, until: set[str] = ENDED) -> list[dict[str, str]]:
        """Back once every job of ``job`` is in one of ``until``; fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.jobs(job)
            if shown and all(j["JobState"] in until for j in shown):
                return shown
            if time.monotonic() > deadline:
                states = ", ".join(f"{j['JobId']} {j['JobState']} ({j.get('Reason', '')})" for j in shown)
                raise AssertionError(f"job {job} still {states} after {timeout:.0f} s\n{self.logs()}")
            time.sleep(0.5)

    def cancel_all(self, timeout: float = 60) -> None:
        """Every job cancelled and gone: they get their signal, then SIGKILL after KillWait,
        from the node's slurmstepd."""
        self.command("scancel", f"--user={getpass.getuser()}", check=False)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = self.command("squeue", "--noheader", check=False)
            if left.returncode != 0 or not left.stdout.strip():
                return
            time.sleep(0.5)
        raise AssertionError(f"jobs still in the queue {timeout:.0f} s after scancel:\n{left.stdout}")

    def logs(self) -> str:
        tails = []
        for log in sorted((self.folder / "log").glob("*.log")):
            lines = log.read_text(errors="replace").splitlines()[-15:]
            tails.append(f"--- {log.name}\n" + "\n".join(lines))
        return "\n".join(tails)


def _wait_until_idle(slurm: Slurm, daemons: list[subprocess.Popen], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ended = [d for d in daemons if d.poll() is not None]
        if ended:
            raise AssertionError(f"{ended[0].args[0]} exited {ended[0].returncode}\n{slurm.logs()}")
        shown = slurm.command("sinfo", "--noheader", "--format=%T", check=False)
        if shown.returncode == 0 and shown.stdout.strip() == "idle":
            return
        time.sleep(0.3)
    raise AssertionError(f"the Slurm node was not idle after {timeout:.0f} s\n{slurm.logs()}")


def started(folder: Path) -> Iterator[Slurm]:
    """munged, slurmctld and slurmd in the foreground with their files under ``folder``;
    stopped (every job cancelled first) when the generator is closed."""
    programs = {name: _program(name) for name in (*DAEMONS, *CLIENTS)}
    for sub in ("state", "spool", "log"):
        (folder / sub).mkdir(parents=True)
    key = folder / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o600)
    node = socket.gethostname().split(".")[0]
    (folder / "slurm.conf").write_text(_config(folder, node, getpass.getuser()))
    slurm = Slurm(folder)
    munge = [programs["munged"], "--foreground", "--force", f"--key-file={key}", f"--socket={folder}/munge.socket",
             f"--pid-file={folder}/munged.pid", f"--log-file={folder}/log/munged.log",
             f"--seed-file={folder}/munged.seed"]  # fmt: skip
    conf = str(folder / "slurm.conf")
    controller = [programs["slurmctld"], "-D", "-i", "-f", conf]
    commands = [munge, controller, [programs["slurmd"], "-D", "-N", node, "-f", conf]]
    daemons: list[subprocess.Popen] = []
    try:
        for command in commands:
            # What a daemon says before its log file is open (a bad configuration) goes here.
            with open(folder / "log" / f"{Path(command[0]).name}.stderr.log", "wb") as stderr:
                daemons.append(subprocess.Popen(command, env=slurm.env, stdout=stderr, stderr=stderr,
                                                preexec_fn=_end_with_parent))  # fmt: skip
            if command is munge:
                _wait_for(folder / "munge.socket", daemons[-1])
        _wait_until_idle(slurm, daemons)
        yield slurm
    finally:
        try:
            if len(daemons) == len(commands) and all(d.poll() is None for d in daemons):
                slurm.cancel_all()
        finally:
            for daemon in reversed(daemons):
                daemon.send_signal(signal.SIGTERM)
                try:
                    daemon.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    daemon.kill()
                    daemon.wait()


def _end_with_parent() -> None:
    """In the daemon, before it starts: SIGTERM when the test process dies, even by
    SIGKILL, so that no daemon outlives the session (Linux's PR_SET_PDEATHSIG)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


def _wait_for(path: Path, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"munged did not open {path} (exit {process.poll()})")
        time.sleep(0.1)
