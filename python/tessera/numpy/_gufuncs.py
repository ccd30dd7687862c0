"""NumPy's generalized ufuncs of products — matmul, vecdot, matvec, vecmat — with NumPy's
parameters. The native product runs for the operands with out= (matmul) or axis= (vecdot); the
other gufunc keywords (axes, keepdims, casting, order, dtype, subok, signature) run NumPy's
gufunc through the fallback."""
import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute

_NO_VALUE = _np._NoValue
# The keywords each native product takes.
_NATIVE_KEYWORDS = {"matmul": {"out"}, "vecdot": {"axis"}, "matvec": set(), "vecmat": set()}


def _product(name):
    native, numpy_gufunc = getattr(_tessera, name), getattr(_np, name)

    def call(x1, x2, /, out=None, *, axes=_NO_VALUE, axis=_NO_VALUE, keepdims=False, casting="same_kind",
             order="K", dtype=None, subok=True, signature=None):
        given = {"out": out, "axes": axes, "axis": axis, "keepdims": keepdims, "casting": casting, "order": order,
                 "dtype": dtype, "subok": subok, "signature": signature}
        defaults = {"out": None, "axes": _NO_VALUE, "axis": _NO_VALUE, "keepdims": False, "casting": "same_kind",
                    "order": "K", "dtype": None, "subok": True, "signature": None}
        given = {k: v for k, v in given.items() if v is not defaults[k] and not (isinstance(v, str) and v == defaults[k])}
        if given.keys() <= _NATIVE_KEYWORDS[name]:
            return native(x1, x2, **given)
        return fallback_attribute(name)(x1, x2, **given)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = numpy_gufunc.__doc__
    return call


matmul = _product("matmul")
vecdot = _product("vecdot")
matvec = _product("matvec")
vecmat = _product("vecmat")
