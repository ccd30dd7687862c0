"""LinearOperator: anything with a shape and a matvec, as scipy.sparse.linalg has it."""
import numpy as _np

import tessera.numpy as tnp
from tessera.sparse._base import _asarray, _spbase


class LinearOperator:
    """A linear map given by ``matvec`` (and optionally ``rmatvec``, ``matmat``) on tessera arrays.

    ``LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None)``.
    """

    ndim = 2

    def __init__(self, shape=None, matvec=None, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        if shape is None:
            raise TypeError("LinearOperator needs a shape")
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or shape[0] < 0 or shape[1] < 0:
            raise ValueError(f"invalid shape {shape!r} (must be 2d)")
        self.shape = shape
        self._mv, self._rmv, self._mm, self._rmm = matvec, rmatvec, matmat, rmatmat
        self.dtype = None if dtype is None else _np.dtype(dtype)
        if self.dtype is None:
            self.dtype = _np.dtype(self.matvec(tnp.zeros(shape[1])).dtype)

    def _matvec(self, x):
        if self._mv is not None:
            return self._mv(x)
        return self._matmat(x.reshape(-1, 1))

    def _matmat(self, X):
        if self._mm is not None:
            return self._mm(X)
        return tnp.stack([self.matvec(X[:, j]) for j in range(X.shape[1])], axis=1)

    def matvec(self, x):
        """y = A x for a vector of shape (N,) or (N, 1)."""
        x = _asarray(x)
        m, n = self.shape
        if x.shape != (n,) and x.shape != (n, 1):
            raise ValueError(f"dimension mismatch: operator of shape {self.shape}, vector of shape {x.shape}")
        y = _asarray(self._matvec(x.reshape(-1) if x.ndim == 2 else x))
        return y.reshape(m, 1) if x.ndim == 2 else y.reshape(m)

    def rmatvec(self, x):
        """y = A^H x."""
        if self._rmv is None:
            raise NotImplementedError("rmatvec is not defined")
        return _asarray(self._rmv(_asarray(x)))

    def matmat(self, X):
        X = _asarray(X)
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {self.shape} and {X.shape}")
        return _asarray(self._matmat(X))

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductOperator(self, x)
        if _np.isscalar(x):
            return _ScaledOperator(self, x)
        x = _asarray(x)
        return self.matvec(x) if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1) else self.matmat(x)

    __matmul__ = dot

    def __call__(self, x):
        return self.dot(x)

    def __mul__(self, x):
        return self.dot(x)

    def __rmul__(self, x):
        if _np.isscalar(x):
            return _ScaledOperator(self, x)
        return NotImplemented

    def __add__(self, other):
        if not isinstance(other, LinearOperator):
            return NotImplemented
        return _SumOperator(self, other)

    def __neg__(self):
        return _ScaledOperator(self, -1)

    def __sub__(self, other):
        return self + (-other)

    def _adjoint(self):
        return LinearOperator((self.shape[1], self.shape[0]), matvec=self._rmv, rmatvec=self._mv, dtype=self.dtype)

    def adjoint(self):
        return self._adjoint()

    H = property(adjoint)

    def __repr__(self):
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with dtype={self.dtype}>"


class _ScaledOperator(LinearOperator):
    def __init__(self, A, alpha):
        super().__init__(A.shape, matvec=lambda x: alpha * A.matvec(x), dtype=_np.result_type(A.dtype, type(alpha)))


class _SumOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        super().__init__(A.shape, matvec=lambda x: A.matvec(x) + B.matvec(x), dtype=_np.result_type(A.dtype, B.dtype))


class _ProductOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__((A.shape[0], B.shape[1]), matvec=lambda x: A.matvec(B.matvec(x)),
                         dtype=_np.result_type(A.dtype, B.dtype))


class _MatrixOperator(LinearOperator):
    def __init__(self, A):
        self.A = A
        self.shape = tuple(A.shape)
        self.dtype = _np.dtype(A.dtype)
        self._mv = self._mm = self._rmm = None
        self._rmv = lambda x: A.conj().T @ x

    def _matvec(self, x):
        return self.A @ x

    def _matmat(self, X):
        return self.A @ X


class IdentityOperator(LinearOperator):
    def __init__(self, shape, dtype=None):
        super().__init__(shape, matvec=lambda x: x, rmatvec=lambda x: x, dtype=dtype or _np.float64)


def aslinearoperator(A):
    """A LinearOperator for a sparse array, a dense 2-D array, or a LinearOperator (itself)."""
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, _spbase):
        return _MatrixOperator(A.tocsr())
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, matvec=A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              dtype=getattr(A, "dtype", None))
    try:
        from tessera.sparse._base import _is_scipy_sparse
        from tessera.sparse._compressed import csr_array

        if _is_scipy_sparse(A):
            return _MatrixOperator(csr_array(A))
        a = _asarray(A)
    except Exception:
        raise TypeError("type not understood") from None
    if a.ndim != 2:
        raise ValueError("array must be 2-d")
    return _MatrixOperator(a)
