"""Rearranging, repeating and selecting functions built on tessera's native operations:
slices and strided views (flip, split, diagonal stay views, as in NumPy), broadcast_to and
reshape (tile, repeat, meshgrid), concatenate, where and comparisons of aranges (tri, tril,
diag), boolean masks and nonzero. Sizes that depend on the data are read back (a sync point)."""
import operator

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute
from tessera.numpy._indexing import integer_values

_normalize_axis = _np.lib.array_utils.normalize_axis_index
_normalize_axes = _np.lib.array_utils.normalize_axis_tuple


def _along(ndim, axis, key):
    """An index of `ndim` entries: `key` at `axis`, `:` elsewhere."""
    index = [slice(None)] * ndim
    index[axis] = key
    return tuple(index)


def flip(m, axis=None):
    """A view of `m` with the order of the elements along `axis` (default: every axis) reversed."""
    m = _tessera.asarray(m)
    if axis is None:
        return m[(slice(None, None, -1),) * m.ndim]
    index = [slice(None)] * m.ndim
    for ax in _normalize_axes(axis, m.ndim):
        index[ax] = slice(None, None, -1)
    return m[tuple(index)]


def fliplr(m):
    """A view of `m` with the columns (axis 1) reversed."""
    m = _tessera.asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """A view of `m` with the rows (axis 0) reversed."""
    m = _tessera.asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


def rot90(m, k=1, axes=(0, 1)):
    """A view of `m` rotated by 90 degrees `k` times in the plane of `axes`."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _tessera.asarray(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    order = list(range(m.ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return _tessera.transpose(flip(m, axes[1]), order)
    return flip(_tessera.transpose(m, order), axes[1])


def roll(a, shift, axis=None):
    """The elements of `a` shifted by `shift` along `axis` (flattened if None), wrapping around."""
    a = _tessera.asarray(a)
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    axes = _normalize_axes(axis, a.ndim, allow_duplicate=True)
    pairs = _np.broadcast(shift, axes)
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    total = [0] * a.ndim
    for s, ax in pairs:
        total[ax] += int(s)
    result = a
    for ax, s in enumerate(total):
        n = a.shape[ax]
        if n == 0 or s % n == 0:
            continue
        s %= n
        result = _tessera.concatenate((result[_along(a.ndim, ax, slice(n - s, None))],
                                       result[_along(a.ndim, ax, slice(None, n - s))]), axis=ax)
    return result.copy() if result is a else result


def tile(A, reps):
    """`A` repeated `reps` times along each axis (a broadcast of A, reshaped: one copy)."""
    reps = tuple(reps) if _np.iterable(reps) else (reps,)
    A = _tessera.asarray(A)
    c = A.reshape((1,) * (len(reps) - A.ndim) + A.shape)
    reps = (1,) * (c.ndim - len(reps)) + reps
    reps = tuple(operator.index(r) for r in reps)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    interleaved = tuple(x for r, s in zip(reps, c.shape) for x in (r, s))
    expanded = c.reshape(tuple(x for s in c.shape for x in (1, s)))
    shape = tuple(r * s for r, s in zip(reps, c.shape))
    return _tessera.broadcast_to(expanded, interleaved).reshape(shape).copy()


def repeat(a, repeats, axis=None):
    """Each element of `a` repeated `repeats` times (a count per element, or one for all)."""
    a = _tessera.asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    else:
        axis = _normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    given, given_array = repeats, isinstance(repeats, (_tessera.ndarray, _np.ndarray))
    repeats = integer_values(repeats)  # a float scalar or list is truncated, as NumPy does
    if not given_array and repeats.ndim == 0:
        count = int(repeats)
    else:
        counts = _tessera.asarray(repeats)
        if counts.ndim > 1:
            return fallback_attribute("repeat")(a, given, axis=axis)  # NumPy's error depends on the type
        if counts.size == 0 and isinstance(repeats, (list, tuple)):
            counts = counts.astype(_np.intp)
        if not _np.can_cast(counts.dtype, _np.intp, "safe"):
            what = "scalar" if counts.ndim == 0 else "array data"
            raise TypeError(f"Cannot cast {what} from {counts.dtype!r} to {_np.dtype(_np.intp)!r} "
                            "according to the rule 'safe'")
        count = int(counts.reshape(())) if counts.size == 1 else None
    if count is not None:
        if count < 0:
            raise ValueError("negative dimensions are not allowed")
        moved = _tessera.moveaxis(a, axis, -1)[..., None]
        spread = _tessera.broadcast_to(moved, moved.shape[:-1] + (count,))
        flat = spread.reshape(moved.shape[:-2] + (n * count,))
        return _tessera.moveaxis(flat, -1, axis).copy()
    counts = counts.astype(_np.intp)
    if counts.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({counts.size},)")
    if bool(_tessera.any(_tessera.less(counts, 0))):
        raise ValueError("repeats may not contain negative values.")
    longest = int(_tessera.max(counts)) if n else 0
    total = int(_tessera.sum(counts))
    if n * longest > 4 * total + 4096:  # the padded mask would dwarf the result
        return fallback_attribute("repeat")(a, repeats, axis=axis)
    # Row i of an (n, longest) mask keeps its first counts[i] elements: selecting with it from
    # every element broadcast `longest` times keeps them in order.
    keep = _tessera.less(_tessera.arange(longest), counts[:, None])
    moved = _tessera.moveaxis(a, axis, 0)[:, None]
    spread = _tessera.broadcast_to(moved, (n, longest) + moved.shape[2:])
    return _tessera.moveaxis(spread[keep], 0, axis)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """An N x M array with ones at and below the k-th diagonal, zeros elsewhere."""
    if like is not None:
        return fallback_attribute("tri")(N, M, k, dtype, like=like)
    M = N if M is None else M
    rows = _tessera.arange(N)[:, None]
    columns = _tessera.arange(-k, M - k)[None, :]
    return _tessera.greater_equal(rows, columns).astype(dtype)


def tril(m, k=0):
    """`m` with the elements above the k-th diagonal (of the last two axes) zeroed."""
    m = _tessera.asarray(m)
    mask = tri(*m.shape[-2:], k=k, dtype=bool)
    return _tessera.where(mask, m, _tessera.zeros(1, m.dtype))


def triu(m, k=0):
    """`m` with the elements below the k-th diagonal (of the last two axes) zeroed."""
    m = _tessera.asarray(m)
    mask = tri(*m.shape[-2:], k=k - 1, dtype=bool)
    return _tessera.where(mask, _tessera.zeros(1, m.dtype), m)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """A read-only view of the `offset` diagonal of the planes (axis1, axis2), moved to the end."""
    a = _tessera.asarray(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1 = _normalize_axis(axis1, a.ndim, "axis1")
    axis2 = _normalize_axis(axis2, a.ndim, "axis2")
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    offset = operator.index(offset)
    rows, columns = a.shape[axis1], a.shape[axis2]
    start1, start2 = (0, offset) if offset >= 0 else (-offset, 0)
    length = max(0, min(rows - start1, columns - start2))
    others = [d for d in range(a.ndim) if d not in (axis1, axis2)]
    shape = [a.shape[d] for d in others] + [length]
    if 0 in shape:  # a new empty array (NumPy's is an empty view), read-only like a view
        empty = _tessera.empty(tuple(shape), a.dtype)
        empty.setflags(write=False)
        return empty
    first, strides, _ = _tessera._storage_layout(a)
    first += start1 * strides[axis1] + start2 * strides[axis2]
    grid = [strides[d] for d in others] + [strides[axis1] + strides[axis2]]
    return _tessera._strided_view(a, int(first), shape, [int(g) for g in grid], False)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along the `offset` diagonal of the planes (axis1, axis2)."""
    return _tessera.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def diag(v, k=0):
    """The k-th diagonal of a 2-D `v` (a view), or a square array with 1-D `v` on its k-th diagonal."""
    v = _tessera.asarray(v)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    k = operator.index(k)
    n = v.shape[0] + abs(k)
    padded = _tessera.concatenate((v, _tessera.zeros(abs(k), v.dtype)))
    # Element (i, j) of the diagonal is v[i] above or on the main diagonal, v[j] below it.
    values = padded[:, None] if k >= 0 else padded[None, :]
    on_diagonal = _tessera.equal(_tessera.arange(n)[None, :] - _tessera.arange(n)[:, None], k)
    return _tessera.where(on_diagonal, values, _tessera.zeros(1, v.dtype))


def diagflat(v, k=0):
    """A square array with the flattened `v` on its k-th diagonal."""
    return diag(_tessera.asarray(v).ravel(), k)


def fill_diagonal(a, val, wrap=False):
    """Writes `val` (cycled) on the main diagonal of `a`, in place; `wrap` continues it below
    the first N rows of a tall matrix."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if not _np.all(_np.diff(a.shape) == 0):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(_np.cumprod(a.shape[:-1]).sum())
    values = _tessera.asarray(val)
    if not isinstance(a, _tessera.ndarray) or values.size == 0:
        return fallback_attribute("fill_diagonal")(a, val, wrap)
    if not a.flags.writeable:
        raise ValueError("underlying array is read-only")
    size = a.size if end is None else min(end, a.size)
    count = len(range(0, size, step))
    if not count:
        return None
    values = resize(values.ravel(), (count,)).astype(a.dtype)
    first, strides, _ = _tessera._storage_layout(a)
    if all(n == 1 or s == c for n, s, c in zip(a.shape, strides, _c_strides(a.shape))):
        _tessera._strided_view(a, int(first), [count], [step], True)[...] = values
    else:  # a view: the same flat positions of a, as a scatter
        flat = _tessera.arange(0, size, step)
        if a.ndim == 2:
            a[flat // a.shape[1], flat % a.shape[1]] = values
        else:
            a[(_tessera.arange(count),) * a.ndim] = values
    return None


def _c_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return strides[::-1]


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from coordinate vectors (broadcast views unless `copy`)."""
    if indexing not in ["xy", "ij"]:
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    s0 = (1,) * ndim
    output = [_tessera.asarray(x).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + s0[2:])
        output[1] = output[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        output = _tessera.broadcast_arrays(*output)
    if copy:
        output = [x.copy() for x in output]
    return tuple(output)


def indices(dimensions, dtype=int, sparse=False):
    """Arrays of the indices of a grid of shape `dimensions`, one per axis."""
    dimensions = tuple(dimensions)
    n = len(dimensions)
    grids = []
    for i, dim in enumerate(dimensions):
        index = _tessera.arange(dim, dtype=dtype).reshape((1,) * i + (dim,) + (1,) * (n - i - 1))
        grids.append(index if sparse else _tessera.broadcast_to(index, dimensions))
    if sparse:
        return tuple(grids)
    if n == 0:
        return _tessera.empty((0,), dtype)
    return _tessera.stack(grids)


def append(arr, values, axis=None):
    """`values` appended to `arr` along `axis` (both flattened if None): a copy."""
    arr = _tessera.asarray(arr)
    values = _tessera.asarray(values)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = values.ravel()
        axis = arr.ndim - 1
    return _tessera.concatenate((arr, values), axis=axis)


def array_split(ary, indices_or_sections, axis=0):
    """Views of `ary` split along `axis` into sections of nearly equal length or at indices."""
    total = ary.shape[axis] if hasattr(ary, "shape") else len(ary)
    try:
        sections = len(indices_or_sections) + 1
        points = [0] + list(indices_or_sections) + [total]
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        points = _np.cumsum(sizes).tolist()
    ary = _tessera.asarray(ary)
    moved = _tessera.swapaxes(ary, axis, 0)
    return [_tessera.swapaxes(moved[points[i]:points[i + 1]], axis, 0) for i in range(sections)]


def split(ary, indices_or_sections, axis=0):
    """Views of `ary` split along `axis` into equal sections or at indices."""
    try:
        len(indices_or_sections)
    except TypeError:
        if ary.shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-D arrays)."""
    if _np.ndim(ary) == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if _np.ndim(ary) > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along axis 0 of an array of two or more dimensions."""
    if _np.ndim(ary) < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along axis 2 of an array of three or more dimensions."""
    if _np.ndim(ary) < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def unstack(x, /, *, axis=0):
    """Views of `x`, one per position along `axis`."""
    x = _tessera.asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    moved = _tessera.moveaxis(x, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))


def resize(a, new_shape):
    """An array of `new_shape` filled with the elements of `a` repeated in order."""
    new_shape = (new_shape,) if isinstance(new_shape, (int, _np.integer)) else tuple(new_shape)
    a = _tessera.asarray(a).ravel()
    new_size = 1
    for dim in new_shape:
        new_size *= dim
        if dim < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if not a.size or not new_size:
        return _tessera.zeros(new_shape, a.dtype)
    copies = -(-new_size // a.size)
    return _tessera.concatenate((a,) * copies)[:new_size].reshape(new_shape)


def broadcast_shapes(*args):
    """The shape the given shapes broadcast to (no arrays involved: NumPy's own)."""
    return _np.broadcast_shapes(*args)


def _ndmin(x, ndim):
    return x.reshape((1,) * (ndim - x.ndim) + x.shape)


def _linspace(start, stop, num, endpoint, axis):
    """linspace, also for array end points (NumPy's steps; tessera's linspace takes scalars)."""
    if not any(isinstance(x, _tessera.ndarray) for x in (start, stop)):
        return _tessera.linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    start, stop = _tessera.asarray(start), _tessera.asarray(stop)
    dt = _np.result_type(_np.empty(0, start.dtype), _np.empty(0, stop.dtype), 0.0)
    delta = _tessera.subtract(stop, start, dtype=dt)
    y = _tessera.arange(0, num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = _tessera.divide(delta, div)
        if bool(_tessera.any(_tessera.equal(step, 0))):  # denormal steps: NumPy divides first
            y = _tessera.multiply(_tessera.divide(y, div), delta)
        else:
            y = _tessera.multiply(y, step)
    else:
        y = _tessera.multiply(y, delta)
    y = _tessera.add(y, start)
    if endpoint and num > 1:
        y[-1, ...] = stop
    return y if axis == 0 else _tessera.moveaxis(y, 0, axis)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`num` numbers spaced evenly on a log scale: base ** linspace(start, stop)."""
    if not isinstance(base, (float, int)) and _np.ndim(base):
        ndmax = len(_np.broadcast_shapes(_np.shape(start), _np.shape(stop), _np.shape(base)))
        start, stop, base = (_ndmin(_tessera.asarray(x), ndmax) for x in (start, stop, base))
        base = _tessera.expand_dims(base, axis=axis)
    y = _linspace(start, stop, num, endpoint, axis)
    powers = _tessera.power(base, y)
    return powers if dtype is None else powers.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` numbers spaced evenly on a log scale from `start` to `stop` (exactly at the ends)."""
    start = _tessera.asarray(start)
    stop = _tessera.asarray(stop)
    if bool(_tessera.any(_tessera.equal(start, 0))) or bool(_tessera.any(_tessera.equal(stop, 0))):
        raise ValueError("Geometric sequence cannot include zero")
    dt = _np.result_type(_np.empty(0, start.dtype), _np.empty(0, stop.dtype), float(num), _np.zeros((), dtype))
    dtype = dt if dtype is None else _np.dtype(dtype)
    start = start.astype(dt)
    stop = stop.astype(dt)
    # Rotating start to the positive reals keeps negative and complex sequences exact at the ends.
    sign = _tessera.sign(start)
    start = _tessera.divide(start, sign)
    stop = _tessera.divide(stop, sign)
    result = logspace(_tessera.log10(start), _tessera.log10(stop), num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = _tessera.multiply(result, sign)
    if axis != 0:
        result = _tessera.moveaxis(result, 0, axis)
    return result.astype(dtype, copy=False)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of `x`: columns x**(N-1), ..., x**0 (reversed if `increasing`)."""
    x = _tessera.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    N = x.shape[0] if N is None else N
    dtype = _np.promote_types(x.dtype, int)
    columns = [_tessera.ones((x.shape[0], min(N, 1)), dtype)]
    if N > 1:
        spread = _tessera.broadcast_to(x.astype(dtype)[:, None], (x.shape[0], N - 1))
        columns.append(_tessera.cumprod(spread, axis=1))
    v = _tessera.concatenate(columns, axis=1)
    return v if increasing else v[:, ::-1].copy()


def trim_zeros(filt, trim="fb", axis=None):
    """A view of `filt` without its leading and/or trailing zeros (along `axis`, default all)."""
    filt_ = _tessera.asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if axis is None:
        axes = tuple(range(filt_.ndim))
    else:
        axes = _normalize_axes(axis, filt_.ndim, argname="axis")
    if not axes:
        return filt
    nonzero = _tessera.not_equal(filt_, 0)
    index = []
    for ax in range(filt_.ndim):
        if ax not in axes:
            index.append(slice(None))
            continue
        others = tuple(d for d in range(filt_.ndim) if d != ax)
        hits = _np.flatnonzero(_tessera._to_numpy(_tessera.any(nonzero, axis=others)))
        if hits.size == 0:
            index.append(slice(0, 0))
            continue
        index.append(slice(int(hits[0]) if "f" in trim else None, int(hits[-1]) + 1 if "b" in trim else None))
    if len(index) == 1:
        return filt[index[0]]  # as NumPy: a list stays a list
    return filt_[tuple(index)]


def flatnonzero(a):
    """The indices of the non-zero elements of the flattened `a`."""
    return _tessera.nonzero(_tessera.asarray(a).ravel())[0]


def argwhere(a):
    """The indices of the non-zero elements of `a`, one row per element (N x a.ndim)."""
    a = _tessera.asarray(a)
    if a.ndim == 0:
        return argwhere(a.reshape(1))[:, :0]
    return _tessera.stack(_tessera.nonzero(a), axis=1)  # NumPy's is a transposed view of the same values


def dtype_probe(x):
    """What NumPy's promotion sees of `x`: Python numbers stay weak, arrays become empty arrays
    of their dtype (NumPy's functions applied to these give the result dtype and the errors)."""
    if type(x) in (bool, int, float, complex):
        return x
    return _np.empty(0, x.dtype if hasattr(x, "dtype") else _np.asarray(x).dtype)


def select(condlist, choicelist, default=0):
    """Elements of the first choice whose condition holds, else `default`."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = list(choicelist) + [default]
    try:
        dtype = _np.result_type(*(dtype_probe(c) for c in choices))
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    if dtype.kind not in "biufc":
        return fallback_attribute("select")(condlist, choicelist, default)
    conditions = _tessera.broadcast_arrays(*(_tessera.asarray(c) for c in condlist))
    for i, condition in enumerate(conditions):
        if condition.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    choices = [_tessera.asarray(c).astype(dtype) for c in choices]
    choice_shape = _np.broadcast_shapes(*(c.shape for c in choices))
    shape = _np.broadcast_shapes(conditions[0].shape, choice_shape) if choice_shape else conditions[0].shape
    result = _tessera.broadcast_to(choices[-1], shape)
    for condition, choice in zip(conditions[::-1], choices[-2::-1]):
        result = _tessera.where(condition, choice, result)
    return result


def choose(a, choices, out=None, mode="raise"):
    """Elements of choices[a] for each element of `a` (an index into `choices`)."""
    if mode not in ("raise", "wrap", "clip"):  # NumPy's parsing of other spellings, and its errors
        return fallback_attribute("choose")(a, choices, out=out, mode=mode)
    a = _tessera.asarray(a)
    if not _np.can_cast(a.dtype, _np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to {_np.dtype(_np.intp)!r} "
                        "according to the rule 'safe'")
    choices = list(_tessera.asarray(choices)) if isinstance(choices, _tessera.ndarray) else list(choices)
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    dtype = _np.result_type(*(dtype_probe(c) for c in choices))
    choices = [_tessera.asarray(c) for c in choices]
    if mode == "wrap":
        a = _tessera.remainder(a, n)
    elif mode == "clip":
        a = _tessera.clip(a, 0, n - 1)
    elif bool(_tessera.any(_tessera.logical_or(_tessera.less(a, 0), _tessera.greater_equal(a, n)))):
        raise ValueError("invalid entry in choice array")
    shape = _np.broadcast_shapes(a.shape, *(c.shape for c in choices))
    result = _tessera.broadcast_to(choices[-1].astype(dtype), shape)
    for i in range(n - 2, -1, -1):
        result = _tessera.where(_tessera.equal(a, i), choices[i].astype(dtype), result)
    if n == 1:
        result = result.copy()  # a broadcast view of the only choice
    if out is None:
        return result
    _tessera.copyto(out, result, casting="unsafe")
    return out


def extract(condition, arr):
    """The elements of the flattened `arr` where the flattened `condition` is non-zero."""
    arr = _tessera.asarray(arr).ravel()
    condition = _tessera.asarray(condition).ravel()
    if condition.size != arr.size:
        return fallback_attribute("extract")(condition, arr)  # indices past the shorter one raise, or are ignored
    return arr[_tessera.not_equal(condition, 0)]
