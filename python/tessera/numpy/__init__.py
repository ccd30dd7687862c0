"""A drop-in replacement for NumPy: ``import tessera.numpy as np``.

Functions implemented by tessera run as deferred, parallel operations in its
runtime. Every other public NumPy function falls back to NumPy: its inputs are
converted, NumPy runs, and array results come back as tessera arrays; a
RuntimeWarning names each such function once.
"""
import numpy as _np

from tessera import _tessera
from tessera._tessera import *  # noqa: F401,F403
from tessera._tessera import ndarray
from tessera.numpy._fallback import fallback_attribute as _fallback_attribute

from numpy import (  # noqa: F401  dtypes, constants and type objects are NumPy's own
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64,
    complex64, complex128, intp, uintp, dtype, newaxis, pi, e, inf, nan, euler_gamma,
    generic, number, integer, signedinteger, unsignedinteger, floating, complexfloating, inexact,
    finfo, iinfo, errstate, seterr, geterr, can_cast, promote_types, issubdtype, ndim, shape, size,
)

bool = _np.bool  # noqa: A001  NumPy 2's name for the boolean dtype
double = float64
single = float32
half = float16
cdouble = complex128
csingle = complex64
int_ = int64
float_ = float64
complex_ = complex128


def __getattr__(name):
    return _fallback_attribute(name)
