"""The checks scipy.sparse makes of the arrays a sparse array is built from, in its order and
with its messages: shapes (check_shape), data dtypes (getdtype), index dtypes
(get_index_dtype), the compressed formats' check_format and COO's _check.

SciPy's constructors make check_format's cheap checks only; the checks of the index values
(column indices in range, indptr non-decreasing) wait for check_format(full_check=True) and,
skipped, crash SciPy's kernels or compute garbage. tessera makes them on construction too,
with check_format's messages: one vectorised reduction of the index arrays, read once."""
import operator

import numpy as _np

import tessera.numpy as tnp

# What scipy.sparse stores (its supported_dtypes) that tessera holds too.
_SUPPORTED = tuple(_np.dtype(t) for t in (
    _np.bool_, _np.int8, _np.uint8, _np.int16, _np.uint16, _np.int32, _np.uint32, _np.int64, _np.uint64,
    _np.float32, _np.float64, _np.complex64, _np.complex128))
_SCIPY_NAMES = ("bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, longlong, ulonglong, float32, "
                "float64, longdouble, complex64, complex128, clongdouble")
_INT32_MAX = 2**31 - 1


def check_shape(shape):
    """A 2-D shape as SciPy's check_shape reads it: TypeError for a non-integer, ValueError for
    another length or a negative extent."""
    try:
        items = iter(shape)
    except TypeError:
        items = iter((shape,))
    dims = tuple(operator.index(d) for d in items)
    if len(dims) != 2:
        raise ValueError(f"shape must have length in (2,). Got new_shape={dims} (tessera.sparse arrays are 2-D)")
    if dims[0] < 0 or dims[1] < 0:
        raise ValueError("'shape' elements cannot be negative")
    return dims


def check_dtype(dtype):
    """`dtype` when scipy.sparse stores it, else SciPy's ValueError."""
    dtype = _np.dtype(dtype)
    if dtype not in _SUPPORTED:
        raise ValueError(f"scipy.sparse does not support dtype {dtype}. The only supported types are: {_SCIPY_NAMES}.")
    return dtype


def data_array(obj, dtype=None):
    """The values of a sparse array as a tessera array (host data copied in once), of a dtype
    scipy.sparse supports."""
    if isinstance(obj, tnp.ndarray):
        return obj if dtype is None else obj.astype(check_dtype(dtype))
    host = _np.asarray(obj) if dtype is None else _np.asarray(obj, dtype=check_dtype(dtype))
    check_dtype(host.dtype)
    return tnp.asarray(host)


def index_dtype(arrays, maxval=0):
    """SciPy's get_index_dtype: int32 when every array's dtype casts safely to it and `maxval`
    fits, else int64."""
    if maxval > _INT32_MAX:
        return _np.dtype(_np.int64)
    for a in arrays:
        if not _np.can_cast(a.dtype, _np.int32):
            return _np.dtype(_np.int64)
    return _np.dtype(_np.int32)


def index_array(obj):
    """An index array as SciPy reads one: numbers of any kind become integers (1.5 -> 1)."""
    if isinstance(obj, tnp.ndarray):
        return obj
    host = _np.asarray(obj)
    if host.dtype.kind not in "biuf":
        host = host.astype(_np.int64)  # NumPy's error for what is not a number
    return tnp.asarray(host)


def _read(values):
    """Several scalars of tessera reductions, read back in one wait."""
    return [int(v) for v in _np.asarray(tnp.stack([tnp.asarray(v).astype(tnp.int64) for v in values]))]


def check_compressed(data, indices, indptr, m, n):
    """check_format of a compressed array whose `indptr` runs over `m` lines of `n` entries:
    SciPy's checks and messages, then those of full_check. Returns the arrays with values past
    indptr[-1] dropped (SciPy's prune)."""
    if data.ndim != 1 or indices.ndim != 1 or indptr.ndim != 1:
        raise ValueError("data, indices, and indptr should be 1-D")
    if indptr.shape[0] != m + 1:
        raise ValueError(f"index pointer size {indptr.shape[0]} should be {m + 1}")
    size = indices.shape[0]
    stats = [indptr[0], indptr[-1]]
    if m:
        stats.append(tnp.min(indptr[1:] - indptr[:-1]))
    if size:
        stats += [tnp.max(indices), tnp.min(indices)]
    got = _read(stats)
    first, last = got[0], got[1]
    if first != 0:
        raise ValueError("index pointer should start with 0")
    if size != data.shape[0]:
        raise ValueError("indices and data should have the same size")
    if last > size:
        raise ValueError("Last value of index pointer should be less than the size of index and data arrays")
    if 0 <= last < size:  # prune, and check only the indices kept
        data, indices = data[:last].copy(), indices[:last].copy()
        if last:
            got[-2:] = _read([tnp.max(indices), tnp.min(indices)])
    if last > 0:
        if got[-2] >= n:
            raise ValueError(f"indices must be < {n}")
        if got[-1] < 0:
            raise ValueError("indices must be >= 0")
    if m and got[2] < 0:
        raise ValueError("indptr must be a non-decreasing sequence")
    return data, indices, indptr


def check_coords(data, coords, shape):
    """COO's checks of (data, (row, col)): the number of index arrays, their lengths and
    dimensions, then every index inside the shape."""
    if len(coords) != len(shape):
        raise ValueError(f"mismatching number of index arrays for shape; got {len(coords)}, expected {len(shape)}")
    nnz = data.shape[0] if data.ndim else 1
    if any((c.shape[0] if c.ndim else 1) != nnz for c in coords):
        raise ValueError("all index and data arrays must have the same length")
    if data.ndim != 1 or any(c.ndim != 1 for c in coords):
        raise ValueError("coordinates and data arrays must be 1-D")
    if nnz == 0:
        return
    got = _read([r for c in coords for r in (tnp.max(c), tnp.min(c))])
    for axis, extent in enumerate(shape):
        hi, lo = got[2 * axis], got[2 * axis + 1]
        if hi >= extent:
            raise ValueError(f"axis {axis} index {hi} exceeds matrix dimension {extent}")
        if lo < 0:
            raise ValueError(f"negative axis {axis} index: {lo}")

