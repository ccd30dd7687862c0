"""Running sums and differences built on tessera's native operations: the NaN-ignoring and
NumPy 2 spellings of cumsum/cumprod, diff and ediff1d. Each is a few deferred operations
(where, cumsum, slicing, subtract, concatenate), so it runs in parallel like them."""
import numpy as _np

from tessera import _tessera

_NO_VALUE = _np._NoValue


def _nan_to(a, value):
    a = _tessera.asarray(a)
    if _np.dtype(a.dtype).kind not in "fc":
        return a  # no NaN to replace
    return _tessera.where(_tessera.isnan(a), value, a)


def nancumsum(a, axis=None, dtype=None, out=None):
    """cumsum with NaN counted as zero (a leading run of NaN gives zeros)."""
    return _tessera.cumsum(_nan_to(a, 0), axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """cumprod with NaN counted as one."""
    return _tessera.cumprod(_nan_to(a, 1), axis=axis, dtype=dtype, out=out)


def _cumulative(scan, name, x, axis, dtype, out, include_initial, identity):
    x = _tessera.asarray(x)
    if x.ndim == 0:
        x = x.reshape(1)  # NumPy scans a 0-d array as one element
    if axis is None:
        if x.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    axis = _np.lib.array_utils.normalize_axis_index(axis, x.ndim)
    if not include_initial:
        return scan(x, axis=axis, dtype=dtype, out=out)
    running = scan(x, axis=axis, dtype=dtype)
    shape = list(running.shape)
    shape[axis] = 1
    first = _tessera.full(tuple(shape), identity, dtype=running.dtype)
    result = _tessera.concatenate((first, running), axis=axis)
    if out is None:
        return result
    out[...] = result
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """NumPy 2's cumsum: `axis` required above 1-D, optionally starting with a zero."""
    return _cumulative(_tessera.cumsum, "cumulative_sum", x, axis, dtype, out, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """NumPy 2's cumprod: `axis` required above 1-D, optionally starting with a one."""
    return _cumulative(_tessera.cumprod, "cumulative_prod", x, axis, dtype, out, include_initial, 1)


def diff(a, n=1, axis=-1, prepend=_NO_VALUE, append=_NO_VALUE):
    """The n-th discrete difference along `axis`: a[1:] - a[:-1], n times (booleans: !=)."""
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _tessera.asarray(a)
    nd = a.ndim
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _np.lib.array_utils.normalize_axis_index(axis, nd)
    combined = []
    for value in (prepend, append):
        if value is _NO_VALUE:
            combined.append(None)
            continue
        value = _tessera.asarray(value)
        if value.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            value = _tessera.broadcast_to(value, tuple(shape))
        combined.append(value)
    pieces = [p for p in (combined[0], a, combined[1]) if p is not None]
    if len(pieces) > 1:
        a = _tessera.concatenate(pieces, axis=axis)
    upper = [slice(None)] * nd
    lower = [slice(None)] * nd
    upper[axis] = slice(1, None)
    lower[axis] = slice(None, -1)
    upper, lower = tuple(upper), tuple(lower)
    op = _tessera.not_equal if a.dtype == _np.bool_ else _tessera.subtract
    for _ in range(n):
        a = op(a[upper], a[lower])
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened array, with optional ends."""
    ary = _tessera.asarray(ary).ravel()
    dtype = ary.dtype
    result = ary[1:] - ary[:-1]
    pieces = []
    for value, name in ((to_begin, "to_begin"), (None, None), (to_end, "to_end")):
        if name is None:
            pieces.append(result)
            continue
        if value is None:
            continue
        value = _tessera.asarray(value)
        if not _np.can_cast(value.dtype, dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        pieces.append(value.ravel().astype(dtype))
    if len(pieces) == 1:
        return result
    return _tessera.concatenate(pieces)
