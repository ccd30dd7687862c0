"""tessera.sparse: scipy.sparse's arrays on tessera's runtime: ``import tessera.sparse as sparse``.

A matrix's arrays (CSR: ``data``, ``indices``, ``indptr``) are tessera arrays, so sparse and
dense values share one data model and one dependence graph. ``A @ x`` is tessera's CSR
kernel, cut by row blocks (x follows the image of each block's column indices); conversions
and arithmetic are tessera operations (argsort, searchsorted, masks, the CSR kernels).
SciPy is needed only for ``from_scipy`` / ``.to_scipy()``. See docs/sparse.md.
"""
from tessera.sparse._base import _spbase as sparray  # noqa: F401
from tessera.sparse._compressed import csc_array, csc_matrix, csr_array, csr_matrix  # noqa: F401
from tessera.sparse._coo import coo_array, coo_matrix  # noqa: F401
from tessera.sparse._construct import (  # noqa: F401
    block_array, block_diag, bmat, diags, diags_array, eye, eye_array, hstack, identity, kron, kronsum, rand,
    random, random_array, spdiags, tril, triu, vstack,
)
from tessera.sparse._dia import dia_array, dia_matrix  # noqa: F401
from tessera.sparse._io import load_npz, mmread, mmwrite, save_npz  # noqa: F401
from tessera.sparse import linalg  # noqa: F401

spmatrix = sparray


def issparse(x):
    """Whether `x` is a tessera sparse array or matrix."""
    return isinstance(x, sparray)


def isspmatrix(x):
    return isinstance(x, sparray) and not x._is_array


def isspmatrix_csr(x):
    return isinstance(x, csr_matrix)


def from_scipy(S):
    """The tessera sparse array (or matrix) of a SciPy sparse object, same format (DIA and
    other formats become CSR); its arrays are copied into tessera arrays."""
    from tessera.sparse._base import _is_scipy_sparse

    if not _is_scipy_sparse(S):
        raise TypeError(f"expected a scipy.sparse array or matrix, got {type(S).__name__}")
    import scipy.sparse as sp

    is_matrix = isinstance(S, sp.spmatrix)
    table = {"csr": (csr_array, csr_matrix), "csc": (csc_array, csc_matrix), "coo": (coo_array, coo_matrix),
             "dia": (dia_array, dia_matrix)}
    cls = table.get(S.format, table["csr"])[1 if is_matrix else 0]
    return cls(S)
