"""The multi-rank suite: programs and the parity suite under `mpirun -n 2/4`, rank failures,
and a two-host run across a veth pair.

Run it serially (the tests start mpirun themselves):
    .venv/bin/python -m pytest tests/ranks -q -p no:cacheprovider
It is not part of `pytest tests/python`. Every mpirun call has a timeout after which its
whole process group is killed (harness.py), so no test can hang.
"""

import subprocess

import pytest

import harness


def pytest_sessionstart(session):
    if harness.MPIRUN is None:
        return  # every test skips (below)
    probe = subprocess.run([harness.PYTHON, "-c", "import tessera.numpy"], capture_output=True,
                           text=True, timeout=120, env=harness.environment("--cpus=1"))
    if probe.returncode != 0:
        pytest.exit("tessera.numpy cannot be imported by " + harness.PYTHON + ":\n"
                    + probe.stderr.strip(), returncode=3)


def pytest_collection_modifyitems(config, items):
    if harness.MPIRUN is None:
        skip = pytest.mark.skip(reason="mpirun (OpenMPI) is not installed")
        for item in items:
            item.add_marker(skip)


@pytest.fixture
def out_dir(tmp_path):
    """A directory for per-rank output files."""
    path = tmp_path / "ranks"
    path.mkdir()
    return path
