"""insert, delete, piecewise, copy and asarray_chkfinite (NumPy's function_base), built on
tessera's native operations: slices, concatenate, boolean masks and their assignment, where
and sort (insert and delete find positions with isin). Sizes that depend on the data are read
back (a sync point)."""
import numpy as _np

from tessera import _tessera
from tessera.numpy._sets import isin as _isin
from tessera.numpy._shapes import _along

_normalize_axis = _np.lib.array_utils.normalize_axis_index
_ndarray = _tessera.ndarray


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


def copy(a, order="K", subok=False):
    """A new array with the elements of `a` (C-ordered, as every tessera array)."""
    _tessera.empty(0, order=order)  # NumPy's TypeError / ValueError for a bad `order`
    return _tessera.array(a, copy=True)


def asarray_chkfinite(a, dtype=None, order=None):
    """`a` as a tessera array; ValueError if it holds an inf or a NaN."""
    a = _tessera.asarray(a, dtype=dtype)
    if _np.dtype(a.dtype).kind in "fc" and not bool(_tessera.all(_tessera.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


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
