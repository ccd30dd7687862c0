"""norm of a sparse array: Frobenius, the induced 1- and inf-norms, and vector norms of rows
or columns, from the stored values."""
import numpy as _np

import tessera.numpy as tnp
from tessera.sparse._base import _spbase


def norm(x, ord=None, axis=None):
    """SciPy's sparse ``norm``: 'fro' (default), 1, -1, inf, -inf for the matrix; with an int
    `axis`, the vector norms (any ord numpy accepts) of its columns (0) or rows (1)."""
    if not isinstance(x, _spbase):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    a = x.tocsr()._canonical()
    if axis is None or (isinstance(axis, tuple) and len(axis) == 2):
        if ord in (None, "fro", "f"):
            return tnp.sqrt(tnp.sum(tnp.abs(a.data).astype(_np.float64) ** 2))[()] if a.nnz else 0.0
        if ord in (1, -1, _np.inf, -_np.inf):
            axis_sum = 0 if abs(ord) == 1 else 1
            s = abs(a).sum(axis=axis_sum)
            s = s.ravel() if s.ndim == 2 else s
            return (tnp.max(s) if ord > 0 else tnp.min(s))[()]
        if ord in (2, -2):
            raise NotImplementedError("the 2-norm of a sparse matrix is not supported")
        raise ValueError("Invalid norm order for matrices.")
    if isinstance(axis, tuple):
        axis = axis[0]
    if axis not in (0, 1, -1, -2):
        raise ValueError("Invalid axis for a 2-D array")
    b = a if axis % 2 == 1 else a.transpose().tocsr()
    if ord in (None, 2):
        return tnp.sqrt(abs(b).power(2).sum(axis=1)).ravel()
    if ord == 1:
        return abs(b).sum(axis=1).ravel()
    if ord == _np.inf:
        return abs(b).max(axis=1).ravel()
    if ord == -_np.inf:
        return abs(b).min(axis=1).ravel()
    if ord == 0:
        b = b.copy()
        b.eliminate_zeros()
        return (b.indptr[1:] - b.indptr[:-1]).astype(_np.float64)
    raise ValueError("Invalid norm order for vectors.")
