"""Ranks under a real `mpirun -n 2 --oversubscribe`: where their output goes (only rank 0's
by default, every rank's with a "[rank N] " prefix under --show-all-ranks), the per-rank
CPU binding of `--cpu-bind`, external launch (`mpirun -n 2 tessera prog.py`), how ranks
sharing a node split the auto-configuration, and an unhandled exception on one rank ending
the run with a message that names it.

Each run is in its own process group, killed if it outlives its timeout, so no test hangs.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from test_launcher import LAUNCHER

MPIRUN = shutil.which("mpirun")
pytestmark = pytest.mark.skipif(MPIRUN is None, reason="mpirun (OpenMPI) is not installed")

PROGRAM = """\
import os, sys
import tessera
rank = os.environ["OMPI_COMM_WORLD_RANK"]
print(f"stdout of rank {rank}")
print(f"stderr of rank {rank}", file=sys.stderr)
"""


def rank_env(config=None, extra=None):
    """os.environ without tessera's or a launcher's variables, plus TESSERA_CONFIG=config."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("TESSERA_", "OMPI_COMM_WORLD", "PMI_", "PMIX_", "SLURM_"))}
    if config is not None:
        env["TESSERA_CONFIG"] = config
    if os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    env.update(extra or {})
    return env


def run(command, env, timeout=90):
    """Runs `command` in a new process group; on timeout kills the group and fails."""
    start = time.monotonic()
    process = subprocess.Popen([str(word) for word in command], env=env, text=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f"{command} still ran after {timeout} s\n{out}\n{err}")
    result = subprocess.CompletedProcess(command, process.returncode, out, err)
    result.seconds = time.monotonic() - start
    return result


def forwarded():
    """mpirun's -x options for the variables the ranks need to import tessera."""
    names = ["TESSERA_CONFIG"] + [name for name in ("PYTHONPATH", "LD_LIBRARY_PATH")
                                  if name in os.environ]
    return [word for name in names for word in ("-x", name)]


def mpirun(*argv, config="--cpus=1", n=2):
    return run([MPIRUN, "-n", n, "--oversubscribe", *forwarded(), *argv], rank_env(config))


@pytest.fixture
def program(tmp_path):
    """Writes a Python program into tmp_path; returns its path."""
    def write(text=PROGRAM):
        path = tmp_path / "prog.py"
        path.write_text(text)
        return path
    return write


def lines_with(text, word):
    return [line for line in text.splitlines() if word in line]


def need_launcher():
    if LAUNCHER is None:
        pytest.skip("tessera launcher not built")


def two_cpus():
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs two CPUs to bind two ranks to different ones")
    return cpus[0], cpus[-1]


def test_only_rank_zero_reaches_the_terminal_by_default(program):
    result = mpirun(sys.executable, program())
    assert result.returncode == 0, result.stderr
    assert result.stdout == "stdout of rank 0\n"
    assert lines_with(result.stderr, " of rank ") == ["stderr of rank 0"]


def test_show_all_ranks_prefixes_every_line_of_every_rank(program):
    result = mpirun(sys.executable, program(), config="--cpus=1 --show-all-ranks")
    assert result.returncode == 0, result.stderr
    assert sorted(result.stdout.splitlines()) == ["[rank 0] stdout of rank 0",
                                                  "[rank 1] stdout of rank 1"]
    assert sorted(lines_with(result.stderr, " of rank ")) == ["[rank 0] stderr of rank 0",
                                                              "[rank 1] stderr of rank 1"]


def test_show_all_ranks_loses_no_line(program, tmp_path):
    # mpirun itself splices the output of different ranks at its 4 KiB read boundaries
    # (plain programs too), so each rank's stream is read from mpirun's per-rank files.
    path = program(PROGRAM + "for i in range(20000):\n"
                             "    print(f'rank {rank} line {i}', end='' if i == 19999 else '\\n')\n")
    result = mpirun("--output-filename", tmp_path / "out", sys.executable, path,
                    config="--cpus=1 --show-all-ranks")
    assert result.returncode == 0, result.stderr
    for rank in (0, 1):
        [stdout] = (tmp_path / "out").glob(f"**/rank.{rank}/stdout")
        assert stdout.read_text().splitlines() == (
            [f"[rank {rank}] stdout of rank {rank}"] +
            [f"[rank {rank}] rank {rank} line {i}" for i in range(20000)])


def test_cpu_bind_binds_each_rank_to_its_core(program):
    need_launcher()
    first, last = two_cpus()
    path = program("import os\nimport tessera\n"
                   "print('cpus', sorted(os.sched_getaffinity(0)), tessera._tessera.num_workers())\n")
    result = run([LAUNCHER, "--ranks-per-node", "2", "--launcher", "mpirun",
                  "--launcher-extra=--oversubscribe", "--cpu-bind", f"{first}/{last}",
                  "--show-all-ranks", "--verbose", sys.executable, path], rank_env())
    assert result.returncode == 0, result.stderr
    assert "export TESSERA_BIND=" in result.stderr and "-x TESSERA_BIND" in result.stderr
    # One bound core each: auto-configuration gives each rank one worker.
    assert sorted(result.stdout.splitlines()) == [f"[rank 0] cpus [{first}] 1",
                                                  f"[rank 1] cpus [{last}] 1"]


def test_external_mpirun_starts_one_program_per_copy_of_the_launcher(program):
    need_launcher()
    first, last = two_cpus()
    path = program("import os\nimport tessera\n"
                   "print('rank', os.environ['OMPI_COMM_WORLD_RANK'], "
                   "sorted(os.sched_getaffinity(0)))\n")
    result = mpirun(LAUNCHER, "--cpu-bind", f"{first}/{last}", "--show-all-ranks",
                    sys.executable, path, config="")
    assert result.returncode == 0, result.stderr
    # A nested mpirun would start four programs (or fail); each copy ran its own rank.
    assert sorted(result.stdout.splitlines()) == [f"[rank 0] rank 0 [{first}]",
                                                  f"[rank 1] rank 1 [{last}]"]


def test_ranks_sharing_a_node_split_its_memory(program):
    path = program("import tessera\nprint(tessera.show_config())\n")

    def sysmem(text):
        return [int(value) for value in re.findall(r"sysmem (\d+) MiB", text)]

    alone = run([sys.executable, path], rank_env(""))
    assert alone.returncode == 0, alone.stderr
    shared = mpirun(sys.executable, path, config="--show-all-ranks")
    assert shared.returncode == 0, shared.stderr
    [one] = sysmem(alone.stdout)
    assert len(sysmem(shared.stdout)) == 2
    for each in sysmem(shared.stdout):
        assert abs(each - one / 2) <= 1, (one, shared.stdout)
    explicit = mpirun(sys.executable, path, config="--sysmem=300 --show-all-ranks")
    assert sysmem(explicit.stdout) == [300, 300], explicit.stdout


def test_unhandled_exception_on_one_rank_stops_every_rank(program):
    path = program("import os, time\nimport tessera\n"
                   "if os.environ['OMPI_COMM_WORLD_RANK'] == '1':\n"
                   "    raise ValueError('bad input on this rank')\n"
                   "time.sleep(60)\n")
    result = mpirun(sys.executable, path)
    assert result.returncode != 0
    assert result.seconds < 30, result.seconds
    # Rank 1's output is silenced, but its failure reaches the terminal.
    assert "raise ValueError('bad input on this rank')" in result.stderr
    assert ("tessera: rank 1 failed: ValueError: bad input on this rank; stopping all ranks"
            in result.stderr)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
