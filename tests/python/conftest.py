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


@pytest.fixture(scope="session")
def tnp():
    import parity

    return parity.tnp
