"""Fallback to NumPy for what tessera does not implement natively.

Inputs are converted to NumPy arrays, NumPy runs, and array results come back
as tessera arrays. A RuntimeWarning names each function the first time it is used.
"""
import functools
import warnings

import numpy as _np

from tessera import _tessera

_warned = set()


def _to_numpy(obj):
    if isinstance(obj, _tessera.ndarray):
        return _tessera._to_numpy(obj)
    if isinstance(obj, (list, tuple)):
        converted = [_to_numpy(o) for o in obj]
        return type(obj)(converted) if isinstance(obj, tuple) else converted
    if isinstance(obj, dict):
        return {k: _to_numpy(v) for k, v in obj.items()}
    return obj


def _from_numpy(obj):
    if isinstance(obj, _np.ndarray) and obj.dtype.kind in "biufc" and obj.dtype != _np.longdouble:
        return _tessera.asarray(obj)
    if isinstance(obj, tuple):
        return tuple(_from_numpy(o) for o in obj)
    if isinstance(obj, list):
        return [_from_numpy(o) for o in obj]
    return obj


def fallback_call(qualname, func, args, kwargs, writes=()):
    """Runs NumPy's `func` on NumPy copies of the tessera arrays in `args`/`kwargs` and
    returns its results as tessera arrays. `writes` names the arguments (positions or
    keywords) that `func` changes in place; their changes reach the tessera arrays."""
    if qualname not in _warned:
        _warned.add(qualname)
        warnings.warn(
            f"tessera.{qualname} is not implemented natively; falling back to NumPy",
            RuntimeWarning,
            stacklevel=3,
        )
    return _from_numpy(func(*_to_numpy(args), **_to_numpy(kwargs)))


def _wrap(qualname, func):
    @functools.wraps(func)
    def call(*args, **kwargs):
        return fallback_call(qualname, func, args, kwargs)

    return call


class _Submodule:
    """A NumPy submodule whose functions fall back (e.g. numpy.fft)."""

    def __init__(self, module, prefix, native=None):
        self._module = module
        self._prefix = prefix
        self._native = native or {}

    def __getattr__(self, name):
        if name in self._native:
            return self._native[name]
        return fallback_attribute(name, self._module, self._prefix)

    def __dir__(self):
        return sorted(set(dir(self._module)) | set(self._native))


def fallback_attribute(name, module=_np, prefix="numpy"):
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        obj = getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module '{prefix.replace('numpy', 'tessera.numpy')}' has no attribute '{name}'") from None
    if callable(obj) and not isinstance(obj, type):
        return _wrap(f"{prefix.replace('numpy', 'numpy')}.{name}", obj)
    if isinstance(obj, type(_np)):
        return _Submodule(obj, f"{prefix}.{name}")
    return obj


def ndarray_attribute(self, name):
    """Methods and attributes of numpy.ndarray that tessera arrays lack run on a NumPy copy."""
    if name.startswith("__"):
        raise AttributeError(name)
    attr = getattr(_np.ndarray, name, None)
    if attr is None:
        raise AttributeError(f"'tessera.numpy.ndarray' object has no attribute '{name}'")
    if callable(attr):
        method = _wrap(f"ndarray.{name}", attr)
        return functools.partial(method, self)
    return _from_numpy(getattr(_tessera._to_numpy(self), name))
