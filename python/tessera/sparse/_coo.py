"""COO: (row, column, value) triples as tessera arrays, duplicates allowed until
sum_duplicates or tocsr."""
import numbers

import numpy as _np

import tessera.numpy as tnp
from tessera import _tessera
from tessera.sparse._base import _asarray, _index_dtype, _is_scipy_sparse, _sorted_csr, _spbase
from tessera.sparse._checks import check_coords, check_dtype, check_shape, data_array, index_array, index_dtype
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
            data, row, col = data_array(a.data), _asarray(a.row, idx), _asarray(a.col, idx)
            check_coords(data, (row, col), a.shape)  # SciPy's arrays may have changed since its check
            self._set(data, row, col, a.shape, False)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(s, numbers.Integral) for s in arg1):
            m, n = check_shape(arg1)
            idx = _index_dtype(m, n)
            self._set(tnp.zeros(0, dtype=check_dtype(dtype or _np.float64)), tnp.zeros(0, dtype=idx),
                      tnp.zeros(0, dtype=idx), (m, n), True)
        elif isinstance(arg1, tuple):
            if all(isinstance(s, numbers.Integral) for s in arg1):
                check_shape(arg1)  # a shape of another length: SciPy's error
            try:
                obj, coords = arg1
            except (TypeError, ValueError):
                raise TypeError("invalid input format") from None
            coords = tuple(index_array(c) for c in coords)
            if shape is None:
                if any(c.ndim == 0 or c.shape[0] == 0 for c in coords):
                    raise ValueError("cannot infer dimensions from zero sized index arrays")
                shape = tuple(int(tnp.max(c)) + 1 for c in coords)
            try:
                m, n = check_shape(shape)
            except ValueError:
                if len(tuple(shape)) != len(coords):
                    raise ValueError(f"mismatching number of index arrays for shape; got {len(coords)}, "
                                     f"expected {len(tuple(shape))}") from None
                raise
            data = data_array(obj, dtype)
            check_coords(data, coords, (m, n))
            row, col = coords
            idx = index_dtype(coords, max(m, n))
            if copy:
                data = data.copy()
            self._set(data, row.astype(idx), col.astype(idx), (m, n), False)
        else:
            a = csr_array(arg1).tocoo()
            if shape is not None and check_shape(shape) != a.shape:
                raise ValueError(f"inconsistent shapes: {shape} != {a.shape}")
            self._set(a.data, a.row, a.col, a.shape, True)
        if dtype is not None and _np.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(dtype)

    def _set(self, data, row, col, shape, canon):
        self.data, self.row, self.col = data, row, col
        self._shape = (int(shape[0]), int(shape[1]))
        self._canon = canon
        self._checked = (row, col, _tessera._writes(row), _tessera._writes(col))

    def _valid(self):
        """Checks the arrays again (SciPy's COO checks) when row or col were replaced or written
        since they were last checked, or data no longer matches them."""
        row, col, data = self.row, self.col, self.data
        checked = self.__dict__.get("_checked")
        if (checked is not None and checked[0] is row and checked[1] is col and isinstance(data, tnp.ndarray)
                and data.ndim == 1 and data.shape[0] == row.shape[0]
                and checked[2] == _tessera._writes(row) and checked[3] == _tessera._writes(col)):
            return self
        data, row, col = data_array(data), index_array(row), index_array(col)
        check_coords(data, (row, col), self._shape)
        self._set(data, row, col, self._shape, False)
        return self

    def _take_csr(self, c):
        self._set(c.data, c._rows(), c.indices, c.shape, True)

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
        self._valid()
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
        if axes is not None:  # as SciPy's COO: any permutation of the two axes
            axes = tuple(axes)
            if len(axes) != 2:
                raise ValueError("axes don't match matrix dimensions")
            if len(set(axes)) != 2:
                raise ValueError("repeated axis in transpose")
            if axes == (0, 1):
                return self.copy() if copy else self
            if axes != (1, 0):
                raise IndexError("tuple index out of range")
        return type(self)._raw(self.data.copy() if copy else self.data, self.col, self.row,
                               (self.shape[1], self.shape[0]), False)

    def __getitem__(self, key):
        return self.tocsr()[key]

    def to_scipy(self):
        import scipy.sparse as sp

        cls = sp.coo_array if self._is_array else sp.coo_matrix
        return cls((_np.asarray(self.data), (_np.asarray(self.row), _np.asarray(self.col))), shape=self.shape)


class coo_matrix(coo_array):
    """coo_array with np.matrix semantics: ``*`` is the matrix product."""

    _is_array = False
