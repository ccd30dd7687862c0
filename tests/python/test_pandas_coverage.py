"""docs/pandas-coverage.md is generated from the code and up to date."""
import os
import pathlib
import subprocess
import sys


def test_committed_coverage_table_is_what_the_script_generates():
    """docs/pandas-coverage.md says what the code does now (`make build` regenerates it)."""
    repo = pathlib.Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    done = subprocess.run([sys.executable, str(repo / "scripts" / "pandas_coverage.py"), "--check"],
                          capture_output=True, text=True, env=env, timeout=300, cwd=repo)
    assert done.returncode == 0, done.stderr
