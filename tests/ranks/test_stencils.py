"""Stencil loops on 2 ranks give one rank's bits and send each sweep little more than the
halo the algorithm needs: one row of the grid per rank boundary and direction. That holds
because the tiles of every element-wise operation over an array are cut where the ranks'
parts of it end (so each operation finds its rows where the last one left them), sweeps are
fused in time with halos as deep as the fused sweeps reach, and storage renaming and in-place
computation work on each rank's part."""

import harness

PROGRAM = harness.PROGRAMS / "stencils.py"
N = 1000
ROW = N * 8  # bytes of one row of the float64 grid


def results(out_dir, rank):
    rows = {}
    for line in (out_dir / f"rank-{rank}.txt").read_text().splitlines():
        name, per_sweep, digest = line.split()
        rows[name] = (float(per_sweep), digest)
    return rows


def test_stencils_match_one_rank_and_send_about_a_halo(out_dir, tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    one = harness.run_plain(harness.python(PROGRAM, alone, str(N)), config="--cpus=2", timeout=300)
    assert one.returncode == 0, one.describe()
    two = harness.run_mpi(2, harness.python(PROGRAM, out_dir, str(N)), config="--cpus=1", timeout=300)
    assert two.returncode == 0, two.describe()
    reference = results(alone, 0)
    assert set(reference) == {"jacobi", "pressure"}
    for rank in range(2):
        got = results(out_dir, rank)
        for name, (per_sweep, digest) in got.items():
            assert digest == reference[name][1], (rank, name)
            # One halo row each way per sweep (each rank sends one), within 1.2 times, with the
            # partial sums of the convergence checks and the boundary rows' few bytes on top.
            assert per_sweep <= 1.2 * ROW, (rank, name, per_sweep)
