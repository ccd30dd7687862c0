"""Running programs under `mpirun` from tests, so that no test can hang.

`run_mpi(n, argv, config=...)` starts `mpirun -n N --oversubscribe ... argv` in its own
process group with TESSERA_CONFIG set, writes its output to files (no pipe can fill up),
and kills the whole group — mpirun, every rank and anything they started — when the run
exceeds its timeout, then fails the test. `run_plain(argv)` is the same without mpirun: the
one-rank reference run. Both return a `Run` (exit code, stdout, stderr, seconds).
"""

import ctypes
import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).resolve().parent / "programs"
PYTHON = sys.executable
MPIRUN = shutil.which("mpirun")

# Every launch goes through these options: more ranks than cores is the point of the tests,
# and OpenMPI's own core binding would squeeze a rank's worker threads onto one core.
MPIRUN_OPTIONS = ["--oversubscribe", "--bind-to", "none"]


@dataclasses.dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def output(self):
        return self.stdout + self.stderr

    def describe(self):
        """The run's exit code and output, for assertion messages."""
        return (f"exit code {self.returncode} after {self.seconds:.1f} s\n"
                f"--- stdout ---\n{self.stdout[-6000:]}\n--- stderr ---\n{self.stderr[-6000:]}")


def environment(config, extra=None):
    """os.environ without TESSERA_*/rank variables, plus TESSERA_CONFIG=config and `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TESSERA_", "OMPI_COMM_WORLD", "PMIX_", "PMI_", "SLURM_"))}
    env["TESSERA_CONFIG"] = config
    env["PYTHONUNBUFFERED"] = "1"  # a rank killed mid-run still shows what it printed
    if os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    env.update(extra or {})
    return env


def mpirun_command(n, argv, mpirun_args=()):
    """The mpirun command line that starts `argv` on `n` ranks."""
    return [MPIRUN, "-n", str(n), *MPIRUN_OPTIONS, "-x", "TESSERA_CONFIG", "-x", "PYTHONPATH",
            *mpirun_args, *map(str, argv)]


def run_mpi(n, argv, config="--cpus=1", timeout=120, env=None, mpirun_args=(), cwd=REPO,
            wrap=()):
    """Runs `argv` on `n` ranks under mpirun; fails the test if it takes over `timeout` s.

    `wrap` is put before mpirun (e.g. `ip netns exec NS`)."""
    command = [*wrap, *mpirun_command(n, argv, mpirun_args)]
    return run_command(command, environment(config, env), timeout, cwd)


def run_plain(argv, config="--cpus=1", timeout=120, env=None, cwd=REPO):
    """Runs `argv` as one process without mpirun (one rank, no MPI at all)."""
    return run_command(list(map(str, argv)), environment(config, env), timeout, cwd)


def find_launcher():
    """The `tessera` launcher: TESSERA_EXE, else the one beside this interpreter (it runs
    the python3 beside it, so a launcher elsewhere would not run this environment)."""
    if os.environ.get("TESSERA_EXE"):
        return Path(os.environ["TESSERA_EXE"])
    beside = Path(PYTHON).parent / "tessera"
    return beside if beside.is_file() else None


def python(*args):
    """argv for this interpreter running `args` (paths under programs/ by bare name)."""
    return [PYTHON, *args]


def run_command(command, env, timeout, cwd=REPO):
    """Runs `command` in a new process group; kills the group and fails on timeout."""
    process = Started(command, env, cwd)
    try:
        return process.wait(timeout)
    finally:
        process.kill()


class Started:
    """A command running in its own process group with its output going to files.

    For tests that act while it runs (kill a rank): `wait(timeout)` returns a Run or fails
    the test after killing everything; `kill()` is always safe to call."""

    def __init__(self, command, env, cwd=REPO):
        _become_subreaper()
        self.command = [str(word) for word in command]
        self._out = tempfile.TemporaryFile("w+")
        self._err = tempfile.TemporaryFile("w+")
        self.start = time.monotonic()
        self.process = subprocess.Popen(self.command, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=self._out, stderr=self._err,
                                        start_new_session=True)

    def poll(self):
        return self.process.poll()

    def wait(self, timeout):
        """The finished Run; on timeout kills the process group and fails the test."""
        try:
            code = self.process.wait(timeout=max(0.0, self.start + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill()
            run = self._collect(-signal.SIGKILL)
            pytest.fail(f"timed out after {timeout} s and was killed: {' '.join(self.command)}\n"
                        + run.describe(), pytrace=False)
        return self._collect(code)

    def kill(self):
        """Kills mpirun, its process group and every process it started, and reaps them."""
        doomed = _descendants(self.process.pid)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for pid in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        _reap_orphans(self.process.pid, doomed)

    def _collect(self, code):
        outputs = []
        for f in (self._out, self._err):
            f.flush()
            f.seek(0)
            outputs.append(f.read())
        return Run(code, outputs[0], outputs[1], time.monotonic() - self.start)


def alive(pid):
    """Whether `pid` is a running process (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


# Ranks whose mpirun died are re-parented to the nearest "subreaper": making the test process
# one lets kill() find and end them, so a broken run cannot leave processes behind.
_PR_SET_CHILD_SUBREAPER = 36
_subreaper = None


def _become_subreaper():
    global _subreaper
    if _subreaper is None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        except (OSError, AttributeError):
            _subreaper = False
    return _subreaper


def _process_table():
    """{pid: (ppid, pgid)} of every process."""
    table = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            table[int(stat.parent.name)] = (int(fields[1]), int(fields[2]))
        except (OSError, ValueError, IndexError):
            continue
    return table


def _descendants(root):
    """Every process below `root` in the process tree."""
    children = {}
    for pid, (ppid, _) in _process_table().items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _reap_orphans(group, known):
    """Kills and reaps children of this process left by a run: in its process group or
    among its descendants seen before the kill (this process adopted them as subreaper)."""
    me = os.getpid()
    for pid, (ppid, pgid) in _process_table().items():
        if ppid == me and (pgid == group or pid in known):
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
