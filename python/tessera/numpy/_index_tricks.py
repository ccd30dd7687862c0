"""Index construction (NumPy's index_tricks and twodim_base): ix_, ravel_multi_index,
unravel_index and the triangle, diagonal and mask index functions, arithmetic on aranges."""
import operator

import numpy as _np

from tessera import _tessera
from tessera.numpy._shapes import tri

_ndarray = _tessera.ndarray


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
