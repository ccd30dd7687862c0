"""Order statistics and covariance built on tessera's native sort and reductions: median,
quantile, percentile and their NaN-ignoring forms, cov and corrcoef. The reduced axes are
moved last and merged, the slices sorted (NaN sorts last), and a quantile read from the two
sorted positions around it: the positions depend only on a slice's count of numbers and q,
so they are computed on the host with NumPy's own index rules (one table row per possible
count) and gathered per slice, and the values interpolated with NumPy's formula. Weighted
quantiles (inverted_cdf) sort with argsort, gather the weights in that order and search
their cumulative sum."""
import warnings

import numpy as _np

try:  # NumPy's own rules of the quantile methods: private, so a release that moves them falls back
    from numpy.lib import _function_base_impl as _fb
    _RULES = all(hasattr(_fb, n) for n in ("_QuantileMethods", "_get_indexes", "_get_gamma", "_quantile_is_valid"))
except ImportError:
    _fb, _RULES = None, False

from tessera import _tessera
from tessera.numpy._fallback import _user_stacklevel
from tessera.numpy._fallback import fallback_attribute as _fallback
from tessera.numpy._indexing import put_along_axis as _put_along_axis
from tessera.numpy._indexing import take_along_axis as _take_along_axis
from tessera.numpy._nanfuncs import nanmean as _nanmean
from tessera.numpy._sets import unique as _unique
from tessera.numpy._shapes import diagonal as _diagonal


def _inexact(a):
    return _np.dtype(a.dtype).kind in "fc"


def _warn(message):
    warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())


def _slices(a, axis):
    """`a` with the reduced axes merged into one last axis, and the normalised axes."""
    if axis is None:
        return a.reshape(-1), tuple(range(a.ndim))
    axes = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    keep = [i for i in range(a.ndim) if i not in axes]
    moved = _tessera.moveaxis(a, list(axes), list(range(len(keep), a.ndim))) if axes else a
    length = int(_np.prod([a.shape[i] for i in axes], dtype=_np.intp))
    return moved.reshape(tuple(a.shape[i] for i in keep) + (length,)), axes


def _finish(result, out, shape, axes, keepdims):
    """Restore the reduced axes (keepdims: the last dimensions are the kept ones) and write `out`."""
    if keepdims:
        split = result.ndim - (len(shape) - len(axes))
        kept = iter(result.shape[split:])
        result = result.reshape(result.shape[:split] + tuple(1 if i in axes else next(kept)
                                                             for i in range(len(shape))))
    if out is None:
        return result
    _tessera.copyto(out, result.reshape(out.shape) if result.size == out.size else result, casting="unsafe")
    return out


def _take(s, positions):
    """s[..., k] for each k of the integer array `positions`, stacked in front (positions.shape + rest)."""
    columns = {}  # each position is read once (neighbouring q share positions)
    flat = [columns[k] if k in columns else columns.setdefault(k, s[..., k]) for k in map(int, positions.ravel())]
    if positions.ndim == 0:
        return flat[0]
    rest = s.shape[:-1]
    if not flat:
        return _tessera.zeros(positions.shape + rest, dtype=s.dtype)
    return _tessera.stack(flat).reshape(positions.shape + rest)


def _lerp(a, b, t):
    """NumPy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) where t >= 0.5."""
    diff = b - a
    low = a + diff * t
    high = (b - diff * (1 - t)).astype(low.dtype)
    if isinstance(t, float):
        return high if t >= 0.5 else low
    return _tessera.where(t >= 0.5, high, low)


def _sorted_quantile(s, n, q, method, weak_q):
    """The q-quantiles of the sorted slices `s` (last axis, `n` values each), NumPy's rules."""
    try:
        props = _fb._QuantileMethods[method]
    except KeyError:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_fb._QuantileMethods.keys()}") from None
    virtual = _np.asanyarray(props["get_virtual_index"](n, q))
    nans = _inexact(s)
    if props["fix_gamma"] is None or (method == "linear" and virtual.dtype.kind in "iu"):
        result = _take(s, virtual)
    else:
        if n == 0:
            raise IndexError("index -1 is out of bounds for axis 0 with size 0")
        previous, following = _fb._get_indexes(_np.empty(0, s.dtype), virtual, n)
        gamma = _fb._get_gamma(virtual, previous, props)
        if weak_q:
            gamma = float(gamma)
        else:
            gamma = _tessera.asarray(gamma.reshape(virtual.shape + (1,) * (s.ndim - 1)))
        result = _lerp(_take(s, previous), _take(s, following), gamma)
    if nans and n > 0:
        last = s[..., -1]
        result = _tessera.where(_tessera.isnan(last), last, result)
    return result


def _check_q(q, percent):
    weak_q = type(q) in (int, float)
    q = _np.asarray(_np.true_divide(q, 100) if percent else q)
    if not _fb._quantile_is_valid(q):
        raise ValueError("Percentiles must be in the range [0, 100]" if percent
                         else "Quantiles must be in the range [0, 1]")
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    return q, weak_q


def _quantile(name, a, q, axis, out, overwrite_input, method, keepdims, weights, percent, ignore_nan):
    if not _RULES:
        return _fallback(name)(a, q, axis=axis, out=out, overwrite_input=overwrite_input, method=method,
                               keepdims=keepdims, weights=weights)
    if isinstance(q, _tessera.ndarray):
        q = _np.asarray(q)
    a = _tessera.asarray(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    q, weak_q = _check_q(q, percent)
    if weights is not None:
        return _weighted_quantile(a, q, axis, out, method, keepdims, weights, ignore_nan)
    if ignore_nan and a.size == 0:
        return _nanmean(a, axis, out=out, keepdims=keepdims)
    s, axes = _slices(a, axis)
    s = _tessera.sort(s, axis=-1)
    if ignore_nan and _inexact(a):
        if s.ndim > 1 and s.size and bool(_tessera.any(_tessera.isnan(s[..., -1]))):
            result = _nan_sorted_quantile(s, q, method, weak_q, a.dtype)
            if q.ndim == 2:
                result = _nan_q2_order(result, axis, a.ndim)
            return _finish(result, out, a.shape, axes, keepdims)
        if s.ndim == 1:  # one slice: its NaNs, sorted last, are cut off
            s = s[:int(_tessera.count_nonzero(_tessera.logical_not(_tessera.isnan(s))))]
            if s.size == 0:
                _warn("All-NaN slice encountered")
                return _finish(_tessera.full(q.shape, _np.nan, dtype=a.dtype), out, a.shape, axes, keepdims)
    n = s.shape[-1]
    result = _sorted_quantile(s, n, q, method, weak_q)
    if ignore_nan and q.ndim == 2 and s.ndim > 1:
        result = _nan_q2_order(result, axis, a.ndim)
    return _finish(result, out, a.shape, axes, keepdims)


def _position_tables(sizes, q, method, weak_q, dtype):
    """NumPy's positions of the q-quantiles in a sorted slice holding c numbers, for each c
    of the 1-D `sizes`: row i of each table is for sizes[i] numbers (the trailing dimensions
    are q's). Returns the two positions around each quantile (one table when no
    interpolation is needed) and the interpolation weight t, 1 - t and t >= 0.5 as NumPy's
    _lerp computes them (None for no interpolation)."""
    try:
        props = _fb._QuantileMethods[method]
    except KeyError:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_fb._QuantileMethods.keys()}") from None
    # A slice's count enters NumPy's formulas as a Python int: weak, so q's dtype decides.
    last = sizes.astype(_np.intp).reshape(sizes.shape + (1,) * q.ndim)
    counts = last.astype(q.dtype) if q.dtype.kind == "f" else last
    virtual = _np.asanyarray(props["get_virtual_index"](counts, q))
    virtual = _np.broadcast_to(virtual, sizes.shape + q.shape)
    if props["fix_gamma"] is None or (method == "linear" and virtual.dtype.kind in "iu"):
        index = virtual.astype(_np.intp)
        index = _np.where(index < 0, index + last, index)  # take's negative positions count from the end
        return (_np.clip(index, 0, None),), None
    previous, following = _fb._get_indexes(_np.empty(0, dtype), virtual, last)
    gamma = _fb._get_gamma(virtual, previous, props)
    # -1 reads the last number of the slice, not of the row
    previous = _np.clip(_np.where(previous < 0, previous + last, previous), 0, None)
    following = _np.clip(_np.where(following < 0, following + last, following), 0, None)
    if weak_q:  # NumPy's gamma is then a Python float, weak against a's floating dtype
        wide = _np.asarray(gamma, dtype=_np.float64)
        narrow = dtype if _np.dtype(dtype).kind == "f" else _np.float64
        weight = (wide.astype(narrow), (1 - wide).astype(narrow), wide >= 0.5)
    else:
        weight = (gamma, 1 - gamma, gamma >= 0.5)
    return (previous, following), weight


def _nan_sorted_quantile(s, q, method, weak_q, dtype):
    """The q-quantiles (q's dimensions first) of the sorted slices `s` ignoring the NaNs sorted
    last: each slice's positions follow from its own count of numbers; NaN and a RuntimeWarning
    for a slice of NaNs only (NumPy's nan* quantiles, slice by slice)."""
    n = s.shape[-1]
    counts = _tessera.count_nonzero(_tessera.logical_not(_tessera.isnan(s)), axis=-1)
    rest = s.shape[:-1]
    if n + 1 <= counts.size:  # a row for every possible count
        sizes, row = _np.arange(n + 1), counts
    else:  # few long slices: a row for each count that occurs
        sizes, row = _unique(counts.ravel(), return_inverse=True)
        sizes, row = _np.asarray(sizes), row.reshape(rest)
    tables, weight = _position_tables(sizes, q, method, weak_q, s.dtype)

    def per_slice(table):  # the table's row of each slice: rest + (q.size,)
        return _tessera.asarray(table.reshape(sizes.size, q.size))[row]

    values = [_take_along_axis(s, per_slice(t), axis=-1) for t in tables]
    if weight is None:
        result = values[0]
    else:
        low, high = values
        t, one_minus_t, upper = (per_slice(w) for w in weight)
        diff = high - low
        result = low + diff * t
        result = _tessera.where(upper, (high - diff * one_minus_t).astype(result.dtype), result)
    empty = counts == 0
    if bool(_tessera.any(empty)):
        _warn("All-NaN slice encountered")
        result = _tessera.where(empty[..., None], _np.nan, result)
        # NumPy stacks the slices' results in the dtype of the first slice's
        if bool(empty.reshape(-1)[0]):
            result = result.astype(dtype)
    result = _tessera.moveaxis(result, -1, 0)
    return result.reshape(q.shape + rest)


def _count_below(cdf, qs):
    """searchsorted(cdf, qs, "left") in each slice of the sorted `cdf` (last axis): how many of
    its values lie below each q. The qs go in front of each slice and the slices are sorted
    stably, so a q is placed before the values equal to it; its position there, less the
    qs placed before it (its stable rank among the qs), counts the values below it."""
    rank = _np.empty(qs.size, dtype=_np.intp)
    rank[_np.argsort(qs, kind="stable")] = _np.arange(qs.size)
    rest = cdf.shape[:-1]
    front = _tessera.broadcast_to(_tessera.asarray(qs).astype(cdf.dtype), rest + (qs.size,))
    order = _tessera.argsort(_tessera.concatenate((front, cdf), axis=-1), axis=-1, kind="stable")
    position = _tessera.empty(order.shape, dtype=_np.intp)
    _put_along_axis(position, order, _tessera.broadcast_to(_tessera.arange(order.shape[-1]), order.shape), -1)
    return position[..., :qs.size] - _tessera.asarray(rank)


def _weighted_quantile(a, q, axis, out, method, keepdims, weights, ignore_nan):
    """NumPy's weighted quantile (method inverted_cdf only): the first sorted value at which the
    normalised cumulative weight reaches q, slice by slice."""
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    if axis is not None:
        axis = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim, argname="axis")
    weights = _tessera.asarray(weights)
    if weights.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if weights.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        weights = _tessera.transpose(weights, tuple(_np.argsort(axis)))  # the reduced axes in a's order
        weights = _tessera.broadcast_to(weights.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape))),
                                        a.shape)
    if bool(_tessera.any(weights < 0)):
        raise ValueError("Weights must be non-negative.")
    if ignore_nan and a.size == 0:
        return _nanmean(a, axis, out=out, keepdims=keepdims)
    axes = tuple(range(a.ndim)) if axis is None else tuple(sorted(axis))
    s, axes = _slices(a, None if axis is None else axes)
    w, _ = _slices(weights, None if axis is None else axes)
    n = s.shape[-1]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    order = _tessera.argsort(s, axis=-1)
    s = _take_along_axis(s, order, axis=-1)
    w = _take_along_axis(w, order, axis=-1)
    nans = _inexact(a)
    counts = None
    if nans:
        number = _tessera.logical_not(_tessera.isnan(s))
        if ignore_nan:  # a NaN and its weight leave the slice: the NaNs are sorted last
            w = _tessera.where(number, w, 0)
            counts = _tessera.count_nonzero(number, axis=-1)
    cdf = _tessera.cumsum(w, axis=-1, dtype=_np.float64)
    cdf = cdf / cdf[..., -1:]
    if bool(_tessera.any(_tessera.isnan(cdf[..., -1] if counts is None else
                                        _tessera.where(counts > 0, cdf[..., -1], 0.0)))):
        raise ValueError("Weights included NaN, inf or were all zero.")
    if q.dtype.kind == "f":
        cdf = cdf.astype(q.dtype)
    cdf = _tessera.where(cdf == 0, -1, cdf)  # leading zero weights are passed over at q = 0
    below = _count_below(cdf, q.reshape(-1))
    top = n - 1 if counts is None else _tessera.maximum(counts - 1, 0)[..., None]
    result = _take_along_axis(s, _tessera.minimum(below, top), axis=-1)
    if counts is not None:
        empty = counts == 0
        if bool(_tessera.any(empty)):
            _warn("All-NaN slice encountered")
            result = _tessera.where(empty[..., None], _np.nan, result)
    elif nans:
        last = s[..., -1:]
        result = _tessera.where(_tessera.isnan(last), last, result)
    result = _tessera.moveaxis(result, -1, 0).reshape(q.shape + s.shape[:-1])
    return _finish(result, out, a.shape, axes, keepdims)


def _nan_q2_order(result, axis, ndim):
    """NumPy's nan* order of the dimensions for a 2-D q reduced over several axes of several
    slices: the second q dimension first, the first last."""
    if len(_np.lib.array_utils.normalize_axis_tuple(axis, ndim)) == 1:
        return result
    return _tessera.moveaxis(result, [0, 1], [-1, 0])


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    """The q-th quantiles (q in [0, 1]) along `axis`, by any of NumPy's methods (weights: inverted_cdf)."""
    return _quantile("quantile", a, q, axis, out, overwrite_input, method, keepdims, weights, False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None):
    """The q-th percentiles (q in [0, 100]) along `axis` (weights: inverted_cdf)."""
    return _quantile("percentile", a, q, axis, out, overwrite_input, method, keepdims, weights, True, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None):
    """quantile ignoring NaN (NaN for a slice of NaNs only)."""
    return _quantile("nanquantile", a, q, axis, out, overwrite_input, method, keepdims, weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None):
    """percentile ignoring NaN (NaN for a slice of NaNs only)."""
    return _quantile("nanpercentile", a, q, axis, out, overwrite_input, method, keepdims, weights, True, True)


def _sorted_median(s):
    """The median of the sorted slices `s`: the mean of the middle one or two (NumPy's dtype)."""
    n = s.shape[-1]
    if n == 0:
        _warn("Mean of empty slice")
    half = n // 2
    middle = s[..., half:half + 1] if n % 2 else s[..., max(half - 1, 0):half + 1]
    result = _tessera.mean(middle, axis=-1)
    if _inexact(s) and n > 0:
        last = s[..., -1]
        result = _tessera.where(_tessera.isnan(last), last, result).astype(result.dtype)
    return result


def _nan_sorted_median(s):
    """The medians of the sorted slices `s` ignoring the NaNs sorted last: each slice's middle
    one or two numbers by its own count, added and halved (NumPy's masked median for slices
    shorter than 600, the mean of the two otherwise); NaN and a RuntimeWarning for a slice of
    NaNs only."""
    counts = _tessera.count_nonzero(_tessera.logical_not(_tessera.isnan(s)), axis=-1)[..., None]
    high = counts // 2
    low = _tessera.maximum(_tessera.where(counts % 2 == 1, high, high - 1), 0)
    middle = _take_along_axis(s, _tessera.concatenate((low, _tessera.minimum(high, s.shape[-1] - 1)), axis=-1),
                                      axis=-1)
    if s.shape[-1] < 600:
        result = (middle[..., 0] + middle[..., 1]) / 2
    else:
        result = _tessera.mean(middle, axis=-1)
    empty = counts[..., 0] == 0
    if bool(_tessera.any(empty)):
        _warn("All-NaN slice encountered")
        result = _tessera.where(empty, _np.nan, result)
    return result.astype(s.dtype)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along `axis` (NaN for a slice holding NaN)."""
    a = _tessera.asarray(a)
    s, axes = _slices(a, axis)
    result = _sorted_median(_tessera.sort(s, axis=-1))
    return _finish(result, out, a.shape, axes, keepdims)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=_np._NoValue):
    """The median ignoring NaN (NaN for a slice of NaNs only)."""
    keepdims = False if keepdims is _np._NoValue else keepdims
    a = _tessera.asarray(a)
    if a.size == 0:
        return _nanmean(a, axis, out=out, keepdims=keepdims)
    if not _inexact(a):
        return median(a, axis=axis, out=out, keepdims=keepdims)
    s, axes = _slices(a, axis)
    s = _tessera.sort(s, axis=-1)
    if s.ndim > 1:
        if s.size and bool(_tessera.any(_tessera.isnan(s[..., -1]))):
            return _finish(_nan_sorted_median(s), out, a.shape, axes, keepdims)
    else:
        n = int(_tessera.count_nonzero(_tessera.logical_not(_tessera.isnan(s))))
        if n == 0:
            _warn("All-NaN slice encountered")
            return _finish(s[-1], out, a.shape, axes, keepdims)
        s = s[:n]
    return _finish(_sorted_median(s), out, a.shape, axes, keepdims)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """The covariance matrix of the variables in the rows (or columns) of `m` and `y`."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _tessera.asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _tessera.asarray(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _np.result_type(m.dtype, _np.float64) if y is None else _np.result_type(m.dtype, y.dtype, _np.float64)
    X = m.astype(dtype).reshape((1, -1) if m.ndim < 2 else m.shape)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return _tessera.zeros((0, 0))
    if y is not None:
        Y = y.astype(dtype).reshape((1, -1) if y.ndim < 2 else y.shape)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = _tessera.concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        fweights = _np.asarray(fweights, dtype=float)
        if not _np.all(fweights == _np.around(fweights)):
            raise TypeError("fweights must be integer")
        if fweights.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fweights.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if any(fweights < 0):
            raise ValueError("fweights cannot be negative")
        w = fweights
    if aweights is not None:
        aweights = _np.asarray(aweights, dtype=float)
        if aweights.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aweights.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if any(aweights < 0):
            raise ValueError("aweights cannot be negative")
        w = aweights if w is None else w * aweights
    if w is None:
        avg = _tessera.mean(X, axis=1)
        fact = X.shape[1] - ddof
    else:
        # the weights are small host arrays: their sums are NumPy's
        w_sum = _np.sum(w, dtype=_np.result_type(X.dtype, w.dtype))
        wt = _tessera.asarray(w)
        avg = _tessera.sum(X * wt, axis=1) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * sum(w * aweights) / w_sum
    if fact <= 0:
        _warn("Degrees of freedom <= 0 for slice")
        fact = 0.0
    X = (X - avg[:, None]).astype(X.dtype)
    X_T = X.T if w is None else (X * wt).T
    if _np.dtype(X.dtype).kind == "c":
        X_T = X_T.conj()
    c = _tessera.dot(X, X_T)
    c = (c * _np.true_divide(1, fact)).astype(c.dtype)
    return _squeeze(c)


def _squeeze(c):
    shape = tuple(n for n in c.shape if n != 1)
    return c.reshape(shape)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """The Pearson correlation coefficients of the variables of `x` and `y`."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:
        return c / c
    d = _diagonal(c)
    stddev = _tessera.sqrt(_tessera.real(d) if _np.dtype(c.dtype).kind == "c" else d)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if _np.dtype(c.dtype).kind == "c":
        return _tessera.clip(_tessera.real(c), -1, 1) + 1j * _tessera.clip(_tessera.imag(c), -1, 1)
    return _tessera.clip(c, -1, 1)
