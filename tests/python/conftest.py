"""Fixtures of the NumPy parity suite (see parity.py).

`tnp` is the module under test: `tessera.numpy`, or plain `numpy` when
TESSERA_PARITY_SELFCHECK=1.  It is imported lazily so that test files which do not use it
(e.g. test_launcher.py) still run when tessera.numpy cannot be imported.
"""

import pytest


@pytest.fixture(scope="session")
def tnp():
    import parity

    return parity.tnp
