"""Conversions between array kinds and layouts (NumPy's _asarray and numeric): astype,
asanyarray, ascontiguousarray, asfortranarray, require, array_equiv and fromfunction."""
import builtins

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute
from tessera.numpy._shapes import indices

_ndarray = _tessera.ndarray


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """`function` called once with the index grids of `shape` (one array per axis)."""
    if like is not None:
        return fallback_attribute("fromfunction")(function, shape, dtype=dtype, like=like, **kwargs)
    return function(*indices(shape, dtype=dtype), **kwargs)


def astype(x, dtype, /, *, copy=True, device=None):
    """`x` (an array or a scalar) converted to `dtype`; `x` itself when it has it and not `copy`."""
    if not (isinstance(x, (_ndarray, _np.ndarray)) or _np.isscalar(x)):
        raise TypeError(f"Input should be a NumPy array or scalar. It is a {type(x)} instead.")
    if device is not None and device != "cpu":
        raise ValueError(f'Device not understood. Only "cpu" is allowed, but received: {device}')
    return _tessera.asarray(x).astype(dtype, copy=copy)


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """`a` as a tessera array: asarray, as tessera has no subclasses."""
    return _tessera.asarray(a, dtype, order, device=device, copy=copy, like=like)


def _at_least_1d_c(a, dtype):
    a = _tessera.asarray(a, dtype=dtype)
    if a.ndim == 0:
        return a.reshape(1)
    return a if a.flags.c_contiguous else a.copy()


def ascontiguousarray(a, dtype=None, *, like=None):
    """`a` as a C-contiguous tessera array of at least one dimension (a copy only if needed)."""
    return _at_least_1d_c(a, dtype)


def asfortranarray(a, dtype=None, *, like=None):
    """`a` as a tessera array of at least one dimension, which is C-ordered: tessera arrays have
    no Fortran layout, so this returns what ascontiguousarray does (same shape and values as
    NumPy's result; F-contiguous only when at most one axis is longer than 1)."""
    return _at_least_1d_c(a, dtype)


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
                 "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """`a` as a tessera array of `dtype` meeting `requirements` (copied if it does not). Tessera
    arrays are C-ordered: 'F' gives a C-ordered array ('C' and 'F' together are an error)."""
    if like is not None:
        return fallback_attribute("require")(a, dtype, requirements, like=like)
    if not requirements:
        return _tessera.asarray(a, dtype=dtype)
    requirements = {_REQUIREMENTS[x.upper()] for x in requirements}
    requirements.discard("E")
    if requirements >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    arr = _tessera.asarray(a, dtype=dtype)
    if "C" in requirements or "F" in requirements:
        if not arr.flags.c_contiguous:
            return arr.copy()
    if ("W" in requirements and not arr.flags.writeable) or ("O" in requirements and not arr.flags.owndata):
        return arr.copy()
    return arr


def array_equiv(a1, a2):
    """Whether `a1` and `a2` have equal elements once broadcast to one shape (False if they cannot)."""
    try:
        a1, a2 = _tessera.asarray(a1), _tessera.asarray(a2)
    except Exception:  # noqa: BLE001  (NumPy: anything that is no array is not equivalent)
        return False
    try:
        _np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(_tessera.all(_tessera.equal(a1, a2)))
