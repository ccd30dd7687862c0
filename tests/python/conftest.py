"""Fixtures of the NumPy parity suite (see parity.py).

`tnp` is the module under test: `tessera.numpy`, or plain `numpy` when
TESSERA_PARITY_SELFCHECK=1.  It is imported lazily so that test files which do not use it
(e.g. test_launcher.py) still run when tessera.numpy cannot be imported.
"""

import os

import pytest

# Under mpirun every rank runs this suite and must issue the same operations in the same
# order, so hypothesis must draw the same examples on every rank: derandomized, and without
# the example database (each rank would replay what it alone saved).
if os.environ.get("OMPI_COMM_WORLD_SIZE") or os.environ.get("PMI_SIZE"):
    from hypothesis import settings

    settings.register_profile("ranks", derandomize=True, database=None)
    settings.load_profile("ranks")


# Every error the suite expects (each `pytest.raises` block, including parity.check's) must
# read as NumPy's would: a message that names C++ or binding internals fails the test.
LEAKS = ("std::", "nanobind", "incompatible function arguments", "bad_cast", "tessera::")
_raises = pytest.raises


class _NoLeakedInternals:
    def __init__(self, context):
        self._context = context

    def __enter__(self):
        return self._context.__enter__()

    def __exit__(self, exc_type, exc, tb):
        suppressed = self._context.__exit__(exc_type, exc, tb)
        if suppressed and exc is not None:
            leaked = [text for text in LEAKS if text in str(exc)]
            assert not leaked, f"the error message names internals ({', '.join(leaked)}): {exc}"
        return suppressed


def _raises_checked(*args, **kwargs):
    context = _raises(*args, **kwargs)
    return _NoLeakedInternals(context) if len(args) == 1 else context  # the callable form returns at once


pytest.raises = _raises_checked


@pytest.fixture(scope="session")
def tnp():
    import parity

    return parity.tnp


@pytest.fixture
def no_fallback(request):
    """Everything the test calls must run natively (`pytestmark =
    pytest.mark.usefixtures("no_fallback")` for a whole file): a call that would fall back
    raises tessera.FallbackError, as under `--fallback=error` — every call, not only the first
    of each function in a process, and whatever warning filters the test sets. A test that
    checks a fallback on purpose says so with `@pytest.mark.fallback`."""
    from tessera.numpy import _fallback

    if request.node.get_closest_marker("fallback"):
        yield
        return
    saved = [_fallback.fallback_mode()]
    _fallback._mode[:] = ["error"]
    try:
        yield
    finally:
        _fallback._mode[:] = saved
