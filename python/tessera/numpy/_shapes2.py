"""Inserting and deleting, blocks, conversions, per-slice application, index construction and
bit packing, built on tessera's native operations: slices, concatenate, boolean masks and
their assignment, where, arithmetic on aranges, sort and searchsorted (histogramdd counts by
sorting the cell numbers; insert and delete find positions with isin). Sizes and bounds that
depend on the data are read back (a sync point)."""
import builtins
import operator
import warnings

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute
from tessera.numpy._sets import _outer_edges, isin as _isin
from tessera.numpy._shapes import _along, indices, tri

_normalize_axis = _np.lib.array_utils.normalize_axis_index
_ndarray = _tessera.ndarray


# ------------------------------------------------------------------- insert and delete

def _atleast_nd(x, ndim):
    return x.reshape((1,) * (ndim - x.ndim) + x.shape) if x.ndim < ndim else x


def _flat_axis(arr, axis):
    arr = _tessera.asarray(arr)
    if axis is None:
        return (arr.ravel() if arr.ndim != 1 else arr), 0
    return arr, _normalize_axis(axis, arr.ndim)


def _select_along(arr, mask, axis):
    """The positions of `arr` along `axis` where the 1-D boolean `mask` holds."""
    moved = _tessera.moveaxis(arr, axis, 0)
    return _tessera.moveaxis(moved[_tessera.asarray(mask)], 0, axis)


def _positions(positions, given, n, axis, extent):
    """`positions` (a tessera array of what the caller gave) as positions along an axis of length
    `n`, negative ones counted from the end; each must lie in [-n, extent) (one sync: the least
    and the greatest)."""
    if positions.size == 0 and not isinstance(given, (_np.ndarray, _ndarray)):
        positions = positions.astype(_np.intp)
    if _np.dtype(positions.dtype).kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    positions = positions.astype(_np.intp, copy=False)
    if positions.size:
        low, high = int(_tessera.min(positions)), int(_tessera.max(positions))
        for bad in (low, high):
            if bad < -n or bad >= extent:
                raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
        if low < 0:
            positions = _tessera.where(_tessera.less(positions, 0), positions + n, positions)
    return positions


def delete(arr, obj, axis=None):
    """A copy of `arr` without the positions `obj` (int, slice, int array or boolean mask) along
    `axis` (of the flattened `arr` if None)."""
    arr, axis = _flat_axis(arr, axis)
    N = arr.shape[axis]
    if isinstance(obj, slice):
        keep = _np.ones(N, dtype=bool)
        keep[obj] = False
        return _select_along(arr, keep, axis)
    single = isinstance(obj, (int, _np.integer)) and not isinstance(obj, (bool, _np.bool_))
    if not single:
        positions = _tessera.asarray(obj)
        if positions.size == 1 and _np.dtype(positions.dtype).kind in "ui":
            obj, single = int(positions.reshape(())), True
    if single:
        if obj < -N or obj >= N:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {N}")
        if obj < 0:
            obj += N
        return _tessera.concatenate((arr[_along(arr.ndim, axis, slice(None, obj))],
                                     arr[_along(arr.ndim, axis, slice(obj + 1, None))]), axis=axis)
    if positions.dtype == _np.bool_:
        if positions.shape != (N,):
            raise ValueError("boolean array argument obj to delete must be one dimensional and match "
                             f"the axis length of {N}")
        return _select_along(arr, _tessera.logical_not(positions), axis)
    positions = _positions(positions, obj, N, axis, N)
    dropped = _isin(_tessera.arange(N), positions)
    return _select_along(arr, _tessera.logical_not(dropped), axis)


def _assignable(values, shape, axis):
    """`values` broadcast to `shape` as an assignment would (leading length-1 axes dropped), and
    whether they differ along `axis`."""
    while values.ndim > len(shape) and values.shape[0] == 1:
        values = values[0]
    at = axis - (len(shape) - values.ndim)
    varies = at >= 0 and values.shape[at] != 1
    return _tessera.broadcast_to(values, shape), varies


def _runs(order):
    """(start, stop) of the runs of consecutive positions in `order`."""
    breaks = _np.flatnonzero(_np.diff(order) != 1) + 1
    bounds = _np.concatenate(([0], breaks, [len(order)]))
    return [(int(order[b]), int(order[b]) + int(e - b)) for b, e in zip(bounds[:-1], bounds[1:])]


def insert(arr, obj, values, axis=None):
    """A copy of `arr` with `values` inserted before the positions `obj` along `axis` (of the
    flattened `arr` if None). Values for unordered positions are put in order by slices of the
    order of the positions, which is read back (a sync point)."""
    arr, axis = _flat_axis(arr, axis)
    ndim = arr.ndim
    N = arr.shape[axis]
    if isinstance(obj, slice):
        positions = _tessera.arange(*obj.indices(N), dtype=_np.intp)
    else:
        positions = _tessera.asarray(obj)
        if positions.dtype == _np.bool_:
            if positions.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            positions = _tessera.nonzero(positions)[0]
        elif positions.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    shape = list(arr.shape)
    if positions.size == 1:
        if _np.dtype(positions.dtype).kind not in "biu":
            raise TypeError("slice indices must be integers or None or have an __index__ method")
        index = int(positions.reshape(()))
        if index < -N or index > N:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {N}")
        if index < 0:
            index += N
        values = _atleast_nd(_tessera.asarray(values, dtype=arr.dtype), ndim)
        if positions.ndim == 0:
            values = _tessera.moveaxis(values, 0, axis)
        shape[axis] = values.shape[axis]
        return _tessera.concatenate((arr[_along(ndim, axis, slice(None, index))],
                                     _assignable(values, tuple(shape), axis)[0],
                                     arr[_along(ndim, axis, slice(index, None))]), axis=axis)
    positions = _positions(positions, obj, N, axis, N + 1)
    numnew = positions.shape[0]
    shape[axis] = numnew
    values, varies = _assignable(_tessera.asarray(values).astype(arr.dtype), tuple(shape), axis)
    ordered = _tessera.sort(positions, kind="stable")
    if varies and numnew > 1 and not bool(_tessera.all(_tessera.greater_equal(positions[1:], positions[:-1]))):
        order = _tessera._to_numpy(_tessera.argsort(positions, kind="stable"))  # the values by position
        values = _tessera.concatenate([values[_along(ndim, axis, slice(*run))] for run in _runs(order)], axis=axis)
    # The i-th value in position order lands i places after its position in `arr`.
    inserted = _isin(_tessera.arange(N + numnew), ordered + _tessera.arange(numnew, dtype=_np.intp))
    shape[axis] = N + numnew
    new = _tessera.empty(tuple(shape), arr.dtype)
    moved = _tessera.moveaxis(new, axis, 0)
    if N:
        moved[_tessera.logical_not(inserted)] = _tessera.moveaxis(arr, axis, 0)
    if numnew:
        moved[inserted] = _tessera.moveaxis(values, axis, 0)
    return new


# --------------------------------------------------------------------------------- block

def _block_format_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _block_check_depths_match(arrays, parent_index=()):
    """(index of the first deepest element, largest ndim of an element) of the nested lists."""
    parent_index = list(parent_index)
    if type(arrays) is tuple:
        raise TypeError(f"{_block_format_index(parent_index)} is a tuple. Only lists can be used to arrange "
                        "blocks, and np.block does not allow implicit conversion from tuple to ndarray.")
    if type(arrays) is list and len(arrays) > 0:
        found = [_block_check_depths_match(arr, parent_index + [i]) for i, arr in enumerate(arrays)]
        first_index, max_ndim = found[0]
        for index, ndim in found[1:]:
            max_ndim = max(max_ndim, ndim)
            if len(index) != len(first_index):
                raise ValueError(f"List depths are mismatched. First element was at depth {len(first_index)}, "
                                 f"but there is an element at depth {len(index)} ({_block_format_index(index)})")
            if index[-1] is None:
                first_index = index
        return first_index, max_ndim
    if type(arrays) is list:
        return parent_index + [None], 0
    return parent_index, _np.ndim(arrays) if not isinstance(arrays, _ndarray) else arrays.ndim


def _block(arrays, max_depth, result_ndim, depth=0):
    if depth < max_depth:
        pieces = [_block(arr, max_depth, result_ndim, depth + 1) for arr in arrays]
        return _tessera.concatenate(pieces, axis=-(max_depth - depth))
    return _atleast_nd(_tessera.asarray(arrays), result_ndim)


def block(arrays):
    """An array assembled from nested lists of blocks: the innermost lists are joined along the
    last axis, the outer ones along the axes before it."""
    bottom_index, arr_ndim = _block_check_depths_match(arrays)
    list_ndim = len(bottom_index)
    if bottom_index and bottom_index[-1] is None:
        raise ValueError(f"List at {_block_format_index(bottom_index)} cannot be empty")
    result = _block(arrays, list_ndim, max(arr_ndim, list_ndim))
    return result.copy() if list_ndim == 0 else result


# ------------------------------------------------------------------ axes and conversions

def rollaxis(a, axis, start=0):
    """A view of `a` with `axis` moved to before position `start`."""
    n = a.ndim
    axis = _normalize_axis(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return _tessera.transpose(a, axes)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """vstack (NumPy's deprecated alias, with its DeprecationWarning)."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return _tessera.vstack(tup, dtype=dtype, casting=casting)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """`function` called once with the index grids of `shape` (one array per axis)."""
    if like is not None:
        return fallback_attribute("fromfunction")(function, shape, dtype=dtype, like=like, **kwargs)
    return function(*indices(shape, dtype=dtype), **kwargs)


def copy(a, order="K", subok=False):
    """A new array with the elements of `a` (C-ordered, as every tessera array)."""
    _tessera.empty(0, order=order)  # NumPy's TypeError / ValueError for a bad `order`
    return _tessera.array(a, copy=True)


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


def asarray_chkfinite(a, dtype=None, order=None):
    """`a` as a tessera array; ValueError if it holds an inf or a NaN."""
    a = _tessera.asarray(a, dtype=dtype)
    if _np.dtype(a.dtype).kind in "fc" and not bool(_tessera.all(_tessera.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


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


# -------------------------------------------------------------- per-slice application

def piecewise(x, condlist, funclist, *args, **kw):
    """An array like `x` holding, where condlist[i] holds, funclist[i] (a value, or a function
    of the selected elements of `x`); the extra function is the default."""
    x = _tessera.asarray(x)
    n2 = len(funclist)
    if _np.isscalar(condlist) or (not isinstance(condlist[0], (list, _ndarray, _np.ndarray)) and x.ndim != 0):
        condlist = [condlist]
    conditions = [_tessera.asarray(c, dtype=bool) for c in condlist]
    n = len(conditions)
    if n == n2 - 1:
        otherwise = _tessera.logical_not(_tessera.any(_tessera.stack(conditions), axis=0)) if n else (
            _tessera.ones(x.shape, dtype=bool))
        conditions.append(otherwise)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = _tessera.zeros_like(x)
    for cond, func in zip(conditions, funclist):
        cond = _tessera.broadcast_to(cond, x.shape) if cond.shape != x.shape else cond
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to each 1-D slice of `arr` along `axis` (one Python call per slice); its
    results, cast to the first one's dtype, replace that axis."""
    arr = _tessera.asarray(arr)
    nd = arr.ndim
    axis = _normalize_axis(axis, nd)
    dims = list(range(nd))
    view = _tessera.transpose(arr, dims[:axis] + dims[axis + 1:] + [axis])
    inds = (ind + (Ellipsis,) for ind in _np.ndindex(view.shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _tessera.asarray(func1d(view[ind0], *args, **kwargs))
    buff = _tessera.zeros(view.shape[:-1] + res.shape, res.dtype)
    bdims = list(range(buff.ndim))
    permute = bdims[:axis] + bdims[buff.ndim - res.ndim:] + bdims[axis:buff.ndim - res.ndim]
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _tessera.asarray(func1d(view[ind], *args, **kwargs))
    return _tessera.transpose(buff, permute)


def apply_over_axes(func, a, axes):
    """func(a, axis) applied for each axis in turn, keeping the reduced axes (length 1)."""
    val = _tessera.asarray(a)
    N = a.ndim
    if _np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = _tessera.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


# ----------------------------------------------------------------------- histograms

def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """Counts of the D-dimensional points of `sample` in each cell of a grid of bins (each bin
    half-open but the last, closed), or the sums of their `weights`; with the edges per
    dimension."""
    if isinstance(sample, _ndarray) and sample.ndim == 2:
        columns = [sample[:, i] for i in builtins.range(sample.shape[1])]
    elif isinstance(sample, (list, tuple)) and all(_np.ndim(s) == 1 for s in sample):
        columns = [_tessera.asarray(s) for s in sample]
        if len({c.shape for c in columns}) > 1:
            raise ValueError("setting an array element with a sequence. The requested array has an "
                             "inhomogeneous shape after 1 dimensions.")
    else:
        s = _tessera.asarray(sample)
        s = _tessera.atleast_2d(s).T if s.ndim < 2 else s
        if s.ndim != 2:
            raise ValueError("too many values to unpack (expected 2)")
        columns = [s[:, i] for i in builtins.range(s.shape[1])]
    D = len(columns)
    N = columns[0].shape[0] if columns else 0
    try:
        M = len(bins)
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i in builtins.range(D):
        if _np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(columns[i], range[i])
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            # The few edges are NumPy's own linspace (host metadata), so they are its bits.
            edges.append(_tessera.asarray(_np.linspace(smin, smax, n + 1)))
        elif _np.ndim(bins[i]) == 1:
            e = _tessera.asarray(bins[i])
            if e.size > 1 and bool(_tessera.any(e[:-1] > e[1:])):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
            edges.append(e)
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    nbin = [e.shape[0] + 1 for e in edges]
    # The cell of each point, numbered as NumPy's ravel_multi_index over (nbin) would.
    flat = _tessera.zeros(N, dtype=_np.intp)
    for i in builtins.range(D):
        found = _tessera._searchsorted(edges[i], columns[i], True)
        found = _tessera.where(_tessera.equal(columns[i], edges[i][-1]), found - 1, found)
        flat = flat * nbin[i] + found.astype(_np.intp)
    cells = int(_np.prod(nbin))
    if weights is not None:  # the weights added into their cells in the order of the points (NumPy's bincount)
        weights = _tessera.asarray(weights)
        if weights.shape != (N,):
            raise ValueError("The weights and list don't have the same length.")
        counts = _tessera.zeros(cells)
        _tessera._index_update(counts, flat, weights.astype(float), "add", checked=True)  # cells in [0, cells)
    else:  # cell c holds the points numbered below c + 1 less those numbered below c
        below = _tessera._searchsorted(_tessera.sort(flat), _tessera.arange(cells + 1, dtype=_np.intp), False)
        counts = below[1:] - below[:-1]
    hist = counts.reshape(tuple(nbin)).astype(float)[(slice(1, -1),) * D]
    if density:
        s = hist.sum()
        for i in builtins.range(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = hist / _tessera.subtract(edges[i][1:], edges[i][:-1]).reshape(tuple(shape))
        hist = hist / s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """Counts of the points (x, y) in each cell of a grid of bins, with the x and y edges."""
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


# ----------------------------------------------------------------- index construction

def tril_indices(n, k=0, m=None):
    """The row and column indices of the lower triangle (at and below the k-th diagonal) of an
    n x m array, in row-major order."""
    return _tessera.nonzero(tri(n, m, k=k, dtype=bool))


def triu_indices(n, k=0, m=None):
    """The row and column indices of the upper triangle (at and above the k-th diagonal) of an
    n x m array, in row-major order."""
    return _tessera.nonzero(_tessera.logical_not(tri(n, m, k=k - 1, dtype=bool)))


def tril_indices_from(arr, k=0):
    """tril_indices for the shape of the 2-D `arr`."""
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    """triu_indices for the shape of the 2-D `arr`."""
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x ... x n array: `ndim` times arange(n)."""
    idx = _tessera.arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for the shape of `arr` (at least 2-D, every axis of one length)."""
    if not arr.ndim >= 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is non-zero."""
    a = mask_func(_tessera.ones((n, n), dtype=int), k)
    return _tessera.nonzero(_tessera.not_equal(a, 0))


def ix_(*args):
    """Open-mesh index arrays of the 1-D sequences `args` (boolean ones as their nonzero)."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, _ndarray):
            new = _tessera.asarray(new)
            if new.size == 0:
                new = new.astype(_np.intp)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == _np.bool_:
            new, = _tessera.nonzero(new)
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _index_array(x):
    x = _tessera.asarray(x)
    if not _np.can_cast(x.dtype, _np.intp, "same_kind"):
        raise TypeError("only int indices permitted")
    return x.astype(_np.intp, copy=False)


def _dims(shape):
    dims = tuple(operator.index(d) for d in (shape if _np.iterable(shape) else (shape,)))
    size = 1
    for d in dims:
        size *= max(d, 1)
    if size > _np.iinfo(_np.intp).max:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.")
    return dims


def _order(order):
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return order


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat index of each coordinate tuple of `multi_index` in an array of shape `dims`;
    `mode` (one, or one per axis) handles coordinates out of range: raise, wrap or clip."""
    dims = _dims(dims)
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    if len(modes) != len(dims):
        raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of {len(dims)})")
    order = _order(order)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    coords = _tessera.broadcast_arrays(*(_index_array(c) for c in multi_index))
    axes = list(range(len(dims)))
    if order == "F":
        axes.reverse()
    result = _tessera.zeros(coords[0].shape if coords else (), dtype=_np.intp)
    for ax in axes:
        c, d, m = coords[ax], dims[ax], modes[ax]
        if m == "wrap":
            if d == 0:
                raise ValueError("cannot unravel if shape has zero entries (is empty).")
            c = _tessera.remainder(c, d)
        elif m == "clip":
            c = _tessera.clip(c, 0, max(d - 1, 0))
        elif c.size and bool(_tessera.any(_tessera.logical_or(_tessera.less(c, 0), _tessera.greater_equal(c, d)))):
            raise ValueError("invalid entry in coordinates array")
        result = result * d + c
    return result


def unravel_index(indices, shape, order="C"):
    """The coordinate arrays, one per axis of `shape`, of the flat `indices`."""
    dims = _dims(shape)
    order = _order(order)
    idx = _index_array(indices)
    size = 1
    for d in dims:
        size *= d
    if idx.size:
        low, high = int(_tessera.min(idx)), int(_tessera.max(idx))
        if low < 0 or high >= size:
            raise ValueError(f"index {low if low < 0 else high} is out of bounds for array with size {size}")
    out = [None] * len(dims)
    axes = list(range(len(dims)))
    if order == "C":
        axes.reverse()
    rest = idx
    for ax in axes:
        d = dims[ax]
        out[ax] = _tessera.remainder(rest, d)
        rest = _tessera.floor_divide(rest, d)
    return tuple(out)


# ----------------------------------------------------------------------- bit packing

def _bitorder(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder


def packbits(a, /, axis=None, bitorder="big"):
    """The elements of `a` (true or false) packed 8 to a uint8 along `axis` (of the flattened `a`
    if None), zero-padded to a multiple of 8."""
    a = _tessera.asarray(a)
    if _np.dtype(a.dtype).kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    bitorder = _bitorder(bitorder)
    if axis is None or a.ndim == 0:
        a, axis = a.ravel(), 0
    axis = _normalize_axis(axis, a.ndim)
    bits = _tessera.moveaxis(_tessera.not_equal(a, 0).astype(_np.uint8), axis, -1)
    n = bits.shape[-1]
    groups = -(-n // 8)
    if groups * 8 != n:
        bits = _tessera.concatenate((bits, _tessera.zeros(bits.shape[:-1] + (groups * 8 - n,), _np.uint8)), axis=-1)
    weights = _tessera.asarray(_np.array([128, 64, 32, 16, 8, 4, 2, 1] if bitorder == "big"
                                         else [1, 2, 4, 8, 16, 32, 64, 128], dtype=_np.uint8))
    grouped = bits.reshape(bits.shape[:-1] + (groups, 8))
    packed = _tessera.sum(_tessera.multiply(grouped, weights), axis=-1, dtype=_np.uint8)
    return _tessera.moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of the uint8 `a` as uint8 0s and 1s along `axis` (of the flattened `a` if None);
    `count` keeps that many (negative: drops that many, more: pads with zeros)."""
    a = _tessera.asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    bitorder = _bitorder(bitorder)
    if axis is None or a.ndim == 0:
        a, axis = a.ravel(), 0
    axis = _normalize_axis(axis, a.ndim)
    moved = _tessera.moveaxis(a, axis, -1)
    n = moved.shape[-1] * 8
    if count is None:
        count = n
    else:
        count = operator.index(count)
        if count < 0:
            if -count > n:
                raise ValueError("-count larger than number of elements")
            count += n
    shifts = _tessera.asarray(_np.array([7, 6, 5, 4, 3, 2, 1, 0] if bitorder == "big"
                                        else [0, 1, 2, 3, 4, 5, 6, 7], dtype=_np.uint8))
    bits = _tessera.bitwise_and(_tessera.right_shift(moved[..., None], shifts), _np.uint8(1))
    bits = bits.reshape(moved.shape[:-1] + (n,))
    if count <= n:
        bits = bits[..., :count]
    else:
        bits = _tessera.concatenate((bits, _tessera.zeros(bits.shape[:-1] + (count - n,), _np.uint8)), axis=-1)
    return _tessera.moveaxis(bits, -1, axis)
