"""The examples and the benchmark workloads print bit-for-bit the same numbers on 1, 2 and 4
ranks and with 1 or 2 cpus per rank (issue 3, determinism).

The reference is one process without mpirun and with one cpu. Every rank of every run must
print the reference's numbers exactly (compared as printed text: repr of the floats, and
float.hex for the workloads); programs/record.py keeps a copy of each rank's output. (What
reaches the terminal is not compared: mpirun may interleave two ranks' lines mid-line.)
"""

import re

import pytest

import harness

# Sizes large enough that arrays span several tiles (the default minimum is 65536 elements)
# and so several ranks, small enough for seconds per run.
EXAMPLES = {
    "jacobi": [harness.REPO / "examples/python/jacobi.py", "-n", "600", "--iters", "50", "-k", "25"],
    "cg": [harness.REPO / "examples/python/cg.py", "-n", "600"],
}
WORKLOADS = sorted(p.stem for p in (harness.REPO / "benchmarks/workloads").glob("*.py")
                   if not p.stem.startswith("_"))
PROGRAMS = {**EXAMPLES, **{f"workload-{name}": [harness.PROGRAMS / "workload_checksum.py", name]
                           for name in WORKLOADS}}

# (ranks, TESSERA_CONFIG); ranks 1 is a plain process. Test mode cuts every array into tiny
# tiles, so the results must not depend on the tiling either; on one rank it also reads
# symmetric matrices from 512 rows half (the cg programs), with the bits of whole reads.
RUNS = [(1, "--cpus=2"), (2, "--cpus=1"), (2, "--cpus=2"), (4, "--cpus=1"), (4, "--cpus=2"),
        (2, "--cpus=2 --test"), (1, "--cpus=2 --test")]
REFERENCE = (1, "--cpus=1")
# Programs left out of the test-mode run, and why.
NOT_IN_TEST_MODE = {}  # program -> why it cannot run in test mode on ranks (none today)

_LINE = re.compile(r"^(?P<name>[\w() ]+?) = (?P<value>.+)$", re.M)
_references = {}


def numbers(text):
    """{name: printed value} of the program's `name = value` lines, without timings."""
    return {m["name"]: m["value"].strip() for m in _LINE.finditer(text) if m["name"] != "time"}


def run_program(program, ranks, config, out_dir):
    """Runs `program` on `ranks` ranks; returns (Run, [numbers printed by each rank])."""
    argv = harness.python(harness.PROGRAMS / "record.py", out_dir, *PROGRAMS[program])
    if ranks == 1:
        run = harness.run_plain(argv, config=config, timeout=300)
    else:
        run = harness.run_mpi(ranks, argv, config=config, timeout=300)
    return run, check_ranks(program, out_dir, ranks, run)


def check_ranks(program, out_dir, ranks, run):
    """Every rank of `run` recorded a numbers; returns them."""
    assert run.returncode == 0, run.describe()
    per_rank = []
    for rank in range(ranks):
        path = out_dir / f"rank-{rank}.out"
        assert path.exists(), f"rank {rank} printed nothing\n" + run.describe()
        per_rank.append(numbers(path.read_text()))
    return per_rank


def reference(program, tmp_path_factory):
    if program not in _references:
        out_dir = tmp_path_factory.mktemp(f"reference-{program}")
        _, (printed,) = run_program(program, *REFERENCE, out_dir)
        assert printed, f"{program} printed no `name = value` lines"
        _references[program] = printed
    return _references[program]


@pytest.mark.parametrize("ranks,config", RUNS, ids=[f"{r}ranks{c.replace(' ', '')}" for r, c in RUNS])
@pytest.mark.parametrize("program", PROGRAMS)
def test_same_numbers_as_one_rank(program, ranks, config, out_dir, tmp_path_factory):
    if "--test" in config and program in NOT_IN_TEST_MODE:
        pytest.skip(NOT_IN_TEST_MODE[program])
    expected = reference(program, tmp_path_factory)
    run, per_rank = run_program(program, ranks, config, out_dir)
    for rank, printed in enumerate(per_rank):
        assert printed == expected, (f"rank {rank} of {ranks} with {config!r} printed {printed}, "
                                     f"one rank printed {expected}\n" + run.describe())


LAUNCHER = harness.find_launcher()


@pytest.mark.skipif(LAUNCHER is None, reason="no tessera launcher beside this python (set TESSERA_EXE)")
@pytest.mark.parametrize("how", ["mpirun -n 2 tessera", "tessera --launcher mpirun"])
@pytest.mark.parametrize("program", EXAMPLES)
def test_launcher_runs_give_one_rank_numbers(program, how, out_dir, tmp_path_factory):
    """The acceptance commands of issue 3: the launcher started by mpirun, and the launcher
    starting mpirun itself, print the one-rank numbers on both ranks."""
    expected = reference(program, tmp_path_factory)
    argv = [harness.PROGRAMS / "record.py", out_dir, *PROGRAMS[program]]
    if how == "mpirun -n 2 tessera":
        run = harness.run_mpi(2, [LAUNCHER, *argv], config="--cpus=1", timeout=300)
    else:
        run = harness.run_plain([LAUNCHER, "--launcher", "mpirun", "--ranks-per-node", "2",
                                 "--cpus", "1", *argv], config="", timeout=300)
    for rank, printed in enumerate(check_ranks(program, out_dir, 2, run)):
        assert printed == expected, f"rank {rank} ({how}) printed {printed}, one rank {expected}"
