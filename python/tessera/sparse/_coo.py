"""COO: (row, column, value) triples as tessera arrays, duplicates allowed until
sum_duplicates or tocsr."""
import numbers

import numpy as _np

import tessera.numpy as tnp
from tessera.sparse._base import _asarray, _check_shape, _index_dtype, _is_scipy_sparse, _sorted_csr, _spbase
from tessera.sparse._compressed import csr_array, csr_matrix


class coo_array(_spbase):
    """Coordinate array: ``data``, ``coords = (row, col)`` as tessera arrays, duplicates allowed."""

    format = "coo"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if isinstance(arg1, _spbase):
            a = arg1.tocoo(copy=copy)
            self._set(a.data, a.row, a.col, a.shape, a._canon)
        elif _is_scipy_sparse(arg1):
            a = arg1.tocoo()
            idx = _index_dtype(*a.shape, a.nnz)
            self._set(_asarray(a.data), _asarray(a.row, idx), _asarray(a.col, idx), a.shape, False)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(s, numbers.Integral) for s in arg1):
            m, n = _check_shape(arg1)
            idx = _index_dtype(m, n)
            self._set(tnp.zeros(0, dtype=dtype or _np.float64), tnp.zeros(0, dtype=idx), tnp.zeros(0, dtype=idx),
                      (m, n), True)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            data, ij = arg1
            row, col = (_asarray(x) for x in ij)
            data = _asarray(data)
            if row.ndim != 1 or col.ndim != 1 or data.ndim != 1:
                raise ValueError("row, column, and data arrays must be 1-D")
            if not (row.size == col.size == data.size):
                raise ValueError("row, column, and data array must all be the same length")
            if row.size and (row.dtype.kind not in "iu" or col.dtype.kind not in "iu"):
                raise ValueError("row and column indices should have integer dtype")
            if shape is None:
                if row.size == 0:
                    raise ValueError("cannot infer dimensions from zero sized index arrays")
                shape = (int(tnp.max(row)) + 1, int(tnp.max(col)) + 1)
            m, n = _check_shape(shape)
            if row.size:
                if int(tnp.max(row)) >= m:
                    raise ValueError("row index exceeds matrix dimensions")
                if int(tnp.max(col)) >= n:
                    raise ValueError("column index exceeds matrix dimensions")
                if int(tnp.min(row)) < 0:
                    raise ValueError("negative row index found")
                if int(tnp.min(col)) < 0:
                    raise ValueError("negative column index found")
            idx = _index_dtype(m, n, data.size)
            if _np.dtype(_np.int64) in (row.dtype, col.dtype):
                idx = _np.dtype(_np.int64)  # as SciPy: wide index arrays stay wide
            if copy:
                data = data.copy()
            self._set(data, row.astype(idx), col.astype(idx), (m, n), False)
        else:
            a = csr_array(arg1, shape=shape).tocoo()
            self._set(a.data, a.row, a.col, a.shape, True)
        if dtype is not None and _np.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(dtype)

    def _set(self, data, row, col, shape, canon):
        self.data, self.row, self.col = data, row, col
        self._shape = (int(shape[0]), int(shape[1]))
        self._canon = canon

    @classmethod
    def _raw(cls, data, row, col, shape, canon):
        out = object.__new__(cls)
        out._set(data, row, col, shape, canon)
        return out

    @property
    def coords(self):
        return (self.row, self.col)

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def nnz(self):
        return int(self.data.size)

    @property
    def has_canonical_format(self):
        return bool(self._canon)

    def copy(self):
        return type(self)._raw(self.data.copy(), self.row.copy(), self.col.copy(), self.shape, self._canon)

    def _with_data(self, data, copy=True):
        return type(self)._raw(data, self.row.copy() if copy else self.row, self.col.copy() if copy else self.col,
                               self.shape, self._canon)

    def tocsr(self, copy=False):
        idx = self.row.dtype if self.row.dtype == _np.int64 else None
        data, indices, indptr = _sorted_csr(self.row, self.col, self.data, self.shape, idx=idx)
        return (csr_array if self._is_array else csr_matrix)._raw(data, indices, indptr, self.shape)

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def sum_duplicates(self):
        if self._canon:
            return
        a = self.tocsr()
        self._set(a.data, a._rows(), a.indices, self.shape, True)

    def eliminate_zeros(self):
        keep = self.data != 0
        self._set(self.data[keep], self.row[keep], self.col[keep], self.shape, self._canon)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        return type(self)._raw(self.data.copy() if copy else self.data, self.col, self.row,
                               (self.shape[1], self.shape[0]), False)

    def to_scipy(self):
        import scipy.sparse as sp

        cls = sp.coo_array if self._is_array else sp.coo_matrix
        return cls((_np.asarray(self.data), (_np.asarray(self.row), _np.asarray(self.col))), shape=self.shape)


class coo_matrix(coo_array):
    """coo_array with np.matrix semantics: ``*`` is the matrix product."""

    _is_array = False
