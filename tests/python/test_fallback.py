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
    "kron": (lambda xp, a, b: xp.kron(a, b), (numpy.arange(12).reshape(3, 4), numpy.array([1, 10]))),
    "unique_inverse": (lambda xp, x: tuple(xp.unique_inverse(x)), (numpy.array([3, 1, 3, 2, 1]),)),
    "unique_all": (lambda xp, x: tuple(xp.unique_all(x)), (numpy.array([2.5, 1.0, 2.5, -1.0]),)),
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
