"""Reading values of an array split across ranks (an element, an item, a printed summary, a
small slice) brings only what is read to each rank, not the whole array, and every rank
gets NumPy's answer."""

import harness

PROGRAM = harness.PROGRAMS / "reading.py"


def test_reads_move_only_what_they_read(out_dir):
    run = harness.run_mpi(2, harness.python(PROGRAM, out_dir), config="--cpus=1", timeout=300)
    assert run.returncode == 0, run.describe()
    for rank in range(2):
        for line in (out_dir / f"rank-{rank}.txt").read_text().splitlines():
            name, received, verdict = line.split(" ", 2)
            assert verdict == "ok", (rank, line)
            # The array is 16 MB and half of it lives on the other rank; a read that gathered
            # it would receive 8 MB. An element, a slice or a printed summary is a few KB.
            assert int(received) < 64 * 1024, (rank, line)
