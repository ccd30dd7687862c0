"""A user task that sums per tile (ReductionArray["+"] over 300,000 random doubles) prints the
same bits with 1 or 2 cpus, in test mode, and on 1, 2 and 4 ranks: the tiles follow the data,
never the machine (DESIGN §5). Compared as float.hex, exactly; every rank must print them."""

import pytest

import harness

PROGRAM = harness.PROGRAMS / "tile_sums.py"
REFERENCE = (1, "--cpus=1")
RUNS = [(1, "--cpus=2"), (1, "--cpus=2 --test"), (1, "TESSERA_TEST=1"), (2, "--cpus=1"), (2, "--cpus=2"),
        (4, "--cpus=1"), (2, "--cpus=2 --test"), (4, "--cpus=1 --test")]
_reference = {}


def printed(ranks, config, out_dir):
    """Each rank's {name: value} lines."""
    argv = harness.python(harness.PROGRAMS / "record.py", out_dir, PROGRAM)
    env = None
    if config.startswith("TESSERA_TEST="):  # test mode from the environment, as the suites set it
        env, config = {"TESSERA_TEST": config.split("=", 1)[1]}, "--cpus=2"
    run = (harness.run_plain(argv, config=config, timeout=300, env=env) if ranks == 1
           else harness.run_mpi(ranks, argv, config=config, timeout=300, env=env))
    assert run.returncode == 0, run.describe()
    per_rank = []
    for rank in range(ranks):
        path = out_dir / f"rank-{rank}.out"
        assert path.exists(), f"rank {rank} printed nothing\n" + run.describe()
        lines = dict(line.split(" = ", 1) for line in path.read_text().splitlines() if " = " in line)
        per_rank.append(lines)
    return per_rank


def reference(tmp_path_factory):
    if not _reference:
        out_dir = tmp_path_factory.mktemp("reference")
        (lines,) = printed(*REFERENCE, out_dir)
        assert set(lines) == {"task sum", "task sum 2d", "tessera sum"}, lines
        _reference.update(lines)
    return _reference


def test_the_task_sum_is_near_numpys(tmp_path_factory):
    import numpy
    values = numpy.random.default_rng(20261129).random(300_000)
    got = float.fromhex(reference(tmp_path_factory)["task sum"])
    assert got == pytest.approx(float((values * values).sum()), rel=1e-12)


@pytest.mark.parametrize("ranks,config", RUNS, ids=[f"{r}ranks{c.replace(' ', '')}" for r, c in RUNS])
def test_task_sums_have_the_same_bits(ranks, config, out_dir, tmp_path_factory):
    expected = reference(tmp_path_factory)
    for rank, lines in enumerate(printed(ranks, config, out_dir)):
        assert lines == expected, f"rank {rank} of {ranks} with {config!r}"
