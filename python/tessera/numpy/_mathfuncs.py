"""Element-wise functions built on tessera's native ones: rounding to decimals, NaN and
infinity tests and replacements, and the ufuncs fabs, heaviside and logaddexp2
written as where/arithmetic expressions of the same IEEE steps as NumPy's loops. The dtype a
ufunc computes in, and its errors, come from NumPy's own ufunc applied to empty arrays."""
import math
import operator as _operator

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute
from tessera.numpy._shapes import dtype_probe
from tessera.numpy._ufunc import ufunc

_LOG2E = 1.0 / math.log(2.0)  # a Python float: a weak scalar, which keeps float32 float32


def _composed(numpy_ufunc, compute):
    """A tessera ufunc that runs `compute(*inputs_in_loop_dtype)`; NumPy's ufunc decides the
    loop dtype, and raises NumPy's errors, from empty arrays of the inputs' dtypes."""
    def call(*args, out=None, dtype=None, casting="same_kind"):
        probe_out = None if out is None else _np.empty(0, out.dtype)
        loop = numpy_ufunc(*(dtype_probe(x) for x in args), out=probe_out, dtype=dtype, casting=casting).dtype
        shapes = [_np.shape(x) for x in args]
        try:
            _np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes "
                             + "".join(f"{s} " for s in shapes)) from None
        # NumPy's float16 loops compute in float32 and round once.
        work = _np.float32 if loop == _np.float16 else loop
        result = compute(*(_tessera.asarray(x).astype(work, copy=False) for x in args)).astype(loop, copy=False)
        if out is None:
            return result
        _tessera.copyto(out, result, casting="unsafe")  # NumPy checked the casting above
        return out

    call.__name__ = numpy_ufunc.__name__
    return ufunc(call, numpy_ufunc)


def _heaviside(x, h):
    return _tessera.where(_tessera.less(x, 0), 0, _tessera.where(
        _tessera.greater(x, 0), 1, _tessera.where(_tessera.equal(x, 0), h, _np.nan)))


def _logaddexp(x, y, log1p_exp_of, equal_extra):
    """NumPy's npy_logaddexp(2): x + log1p(exp(-(x - y))) for x > y, the mirror for x <= y,
    x + log(2) (or + 1) when equal (infinities included), NaN otherwise."""
    d = _tessera.subtract(x, y)
    return _tessera.where(
        _tessera.equal(x, y), _tessera.add(x, equal_extra), _tessera.where(
            _tessera.greater(d, 0), _tessera.add(x, log1p_exp_of(_tessera.negative(d))), _tessera.where(
                _tessera.less_equal(d, 0), _tessera.add(y, log1p_exp_of(d)), d)))


def _log2_1p_exp2(d):
    return _tessera.multiply(_tessera.log1p(_tessera.exp2(d)), _LOG2E)


fabs = _composed(_np.fabs, _tessera.absolute)
heaviside = _composed(_np.heaviside, _heaviside)
logaddexp2 = _composed(_np.logaddexp2, lambda x, y: _logaddexp(x, y, _log2_1p_exp2, 1.0))

#: The ufuncs above, by name, to join tessera.numpy's where it has no native one of that name.
COMPOSED_UFUNCS = {f.__name__: f for f in (fabs, heaviside, logaddexp2)}


def round(a, decimals=0, out=None):  # noqa: A001  NumPy's name
    """`a` rounded to `decimals` decimals, halves to even (integers: `a` itself when decimals >= 0;
    complex numbers: both parts)."""
    decimals = _operator.index(decimals)  # NumPy's TypeError for 2.7, '2' or None
    a = _tessera.asarray(a)
    kind = _np.dtype(a.dtype).kind
    if kind == "c" and out is None:
        result = a.copy()
        result.real[...] = round(a.real, decimals)
        result.imag[...] = round(a.imag, decimals)
        return result
    if kind not in "iuf":  # booleans round as float16, complex parts into `out`: NumPy's rules
        return fallback_attribute("round")(a, decimals, out)
    if out is not None:  # NumPy's casting errors, from empty arrays
        _np.round(_np.empty(0, a.dtype), decimals, out=_np.empty(0, out.dtype))
    if decimals >= 0 and kind in "iu":
        result = a
    elif decimals == 0:
        result = _tessera.rint(a)
    else:
        # NumPy's steps: scale by 10**|decimals| (a Python float), then rint and scale back in
        # the dtype of `out` (float64 for integers).
        factor = 10.0 ** abs(decimals)
        scale, unscale = (_tessera.multiply, _tessera.divide) if decimals > 0 else (_tessera.divide, _tessera.multiply)
        work = out.dtype if out is not None else _np.float64 if kind in "iu" else a.dtype
        scaled = _tessera.rint(scale(a, factor).astype(work, copy=False))
        result = unscale(scaled, factor).astype(work if out is not None else a.dtype, copy=False)
    if out is None:
        return result
    _tessera.copyto(out, result, casting="unsafe")
    return out


around = round


def _finite(x, nan, posinf, neginf):
    """Real `x` with NaN, +inf and -inf replaced (default: the largest finite values)."""
    info = _np.finfo(x.dtype)
    return _tessera.where(_tessera.isnan(x), nan, _tessera.where(
        _tessera.equal(x, _np.inf), info.max if posinf is None else posinf, _tessera.where(
            _tessera.equal(x, -_np.inf), info.min if neginf is None else neginf, x))).astype(x.dtype, copy=False)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """`x` with NaN, +inf and -inf replaced by `nan`, `posinf` (default: the largest finite
    value) and `neginf` (default: the most negative one), in both parts of complex numbers;
    in place when not `copy`."""
    if not copy and isinstance(x, _np.ndarray):  # NumPy changes the NumPy array in place
        return fallback_attribute("nan_to_num")(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf)
    in_place = not copy and isinstance(x, _tessera.ndarray)
    x = _tessera.asarray(x)
    kind = _np.dtype(x.dtype).kind
    if kind not in "fc":
        return x.copy() if copy else x
    if kind == "f":
        result = _finite(x, nan, posinf, neginf)
        if not in_place:
            return result
        _tessera.copyto(x, result)
        return x
    result = x if in_place else x.copy()
    for part in (result.real, result.imag):
        part[...] = _finite(part, nan, posinf, neginf)
    return result


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (NumPy replaces 0 by the dtype's epsilon)."""
    x = _tessera.multiply(_np.pi, _tessera.asarray(x))
    eps = _np.finfo(x.dtype).eps if _np.dtype(x.dtype).kind == "f" else 1e-20
    y = _tessera.where(_tessera.not_equal(x, 0), x, eps)
    return _tessera.divide(_tessera.sin(y), y)


def _signed_infinity(x, out, negative):
    x = _tessera.asarray(x)
    if _np.dtype(x.dtype).kind == "c":
        raise TypeError(f"This operation is not supported for {x.dtype} values because it would be ambiguous.")
    sign = _tessera.signbit(x)
    return _tessera.logical_and(_tessera.isinf(x), sign if negative else _tessera.logical_not(sign), out=out)


def isneginf(x, out=None):
    """True where `x` is negative infinity."""
    return _signed_infinity(x, out, True)


def isposinf(x, out=None):
    """True where `x` is positive infinity."""
    return _signed_infinity(x, out, False)


def isreal(x):
    """True where the imaginary part of `x` is zero (everywhere for real types)."""
    return _tessera.equal(_tessera.imag(x), 0)


def iscomplex(x):
    """True where the imaginary part of `x` is non-zero (nowhere for real types)."""
    x = _tessera.asarray(x)
    if _np.dtype(x.dtype).kind == "c":
        return _tessera.not_equal(_tessera.imag(x), 0)
    return _tessera.zeros(x.shape, bool)


def real_if_close(a, tol=100):
    """The real part of complex `a` when every imaginary part is below `tol` (in machine
    epsilons if above 1), else `a`."""
    a = _tessera.asarray(a)
    if _np.dtype(a.dtype).kind != "c":
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    if bool(_tessera.all(_tessera.less(_tessera.absolute(_tessera.imag(a)), tol))):
        return _tessera.real(a)
    return a


_NO_VALUE = _np._NoValue  # NumPy's "argument not given"


def clip(a, a_min=_NO_VALUE, a_max=_NO_VALUE, out=None, *, min=_NO_VALUE, max=_NO_VALUE, **kwargs):  # noqa: A002
    """NumPy 2's clip: the bounds positionally or as min=/max=, not both; no bound (or None for
    both) gives a copy of `a`. The ufunc keywords (dtype, casting, where) run NumPy's clip."""
    if a_min is _NO_VALUE and a_max is _NO_VALUE:
        a_min = None if min is _NO_VALUE else min
        a_max = None if max is _NO_VALUE else max
    elif a_min is _NO_VALUE or a_max is _NO_VALUE:
        missing = "a_min" if a_min is _NO_VALUE else "a_max"
        raise TypeError(f"clip() missing 1 required positional argument: '{missing}'")
    elif min is not _NO_VALUE or max is not _NO_VALUE:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is forbidden.")
    if kwargs:
        return fallback_attribute("clip")(a, a_min, a_max, out, **kwargs)
    return _tessera.clip(a, a_min, a_max, out)


def clip_method(self, min=None, max=None, out=None, **kwargs):  # noqa: A002
    """ndarray.clip: `self` clipped to [min, max]; neither bound gives a copy."""
    return clip(self, min, max, out, **kwargs)
