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


def _check_shape(shape):
    try:
        m, n = (operator.index(s) for s in shape)
    except (TypeError, ValueError):
        raise TypeError(f"invalid shape {shape!r}: expected a tuple of two integers") from None
    if len(tuple(shape)) != 2:
        raise ValueError("sparse arrays here are 2-D")
    if m < 0 or n < 0:
        raise ValueError("'shape' elements cannot be negative")
    return (m, n)


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

    def count_nonzero(self):
        return int(tnp.count_nonzero(self.tocsr(copy=False)._canonical().data))

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
        return getattr(self, "to" + format)(copy=copy)

    def toarray(self, order=None, out=None):
        return self.tocsr(copy=False).toarray(order=order, out=out)

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
        dtype = _np.dtype(dtype)
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
            data = self.data
            if data.dtype.kind in "biu":
                data = data.astype(tnp.float64)
            return self._with_data(data / other)
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
        if tnp.broadcast_shapes(b.shape, a.shape) != a.shape:
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
        a = self.tocsr(copy=False)
        data = a.data
        if dtype is None:
            dtype = _np.result_type(data.dtype, _np.int64) if data.dtype.kind in "bi" else (
                _np.uint64 if data.dtype.kind == "u" else data.dtype)
        data = data.astype(dtype)
        if axis is None:
            return tnp.sum(data, dtype=dtype)[()]
        axis = _axis(axis)
        if axis == 1:
            s = _tessera._segment_sum(a.indptr, data)
        else:
            t = a.transpose().tocsr(copy=False)
            s = _tessera._segment_sum(t.indptr, t.data.astype(dtype))
        return s if self._is_array else (s.reshape(1, -1) if axis == 0 else s.reshape(-1, 1))

    def mean(self, axis=None, dtype=None, out=None):
        m, n = self.shape
        if dtype is None:
            dtype = self.dtype if self.dtype.kind in "fc" else _np.float64
        s = self.astype(dtype, copy=False).sum(axis=axis, dtype=dtype)
        if axis is None:
            return s / (m * n)
        return s / (n if _axis(axis) == 1 else m)

    def _minmax(self, axis, reduce, pick):
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
        axis = _axis(axis)
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


def _axis(axis):
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError("axis must be None, an int or a 1-tuple")
        axis = axis[0]
    axis = operator.index(axis)
    if axis < -2 or axis >= 2:
        raise ValueError("axis out of range")
    return axis % 2


def _is_scipy_sparse(obj):
    mod = type(obj).__module__ or ""
    if not mod.startswith("scipy.sparse"):
        return False
    import scipy.sparse as sp

    return sp.issparse(obj)
