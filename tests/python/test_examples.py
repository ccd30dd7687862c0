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
