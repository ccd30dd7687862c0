"""tessera.numpy.linalg: NumPy's linear algebra.

`norm` and `matmul` run natively in tessera's runtime; every other function falls back to
numpy.linalg (a RuntimeWarning names each one the first time it is used).
"""
import numpy as _np

from tessera._tessera import matmul  # noqa: F401
from tessera._tessera._linalg import norm  # noqa: F401
from tessera.numpy._fallback import fallback_attribute as _fallback_attribute

LinAlgError = _np.linalg.LinAlgError


def __getattr__(name):
    return _fallback_attribute(name, _np.linalg, "numpy.linalg")
