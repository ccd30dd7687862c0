"""The examples give NumPy's results under tessera, with one worker and with two."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def run_example(name, backend, cpus, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["TESSERA_CONFIG"] = f"--cpus={cpus}"
    r = subprocess.run([sys.executable, str(REPO / "examples" / "python" / name), "--backend", backend, *args],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def number(text, label):
    m = re.search(rf"^{label}\s*=\s*([-+0-9.eE]+)", text, re.M)
    assert m, text
    return float(m.group(1))


@pytest.mark.parametrize("cpus", [1, 2])
def test_jacobi_matches_numpy(cpus):
    args = ["-n", "300", "--iters", "60", "-k", "20"]
    expected = number(run_example("jacobi.py", "numpy", 1, *args), "l2")
    got = number(run_example("jacobi.py", "tessera", cpus, *args), "l2")
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("cpus", [1, 2])
def test_cg_matches_numpy(cpus):
    args = ["-n", "300"]
    expected = run_example("cg.py", "numpy", 1, *args)
    got = run_example("cg.py", "tessera", cpus, *args)
    assert number(got, "iterations") == number(expected, "iterations")
    assert number(got, r"sum\(x\)") == pytest.approx(number(expected, r"sum\(x\)"), rel=1e-9)
    assert number(got, "residual") == pytest.approx(number(expected, "residual"), abs=1e-9)


# The C++ examples (built by `make build-cpp` into build/cpp, or TESSERA_CPP_BUILD): each
# checks itself against host loops and exits non-zero when a check fails.
CPP_BUILD = pathlib.Path(os.environ.get("TESSERA_CPP_BUILD", REPO / "build" / "cpp"))


def run_cpp_example(name, cpus, *args):
    exe = CPP_BUILD / name
    if not exe.is_file():
        pytest.skip(f"{exe} is not built (make build-cpp)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["TESSERA_CONFIG"] = f"--cpus={cpus}"
    r = subprocess.run([str(exe), *map(str, args)], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^check = ok$", r.stdout, re.M), r.stdout
    return r.stdout


@pytest.mark.parametrize("cpus", [1, 2])
def test_cpp_tasks_example_checks_itself(cpus):
    out = run_cpp_example("tasks", cpus, "-n", "100000")
    # Exact values: the same for any tiling.
    reference = run_cpp_example("tasks", 1, "-n", "100000")
    for label in ("sum\\(y\\)", "dot", "sum\\(smoothed\\)"):
        assert number(out, label) == number(reference, label)


@pytest.mark.parametrize("cpus", [1, 2])
def test_cpp_stl_example_matches_jacobi(cpus):
    args = ["-n", "300", "--iters", "60", "-k", "20"]
    expected = number(run_example("jacobi.py", "numpy", 1, *args), "l2")
    got = run_cpp_example("stl", cpus, *args)
    assert number(got, "sweeps") == 60
    assert number(got, "l2") == pytest.approx(expected, rel=1e-12)
    exe = CPP_BUILD / "jacobi"
    if exe.is_file():  # the C++ array-API version of the same solver
        env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
        env["TESSERA_CONFIG"] = f"--cpus={cpus}"
        r = subprocess.run([str(exe), *args], env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        assert number(got, "l2") == pytest.approx(number(r.stdout, "l2"), rel=1e-12)


@pytest.mark.parametrize("cpus", [1, 2])
def test_trips_matches_pandas(cpus):
    args = ["-n", "400000"]
    expected = run_example("trips.py", "pandas", 1, *args)
    got = run_example("trips.py", "tessera", cpus, *args)
    assert number(got, "fast shared trips") == number(expected, "fast shared trips")
    for label in ("busiest mean fare", "mean speed"):
        assert number(got, label) == pytest.approx(number(expected, label), rel=1e-12)
