"""Runtime behaviour across ranks (issue 3): operations that redistribute data (transposes,
products, joins, reshapes, strided and masked writes) match NumPy on 2 and 3 ranks with
arrays big enough to be split between them; a task error on one rank's tile is raised on
every rank at the same point; unseeded generators agree (NumPy's, behind the random functions
that fall back, too); ranks refuse settings that would
make them cut work differently."""

import pytest

import harness

PROGRAM = harness.PROGRAMS / "behaviour.py"


@pytest.mark.parametrize("ranks", [2, 3])
def test_every_rank_sees_the_same_correct_results(ranks, out_dir):
    run = harness.run_mpi(ranks, harness.python(PROGRAM, out_dir), config="--cpus=1", timeout=300)
    assert run.returncode == 0, run.describe()
    records = [(out_dir / f"rank-{r}.txt").read_text() for r in range(ranks)]
    assert all(rec == records[0] for rec in records), records
    lines = dict(line.split(" ", 1) for line in records[0].splitlines())
    wrong = {k: v for k, v in lines.items() if v != "ok" and k not in ("power_error", "after_error", "unseeded",
                                                                       "unseeded_fallback")}
    assert not wrong, wrong
    assert lines["power_error"].startswith("ValueError: Integers to negative integer powers are not allowed")
    assert float(lines["after_error"]) == 999999000000.0


def test_ranks_with_different_window_sizes_are_refused():
    jacobi = harness.REPO / "examples" / "python" / "jacobi.py"
    command = [harness.MPIRUN, *harness.MPIRUN_OPTIONS, "-x", "PYTHONPATH",
               "-n", "1", "-x", "TESSERA_CONFIG=--cpus=1 --window-size=3", harness.PYTHON, jacobi, "-n", "100",
               ":", "-n", "1", "-x", "TESSERA_CONFIG=--cpus=1", harness.PYTHON, jacobi, "-n", "100"]
    run = harness.run_command(command, harness.environment("--cpus=1"), timeout=120)
    assert run.returncode != 0
    assert "every rank needs the same --window-size, but the ranks have 3 to 16" in run.output, run.describe()


def test_ranks_with_different_cpus_agree_on_tiles(out_dir):
    """--cpus differs (as it may with --cpu-bind): the ranks still cut every operation alike."""
    jacobi = harness.REPO / "examples" / "python" / "jacobi.py"
    command = [harness.MPIRUN, *harness.MPIRUN_OPTIONS, "-x", "PYTHONPATH",
               "-n", "1", "-x", "TESSERA_CONFIG=--cpus=1", harness.PYTHON, jacobi, "-n", "700", "--iters", "30",
               ":", "-n", "1", "-x", "TESSERA_CONFIG=--cpus=2", harness.PYTHON, jacobi, "-n", "700", "--iters", "30"]
    run = harness.run_command(command, harness.environment("--cpus=1"), timeout=180)
    assert run.returncode == 0, run.describe()
    one = harness.run_plain(harness.python(jacobi, "-n", "700", "--iters", "30"))
    l2 = [line for line in one.stdout.splitlines() if line.startswith("l2 = ")]
    assert l2 and l2[0] in run.stdout, run.describe()
