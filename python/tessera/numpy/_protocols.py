"""NumPy's dispatch protocols for tessera arrays: __array_ufunc__ (NEP 13), __array_function__
(NEP 18) and __array_namespace__ (the array API standard).

A NumPy ufunc or function given a tessera array runs in tessera: natively where tessera.numpy
has the function, otherwise through the NumPy fallback (which runs NumPy's implementation on
NumPy copies, so it never dispatches back here). Results are tessera arrays, except that a
NumPy array passed as `out=` receives the result and is returned, as NumPy does.
"""
import sys
import threading

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_call
from tessera.numpy._ufunc import UFUNCS, numpy_out

_ndarray = _tessera.ndarray
# Operands NumPy itself knows: anything else that overrides ufuncs is left to its own library.
_KNOWN = (_ndarray, _np.ndarray, _np.generic, int, float, complex, list, tuple)
# Errors of a native function that mean "not this signature" (an argument tessera's function
# lacks, a NumPy array as out=): the call goes to NumPy's implementation instead.
_SIGNATURE_ERRORS = ("got arguments of unsupported types", "got no arguments", "unexpected keyword argument",
                     "positional argument", "return arrays must be of ArrayType")


_active = threading.local()  # the NumPy functions whose native implementation runs on this thread


def _foreign(obj):
    return not isinstance(obj, _KNOWN) and hasattr(type(obj), "__array_ufunc__")


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NEP 13: a NumPy ufunc (or one of its methods) with a tessera array among its operands."""
    out = kwargs.get("out", ())
    if any(_foreign(x) for x in inputs + out):
        return NotImplemented
    name = ufunc.__name__
    ours = UFUNCS.get(name)
    if ours is not None:
        return getattr(ours, method)(*inputs, **kwargs)
    native = vars(_tessera).get(name)
    if method == "__call__" and native is not None and not kwargs:  # e.g. matmul
        return native(*inputs)
    qualname = f"numpy.{name}" if method == "__call__" else f"numpy.{name}.{method}"
    result = fallback_call(qualname, getattr(ufunc, method), inputs, kwargs, writes=(0,) if method == "at" else ())
    return numpy_out(out, result)


def _native(module, name, func):
    """tessera's own implementation of `module.name`, or None (then the fallback runs)."""
    ours = sys.modules.get("tessera." + module)
    impl = vars(ours).get(name) if ours is not None else None
    # Names tessera.numpy takes from NumPy unchanged would dispatch back here.
    return None if impl is None or impl is func or not callable(impl) else impl


def array_function(self, func, types, args, kwargs):
    """NEP 18: a NumPy function with a tessera array among its array arguments."""
    if not all(issubclass(t, (_ndarray, _np.ndarray)) for t in types):
        return NotImplemented
    module = func.__module__ or "numpy"
    native = _native(module, func.__name__, func)
    active = _active.__dict__.setdefault("funcs", set())
    # A native function that hands its work to NumPy (linspace with array end points) comes
    # back here: NumPy's implementation then runs on NumPy copies.
    if native is not None and func not in active and not isinstance(kwargs.get("out"), _np.ndarray):
        active.add(func)
        try:
            return native(*args, **kwargs)
        except (TypeError, NotImplementedError) as exc:
            if isinstance(exc, TypeError) and not any(s in str(exc) for s in _SIGNATURE_ERRORS):
                raise
        finally:
            active.discard(func)
    result = fallback_call(f"{module}.{func.__name__}", getattr(func, "_implementation", func), args, kwargs)
    return numpy_out(kwargs.get("out"), result)


_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")  # NumPy 2.4's


def array_namespace(self, api_version=None):
    """The array API namespace of tessera arrays: the tessera.numpy module, for the versions of
    the standard NumPy supports (ValueError for others, as NumPy)."""
    if api_version is not None and not isinstance(api_version, str):
        raise ValueError(f"Only None and strings are allowed as the Array API version, but received: {api_version}.")
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f'Version "{api_version}" of the Array API Standard is not supported.')
    return sys.modules["tessera.numpy"]


def install(cls):
    cls.__array_ufunc__ = array_ufunc
    cls.__array_function__ = array_function
    cls.__array_namespace__ = array_namespace
