"""Reductions that ignore NaN, and ptp and average, built on tessera's native reductions: NaN
is replaced (where) by the value that leaves the reduction unchanged, and the slices that held
only NaN are found with `all`. Whether NumPy would warn or raise is read back (a sync point)."""
import warnings

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import _user_stacklevel

_NO_VALUE = _np._NoValue


def _given(**kwargs):
    """The keyword arguments the caller gave (NumPy's _NoValue means "not given")."""
    return {k: v for k, v in kwargs.items() if v is not _NO_VALUE}


def _inexact(a):
    return _np.dtype(a.dtype).kind in "fc"


def _replace_nan(a, value):
    """`a` with NaN replaced by `value`, and the NaN mask (None for types without NaN)."""
    a = _tessera.asarray(a)
    if not _inexact(a):
        return a, None
    mask = _tessera.isnan(a)
    return _tessera.where(mask, value, a), mask


def _warn(message):
    warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())


def _check_inexact(dtype, out):
    if dtype is not None and _np.dtype(dtype).kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and _np.dtype(out.dtype).kind not in "fc":
        raise TypeError("If a is inexact, then out must be inexact")


def _divide(total, count):
    """total / count in the dtype of `total` (NumPy divides with casting='unsafe')."""
    return _tessera.divide(total, count).astype(total.dtype)


def _into(out, result):
    if out is None:
        return result
    _tessera.copyto(out, result, casting="unsafe")
    return out


def nansum(a, axis=None, dtype=None, out=None, keepdims=_NO_VALUE, initial=_NO_VALUE, where=_NO_VALUE):
    """The sum of the elements, NaN counted as zero."""
    a, _ = _replace_nan(a, 0)
    return _tessera.sum(a, axis=axis, dtype=dtype, out=out, **_given(keepdims=keepdims, initial=initial, where=where))


def nanprod(a, axis=None, dtype=None, out=None, keepdims=_NO_VALUE, initial=_NO_VALUE, where=_NO_VALUE):
    """The product of the elements, NaN counted as one."""
    a, _ = _replace_nan(a, 1)
    return _tessera.prod(a, axis=axis, dtype=dtype, out=out, **_given(keepdims=keepdims, initial=initial, where=where))


def _nan_extreme(reduce, names, fill, a, axis, out, keepdims, initial, where):
    """nanmin/nanmax: NumPy's fmin/fmax.reduce. A slice of NaN only is NaN, with a warning."""
    filled, mask = _replace_nan(a, fill)
    kwargs = _given(keepdims=keepdims, where=where)
    no_initial = initial is _NO_VALUE or (mask is not None and not isinstance(initial, (str, bytes))
                                          and _np.isnan(initial))
    if initial is not _NO_VALUE:
        kwargs["initial"] = fill if no_initial else initial
    try:
        result = reduce(filled, axis=axis, out=out, **kwargs)
    except ValueError as exc:  # NumPy names the ufunc it reduces with (fmax, not maximum)
        raise type(exc)(str(exc).replace(*names)) from None
    if mask is None or not no_initial:
        return result
    if where is not _NO_VALUE:
        mask = _tessera.logical_or(mask, _tessera.logical_not(where))
    all_nan = _tessera.all(mask, axis=axis, keepdims=kwargs.get("keepdims", False))
    if bool(_tessera.any(all_nan)):
        _tessera.copyto(result, _tessera.where(all_nan, _np.nan, result))
        _warn("All-NaN slice encountered")
    return result


def nanmin(a, axis=None, out=None, keepdims=_NO_VALUE, initial=_NO_VALUE, where=_NO_VALUE):
    """The minimum, ignoring NaN (NaN for a slice of NaN only, with a RuntimeWarning)."""
    return _nan_extreme(_tessera.min, ("minimum", "fmin"), _np.inf, a, axis, out, keepdims, initial, where)


def nanmax(a, axis=None, out=None, keepdims=_NO_VALUE, initial=_NO_VALUE, where=_NO_VALUE):
    """The maximum, ignoring NaN (NaN for a slice of NaN only, with a RuntimeWarning)."""
    return _nan_extreme(_tessera.max, ("maximum", "fmax"), -_np.inf, a, axis, out, keepdims, initial, where)


def _nan_arg(arg, fill, a, axis, out, keepdims):
    filled, mask = _replace_nan(a, fill)
    if mask is not None and mask.size and bool(_tessera.any(_tessera.all(mask, axis=axis))):
        raise ValueError("All-NaN slice encountered")
    return arg(filled, axis=axis, out=out, keepdims=False if keepdims is _NO_VALUE else keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=_NO_VALUE):
    """The index of the minimum, ignoring NaN; ValueError for a slice of NaN only."""
    return _nan_arg(_tessera.argmin, _np.inf, a, axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=_NO_VALUE):
    """The index of the maximum, ignoring NaN; ValueError for a slice of NaN only."""
    return _nan_arg(_tessera.argmax, -_np.inf, a, axis, out, keepdims)


def _count(mask, axis, keepdims, where):
    """The number of non-NaN elements of each slice (intp)."""
    return _tessera.sum(_tessera.logical_not(mask), axis=axis, dtype=_np.intp, keepdims=keepdims,
                        **_given(where=where))


def nanmean(a, axis=None, dtype=None, out=None, keepdims=_NO_VALUE, *, where=_NO_VALUE):
    """The mean of the non-NaN elements (NaN, with a RuntimeWarning, for a slice without any)."""
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return _tessera.mean(arr, axis=axis, dtype=dtype, out=out, **_given(keepdims=keepdims, where=where))
    _check_inexact(dtype, out)
    keep = _given(keepdims=keepdims)
    count = _count(mask, axis, keep.get("keepdims", False), where)
    total = _tessera.sum(arr, axis=axis, dtype=dtype, **keep, **_given(where=where))
    average = _into(out, _divide(total, count))
    if bool(_tessera.any(_tessera.equal(count, 0))):
        _warn("Mean of empty slice")
    return average


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NO_VALUE, *, where=_NO_VALUE, mean=_NO_VALUE,
           correction=_NO_VALUE):
    """The variance of the non-NaN elements (NaN, with a RuntimeWarning, where there are not
    more than `ddof` of them)."""
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return _tessera.var(arr, axis=axis, dtype=dtype, out=out, ddof=ddof,
                            **_given(keepdims=keepdims, where=where, mean=mean, correction=correction))
    _check_inexact(dtype, out)
    if correction is not _NO_VALUE:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    count = _count(mask, axis, True, where)
    if mean is not _NO_VALUE:
        average = mean
    else:
        average = _divide(_tessera.sum(arr, axis=axis, dtype=dtype, keepdims=True, **_given(where=where)), count)
    # NumPy subtracts into `arr` (casting='unsafe') and zeroes the NaN positions again.
    deviation = _tessera.where(mask, 0, _tessera.subtract(arr, average).astype(arr.dtype))
    if _np.dtype(deviation.dtype).kind == "c":
        square = _tessera.real(_tessera.multiply(deviation, _tessera.conjugate(deviation)))
    else:
        square = _tessera.multiply(deviation, deviation)
    keep = _given(keepdims=keepdims).get("keepdims", False)
    var = _tessera.sum(square, axis=axis, dtype=dtype, keepdims=keep, **_given(where=where))
    if not keep:
        count = count.reshape(var.shape)
    dof = _tessera.subtract(count, ddof)
    var = _divide(var, dof)
    bad = _tessera.less_equal(dof, 0)
    if bool(_tessera.any(bad)):
        _warn("Degrees of freedom <= 0 for slice.")
        var = _tessera.where(bad, _np.nan, var)
    return _into(out, var)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NO_VALUE, *, where=_NO_VALUE, mean=_NO_VALUE,
           correction=_NO_VALUE):
    """The standard deviation of the non-NaN elements: the square root of nanvar."""
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return _tessera.std(arr, axis=axis, dtype=dtype, out=out, ddof=ddof,
                            **_given(keepdims=keepdims, where=where, mean=mean, correction=correction))
    _check_inexact(dtype, out)
    var = nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean,
                 correction=correction)
    return _into(out, _tessera.sqrt(var))


def ptp(a, axis=None, out=None, keepdims=_NO_VALUE):
    """The range (maximum - minimum) of the values along `axis`."""
    a = _tessera.asarray(a)
    keep = _given(keepdims=keepdims)
    return _tessera.subtract(_tessera.max(a, axis=axis, **keep), _tessera.min(a, axis=axis, **keep), out=out)


def average(a, axis=None, weights=None, returned=False, *, keepdims=_NO_VALUE):
    """The (weighted) mean along `axis`; with `returned`, also the sum of the weights."""
    a = _tessera.asarray(a)
    if axis is not None:
        axis = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim, argname="axis")
    keep = _given(keepdims=keepdims)
    if weights is None:
        avg = _tessera.mean(a, axis=axis, **keep)
        if a.size == 0 and avg.size:
            _warn("Mean of empty slice")
        scale = _tessera.full(avg.shape, a.size / avg.size, dtype=avg.dtype)  # NumPy divides even when empty
    else:
        weights = _weights_along(_tessera.asarray(weights), a, axis)
        if _np.dtype(a.dtype).kind in "biu":
            result_dtype = _np.result_type(a.dtype, weights.dtype, "f8")
        else:
            result_dtype = _np.result_type(a.dtype, weights.dtype)
        scale = _tessera.sum(weights, axis=axis, dtype=result_dtype, **keep)
        if bool(_tessera.any(_tessera.equal(scale, 0.0))):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _tessera.divide(_tessera.sum(_tessera.multiply(a, weights, dtype=result_dtype), axis=axis, **keep),
                              scale)
    if not returned:
        return avg
    if scale.shape != avg.shape:
        scale = _tessera.broadcast_to(scale, avg.shape).copy()
    return avg, scale


def _weights_along(weights, a, axis):
    """`weights` shaped to broadcast against `a` (NumPy's checks and messages)."""
    if a.shape == weights.shape:
        return weights
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    if weights.shape != tuple(a.shape[ax] for ax in axis):
        raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    weights = _tessera.transpose(weights, tuple(int(i) for i in _np.argsort(axis)))
    return weights.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
