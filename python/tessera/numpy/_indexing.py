"""Gathers and scatters on tessera's native advanced indexing (take, put, the *_along_axis
pair, place, compress, bincount), and the orderings built on them and on the native sort
(lexsort, partition, argpartition, sort_complex).

Reads are parallel gathers; writes are scatters in which each point applies, in NumPy's
order, the indices that land in its tile, so repeated indices end as in NumPy on any number
of cpus or ranks. Index bounds are checked at the call, as in NumPy.
"""
import operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from tessera import _tessera

_ndarray = _tessera.ndarray


def _scalar_if_0d(result):
    return result[()] if result.ndim == 0 else result


def _into_out(result, out, name):
    if out is None:
        return result
    if not isinstance(out, _ndarray):
        raise TypeError(f"{name}: out must be a tessera array")
    if out.shape != result.shape:
        raise ValueError(f"output array does not match result of {name}")
    _tessera.copyto(out, result, casting="same_kind")
    return out


def _check_mode(mode):
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def integer_values(x):
    """Indices or counts as NumPy reads them: arrays keep their dtype (a float array is refused
    by the cast rule); other objects (scalars, lists) go through int() one by one (1.5 -> 1,
    '2' -> 2, 'x' -> ValueError, nan -> ValueError)."""
    if isinstance(x, (_ndarray, _np.ndarray)):
        return x
    return _np.array(x, dtype=_np.intp)


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (of the flattened `a` when None)."""
    _check_mode(mode)
    indices = integer_values(indices)
    a = _tessera.asarray(a)
    if axis is not None:
        axis = operator.index(axis)
    if isinstance(out, _ndarray):  # NumPy checks out's shape before it reads an index
        shape = _np.shape(indices) if axis is None else (
            a.shape[:_normalize_axis_index(axis, a.ndim)] + _np.shape(indices) + a.shape[axis % a.ndim + 1:])
        if out.shape != shape:
            raise ValueError("output array does not match result of ndarray.take")
    result = _tessera._take(a, indices, axis, mode)
    return _into_out(_scalar_if_0d(result) if out is None else result, out, "take")


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, in place; `v` repeats (or is cut) to one value per index."""
    if not isinstance(a, _ndarray):
        if isinstance(a, _np.ndarray):  # NumPy's own array: NumPy writes it
            return _np.put(a, _tessera._to_numpy(_tessera.asarray(ind)), _tessera._to_numpy(_tessera.asarray(v)), mode)
        raise TypeError(f"argument 1 must be numpy.ndarray, not {type(a).__name__}")
    _check_mode(mode)
    _tessera._put(a, integer_values(ind), _tessera.asarray(v, a.dtype), mode)


def _along_axis_key(arr, indices, axis):
    if not _np.issubdtype(indices.dtype, _np.integer):
        raise IndexError("`indices` must be an integer array")
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    key = []
    for d in range(arr.ndim):
        if d == axis:
            key.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(_tessera.arange(arr.shape[d]).reshape(shape))
    return tuple(key)


def _along_axis_args(arr, indices, axis):
    arr = _tessera.asarray(arr)
    indices = _tessera.asarray(indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return arr.ravel(), indices, 0
    return arr, indices, _np.lib.array_utils.normalize_axis_index(axis, arr.ndim)


def take_along_axis(arr, indices, axis=-1):
    """arr's elements at `indices` along `axis`, matching the other axes one to one."""
    arr, indices, axis = _along_axis_args(arr, indices, axis)
    return arr[_along_axis_key(arr, indices, axis)]


def put_along_axis(arr, indices, values, axis):
    """arr[indices along axis] = values, in place."""
    if not isinstance(arr, _ndarray):
        raise TypeError("put_along_axis: arr must be a tessera array")
    if axis is None:  # the flat positions of arr
        indices = _tessera.asarray(indices)
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        if not _np.issubdtype(indices.dtype, _np.integer):
            raise IndexError("`indices` must be an integer array")
        _tessera._put(arr, indices, _tessera.broadcast_to(_tessera.asarray(values, arr.dtype), indices.shape), "raise")
        return
    arr, indices, axis = _along_axis_args(arr, indices, axis)
    arr[_along_axis_key(arr, indices, axis)] = values


def place(arr, mask, vals):
    """Writes `vals` (repeated as needed) at the positions where `mask` is true, in place."""
    if not isinstance(arr, _ndarray):
        raise TypeError(f"argument 1 must be numpy.ndarray, not {type(arr).__name__}")
    if not isinstance(vals, (_ndarray, _np.ndarray)) and _np.asarray(vals).dtype.kind in "US":
        vals = _np.asarray(vals).astype(arr.dtype)  # strings parsed as NumPy does ('x': ValueError)
    mask = _tessera.asarray(mask).astype(bool)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    count = int(_tessera.count_nonzero(mask))
    if count == 0:
        return
    vals = _tessera.asarray(vals, arr.dtype).ravel()
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    if vals.size != count:
        vals = _tessera._take(vals, _tessera.arange(count), 0, "wrap")
    arr[mask.reshape(arr.shape)] = vals


def compress(condition, a, axis=None, out=None):
    """The slices of `a` along `axis` where `condition` is true."""
    condition = _tessera.asarray(condition)
    if condition.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(a, _tessera.nonzero(condition)[0], axis=axis, out=out)


def bincount(x, /, weights=None, minlength=0):
    """How often each non-negative integer occurs in `x` (or the sum of its weights)."""
    given_array = isinstance(x, (_tessera.ndarray, _np.ndarray))
    x = _tessera.asarray(x)
    if x.ndim > 1:
        raise ValueError("object too deep for desired array")
    if x.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if not (x.dtype == bool or _np.issubdtype(x.dtype, _np.integer)) or not _np.can_cast(x.dtype, _np.intp):
        if x.size or x.dtype.kind not in "f" or given_array:  # NumPy reads an empty list as intp
            raise TypeError(f"Cannot cast array data from {x.dtype!r} to dtype('int64') according to the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if weights is not None:
        weights = _tessera.asarray(weights)
        if weights.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
        if weights.dtype.kind == "c":
            raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') according to "
                            "the rule 'safe'")
    dtype = _np.int64 if weights is None else _np.float64
    if x.size == 0:
        return _tessera.zeros(minlength, dtype=dtype)
    if x.dtype != _np.int64:
        x = x.astype(_np.int64)
    low, high = _tessera.min(x), _tessera.max(x)
    if int(low) < 0:
        raise ValueError("'list' argument must have no negative elements")
    counts = _tessera.zeros(max(int(high) + 1, minlength), dtype=dtype)
    if weights is None:
        values = _tessera.ones((), dtype=dtype)
    else:
        values = weights if weights.dtype == _np.float64 else weights.astype(_np.float64)
    _tessera._index_update(counts, x, values, "add", checked=True)  # in [0, high]: checked above
    return counts


def _keys(keys):
    if isinstance(keys, (_ndarray, _np.ndarray)):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        return [_tessera.asarray(keys[i]) for i in range(keys.shape[0])]
    keys = [_tessera.asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    return keys


def lexsort(keys, axis=-1):
    """The stable order that sorts by the last key, then the one before, and so on."""
    keys = _keys(keys)
    if any(k.shape != keys[0].shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if keys[0].ndim == 0:  # one element: NumPy accepts axis 0 and -1
        if operator.index(axis) not in (0, -1):
            raise _np.exceptions.AxisError(axis, 0)
        return _np.intp(0)
    axis = _np.lib.array_utils.normalize_axis_index(axis, keys[0].ndim)
    order = _tessera.argsort(keys[0], axis=axis, kind="stable")
    for k in keys[1:]:
        step = _tessera.argsort(take_along_axis(k, order, axis), axis=axis, kind="stable")
        order = take_along_axis(order, step, axis)
    return order


def _check_kth(a, kth, axis):
    kth = _np.asarray(kth)
    if kth.dtype == bool:
        raise ValueError("Booleans unacceptable as partition index")
    if not _np.issubdtype(kth.dtype, _np.integer):
        raise TypeError("Partition index must be integer")
    n = a.size if axis is None else a.shape[_np.lib.array_utils.normalize_axis_index(axis, a.ndim)]
    for k in kth.ravel():
        if k >= n or k < -n:
            raise ValueError(f"kth(={int(k)}) out of bounds ({n})")


def _check_kind(kind, order):
    if order is not None:  # tessera arrays have no fields
        raise ValueError("Cannot specify order when the array has no fields.")
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")


def _partition_input(a, kth, axis, kind, order):
    """`a` as a tessera array, after NumPy's checks of partition's arguments."""
    _check_kind(kind, order)
    a = _tessera.asarray(a)
    if a.ndim == 0:
        raise _np.exceptions.AxisError("axis -1 is out of bounds for array of dimension 0")
    _check_kth(a, kth, axis)
    return a


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy of `a` with the element at each `kth` position where sorting would put it, the
    smaller before and the larger after (tessera sorts the whole axis: one valid answer)."""
    return _tessera.sort(_partition_input(a, kth, axis, kind, order), axis=axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The positions that partition `a` at `kth` (those that sort it: one valid answer)."""
    return _tessera.argsort(_partition_input(a, kth, axis, kind, order), axis=axis)


def sort_complex(a):
    """`a` sorted by real part, then imaginary part, as a complex array."""
    b = _tessera.sort(_tessera.asarray(a))
    if b.dtype.kind == "c":
        return b
    return b.astype(_np.complex64 if b.dtype.char in "bhBH" else _np.complex128)  # NumPy's rule


def _take_method(self, indices, axis=None, out=None, mode="raise"):
    return take(self, indices, axis, out, mode)


def _put_method(self, indices, values, mode="raise"):
    return put(self, indices, values, mode)


def _compress_method(self, condition, axis=None, out=None):
    return compress(condition, self, axis, out)


def _partition_method(self, kth, axis=-1, kind="introselect", order=None):
    _check_kind(kind, order)
    _check_kth(self, kth, axis)
    self.sort(axis=axis)


def _argpartition_method(self, kth, axis=-1, kind="introselect", order=None):
    return argpartition(self, kth, axis, kind, order)


#: ndarray methods defined here (method name -> function with the array first).
METHODS = {"take": _take_method, "put": _put_method, "compress": _compress_method,
           "partition": _partition_method, "argpartition": _argpartition_method}
