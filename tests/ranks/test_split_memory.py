"""Arrays are split across the ranks' memories: each rank allocates (and its pool counts)
only the part of an array its tasks touch, so a program too big for one rank's --sysmem
runs on two. The Jacobi example at N = 2000 holds the grid and its copy (64 MB) on one rank,
which computes each sweep in place; the bound for each of two ranks allows, beside its half,
the sweeps' temporaries of the interior (about 96 MB for the whole grid)."""

import re

import harness

JACOBI = harness.python(harness.REPO / "examples/python/jacobi.py", "-n", "2000", "--iters", "4", "-k", "2")
CONFIG = "--cpus=1 --sysmem 90 --show-memory-usage --show-all-ranks"


def peaks(text):
    return [int(m) for m in re.findall(r"SYSMEM: peak (\d+) bytes", text)]


def l2(text):
    return set(re.findall(r"l2 = (\S+)", text))


def test_jacobi_fits_on_two_ranks_and_not_on_one():
    one = harness.run_plain(JACOBI, config=CONFIG, timeout=300)
    assert one.returncode != 0, one.describe()
    assert "OutOfMemoryError" in one.output and "SYSMEM" in one.output, one.describe()

    two = harness.run_mpi(2, JACOBI, config=CONFIG, timeout=300)
    assert two.returncode == 0, two.describe()
    reference = harness.run_plain(JACOBI, config="--cpus=1 --sysmem 1000 --show-memory-usage", timeout=300)
    assert reference.returncode == 0, reference.describe()
    # The same answer bit for bit, and each rank's peak at most 0.7 of what one process
    # holding all of it would need for the same work (grid, copy, temporary: 3 arrays): each
    # rank holds half of the grid and of its copy, and half of the temporaries of up to two
    # sweeps at once (the tiles of the next sweep start while the last tiles of one finish).
    assert l2(two.output) == l2(reference.output) and len(l2(reference.output)) == 1, two.describe()
    (alone,) = peaks(reference.output)
    assert alone <= 2 * 2000 * 2000 * 8 + (1 << 20), alone  # in place: the grid and its copy
    whole = 3 * 2000 * 2000 * 8
    per_rank = peaks(two.output)
    assert len(per_rank) == 2, two.describe()
    assert max(per_rank) <= 0.7 * whole, (per_rank, whole)


# np.empty of a large array takes its memory when its operation runs, cut where the ranks'
# parts end: each rank holds its half only, as for any other result.
EMPTY = harness.python("-c", """\
import tessera.numpy as np
a = np.empty((4 * 1024 * 1024,))
a[:] = 1.0
b = np.empty_like(a)
b[:] = a * 2.0
print("sum", float(b.sum()))
""")


def test_empty_arrays_are_split_across_the_ranks():
    config = "--cpus=1 --show-memory-usage --show-all-ranks"
    one = harness.run_plain(EMPTY, config=config, timeout=120)
    two = harness.run_mpi(2, EMPTY, config=config, timeout=120)
    assert one.returncode == 0 and two.returncode == 0, one.describe() + two.describe()
    assert "sum 8388608.0" in one.output and "sum 8388608.0" in two.output, two.describe()
    size = 4 * 1024 * 1024 * 8
    (alone,) = peaks(one.output)
    assert alone >= 2 * size, alone  # a and b
    per_rank = peaks(two.output)
    assert len(per_rank) == 2 and max(per_rank) <= 1.2 * size, (per_rank, size)  # half of each
