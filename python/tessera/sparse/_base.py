"""What every sparse format shares (_spbase: shape, dtype, arithmetic, reductions, each
through CSR) and the helpers that build CSR arrays from triples with tessera operations."""
import numbers
import operator

import numpy as _np

import tessera.numpy as tnp
from tessera import _tessera

_INT32_MAX = 2**31 - 1


def _index_dtype(*sizes):
    """SciPy's index dtype: int32 while every size fits, else int64."""
    return _np.dtype(_np.int32) if max((int(s) for s in sizes), default=0) <= _INT32_MAX else _np.dtype(_np.int64)


def _asarray(a, dtype=None):
    """A tessera array for `a` (host arrays and lists are copied in once)."""
    if isinstance(a, tnp.ndarray):
        return a if dtype is None or a.dtype == _np.dtype(dtype) else a.astype(dtype)
    return tnp.asarray(_np.asarray(a) if dtype is None else _np.asarray(a, dtype=dtype))


def _rows_of(indptr, nnz):
    """The row of each stored value of a CSR matrix."""
    if nnz == 0:
        return tnp.zeros(0, dtype=indptr.dtype)
    return tnp.searchsorted(indptr[1:], tnp.arange(nnz, dtype=indptr.dtype), side="right").astype(indptr.dtype)


def _indptr_of(rows, m, dtype):
    """CSR offsets from the (non-decreasing) row of each stored value."""
    return tnp.searchsorted(rows, tnp.arange(m + 1, dtype=rows.dtype if rows.size else dtype)).astype(dtype)


def _sorted_csr(rows, cols, data, shape, sum_duplicates=True, idx=None):
    """(data, indices, indptr) of triples put in row-major order (stably), duplicates summed in
    order; index arrays of dtype `idx` (by default int32 while the sizes fit)."""
    m, n = shape
    nnz = data.size
    idx = _index_dtype(m, n, nnz) if idx is None else _np.dtype(idx)
    if nnz == 0:
        return data, tnp.zeros(0, dtype=idx), tnp.zeros(m + 1, dtype=idx)
    key = rows.astype(tnp.int64) * n + cols.astype(tnp.int64)
    perm = tnp.argsort(key, kind="stable")
    key = _tessera._take1d(key, perm)
    data = _tessera._take1d(data, perm)
    if sum_duplicates:
        new = tnp.concatenate((tnp.ones(1, dtype=bool), key[1:] != key[:-1]))
        starts = tnp.nonzero(new)[0]
        if starts.size != nnz:
            bounds = tnp.concatenate((starts, tnp.full(1, nnz, dtype=starts.dtype)))
            data = _tessera._segment_sum(bounds, data)
            key = key[new]
    rows = key // n if n else key
    cols = key - rows * n
    return data, cols.astype(idx), _indptr_of(rows, m, idx)


class _spbase:
    """What every format shares: shape, dtype, nnz, the arithmetic and the reductions (each
    through CSR)."""

    ndim = 2
    _is_array = True
    __array_priority__ = 10.1

    @property
    def shape(self):
        return self._shape

    @property
    def size(self):
        return self.nnz

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return bool(self.nnz != 0)
        raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all().")

    def getnnz(self):
        return self.nnz

    def count_nonzero(self, axis=None):
        a = self.tocsr(copy=False)._canonical()
        if axis is None:
            return int(tnp.count_nonzero(a.data))
        if _axis(axis, "axis out of bounds") == 0:
            a = a.transpose().tocsr(copy=False)._canonical()
        return _tessera._segment_sum(a.indptr, (a.data != 0).astype(_np.int64))

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<{self.format.upper()} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape}>")

    # conversions
    def tocsr(self, copy=False):
        raise NotImplementedError

    def tocsc(self, copy=False):
        return self.tocsr(copy=False).tocsc(copy=copy)

    def tocoo(self, copy=False):
        return self.tocsr(copy=False).tocoo(copy=copy)

    def todia(self, copy=False):
        from tessera.sparse._dia import dia_array, dia_matrix

        return (dia_array if self._is_array else dia_matrix)(self)

    def asformat(self, format, copy=False):
        if format is None or format == self.format:
            return self.copy() if copy else self
        convert = getattr(self, "to" + str(format), None)
        if format not in ("csr", "csc", "coo", "dia") or convert is None:
            raise ValueError(f"Format {format} is unknown.")
        return convert(copy=copy)

    def toarray(self, order=None, out=None):
        tnp.empty(0, order=order)  # NumPy's error for a bad order
        return self.tocsr(copy=False).toarray(order=order, out=out)

    # structure: each builds the CSR arrays of the result, which _become makes this array's own
    def _become(self, rows, cols, data, shape):
        """Makes this array (in place, keeping its format) the one of these triples (no two at
        one place) and `shape`."""
        from tessera.sparse._compressed import csr_array

        d, i, p = _sorted_csr(rows, cols, data, shape, sum_duplicates=False)
        self._take_csr(csr_array._raw(d, i, p, shape))

    def _triples(self):
        """(row, column, value) of the stored values, duplicates summed."""
        a = self.tocsr(copy=False)._canonical()
        return a._rows().astype(tnp.int64), a.indices.astype(tnp.int64), a.data

    def reshape(self, *args, shape=None, order="C", copy=False):
        """The same values in a new shape, read and written in C (or F) order: a COO array, as SciPy."""
        if order not in ("C", "F"):
            raise ValueError("'order' must be 'C' or 'F'")
        shape = _new_shape(args if shape is None else (shape,), self.shape)
        if shape == self.shape:
            return self.copy() if copy else self
        a = self.tocoo(copy=False)
        m, n = self.shape
        r, c = a.row.astype(tnp.int64), a.col.astype(tnp.int64)
        p, q = shape
        if order == "C":
            flat = r * n + c
            row, col = (flat // q, flat % q) if q else (flat, flat)
        else:
            flat = c * m + r
            col, row = (flat // p, flat % p) if p else (flat, flat)
        idx = _index_dtype(p, q, a.nnz)
        return type(a)._raw(a.data.copy() if copy else a.data, row.astype(idx), col.astype(idx), shape, False)

    def resize(self, *shape):
        """Changes the shape in place: entries outside it are dropped, new rows and columns are zero."""
        from tessera.sparse._checks import check_shape

        m, n = check_shape(shape[0] if len(shape) == 1 else shape)
        r, c, v = self._triples()
        keep = (r < m) & (c < n)
        self._become(r[keep], c[keep], v[keep], (m, n))

    def setdiag(self, values, k=0):
        """Sets diagonal k (in place) to `values`: a scalar for all of it, or a sequence for its
        first len(values) elements."""
        m, n = self.shape
        k = operator.index(k)
        if k <= -m or k >= n:
            raise ValueError("k exceeds array dimensions")
        length = min(m + min(k, 0), n - max(k, 0))
        if isinstance(values, tnp.ndarray):
            values = values.astype(self.dtype)
        else:  # NumPy's errors for what is not a number ('x')
            values = tnp.asarray(_np.asarray(values).astype(self.dtype))
        if values.ndim == 0:
            values = tnp.broadcast_to(values, (length,))
        values = values.reshape(-1)[:length]
        count = values.shape[0]
        first = max(0, -k)
        rows = tnp.arange(first, first + count, dtype=tnp.int64)
        r, c, v = self._triples()
        keep = ~((c - r == k) & (r >= first) & (r < first + count))
        self._become(tnp.concatenate((r[keep], rows)), tnp.concatenate((c[keep], rows + k)),
                     tnp.concatenate((v[keep], values)), self.shape)

    def __setitem__(self, key, value):
        """A[i, j] = v, in place, for ints, slices, integer arrays and boolean masks: two index
        arrays pick elements (broadcast together), otherwise rows times columns; `v` broadcasts
        over them and the last of repeated places wins, as NumPy."""
        if not isinstance(key, tuple):
            key = (key, slice(None))
        if len(key) != 2:
            raise IndexError("too many indices for a 2-D sparse array")
        m, n = self.shape
        i, j = (_host_positions(k, e) for k, e in zip(key, (m, n)))
        # A slice with an array or a slice spans rows times columns; ints and two arrays broadcast.
        if (isinstance(key[0], slice) or isinstance(key[1], slice)) and i.ndim and j.ndim:
            i, j = _np.ix_(i.reshape(-1), j.reshape(-1))
        try:
            i, j = _np.broadcast_arrays(i, j)
        except ValueError:
            raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes "
                             f"{i.shape} {j.shape}") from None
        values = _np.broadcast_to(_np.asarray(value)
                                  .astype(self.dtype), i.shape)
        keys = (i.astype(_np.int64) * n + j).reshape(-1)
        last = len(keys) - 1 - _np.unique(keys[::-1], return_index=True)[1]  # the last write of each place
        keys, values = keys[last], values.reshape(-1)[last]
        r, c, v = self._triples()
        keep = ~tnp.isin(r * n + c, tnp.asarray(keys))
        rows = keys // n if n else keys
        self._become(tnp.concatenate((r[keep], tnp.asarray(rows))), tnp.concatenate((c[keep], tnp.asarray(keys - rows * n))),
                     tnp.concatenate((v[keep], tnp.asarray(values))), self.shape)

    def nonzero(self):
        """The (row, column) positions of the stored values that are not zero."""
        a = self.tocoo(copy=False)
        nz = a.data != 0
        return a.row[nz], a.col[nz]

    def _argextreme(self, axis, name):
        axis = None if axis is None else _axis(axis)
        return getattr(tnp, name)(self.toarray(), axis=axis)

    def argmax(self, axis=None, out=None):
        """The position of the largest value (implicit zeros included), flattened or along `axis`."""
        return self._argextreme(axis, "argmax")

    def argmin(self, axis=None, out=None):
        """The position of the smallest value (implicit zeros included), flattened or along `axis`."""
        return self._argextreme(axis, "argmin")

    def todense(self, order=None, out=None):
        return self.toarray(order=order, out=out)

    def to_scipy(self):
        """The same matrix as a SciPy sparse array (or matrix) of this format (values copied)."""
        return self.tocsr(copy=False).to_scipy().asformat(self.format)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        return self.tocsr(copy=False).transpose(copy=copy)

    @property
    def T(self):
        return self.transpose()

    @property
    def mT(self):
        return self.transpose()

    def conjugate(self, copy=True):
        return self._with_data(tnp.conjugate(self.data) if self.dtype.kind == "c" else self.data, copy=copy)

    conj = conjugate

    @property
    def real(self):
        return self._with_data(tnp.real(self.data))

    @property
    def imag(self):
        return self._with_data(tnp.imag(self.data))

    def astype(self, dtype, casting="unsafe", copy=True):
        from tessera.sparse._checks import check_dtype

        dtype = check_dtype(dtype)
        if dtype == self.dtype and not copy:
            return self
        if not _np.can_cast(self.dtype, dtype, casting=casting):
            raise TypeError(f"Cannot cast array data from {self.dtype!r} to {dtype!r} according to the rule '{casting}'")
        return self._with_data(self.data.astype(dtype), copy=True)

    def __abs__(self):
        return self._with_data(tnp.abs(self.data))

    def __neg__(self):
        if self.dtype == _np.bool_:
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(-self.data)

    def __pos__(self):
        return self.copy()

    def __round__(self, ndigits=0):
        return self._with_data(tnp.round(self.data, ndigits))

    def power(self, n, dtype=None):
        """Element-wise power of the stored values (implicit zeros stay zero)."""
        if not _np.isscalar(n):
            raise NotImplementedError("input is not scalar")
        if n == 0:
            raise NotImplementedError("zero power is not supported as it would densify the matrix.\n"
                                      "Use `np.ones(A.shape, dtype=A.dtype)` for this case.")
        data = self.data if dtype is None else self.data.astype(dtype)
        return self._with_data(data ** n)

    def sqrt(self):
        return self._with_data(tnp.sqrt(self.data))


    def sign(self):
        return self._with_data(tnp.sign(self.data))

    # comparisons: through CSR
    def __lt__(self, other):
        return self.tocsr()._compare(other, operator.lt)

    def __gt__(self, other):
        return self.tocsr()._compare(other, operator.gt)

    def __le__(self, other):
        return self.tocsr()._compare(other, operator.le)

    def __ge__(self, other):
        return self.tocsr()._compare(other, operator.ge)

    def __ne__(self, other):
        return self.tocsr()._compare(other, operator.ne)

    def __eq__(self, other):
        return self.tocsr()._compare(other, operator.eq)

    __hash__ = None

    def maximum(self, other):
        """Element-wise maximum with a scalar or a sparse array."""
        return self.tocsr()._extreme(other, tnp.maximum)

    def minimum(self, other):
        """Element-wise minimum with a scalar or a sparse array."""
        return self.tocsr()._extreme(other, tnp.minimum)

    # arithmetic
    def _scale(self, other):
        return self._with_data(self.data * other)

    def __mul__(self, other):
        if _np.isscalar(other) or (hasattr(other, "ndim") and other.ndim == 0 and not isinstance(other, _spbase)):
            return self._scale(other)
        if not self._is_array:
            return self @ other
        return self.multiply(other)

    def __rmul__(self, other):
        if _np.isscalar(other) or (hasattr(other, "ndim") and other.ndim == 0):
            return self._scale(other)
        if not self._is_array:
            return (self.T @ tnp.asarray(other).T).T
        return self.multiply(other)

    def __truediv__(self, other):
        if _np.isscalar(other) or (hasattr(other, "ndim") and other.ndim == 0 and not isinstance(other, _spbase)):
            # SciPy's steps: float64 when the values cast to it, times 1 / other (a Python 0 is
            # a ZeroDivisionError there).
            data = self.data
            if _np.can_cast(data.dtype, _np.float64):
                data = data.astype(tnp.float64)
            return self._with_data(data * (1 / other))
        if isinstance(other, _spbase):
            return tnp.asarray(self.toarray()) / other.toarray()
        return self.toarray() / other

    def _both_csc(self, other):
        return self.format == "csc" and other.format == "csc"

    def __add__(self, other):
        if isinstance(other, _spbase):
            if self._both_csc(other):
                return (self.T + other.T).T.tocsc()
            return self.tocsr(copy=False)._binop(other.tocsr(copy=False), 1)
        if _np.isscalar(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("adding a nonzero scalar to a sparse array is not supported")
        return self.toarray() + other

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, _spbase):
            if self._both_csc(other):
                return (self.T - other.T).T.tocsc()
            return self.tocsr(copy=False)._binop(other.tocsr(copy=False), -1)
        if _np.isscalar(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("subtracting a nonzero scalar from a sparse array is not supported")
        return self.toarray() - other

    def __rsub__(self, other):
        if _np.isscalar(other):
            if other == 0:
                return -self
            raise NotImplementedError("subtracting a sparse array from a nonzero scalar is not supported")
        return other - self.toarray()

    def multiply(self, other):
        """Element-wise product: sparse with a scalar, a sparse array or a dense array."""
        if _np.isscalar(other):
            return self._scale(other)
        a = self.tocsr(copy=False)
        if isinstance(other, _spbase):
            return a._intersect(other.tocsr(copy=False))
        b = _asarray(other)
        if b.ndim > 2:
            raise ValueError("sparse arrays here are 2-D")
        try:
            fits = tnp.broadcast_shapes(b.shape, a.shape) == a.shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"inconsistent shapes {a.shape} and {b.shape}")
        a = a._canonical()
        b = tnp.broadcast_to(b, a.shape).copy().ravel()
        m, n = a.shape
        pos = _rows_of(a.indptr, a.nnz).astype(tnp.int64) * n + a.indices.astype(tnp.int64)
        vals = a.data * _tessera._take1d(b, pos) if a.nnz else a.data.astype(tnp.result_type(a.data, b))
        out = a._new(vals, a.indices, a.indptr)._eliminated()
        return out.tocoo() if self._is_array else out  # SciPy: COO for arrays, CSR for matrices

    def __matmul__(self, other):
        if _np.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if isinstance(other, _spbase):
            return self.tocsr(copy=False)._matmat(other.tocsr(copy=False))
        return self.tocsr(copy=False)._matvec(other)

    def __rmatmul__(self, other):
        if _np.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        x = _asarray(other)
        if x.ndim == 1:
            return self.transpose()._matvec(x)
        return self.transpose()._matvec(x.T).T

    def dot(self, other):
        if _np.isscalar(other):
            return self._scale(other)
        return self @ other

    def __pow__(self, n):
        if not self._is_array:
            if not isinstance(n, numbers.Integral) or n < 0:
                raise ValueError("exponent must be a non-negative integer")
            m = self.shape[0]
            if m != self.shape[1]:
                raise TypeError("sparse matrix is not square")
            from tessera.sparse._construct import eye

            result = eye(m, dtype=self.dtype, format="csr")
            for _ in range(n):
                result = result @ self
            return result
        return self.power(n)

    # reductions
    def sum(self, axis=None, dtype=None, out=None):
        """The sum of every value, or along `axis` (a 1-D array; a 2-D one for *_matrix)."""
        axis = None if axis is None else _axis(axis)
        a = self.tocsr(copy=False)
        data = a.data
        if dtype is None:
            dtype = _np.result_type(data.dtype, _np.int64) if data.dtype.kind in "bi" else (
                _np.uint64 if data.dtype.kind == "u" else data.dtype)
        data = data.astype(dtype)
        if axis is None:
            return tnp.sum(data, dtype=dtype)[()]
        if axis == 1:
            s = _tessera._segment_sum(a.indptr, data)
        else:
            t = a.transpose().tocsr(copy=False)
            s = _tessera._segment_sum(t.indptr, t.data.astype(dtype))
        return s if self._is_array else (s.reshape(1, -1) if axis == 0 else s.reshape(-1, 1))

    def mean(self, axis=None, dtype=None, out=None):
        m, n = self.shape
        axis = None if axis is None else _axis(axis)
        if dtype is None:
            dtype = self.dtype if self.dtype.kind in "fc" else _np.float64
        s = self.astype(dtype, copy=False).sum(axis=axis, dtype=dtype)
        if axis is None:
            return s / (m * n)
        return s / (n if axis == 1 else m)

    def _minmax(self, axis, reduce, pick):
        axis = None if axis is None else _axis(axis)
        a = self.tocsr(copy=False)._canonical()
        m, n = a.shape
        if m == 0 or n == 0:
            raise ValueError("zero-size array to reduction operation not allowed")
        zero = tnp.zeros((), dtype=a.dtype)
        if axis is None:
            if a.nnz == 0:
                return zero[()]
            v = reduce(a.data)
            return pick(v, zero)[()] if a.nnz < m * n else v[()]
        b = a if axis == 1 else a.transpose().tocsr(copy=False)._canonical()
        counts = b.indptr[1:] - b.indptr[:-1]
        rows = _rows_of(b.indptr, b.nnz)
        # Each line's stored values, ordered by line then value: its extreme is one end.
        if b.nnz == 0:
            return tnp.zeros(b.shape[0], dtype=a.dtype)
        keyed = tnp.argsort(b.data, kind="stable")
        order = _tessera._take1d(rows, keyed)
        perm = _tessera._take1d(keyed, tnp.argsort(order, kind="stable"))
        vals = _tessera._take1d(b.data, perm)
        ends = b.indptr[:-1] if reduce is tnp.min else b.indptr[1:] - 1
        nonempty = counts > 0
        at = tnp.where(nonempty, ends, 0)
        ext = tnp.where(nonempty, _tessera._take1d(vals, at.astype(tnp.int64)), zero)
        full = counts == b.shape[1]
        return tnp.where(full, ext, pick(ext, zero))

    def max(self, axis=None, out=None):
        return self._minmax(axis, tnp.max, tnp.maximum)

    def min(self, axis=None, out=None):
        return self._minmax(axis, tnp.min, tnp.minimum)

    def diagonal(self, k=0):
        """The k-th diagonal as a dense 1-D array (duplicates summed)."""
        a = self.tocsr(copy=False)
        m, n = a.shape
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        if length == 0 or a.nnz == 0:
            return tnp.zeros(length, dtype=a.dtype)
        rows = _rows_of(a.indptr, a.nnz).astype(tnp.int64)
        on = (a.indices.astype(tnp.int64) - rows) == k
        first = max(0, -k)
        sel = rows[on] - first
        vals = a.data[on]
        bounds = tnp.searchsorted(sel, tnp.arange(length + 1, dtype=tnp.int64))
        return _tessera._segment_sum(bounds, vals)

    def trace(self, offset=0):
        return tnp.sum(self.diagonal(offset))[()]



def _zero_preserving(name):
    fn = getattr(tnp, name)

    def method(self):
        return self._with_data(fn(self.data))

    method.__name__ = name
    method.__doc__ = f"Element-wise {name} of the stored values (f(0) = 0, so implicit zeros stay zero)."
    return method


for _name in ("sin", "tan", "arcsin", "arctan", "sinh", "tanh", "arcsinh", "arctanh", "rint", "floor", "ceil",
              "trunc", "expm1", "log1p", "deg2rad", "rad2deg"):
    setattr(_spbase, _name, _zero_preserving(_name))


def _axis(axis, message="axis out of range for ndim"):
    """An axis as SciPy's reductions read it: 0 or 1 (negative counted from the end), a 1-tuple
    of one, or None for both (None, or a tuple of the two)."""
    if isinstance(axis, tuple):
        if len(axis) == 2:
            both = sorted(_axis(a, message) for a in axis)
            if both != [0, 1]:
                raise ValueError("duplicate value in axis")
            return None
        if len(axis) != 1:
            raise ValueError("axis must be None, an int or a 1-tuple")
        axis = axis[0]
    axis = operator.index(axis)
    if axis < -2 or axis >= 2:
        raise ValueError(message)
    return axis % 2


def _new_shape(args, current):
    """A reshape's target for an array of shape `current`, one extent possibly -1 (NumPy's rules,
    SciPy's messages); tessera.sparse arrays are 2-D."""
    items = args[0] if len(args) == 1 and _np.iterable(args[0]) else args
    shape = tuple(operator.index(d) for d in items)
    size = current[0] * current[1]
    if len(shape) != 2:
        raise ValueError(f"shape must have length in (2,). Got new_shape={shape} (tessera.sparse arrays are 2-D)")
    unknown = [i for i, d in enumerate(shape) if d < 0]
    if len(unknown) > 1 or any(d < -1 for d in shape):
        raise ValueError("can only specify one unknown dimension")
    if unknown:
        known = shape[1 - unknown[0]]
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    if shape[0] * shape[1] != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
    return shape



def _is_scipy_sparse(obj):
    mod = type(obj).__module__ or ""
    if not mod.startswith("scipy.sparse"):
        return False
    import scipy.sparse as sp

    return sp.issparse(obj)


def _host_positions(key, extent):
    """The positions an index along an axis of `extent` names (an int, a slice, an integer array
    or a boolean mask), as a host array; IndexError out of range, as SciPy."""
    if isinstance(key, slice):
        return _np.arange(*key.indices(extent))
    if isinstance(key, numbers.Integral):
        k = operator.index(key)
        if k < -extent or k >= extent:
            raise IndexError(f"index ({k}) out of range")
        return _np.array(k % extent)
    a = _np.asarray(key)
    if a.dtype == _np.bool_:
        if a.shape != (extent,):
            raise IndexError(f"boolean index did not match indexed array; size of axis is {extent} but size of "
                             f"corresponding boolean axis is {a.shape[0] if a.ndim else 0}")
        return _np.flatnonzero(a)
    if a.size == 0:
        return a.astype(_np.int64)
    if a.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if a.min() < -extent or a.max() >= extent:
        bad = a.max() if a.max() >= extent else a.min()
        raise IndexError(f"index ({bad}) out of range")
    return _np.where(a < 0, a + extent, a).astype(_np.int64)
