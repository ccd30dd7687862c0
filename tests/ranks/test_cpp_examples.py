"""The C++ task examples (examples/cpp/tasks.cc and stl.cc, built into build/cpp by `make
build-cpp`, or TESSERA_CPP_BUILD) on 2 ranks against 1: each checks itself against host
loops (every rank's exit code 0, `check = ok` from rank 0) and prints exactly what the one-rank
run prints — for stl too, whose l2 norm is summed by tile: the tiles follow the grid's shape,
not the ranks or cpus (and the grid of 600 x 600 is large enough that test mode cuts it as a
normal run does)."""

import os
import re
from pathlib import Path

import pytest

import harness

CPP_BUILD = Path(os.environ.get("TESSERA_CPP_BUILD", harness.REPO / "build" / "cpp"))

CASES = {
    "tasks": ["-n", "200000"],
    "stl": ["-n", "600", "--iters", "60", "-k", "20"],
}


def values(text):
    """{name: [every value printed for it]}."""
    found = {}
    for name, value in re.findall(r"^([\w() ]+?) = (\S+)$", text, re.M):
        found.setdefault(name, []).append(value)
    return found


def executable(name):
    exe = CPP_BUILD / name
    if not exe.is_file():
        pytest.skip(f"{exe} is not built (make build-cpp)")
    return exe


@pytest.mark.parametrize("config", ["--cpus=1", "--cpus=2 --test"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_cpp_example_on_two_ranks(name, config):
    exe = executable(name)
    one = harness.run_plain([exe, *CASES[name]], config="--cpus=1")
    assert one.returncode == 0, one.describe()
    two = harness.run_mpi(2, [exe, *CASES[name]], config=config, timeout=300)
    assert two.returncode == 0, two.describe()
    reference, got = values(one.stdout), values(two.stdout)
    assert reference["check"] == ["ok"], one.describe()
    # Only rank 0's output reaches mpirun's; every rank checks itself (its exit code).
    assert got["check"] == ["ok"], two.describe()
    for label, printed in reference.items():
        for value in got[label]:
            assert value == printed[0], (label, two.describe())
