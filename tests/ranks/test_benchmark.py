"""benchmarks/ranks.py --quick runs end to end: a row for every workload, on this machine and
across the two hosts (or the reason that table was skipped), the checksums of 1 rank and 2
ranks agree bit for bit, and so do SpMV's two ways of reading x. Times are printed, not
checked."""

import re
import sys

import harness

sys.path.insert(0, str(harness.REPO))
from benchmarks import ranks  # noqa: E402

ROW = re.compile(r"^  (\w+) +([\d.]+) +([\d.]+) +([\d.]+) +(ok|over) +(yes|NO) ", re.M)


def tables(stdout):
    """The workload tables, in order: each a {workload: "yes"/"NO" (checksums agree)}."""
    found = []
    for block in stdout.split("\n\n"):
        rows = {m.group(1): m.group(6) for m in ROW.finditer(block)}
        if rows:
            found.append(rows)
    return found


def test_ranks_benchmark_quick():
    run = harness.run_plain(harness.python(harness.REPO / "benchmarks/ranks.py", "--quick"),
                            timeout=900)
    assert run.returncode == 0, run.describe()
    found = tables(run.stdout)
    two_hosts_skipped = "Two hosts: skipped (" in run.stdout
    assert len(found) == (1 if two_hosts_skipped else 2), run.describe()
    for rows in found:
        assert sorted(rows) == sorted(ranks.WORKLOADS), run.describe()
        assert set(rows.values()) == {"yes"}, run.describe()
    for name in ranks.WORKLOADS:
        assert re.search(rf"^  checksum {name}: -?[\d.e+-]+$", run.stdout, re.M), run.describe()
    assert "results bit for bit the same by ranges and whole, on every rank: yes" in run.stdout, \
        run.describe()


def test_minimum_of_jacobi_and_cg():
    # jacobi at the quick size: a 500 x 500 grid, 50 sweeps, a norm every 25; on 2 ranks each
    # sends 50 rows of 498 interior values and 1 + 2 + 1 partial sums, in 50 + 4 rounds.
    assert ranks.jacobi_minimum(True, 2, 50) == (50 * 498 * 8 + 4 * 8, 54)
    # A middle rank of 3 has two neighbours; combining a partial sum takes 2 exchanges.
    assert ranks.jacobi_minimum(True, 3, 50).bytes == 2 * 50 * 498 * 8 + 4 * 8 * 2
    assert ranks.jacobi_minimum(True, 1, 50).bytes == 0
    # cg, N = 1000 on 2 ranks, 10 iterations: a rank sends its 500 values of p for each
    # product (and of i, to build A) and 4 + 2 per iteration partial sums; 3 rounds an
    # iteration (p, then p . Ap, then r . r) and 4 more.
    assert ranks.cg_minimum(True, 2, 10) == (11 * 500 * 8 + (4 + 2 * 10) * 8, 34)
