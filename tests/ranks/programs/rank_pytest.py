"""Runs pytest on this rank and writes the rank's JUnit report to DIR/rank-<rank>.xml.

    python rank_pytest.py DIR [pytest arguments...]

The exit code is pytest's, so mpirun's is non-zero when any rank's tests fail.
"""
import os
import sys

import pytest


def main():
    out_dir, *args = sys.argv[1:]
    rank = os.environ.get("OMPI_COMM_WORLD_RANK", "0")
    report = os.path.join(out_dir, f"rank-{rank}.xml")
    sys.exit(int(pytest.main([*args, f"--junitxml={report}"])))


if __name__ == "__main__":
    main()
