"""tessera.sparse.linalg: scipy.sparse.linalg's solvers on tessera arrays and tessera's SpMV.

``norm``, ``LinearOperator``, ``aslinearoperator``, ``cg``, ``bicgstab``, ``gmres``,
``minres``, ``eigsh`` (Lanczos with full reorthogonalisation) and ``spsolve`` (iterative:
GMRES to a relative residual of 1e-12, not a direct factorisation).
"""
from tessera.sparse.linalg._eigen import ArpackError, ArpackNoConvergence, eigsh  # noqa: F401
from tessera.sparse.linalg._interface import IdentityOperator, LinearOperator, aslinearoperator  # noqa: F401
from tessera.sparse.linalg._isolve import bicgstab, cg, gmres, minres, spsolve  # noqa: F401
from tessera.sparse.linalg._norm import norm  # noqa: F401

__all__ = ["ArpackError", "ArpackNoConvergence", "IdentityOperator", "LinearOperator", "aslinearoperator",
           "bicgstab", "cg", "eigsh", "gmres", "minres", "norm", "spsolve"]
