"""Runs pytest on this rank; writes the rank's JUnit report to DIR/rank-<rank>.xml and a
log of every test as it starts and ends to DIR/rank-<rank>.log.

    python rank_pytest.py DIR [pytest arguments...]

The log survives a rank that is killed mid-test (the JUnit report is written only at the
end), so a test can say which test each rank was running. The exit code is pytest's, so
mpirun's is non-zero when any rank's tests fail.
"""
import os
import sys

import pytest


class ProgressLog:
    """Appends `start <nodeid>` and `<outcome> <nodeid>` lines, flushed at once."""

    def __init__(self, path):
        self.file = open(path, "w", buffering=1)

    def pytest_runtest_logstart(self, nodeid, location):
        self.file.write(f"start {nodeid}\n")

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            self.file.write(f"{report.outcome} {report.nodeid}\n")


def main():
    out_dir, *args = sys.argv[1:]
    rank = os.environ.get("OMPI_COMM_WORLD_RANK", "0")
    report = os.path.join(out_dir, f"rank-{rank}.xml")
    log = ProgressLog(os.path.join(out_dir, f"rank-{rank}.log"))
    sys.exit(int(pytest.main([*args, f"--junitxml={report}"], plugins=[log])))


if __name__ == "__main__":
    main()
