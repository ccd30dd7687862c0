"""Blocks, axes and per-slice application (NumPy's shape_base): block, row_stack, rollaxis,
apply_along_axis and apply_over_axes, built on concatenate, views and the function applied."""
import warnings

import numpy as _np

from tessera import _tessera
from tessera.numpy._function_base import _atleast_nd

_normalize_axis = _np.lib.array_utils.normalize_axis_index
_ndarray = _tessera.ndarray


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
