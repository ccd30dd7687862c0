"""Fallback: a NumPy function tessera does not implement natively still works — it returns
NumPy's values — and emits one tessera.FallbackWarning (a RuntimeWarning) naming the function.

The functions below are deliberately obscure and used by no other test, so the first call
in a process is the one that warns.  If tessera implements one of them natively, replace it
here with another unimplemented function.
"""

import json
import os
import subprocess
import sys

import numpy
import pytest

from parity import SELFCHECK, check

# name -> (call, NumPy arguments).  Each call is made with the module's own arrays.
FALLBACKS = {
    "remainder.reduce": (lambda xp, a: xp.remainder.reduce(a, axis=0), (numpy.arange(1.0, 13.0).reshape(4, 3),)),
    "asmatrix": (lambda xp, a: xp.asmatrix(a), (numpy.arange(6.0).reshape(2, 3),)),
    "bmat": (lambda xp, a, b: xp.bmat([[a, b]]), (numpy.eye(2), numpy.ones((2, 2)))),
}


@pytest.mark.parametrize("name", FALLBACKS)
def test_fallback_matches_numpy(name):
    call, args = FALLBACKS[name]
    check(call, *args)


# Run in a fresh interpreter: whether a process already warned for a function depends on
# which tests ran before in it, which pytest-xdist does not fix.
_PROBE = """
import json, sys, warnings
sys.path.insert(0, sys.argv[1])
from parity import tnp
from test_fallback import FALLBACKS
report = {}
for name, (call, args) in FALLBACKS.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            call(tnp, *[tnp.asarray(a) for a in args])
    report[name] = [[w.category.__name__, str(w.message), issubclass(w.category, RuntimeWarning)]
                    for w in caught]
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def warnings_by_function():
    here = os.path.dirname(os.path.abspath(__file__))
    env = {k: v for k, v in os.environ.items() if k != "TESSERA_PARITY_SELFCHECK"}
    done = subprocess.run([sys.executable, "-c", _PROBE, here], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(SELFCHECK, reason="selfcheck runs plain NumPy, which has no fallback "
                                      "path and so emits no fallback warning to check")
@pytest.mark.parametrize("name", FALLBACKS)
def test_fallback_warns_once_naming_the_function(name, warnings_by_function):
    caught = warnings_by_function[name]
    naming = [message for category, message, runtime_warning in caught
              if category == "FallbackWarning" and runtime_warning and name in message]
    assert len(naming) == 1, (
        f"two calls of {name} should emit exactly one RuntimeWarning naming it "
        f"(Python filter 'always', so tessera must deduplicate); got {caught}")


# --fallback=warn|silent|error (TESSERA_CONFIG), each in a fresh interpreter.
_MODE_PROBE = """
import json, sys, warnings
import numpy
import tessera, tessera.numpy as np
calls = []
real_asmatrix = numpy.asmatrix
def doubled(m):  # stands in for NumPy's asmatrix (a function tessera does not implement)
    calls.append(1)
    return numpy.asarray(real_asmatrix(m)) * 2
numpy.asmatrix = doubled
converted = []
real_to_numpy = tessera._tessera._to_numpy
tessera._tessera._to_numpy = lambda a: converted.append(1) or real_to_numpy(a)
a = np.arange(6.0).reshape(2, 3)
report = {"mode": tessera._tessera._fallback_mode()}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        for _ in range(2):
            result = np.asmatrix(a)
        report["result"] = numpy.asarray(result).tolist()
    except tessera.FallbackError as exc:
        report["error"] = [type(exc).__name__, str(exc), isinstance(exc, NotImplementedError)]
report["warnings"] = [str(w.message) for w in caught if issubclass(w.category, tessera.FallbackWarning)]
report["calls"], report["converted"] = len(calls), len(converted)
print(json.dumps(report))
"""


def _run_probe(config):
    env = {k: v for k, v in os.environ.items() if k not in ("TESSERA_PARITY_SELFCHECK", "TESSERA_CONFIG")}
    if config is not None:
        env["TESSERA_CONFIG"] = config
    return subprocess.run([sys.executable, "-c", _MODE_PROBE], capture_output=True, text=True, env=env, timeout=120)


needs_tessera = pytest.mark.skipif(SELFCHECK, reason="the --fallback flag is tessera's; plain NumPy has no fallback")


@needs_tessera
@pytest.mark.parametrize("config", [None, "--fallback=warn", "--fallback warn"])
def test_fallback_warn_is_the_default(config):
    done = _run_probe(config)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["mode"] == "warn"
    assert report["result"] == (numpy.arange(6.0).reshape(2, 3) * 2).tolist()
    assert len(report["warnings"]) == 1 and "asmatrix" in report["warnings"][0]


@needs_tessera
def test_fallback_silent_runs_numpy_without_a_warning():
    done = _run_probe("--fallback=silent")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["result"] == (numpy.arange(6.0).reshape(2, 3) * 2).tolist()
    assert report["warnings"] == [] and report["calls"] == 2


@needs_tessera
def test_fallback_error_raises_before_anything_runs():
    done = _run_probe("--fallback=error")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    name, message, is_not_implemented = report["error"]
    assert name == "FallbackError" and is_not_implemented
    assert "numpy.asmatrix" in message and "--fallback=warn" in message
    assert report["calls"] == 0 and report["converted"] == 0  # nothing converted, NumPy never ran
    assert report["warnings"] == []


@needs_tessera
@pytest.mark.parametrize("value", ["loud", "", "ERROR"])
def test_fallback_flag_refuses_other_values(value):
    done = _run_probe(f"--fallback={value}")
    assert done.returncode != 0
    expected = "non-empty value" if value == "" else "expected one of warn, silent or error"
    assert f"invalid value '{value}' for --fallback" in done.stderr and "ConfigError" in done.stderr
    if value:
        assert expected in done.stderr


@needs_tessera
def test_fallback_flag_is_in_help_and_show_config():
    env = {k: v for k, v in os.environ.items() if k != "TESSERA_CONFIG"}
    done = subprocess.run([sys.executable, "-c", "import tessera"], capture_output=True, text=True,
                          env=dict(env, TESSERA_CONFIG="--help"), timeout=120)
    assert done.returncode == 0 and "--fallback MODE" in done.stdout and "[default: warn]" in done.stdout
    done = subprocess.run([sys.executable, "-c", "import tessera; print(tessera.show_config())"],
                          capture_output=True, text=True, env=dict(env, TESSERA_CONFIG="--fallback=silent"),
                          timeout=120)
    assert done.returncode == 0 and "fallback silent" in done.stdout


def test_fallback_error_is_a_not_implemented_error():
    import tessera

    assert issubclass(tessera.FallbackError, NotImplementedError)
    assert tessera.FallbackError.__module__ == "tessera"


# Every example program and every benchmark workload (small sizes) runs natively: under
# --fallback=error any NumPy function they call that tessera lacks raises.
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE_ARGS = {"jacobi.py": ["-n", "200", "--iters", "20", "-k", "10"], "cg.py": ["-n", "200"],
                "power_iteration.py": ["-n", "2000", "--iters", "10"]}
EXAMPLES = sorted(f for f in os.listdir(os.path.join(REPO, "examples", "python")) if f.endswith(".py"))
WORKLOADS = sorted(f[:-3] for f in os.listdir(os.path.join(REPO, "benchmarks", "workloads"))
                   if f.endswith(".py") and not f.startswith("_"))


def _run_natively(args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["TESSERA_CONFIG"] = "--cpus=2 --fallback=error"
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr


@needs_tessera
@pytest.mark.parametrize("example", EXAMPLES)
def test_example_runs_without_fallback(example):
    _run_natively([os.path.join(REPO, "examples", "python", example), "--backend", "tessera",
                   *EXAMPLE_ARGS.get(example, [])])


@needs_tessera
@pytest.mark.parametrize("workload", WORKLOADS)
def test_workload_runs_without_fallback(workload):
    _run_natively(["-c", "import importlib, sys; sys.path.insert(0, 'benchmarks'); import tessera.numpy as np; "
                         f"importlib.import_module('workloads.{workload}').run(np, quick=True)"])
