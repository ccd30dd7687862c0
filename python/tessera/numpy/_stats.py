"""Order statistics and covariance built on tessera's native sort and reductions: median,
quantile, percentile and their NaN-ignoring forms, cov and corrcoef. The reduced axes are
moved last and merged, the slices sorted (NaN sorts last), and a quantile read from the two
sorted positions around it: the positions depend only on the slice length and q, so they
are computed on the host with NumPy's own index rules and the values interpolated with
NumPy's formula. Weighted quantiles, and the nan* forms on several slices that hold NaN
(each slice would need its own positions), run in NumPy with a FallbackWarning."""
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
from tessera.numpy._nanfuncs import nanmean as _nanmean
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
    if weights is not None or not _RULES:
        return _fallback(name)(a, q, axis=axis, out=out, overwrite_input=overwrite_input, method=method,
                               keepdims=keepdims, weights=weights)
    if isinstance(q, _tessera.ndarray):
        q = _np.asarray(q)
    a = _tessera.asarray(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    given_q = q
    q, weak_q = _check_q(q, percent)
    if ignore_nan and a.size == 0:
        return _nanmean(a, axis, out=out, keepdims=keepdims)
    s, axes = _slices(a, axis)
    s = _tessera.sort(s, axis=-1)
    if ignore_nan and _inexact(a):
        if s.ndim > 1 and s.size and bool(_tessera.any(_tessera.isnan(s[..., -1]))):
            return _fallback(name)(a, given_q, axis=axis, out=out, method=method, keepdims=keepdims)
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


def _nan_q2_order(result, axis, ndim):
    """NumPy's nan* order of the dimensions for a 2-D q reduced over several axes of several
    slices: the second q dimension first, the first last."""
    if len(_np.lib.array_utils.normalize_axis_tuple(axis, ndim)) == 1:
        return result
    return _tessera.moveaxis(result, [0, 1], [-1, 0])


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    """The q-th quantiles (q in [0, 1]) along `axis`, by any of NumPy's methods (weights fall back)."""
    return _quantile("quantile", a, q, axis, out, overwrite_input, method, keepdims, weights, False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None):
    """The q-th percentiles (q in [0, 100]) along `axis` (weights fall back)."""
    return _quantile("percentile", a, q, axis, out, overwrite_input, method, keepdims, weights, True, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None):
    """quantile ignoring NaN; several slices holding NaN (or weights) fall back to NumPy."""
    return _quantile("nanquantile", a, q, axis, out, overwrite_input, method, keepdims, weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None):
    """percentile ignoring NaN; several slices holding NaN (or weights) fall back to NumPy."""
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


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along `axis` (NaN for a slice holding NaN)."""
    a = _tessera.asarray(a)
    s, axes = _slices(a, axis)
    result = _sorted_median(_tessera.sort(s, axis=-1))
    return _finish(result, out, a.shape, axes, keepdims)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=_np._NoValue):
    """The median ignoring NaN; several slices holding NaN fall back to NumPy."""
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
            return _fallback("nanmedian")(a, axis=axis, out=out, keepdims=keepdims)
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


def corrcoef(x, y=None, rowvar=True, bias=_np._NoValue, ddof=_np._NoValue, *, dtype=None):
    """The Pearson correlation coefficients of the variables of `x` and `y`."""
    if bias is not _np._NoValue or ddof is not _np._NoValue:
        warnings.warn("bias and ddof have no effect and are deprecated", DeprecationWarning,
                      stacklevel=_user_stacklevel())
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
