"""benchmarks/ranks.py runs end to end (at a small size) and its two runs agree bit for bit."""

import harness


def test_ranks_benchmark_small():
    run = harness.run_plain(harness.python(harness.REPO / "benchmarks/ranks.py", "-n", "400",
                                           "--iters", "10", "--repeat", "1"), timeout=300)
    assert run.returncode == 0, run.describe()
    assert "time (ii)/(i) = " in run.stdout, run.describe()
    assert "l2 bit for bit the same on every rank of both runs: yes" in run.stdout, run.describe()
    assert "bytes sent per sweep, all ranks: " in run.stdout, run.describe()
