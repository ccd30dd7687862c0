"""tessera.numpy.linalg: NumPy's linear algebra.

Native in tessera's runtime (no fallback): ``norm``, ``vector_norm``, ``matrix_norm``,
``matmul``, ``outer``, ``cross``, ``vecdot``, ``trace``, ``diagonal``,
``matrix_transpose``, ``multi_dot``, ``matrix_power``, and the factorizations and
solvers on LAPACK: ``solve``, ``inv``, ``pinv``, ``det``, ``slogdet``, ``cholesky``,
``qr``, ``svd``, ``svdvals``, ``eig``, ``eigvals``, ``eigh``, ``eigvalsh``, ``lstsq``,
``matrix_rank``, ``cond``, ``tensorsolve``, ``tensorinv``, and ``tensordot`` (one matmul of
the two operands transposed and reshaped, as ``tessera.numpy.tensordot``). ``vecdot``, ``matvec`` and
``vecmat`` are also native in ``tessera.numpy`` itself, where NumPy 2.2+ has them
(without the ufunc keywords ``out``, ``dtype``, ``casting``...).

Types follow NumPy: float32 and complex64 inputs give float32 / complex64 results, every
other input (integers, bool, float64) float64, complex inputs complex; like NumPy, the
factorizations compute in float64 / complex128, and float16 is a TypeError.

Distribution: the factorizations apply LAPACK to each matrix of a stack ``(..., M, N)``
and are tiled over the stack's leading axes only, so a stack of matrices runs on every
core and every rank, each matrix whole on one worker (results do not depend on the
tiling). One matrix (and ``lstsq``, which takes one) is a single task on one rank, which
reads the matrix whole. ``solve``, ``inv``, ``cholesky``, ``svd``, ``eig``, ``eigh`` and
``lstsq`` (and ``pinv``, ``matrix_rank``, ``cond``, ``tensorsolve``, ``tensorinv`` that
use them) wait for their result, so a ``LinAlgError`` is raised at the call, as in
NumPy; ``det``, ``slogdet`` and ``qr`` are deferred. The products (``multi_dot``,
``matrix_power``, ``vecdot``, ``matvec``, ``vecmat``) are tiled batched BLAS products;
the norms and ``trace`` are deterministic reductions.
"""
import numpy as _np
from numpy.linalg import LinAlgError  # noqa: F401
from numpy.linalg._linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult

from tessera._tessera import matrix_transpose  # noqa: F401
from tessera._tessera import _linalg
from tessera._tessera._linalg import (  # noqa: F401
    cholesky, cond, cross, det, diagonal, inv, matrix_norm, matrix_power, multi_dot, norm, outer,
    svdvals, solve, tensorinv, tensorsolve, trace, vector_norm,
)
from tessera._tessera import vecdot  # noqa: F401
from tessera._tessera import matmul as _matmul
from tessera.numpy._einsum import tensordot as _tensordot
from tessera.numpy._fallback import fallback_attribute as _fallback_attribute

_NOVALUE = _np._NoValue


def matmul(x1, x2, /):
    """The array API's linalg.matmul: numpy.matmul without its ufunc keywords."""
    return _matmul(x1, x2)


def slogdet(a):
    """Sign and natural logarithm of the determinant, as NumPy's SlogdetResult."""
    return SlogdetResult(*_linalg.slogdet(a))


def qr(a, mode="reduced"):
    """QR factorization: QRResult(Q, R), R alone for mode 'r', (h, tau) for 'raw'."""
    if mode in ("f", "full", "e", "economic"):  # NumPy's deprecated modes
        return _fallback_attribute("qr", _np.linalg, "numpy.linalg")(a, mode)
    result = _linalg.qr(a, mode)
    if mode == "r":
        return result[0]
    if mode == "raw":
        return result
    return QRResult(*result)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition: SVDResult(U, S, Vh), or S without compute_uv."""
    result = _linalg.svd(a, full_matrices, compute_uv, hermitian)
    return SVDResult(*result) if compute_uv else result[0]


def eig(a):
    """Eigenvalues and right eigenvectors of general matrices, as EigResult."""
    return EigResult(*_linalg.eig(a))


def eigvals(a):
    """Eigenvalues of general matrices."""
    return _linalg.eig(a, False)[0]


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, as EighResult."""
    return EighResult(*_linalg.eigh(a, UPLO))


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of Hermitian matrices."""
    return _linalg.eigh(a, UPLO, False)[0]


def lstsq(a, b, rcond=None):
    """Least-squares solution: (x, residuals, rank, s)."""
    return _linalg.lstsq(a, b, rcond)


def pinv(a, rcond=None, hermitian=False, *, rtol=_NOVALUE):
    """Moore-Penrose pseudo-inverse (NumPy's rcond / rtol defaults)."""
    if rcond is None:
        rcond = 1e-15 if rtol is _NOVALUE else rtol  # rtol=None: max(M, N) * eps
    elif rtol is not _NOVALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    return _linalg.pinv(a, rcond, hermitian)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Rank of matrices by their singular values."""
    return _linalg.matrix_rank(A, tol, hermitian, rtol)


def tensordot(x1, x2, /, *, axes=2):
    """The sum of products of `x1` and `x2` over `axes`, as numpy.linalg.tensordot."""
    return _tensordot(x1, x2, axes)


def __getattr__(name):
    return _fallback_attribute(name, _np.linalg, "numpy.linalg")
