"""eigsh: a few eigenvalues of a symmetric (Hermitian) operator by Lanczos with full
reorthogonalisation. The basis is a tessera array (one row per Lanczos vector); the small
tridiagonal matrix is solved with tessera.numpy.linalg.eigh."""
import numpy as _np

import tessera.numpy as tnp
from tessera.sparse._base import _asarray
from tessera.sparse.linalg._interface import aslinearoperator


class ArpackNoConvergence(RuntimeError):
    """The wanted eigenvalues did not converge within maxiter Lanczos steps."""

    def __init__(self, msg, eigenvalues, eigenvectors):
        super().__init__(msg)
        self.eigenvalues = eigenvalues
        self.eigenvectors = eigenvectors


ArpackError = RuntimeError

_WHICH = ("LM", "SM", "LA", "SA", "BE")


def _pick(theta, k, which):
    """Positions of the k wanted Ritz values among `theta` (ascending)."""
    m = theta.shape[0]
    if which == "LA":
        return list(range(m - k, m))
    if which == "SA":
        return list(range(k))
    if which == "LM":
        return sorted(_np.argsort(_np.abs(theta), kind="stable")[m - k:].tolist())
    if which == "SM":
        return sorted(_np.argsort(_np.abs(theta), kind="stable")[:k].tolist())
    lo, hi = k // 2, k - k // 2  # BE: from both ends, the extra one from the high end
    return list(range(lo)) + list(range(m - hi, m))


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal"):
    """k eigenvalues (ascending) and eigenvectors of a real symmetric or complex Hermitian A.

    which: 'LM'/'SM' largest/smallest magnitude, 'LA'/'SA' largest/smallest algebraic, 'BE'
    both ends. Lanczos with full reorthogonalisation (twice, classical Gram–Schmidt) from
    `v0` (default: a fixed vector of tessera's generator), extended until the wanted Ritz
    pairs' residuals are below tol * |eigenvalue| (machine precision for tol=0).
    `sigma` (shift-invert) and a mass matrix `M` are not supported.
    """
    if sigma is not None or M is not None or Minv is not None or OPinv is not None:
        raise NotImplementedError("eigsh: shift-invert (sigma) and generalised problems (M) are not supported")
    if which not in _WHICH:
        raise ValueError(f"which must be one of {' '.join(_WHICH)}")
    A = aslinearoperator(A)
    n = A.shape[0]
    if A.shape != (n, n):
        raise ValueError(f"expected square matrix (shape={A.shape})")
    if k <= 0:
        raise ValueError(f"k={k} must be greater than 0.")
    if k >= n:
        raise ValueError(f"k={k} must be less than ndim(A)={n}.")
    t = _np.dtype(A.dtype)
    if t.kind not in "fc":
        t = _np.dtype(_np.float64)
    cplx = t.kind == "c"
    real_t = _np.dtype(_np.float32) if t in (_np.float32, _np.complex64) else _np.dtype(_np.float64)
    eps = float(_np.finfo(real_t).eps)
    tol = eps if not tol else float(tol)
    maxsteps = n if maxiter is None else min(n, max(int(maxiter), 2 * k + 1))
    check_every = max(2 * k + 1, 20 if ncv is None else int(ncv))
    rng = tnp.random.default_rng(12345)
    if v0 is None:
        v = rng.random(n) - 0.5
    else:
        v = _asarray(v0).reshape(-1)
        if v.shape != (n,):
            raise ValueError(f"v0 has shape {v.shape}, expected ({n},)")
    v = v.astype(t)
    V = tnp.zeros((maxsteps, n), dtype=t)
    alphas, betas = [], []
    v = v / float(tnp.linalg.norm(v))
    V[0] = v
    j = 0
    theta = S = None
    converged = False
    while True:
        w = A.matvec(V[j])
        alpha = tnp.vdot(V[j], w) if cplx else tnp.dot(V[j], w)
        alphas.append(float(tnp.real(alpha)))
        basis = V[:j + 1]
        for _ in range(2):  # full reorthogonalisation, twice
            coef = tnp.conjugate(basis) @ w if cplx else basis @ w
            w = w - coef @ basis
        beta = float(tnp.linalg.norm(w))
        j += 1
        last = j == maxsteps
        if j % check_every == 0 or last or beta <= eps * max(1.0, abs(alphas[-1])) and j >= k:
            T = _np.diag(alphas) + _np.diag(betas, 1) + _np.diag(betas, -1)
            theta, S = (_np.asarray(r) for r in tnp.linalg.eigh(tnp.asarray(T)))
            if j >= k:
                want = _pick(theta, k, which)
                resid = _np.abs(beta * S[j - 1, want])
                scale = _np.maximum(_np.abs(theta[want]), eps)
                if bool(_np.all(resid <= tol * scale)) or beta == 0 and j == n:
                    converged = True
                    break
        if last:
            break
        if beta <= eps * max(1.0, abs(alphas[-1])):
            # an invariant subspace: continue from a fresh vector orthogonal to the basis
            w = (rng.random(n) - 0.5).astype(t)
            basis = V[:j]
            for _ in range(2):
                coef = tnp.conjugate(basis) @ w if cplx else basis @ w
                w = w - coef @ basis
            betas.append(0.0)
            V[j] = w / float(tnp.linalg.norm(w))
        else:
            betas.append(beta)
            V[j] = w / beta
    want = _pick(theta, min(k, len(theta)), which)
    vals = tnp.asarray(theta[want].astype(real_t))
    vecs = None
    if return_eigenvectors:
        vecs = (tnp.asarray(S[:, want].astype(t)).T @ V[:j]).T
    if not converged:
        raise ArpackNoConvergence(f"ARPACK error -1: No convergence ({j} iterations, "
                                  f"{k} eigenvalues wanted)", vals, vecs)
    return (vals, vecs) if return_eigenvectors else vals
