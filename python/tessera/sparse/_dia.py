"""DIA: diagonals stored as rows of ``data`` (column-aligned) with their ``offsets``; products
and arithmetic go through CSR."""
import numpy as _np

import tessera.numpy as tnp
from tessera.sparse._base import _asarray, _index_dtype, _is_scipy_sparse, _sorted_csr, _spbase
from tessera.sparse._checks import check_shape, data_array
from tessera.sparse._compressed import csr_array, csr_matrix


class dia_array(_spbase):
    """``dia_array((data, offsets), shape=(M, N))``, or from another sparse or dense array."""

    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if isinstance(arg1, tuple) and not (len(arg1) == 2 and all(isinstance(s, int) for s in arg1)):
            try:
                data, offsets = arg1
            except Exception:
                raise ValueError("unrecognized form for dia_array constructor") from None
            if shape is None:
                raise ValueError("expected a shape argument")
            data = data_array(data, dtype)
            if data.ndim < 2:  # SciPy's atleast_2d
                data = data.reshape((1,) * (2 - data.ndim) + data.shape)
            # The offsets as SciPy reads them (1.5 -> 1, 'a' -> ValueError); one per diagonal.
            if isinstance(offsets, tnp.ndarray):
                offsets = _np.asarray(offsets)
            offsets = _np.atleast_1d(_np.array(offsets, dtype=_np.int32))
            shape = check_shape(shape)
            _check(data, offsets)
            self._set(data.copy() if copy else data, tnp.asarray(offsets), shape)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            m, n = check_shape(arg1)
            self._set(tnp.zeros((0, 0), dtype=dtype or _np.float64), tnp.zeros(0, dtype=_np.int32), (m, n))
        else:
            if _is_scipy_sparse(arg1) and arg1.format == "dia":
                _check(arg1.data, _np.asarray(arg1.offsets))  # SciPy's arrays may have changed since its check
                self._set(data_array(arg1.data), _asarray(arg1.offsets).astype(_np.int32), arg1.shape)
            else:
                if not isinstance(arg1, _spbase) and not _is_scipy_sparse(arg1):
                    arg1 = data_array(arg1)
                    if arg1.ndim != 2:
                        raise ValueError(f"DIA arrays don't support {arg1.ndim}D input. Use 2D")
                a = (arg1 if isinstance(arg1, _spbase) else csr_array(arg1, shape=shape)).tocsr()._canonical()
                self._from_csr(a)
        if dtype is not None and _np.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(dtype)

    def _set(self, data, offsets, shape):
        self.data, self.offsets = data, offsets
        self._shape = (int(shape[0]), int(shape[1]))

    def _from_csr(self, a):
        m, n = a.shape
        rows = a._rows().astype(tnp.int64)
        cols = a.indices.astype(tnp.int64)
        off = cols - rows
        offsets = tnp.unique(off) if a.nnz else tnp.zeros(0, dtype=tnp.int64)
        width = min(n, m + n)  # SciPy's data width: the columns
        if offsets.size == 0:
            self._set(tnp.zeros((0, n), dtype=a.dtype), tnp.zeros(0, dtype=_np.int32), (m, n))
            return
        which = tnp.searchsorted(offsets, off)
        d, i, p = _sorted_csr(which, cols, a.data, (offsets.size, width))
        data = csr_array._raw(d, i, p, (offsets.size, width)).toarray()
        self._set(data, offsets.astype(_np.int32), (m, n))

    def _take_csr(self, c):
        self._from_csr(c)

    @classmethod
    def _raw(cls, data, offsets, shape):
        out = object.__new__(cls)
        out._set(data, offsets, shape)
        return out

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def nnz(self):
        m, n = self.shape
        total = 0
        for k in _np.asarray(self.offsets).tolist():  # the offsets are metadata: one per diagonal
            total += max(0, min(m + k, n, self.data.shape[1]) - max(0, k))
        return total

    def copy(self):
        return type(self)._raw(self.data.copy(), self.offsets.copy(), self.shape)

    def _with_data(self, data, copy=True):
        return type(self)._raw(data, self.offsets.copy() if copy else self.offsets, self.shape)

    def tocsr(self, copy=False):
        m, n = self.shape
        rows, cols, vals = [], [], []
        idx = _index_dtype(m, n)
        for i, k in enumerate(_np.asarray(self.offsets).tolist()):
            lo, hi = max(0, k), min(n, m + k, self.data.shape[1])
            if hi <= lo:
                continue
            c = tnp.arange(lo, hi, dtype=idx)
            v = self.data[i, lo:hi]
            keep = v != 0
            rows.append((c - k)[keep])
            cols.append(c[keep])
            vals.append(v[keep])
        cls = csr_array if self._is_array else csr_matrix
        if not rows:
            return cls((m, n), dtype=self.dtype)
        d, i, p = _sorted_csr(tnp.concatenate(rows), tnp.concatenate(cols), tnp.concatenate(vals), (m, n))
        return cls._raw(d, i, p, (m, n))

    def todia(self, copy=False):
        return self.copy() if copy else self

    def transpose(self, axes=None, copy=False):
        return type(self)(self.tocsr().transpose(axes=axes))

    def to_scipy(self):
        import scipy.sparse as sp

        cls = sp.dia_array if self._is_array else sp.dia_matrix
        return cls((_np.asarray(self.data), _np.asarray(self.offsets)), shape=self.shape)


def _check(data, offsets):
    """SciPy's checks of DIA's arrays: `offsets` (host) one per row of `data`, no two alike."""
    if offsets.ndim != 1:
        raise ValueError("offsets array must have rank 1")
    if data.ndim != 2:
        raise ValueError("data array must have rank 2")
    if data.shape[0] != offsets.shape[0]:
        raise ValueError(f"number of diagonals ({data.shape[0]}) does not match the number of offsets "
                         f"({offsets.shape[0]})")
    if _np.unique(offsets).size != offsets.size:
        raise ValueError("offset array contains duplicate values")


class dia_matrix(dia_array):
    """dia_array with np.matrix semantics: ``*`` is the matrix product."""

    _is_array = False
