"""The compressed formats: CSR (the one the kernels compute on) and CSC (the CSR of the
transpose). Their arrays are tessera arrays; every conversion and operation is a few tessera
operations (argsort, searchsorted, masks) or one of the CSR kernels of tessera/sparse.h,
never NumPy on the values."""
import numbers
import operator

import numpy as _np

import tessera.numpy as tnp
from tessera import _tessera
from tessera.sparse._base import (
    _asarray, _axis, _index_dtype, _indptr_of, _is_scipy_sparse, _rows_of, _sorted_csr, _spbase,
)
from tessera.sparse._checks import check_compressed, check_dtype, check_shape, data_array, index_array, index_dtype


class csr_array(_spbase):
    """Compressed sparse row array on tessera arrays (``data``, ``indices``, ``indptr``).

    ``csr_array((data, indices, indptr), shape)``, ``csr_array((data, (row, col)), shape)``,
    ``csr_array(dense)``, ``csr_array(S)`` for another sparse array (tessera's or SciPy's),
    ``csr_array((M, N))`` for an empty one. ``A @ x`` runs tessera's CSR kernel by row blocks.
    """

    format = "csr"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if dtype is not None:
            dtype = check_dtype(dtype)
        if isinstance(arg1, _spbase):
            a = arg1.tocsr(copy=copy)
            self._set(a.data, a.indices, a.indptr, a.shape, a._sorted)
            if shape is not None and check_shape(shape) != self._shape:  # SciPy checks the arrays against it
                m, n = check_shape(shape)
                self.data, self.indices, self.indptr = check_compressed(self.data, self.indices, self.indptr, m, n)
                self._shape = (m, n)
        elif _is_scipy_sparse(arg1):
            a = arg1.tocsr()
            idx = _index_dtype(*a.shape, a.nnz)
            # SciPy's arrays may break its format (it checks them only in check_format): checked here.
            data, indices, indptr = check_compressed(data_array(a.data), _asarray(a.indices, idx),
                                                     _asarray(a.indptr, idx), *a.shape)
            self._set(data, indices, indptr, a.shape, bool(a.has_canonical_format) or None)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(s, numbers.Integral) for s in arg1):
            m, n = check_shape(arg1)
            idx = _index_dtype(m, n)
            self._set(tnp.zeros(0, dtype=dtype or _np.float64), tnp.zeros(0, dtype=idx), tnp.zeros(m + 1, dtype=idx),
                      (m, n), True)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            from tessera.sparse._coo import coo_array

            coo = coo_array(arg1, shape=shape, dtype=dtype)
            a = coo.tocsr()
            self._set(a.data, a.indices, a.indptr, a.shape, True)
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = data_array(arg1[0], dtype), index_array(arg1[1]), index_array(arg1[2])
            if shape is None:  # SciPy: len(indptr) - 1 lines of max(indices) + 1 entries
                if indptr.ndim != 1 or indices.ndim != 1 or indices.size == 0:
                    raise ValueError("unable to infer matrix dimensions")
                shape = (indptr.shape[0] - 1, int(tnp.max(indices)) + 1)
            m, n = check_shape(shape)
            idx = index_dtype((indices, indptr), max(m, n))
            data, indices, indptr = check_compressed(data, indices, indptr, m, n)
            if copy:
                data, indices, indptr = data.copy(), indices.copy(), indptr.copy()
            self._set(data, indices.astype(idx), indptr.astype(idx), (m, n), None)
        elif isinstance(arg1, tuple):
            raise ValueError(f"unrecognized {type(self).__name__} constructor input: {arg1}")
        else:
            dense = data_array(arg1)
            if dense.ndim == 1:
                dense = dense.reshape(1, -1)
            if dense.ndim != 2:
                raise ValueError(f"{self.format.upper()} arrays don't yet support {dense.ndim}D.")
            m, n = dense.shape
            nz = dense != 0
            rows, cols = tnp.nonzero(nz)
            idx = _index_dtype(m, n, rows.size)
            self._set(dense[nz], cols.astype(idx), _indptr_of(rows, m, idx), (m, n), True)
            if shape is not None and check_shape(shape) != self._shape:  # SciPy checks the arrays against it
                m, n = check_shape(shape)
                self.data, self.indices, self.indptr = check_compressed(self.data, self.indices, self.indptr, m, n)
                self._shape = (m, n)
        if dtype is not None and _np.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(dtype)

    def _set(self, data, indices, indptr, shape, sorted_):
        self.data, self.indices, self.indptr = data, indices, indptr
        self._shape = (int(shape[0]), int(shape[1]))
        self._sorted = sorted_  # True: sorted, no duplicates; None: unknown
        self._stamp()

    def _stamp(self):
        """Records that indices and indptr, as they are now, were checked (or made by tessera)."""
        self._checked = (self.indptr, self.indices, _tessera._writes(self.indptr), _tessera._writes(self.indices))

    def _valid(self):
        """Checks the arrays again (check_format) when indices or indptr were replaced or written
        since they were last checked, or data no longer matches them: tessera's kernels index
        with them. SciPy computes garbage or crashes there; this raises check_format's errors."""
        indptr, indices, data = self.indptr, self.indices, self.data
        checked = self.__dict__.get("_checked")
        if (checked is not None and checked[0] is indptr and checked[1] is indices and isinstance(data, tnp.ndarray)
                and data.ndim == 1 and data.shape[0] == indices.shape[0]
                and checked[2] == _tessera._writes(indptr) and checked[3] == _tessera._writes(indices)):
            return self
        self.data, self.indices, self.indptr = check_compressed(data_array(data), index_array(indices),
                                                                index_array(indptr), *self._shape)
        self._sorted = None
        self._stamp()
        return self

    def _take_csr(self, c):
        self._set(c.data, c.indices, c.indptr, c.shape, c._sorted)

    def check_format(self, full_check=True):
        """SciPy's checks of the arrays (those of full_check too: tessera makes them on construction)."""
        self.data, self.indices, self.indptr = check_compressed(data_array(self.data), index_array(self.indices),
                                                                index_array(self.indptr), *self._shape)
        self._stamp()

    def _new(self, data, indices, indptr, sorted_=None, shape=None):
        self._valid()
        out = object.__new__(type(self))
        out._set(data, indices, indptr, shape or self._shape, self._sorted if sorted_ is None else sorted_)
        return out

    def _with_data(self, data, copy=True):
        return self._new(data, self.indices.copy() if copy else self.indices, self.indptr.copy() if copy else self.indptr)

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def nnz(self):
        return int(self.data.size)

    def copy(self):
        return self._new(self.data.copy(), self.indices.copy(), self.indptr.copy())

    # structure
    def _rows(self):
        self._valid()
        return _rows_of(self.indptr, self.nnz)

    @property
    def has_sorted_indices(self):
        if self.nnz < 2:
            return True
        rows = self._rows()
        same = rows[1:] == rows[:-1]
        return bool(tnp.all(~same | (self.indices[1:] >= self.indices[:-1])))

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        self._sorted = True if value else None

    @property
    def has_canonical_format(self):
        if self._sorted:
            return True
        if self.nnz < 2:
            return True
        rows = self._rows()
        same = rows[1:] == rows[:-1]
        return bool(tnp.all(~same | (self.indices[1:] > self.indices[:-1])))

    def sorted_indices(self):
        out = self.copy()
        out.sort_indices()
        return out

    def sort_indices(self):
        """Sorts the column indices of each row in place (equal columns keep their order)."""
        self._valid()
        if self._sorted or self.nnz < 2:
            return
        n = self.shape[1]
        key = self._rows().astype(tnp.int64) * n + self.indices.astype(tnp.int64)
        perm = tnp.argsort(key, kind="stable")
        self.data = _tessera._take1d(self.data, perm)
        self.indices = _tessera._take1d(self.indices, perm)
        self._stamp()

    def sum_duplicates(self):
        """Sorts the indices and sums the values of repeated (row, column) entries, in place."""
        self._valid()
        if self._sorted:
            return
        if self.nnz:
            data, indices, indptr = _sorted_csr(self._rows(), self.indices, self.data, self.shape,
                                                idx=self.indptr.dtype)
            self.data, self.indices, self.indptr = data, indices, indptr
            self._stamp()
        self._sorted = True

    def eliminate_zeros(self):
        """Removes stored zeros, in place."""
        self._valid()
        if self.nnz == 0:
            return
        keep = self.data != 0
        if bool(tnp.all(keep)):
            return
        counts = _tessera._segment_sum(self.indptr, keep.astype(self.indptr.dtype))
        self.indptr = tnp.concatenate((tnp.zeros(1, dtype=self.indptr.dtype), tnp.cumsum(counts))).astype(self.indptr.dtype)
        self.data = self.data[keep]
        self.indices = self.indices[keep]
        self._stamp()

    def prune(self):
        pass

    def _canonical(self):
        if self._sorted:
            return self
        out = self.copy()
        out.sum_duplicates()
        return out

    def _eliminated(self):
        self.eliminate_zeros()
        return self

    # conversions
    def tocsr(self, copy=False):
        self._valid()
        if type(self) in (csr_array, csr_matrix):
            out = self.copy() if copy else self
        else:
            out = self._new(self.data, self.indices, self.indptr)
        return out

    def tocsc(self, copy=False):
        t = self._transposed_csr()
        cls = csc_array if self._is_array else csc_matrix
        return cls._from_csr_of_transpose(t)

    def _transposed_csr(self):
        """The CSR arrays of the transpose (canonical)."""
        self._valid()
        m, n = self.shape
        data, indices, indptr = _sorted_csr(self.indices, self._rows(), self.data, (n, m), sum_duplicates=True)
        return csr_array._raw(data, indices, indptr, (n, m))

    @classmethod
    def _raw(cls, data, indices, indptr, shape, sorted_=True):
        out = object.__new__(cls)
        out._set(data, indices, indptr, shape, sorted_)
        return out

    def tocoo(self, copy=False):
        from tessera.sparse._coo import coo_array, coo_matrix

        cls = coo_array if self._is_array else coo_matrix
        return cls._raw(self.data.copy() if copy else self.data, self._rows(), self.indices.copy() if copy else self.indices,
                        self.shape, bool(self._sorted))

    def toarray(self, order=None, out=None):
        tnp.empty(0, order=order)  # NumPy's error for a bad order
        self._valid()
        m, n = self.shape
        if self.nnz == 0:
            dense = tnp.zeros((m, n), dtype=self.dtype)
        else:
            dense = _tessera._csr_todense(self.indptr, self.indices, self.data, n)
        if out is not None:
            out[...] = dense
            return out
        return dense

    def to_scipy(self):
        import scipy.sparse as sp

        cls = sp.csr_array if self._is_array else sp.csr_matrix
        return cls((_np.asarray(self.data), _np.asarray(self.indices), _np.asarray(self.indptr)), shape=self.shape)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        cls = csc_array if self._is_array else csc_matrix
        return cls._from_csr_of_transpose(self.copy() if copy else self._new(self.data, self.indices, self.indptr,
                                                                              shape=self.shape)
                                          ._as(csr_array), flip=True)

    def _as(self, cls):
        self._valid()
        out = object.__new__(cls)
        out._set(self.data, self.indices, self.indptr, self._shape, self._sorted)
        return out

    # products
    def _matvec(self, other):
        self._valid()
        x = _asarray(other)
        m, n = self.shape
        if x.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if x.ndim > 2:
            raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0 (size {x.shape[-2]} is different from {n})")
        if x.shape[0] != n:
            raise ValueError(f"dimension mismatch: matrix of shape {self.shape} and operand of shape {x.shape}")
        if x.dtype == _np.bool_:
            x = x.astype(self.dtype if self.dtype != _np.bool_ else _np.int8)
        if x.ndim == 2:
            return _tessera._csr_matvec(self.indptr, self.indices, self.data, x)
        ranges, block = self._column_ranges()
        return _tessera._csr_matvec(self.indptr, self.indices, self.data, x, ranges, block)

    # About this many row blocks: enough to cut a product for any number of cpus and ranks,
    # few enough that the partitioner reads their ranges at no cost.
    _RANGE_BLOCKS = 1024

    def _column_ranges(self):
        """The [start, stop) column range of each block of rows (csr_column_ranges) and the
        block, kept until indptr or indices is replaced or written."""
        indptr, indices = self.indptr, self.indices
        writes = (_tessera._writes(indptr), _tessera._writes(indices))
        cached = getattr(self, "_ranges_cache", None)
        if cached is not None and cached[0] is indptr and cached[1] is indices and cached[2] == writes:
            return cached[3], cached[4]
        rows = self._shape[0]
        block = max(1, -(-rows // self._RANGE_BLOCKS))
        ranges = _tessera._csr_column_ranges(indptr, indices, block)
        self._ranges_cache = (indptr, indices, writes, ranges, block)
        return ranges, block

    def _matmat(self, other):
        self._valid()
        other._valid()
        m, k = self.shape
        k2, n = other.shape
        if k != k2:
            raise ValueError(f"dimension mismatch: {self.shape} @ {other.shape}")
        indptr, indices, data = _tessera._csr_matmat(self.indptr, self.indices, self.data, other.indptr, other.indices,
                                                     other.data, n)
        idx = _index_dtype(m, n, data.size)
        cls = csr_array if (self._is_array or other._is_array) else csr_matrix
        return cls._raw(data, indices.astype(idx), indptr.astype(idx), (m, n))

    def _binop(self, other, sign):
        """self + sign * other."""
        if self.shape != other.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
        b = other.data if sign > 0 else -other.data
        t = _np.result_type(self.dtype, other.dtype)
        rows = tnp.concatenate((self._rows(), other._rows()))
        cols = tnp.concatenate((self.indices, other.indices))
        data = tnp.concatenate((self.data.astype(t), b.astype(t)))
        d, i, p = _sorted_csr(rows, cols, data, self.shape)
        cls = csr_array if (self._is_array or other._is_array) else csr_matrix
        return cls._raw(d, i, p, self.shape)._eliminated()

    def _intersect(self, other):
        """The element-wise product of two sparse arrays (stored where both store)."""
        if self.shape != other.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
        a, b = self._canonical(), other._canonical()
        t = _np.result_type(a.dtype, b.dtype)
        cls = csr_array if (self._is_array or other._is_array) else csr_matrix
        m, n = self.shape
        idx = _index_dtype(m, n)
        if a.nnz == 0 or b.nnz == 0:
            return cls._raw(tnp.zeros(0, dtype=t), tnp.zeros(0, dtype=idx), tnp.zeros(m + 1, dtype=idx), self.shape)
        key = tnp.concatenate((a._rows().astype(tnp.int64) * n + a.indices.astype(tnp.int64),
                               b._rows().astype(tnp.int64) * n + b.indices.astype(tnp.int64)))
        data = tnp.concatenate((a.data.astype(t), b.data.astype(t)))
        perm = tnp.argsort(key, kind="stable")
        key = _tessera._take1d(key, perm)
        data = _tessera._take1d(data, perm)
        both = key[1:] == key[:-1]
        prod = data[:-1][both] * data[1:][both]
        k = key[:-1][both]
        rows = k // n
        out = cls._raw(prod, (k - rows * n).astype(idx), _indptr_of(rows, m, idx), self.shape)
        return out._eliminated()

    # comparisons: sparse where comparing an implicit zero is False, else through the dense array
    def _compare(self, other, op):
        if isinstance(other, _spbase):
            if self.shape != other.shape:
                if op in (operator.eq, operator.ne):  # SciPy: arrays of other shapes are not equal
                    return op is operator.ne
                raise ValueError("inconsistent shape")
            if op in (operator.lt, operator.gt, operator.ne):
                diff = (other - self) if op is operator.lt else (self - other)
                diff = diff.tocsr()
                keep = diff.data > 0 if op is not operator.ne else diff.data != 0
                return diff._with_data(keep)._eliminated()._as_kind(self, other)
            return csr_array(op(self.toarray(), other.toarray()))._as_kind(self, other)
        if not _np.isscalar(other):
            return op(self.toarray(), _asarray(other))
        if bool(op(_np.zeros((), dtype=self.dtype), other)):
            return csr_array(op(self.toarray(), other))._as_kind(self)
        a = self.tocsr()._canonical()
        return a._with_data(op(a.data, other))._eliminated()._as_kind(self)

    def _as_kind(self, *operands):
        matrix = not any(o._is_array for o in operands)
        return self._as(csr_matrix if matrix else csr_array)

    def _extreme(self, other, fn):
        if isinstance(other, _spbase):
            return csr_array(fn(self.toarray(), other.toarray()))._as_kind(self, other)
        if not _np.isscalar(other):
            return fn(self.toarray(), _asarray(other))
        if fn(_np.zeros((), dtype=self.dtype), other) != 0:
            return csr_array(fn(self.toarray(), other))._as_kind(self)
        a = self.tocsr()._canonical()
        return a._with_data(fn(a.data, other))._eliminated()._as_kind(self)

    # indexing
    def __getitem__(self, key):
        """Ints, slices (any step), integer arrays and boolean masks for rows and columns, as
        SciPy; two integer arrays pick elements (a dense result). A single row or column stays
        2-D here (SciPy's sparse arrays give a 1-D coo_array)."""
        if not isinstance(key, tuple):
            key = (key, slice(None))
        if len(key) != 2:
            raise IndexError("too many indices for a 2-D sparse array")
        i, j = key
        m, n = self.shape
        if isinstance(i, numbers.Integral) and isinstance(j, numbers.Integral):
            return self._element(_norm_index(i, m, 0), _norm_index(j, n, 1))
        if _is_index_array(i) and _is_index_array(j):
            return self._elements(i, j)
        rows = self._select_rows(i)
        if isinstance(j, slice) and j == slice(None):
            return rows
        # Columns are the rows of the transpose: select there and turn back.
        cols = rows._transposed_csr()._select_rows(j, axis=1)
        return cols._transposed_csr()._as(type(self))

    def _element(self, i, j):
        self._valid()
        lo, hi = int(self.indptr[i]), int(self.indptr[i + 1])
        if lo == hi:
            return _np.zeros((), dtype=self.dtype)[()]
        hit = self.indices[lo:hi] == j
        return tnp.sum(tnp.where(hit, self.data[lo:hi], 0), dtype=self.dtype)[()]

    def _elements(self, i, j):
        """A[i, j] for integer arrays broadcast together: each element summed over its row's
        stored values (duplicates add, as SciPy)."""
        m, n = self.shape
        ii, jj = _index_positions(i, m, 0), _index_positions(j, n, 1)
        try:
            ii, jj = tnp.broadcast_arrays(ii, jj)
        except ValueError:
            raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes "
                             f"{tuple(ii.shape)} {tuple(jj.shape)}") from None
        shape = ii.shape
        a = self.tocsr()._canonical()
        flat_i, flat_j = ii.reshape(-1), jj.reshape(-1)
        # A stored value's place in C order; each wanted element is found by binary search.
        keys = a._rows().astype(_np.int64) * n + a.indices.astype(_np.int64)
        want = flat_i.astype(_np.int64) * n + flat_j.astype(_np.int64)
        if a.nnz == 0:
            out = tnp.zeros(want.shape, dtype=a.dtype)
        else:
            pos = tnp.minimum(tnp.searchsorted(keys, want), a.nnz - 1)
            out = tnp.where(keys[pos] == want, a.data[pos], tnp.zeros((), dtype=a.dtype))
        out = out.reshape(shape)
        if out.ndim == 2:  # SciPy: a 2-D selection is sparse again
            return csr_array(out)._as(csr_array if self._is_array else csr_matrix)
        return out if self._is_array else out.reshape(1, -1)

    def _select_rows(self, i, axis=0):
        """The rows `i` (an int, a slice, integer positions or a boolean mask) as CSR."""
        self._valid()
        m, n = self.shape
        if isinstance(i, slice):
            start, stop, step = i.indices(m)
            if step == 1:
                stop = max(start, stop)
                p = self.indptr[start:stop + 1]
                lo, hi = int(p[0]), int(p[-1])
                return self._new(self.data[lo:hi].copy(), self.indices[lo:hi].copy(),
                                 (p - lo).astype(self.indptr.dtype), shape=(stop - start, n))
            rows = tnp.arange(start, stop, step, dtype=_np.int64)
        elif isinstance(i, numbers.Integral):
            i = _norm_index(i, m, axis)
            return self._select_rows(slice(i, i + 1))
        else:
            rows = _index_positions(i, m, axis)
            if rows.ndim != 1:
                raise IndexError("sparse arrays are indexed by 1-D index arrays here")
        starts = self.indptr[rows].astype(_np.int64)
        lengths = self.indptr[rows + 1].astype(_np.int64) - starts
        indptr = tnp.concatenate([tnp.zeros(1, dtype=_np.int64), tnp.cumsum(lengths)])
        nnz = int(indptr[-1])
        # Each stored value of the result comes from its row's start plus its place in the row.
        src = tnp.arange(nnz, dtype=_np.int64) + tnp.repeat(starts - indptr[:-1], lengths)
        return self._new(self.data[src], self.indices[src], indptr.astype(self.indptr.dtype),
                         shape=(int(rows.shape[0]), n))

    def getrow(self, i):
        return self._select_rows(i)

    def getcol(self, j):
        return self[:, j]


def _norm_index(i, n, axis):
    i = operator.index(i)
    if i < -n or i >= n:
        raise IndexError(f"index ({i}) out of range")
    return i % n


def _is_index_array(x):
    return not isinstance(x, (slice, numbers.Integral)) and x is not None and x is not Ellipsis


def _index_positions(x, n, axis):
    """Integer positions in [0, n) from an integer array or a boolean mask along `axis`."""
    if x is None or x is Ellipsis:
        raise IndexError("None and Ellipsis do not index sparse arrays")
    if isinstance(x, (str, bytes)):
        raise IndexError(f"only integers, slices, integer arrays and boolean masks index sparse arrays, not {x!r}")
    a = _asarray(x)
    if a.dtype == _np.bool_:
        if a.ndim != 1 or a.shape[0] != n:
            raise IndexError(f"boolean index did not match indexed array along axis {axis}; size of axis is "
                             f"{n} but size of corresponding boolean axis is {a.shape[0] if a.ndim else 0}")
        return tnp.flatnonzero(a)
    if a.size == 0:
        return tnp.zeros(a.shape, dtype=_np.int64)
    if a.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    a = a.astype(_np.int64)
    lo, hi = int(tnp.min(a)), int(tnp.max(a))
    if lo < -n or hi >= n:
        bad = hi if hi >= n else lo
        raise IndexError(f"index ({bad}) out of range")
    return tnp.where(a < 0, a + n, a)


class csr_matrix(csr_array):
    """csr_array with np.matrix semantics: ``*`` is the matrix product."""

    _is_array = False


class csc_array(_spbase):
    """Compressed sparse column array: the CSR arrays of its transpose (``indptr`` over columns,
    ``indices`` the rows). Products and reductions go through CSR."""

    format = "csc"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if isinstance(arg1, tuple) and len(arg1) == 3:
            m, n = check_shape(shape) if shape is not None else (None, None)
            t = csr_array(arg1, shape=None if shape is None else (n, m), dtype=dtype, copy=copy)
        elif isinstance(arg1, tuple) and len(arg1) != 2:
            raise ValueError(f"unrecognized {type(self).__name__} constructor input: {arg1}")
        elif _is_scipy_sparse(arg1):
            a = arg1.tocsc()
            t = csr_array((a.data, a.indices, a.indptr), shape=(a.shape[1], a.shape[0]), dtype=dtype)
        else:
            if not isinstance(arg1, (_spbase, tuple)):
                arg1 = data_array(arg1)
                if arg1.ndim != 2:
                    raise ValueError(f"CSC arrays don't support {arg1.ndim}D input. Use 2D")
            src = arg1 if isinstance(arg1, _spbase) else csr_array(arg1, shape=shape, dtype=dtype)
            if isinstance(src, csc_array) and not copy:
                t = src._t
            else:
                t = src.tocsr(copy=False)._transposed_csr()
                if dtype is not None:
                    t.data = t.data.astype(dtype)
        self._t = t._as(csr_array)
        self._shape = (t.shape[1], t.shape[0])

    @classmethod
    def _from_csr_of_transpose(cls, t, flip=False):
        out = object.__new__(cls)
        out._t = t._as(csr_array)
        out._shape = (t.shape[1], t.shape[0]) if not flip else (t.shape[1], t.shape[0])
        return out

    def _take_csr(self, c):
        self._t = c._transposed_csr()._as(csr_array)
        self._shape = c.shape

    def check_format(self, full_check=True):
        """SciPy's checks of the arrays (those of full_check too: tessera makes them on construction)."""
        self._t.check_format(full_check)

    def sorted_indices(self):
        out = self.copy()
        out.sort_indices()
        return out

    def prune(self):
        self._t.prune()

    data = property(lambda self: self._t.data, lambda self, v: setattr(self._t, "data", v))
    indices = property(lambda self: self._t.indices, lambda self, v: setattr(self._t, "indices", v))
    indptr = property(lambda self: self._t.indptr, lambda self, v: setattr(self._t, "indptr", v))

    @property
    def dtype(self):
        return self._t.dtype

    @property
    def nnz(self):
        return self._t.nnz

    @property
    def has_sorted_indices(self):
        return self._t.has_sorted_indices

    @property
    def has_canonical_format(self):
        return self._t.has_canonical_format

    def sort_indices(self):
        self._t.sort_indices()

    def sum_duplicates(self):
        self._t.sum_duplicates()

    def eliminate_zeros(self):
        self._t.eliminate_zeros()

    def copy(self):
        return type(self)._from_csr_of_transpose(self._t.copy())

    def _with_data(self, data, copy=True):
        return type(self)._from_csr_of_transpose(self._t._with_data(data, copy=copy))

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        cls = csr_array if self._is_array else csr_matrix
        return (self._t.copy() if copy else self._t)._as(cls)

    def tocsr(self, copy=False):
        cls = csr_array if self._is_array else csr_matrix
        return self._t._transposed_csr()._as(cls)

    def tocsc(self, copy=False):
        return self.copy() if copy else self

    def toarray(self, order=None, out=None):
        tnp.empty(0, order=order)  # NumPy's error for a bad order
        dense = self._t.toarray().T
        if out is not None:
            out[...] = dense
            return out
        return dense.copy()

    def to_scipy(self):
        import scipy.sparse as sp

        cls = sp.csc_array if self._is_array else sp.csc_matrix
        return cls((_np.asarray(self.data), _np.asarray(self.indices), _np.asarray(self.indptr)), shape=self.shape)

    def _matvec(self, other):
        return self.tocsr()._matvec(other)

    def __getitem__(self, key):
        return self.tocsr()[key]


class csc_matrix(csc_array):
    """csc_array with np.matrix semantics: ``*`` is the matrix product."""

    _is_array = False
