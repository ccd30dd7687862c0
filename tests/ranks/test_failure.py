"""A rank that dies takes the run down (issue 3, failure): in a 2-rank run where rank 1 is
killed with SIGKILL, segfaults, raises an unhandled exception or calls sys.exit with an error
code, every rank is gone within 10 s, mpirun exits non-zero, and the output names the rank
that failed. Never a hang."""

import os
import re
import signal
import time

import pytest

import harness

PROGRAM = harness.PROGRAMS / "failing.py"
DEADLINE = 10  # seconds from the failure until every rank is gone
STARTUP = 120  # seconds for both ranks to start and report their pids


def start_run(mode, tmp_path):
    """Starts programs/failing.py on 2 ranks; returns (Started, {rank: pid}) once both run."""
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    started = harness.Started(harness.mpirun_command(2, harness.python(PROGRAM, mode, pid_dir)),
                              harness.environment("--cpus=1"))
    deadline = time.monotonic() + STARTUP
    pids = {}
    while len(pids) < 2:
        if started.poll() is not None or time.monotonic() > deadline:
            run = started.wait(0)
            started.kill()
            pytest.fail(f"ranks did not both start (pids {pids})\n" + run.describe())
        for rank in range(2):
            path = pid_dir / f"rank-{rank}.pid"
            if path.exists():
                pids[rank] = int(path.read_text())
        time.sleep(0.05)
    return started, pids


def fail_rank_1(tmp_path):
    """Tells rank 1 to fail now (programs/failing.py); returns the time."""
    (tmp_path / "pids" / "go").touch()
    return time.monotonic()


def check_run_ended(started, pids, since):
    """mpirun exits non-zero within DEADLINE s of `since`, and no rank outlives it."""
    run = started.wait(timeout=DEADLINE + 5)  # beyond the deadline only to tell late from hung
    ended = time.monotonic() - since
    survivors = [rank for rank, pid in pids.items() if harness.alive(pid)]
    assert not survivors, f"ranks {survivors} still run after mpirun exited\n" + run.describe()
    assert ended <= DEADLINE, f"the run took {ended:.1f} s to end\n" + run.describe()
    assert run.returncode != 0, run.describe()
    return run


def names_rank_1(output):
    """OpenMPI's 'process rank 1 ...' or the runtime's 'tessera: rank 1 failed'."""
    return re.search(r"\brank 1\b", output) is not None


def test_sigkill_of_one_rank_ends_the_run(tmp_path):
    started, pids = start_run("loop", tmp_path)
    try:
        os.kill(pids[1], signal.SIGKILL)
        run = check_run_ended(started, pids, since=time.monotonic())
        assert names_rank_1(run.output), run.describe()
    finally:
        started.kill()


def test_segfault_of_one_rank_ends_the_run(tmp_path):
    started, pids = start_run("segfault", tmp_path)
    try:
        run = check_run_ended(started, pids, since=fail_rank_1(tmp_path))
        assert names_rank_1(run.output), run.describe()
        assert "Segmentation fault" in run.output or "signal 11" in run.output, run.describe()
    finally:
        started.kill()


def test_unhandled_exception_on_one_rank_ends_the_run(tmp_path):
    started, pids = start_run("raise", tmp_path)
    try:
        run = check_run_ended(started, pids, since=fail_rank_1(tmp_path))
        # OpenMPI itself only says "Process name: [[job,1],1]"; the runtime names the rank.
        assert "tessera: rank 1 failed: RuntimeError: rank 1 gives up" in run.output, run.describe()
    finally:
        started.kill()


def test_early_exit_of_one_rank_ends_the_run(tmp_path):
    started, pids = start_run("exit", tmp_path)
    try:
        run = check_run_ended(started, pids, since=fail_rank_1(tmp_path))
        assert names_rank_1(run.output), run.describe()
    finally:
        started.kill()
