"""Krylov solvers on tessera arrays: cg, bicgstab and gmres follow scipy.sparse.linalg's
iterations step for step (rtol, atol, maxiter, M, callback as SciPy); minres is the
Paige–Saunders recurrence; spsolve runs one of them to a tight tolerance."""
import numpy as _np

import tessera.numpy as tnp
from tessera.sparse._base import _asarray, _spbase
from tessera.sparse.linalg._interface import IdentityOperator, aslinearoperator


def _system(A, M, x0, b):
    """SciPy's make_system: the operators, a start vector and b as 1-D arrays of one dtype."""
    A = aslinearoperator(A)
    m, n = A.shape
    if m != n:
        raise ValueError(f"expected square matrix, but got shape={A.shape}")
    b = _asarray(b)
    if not (b.shape == (n, 1) or b.shape == (n,)):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    t = _np.result_type(A.dtype, b.dtype)
    if t.kind not in "fc":
        t = _np.dtype(_np.float64)
    if t == _np.float16:
        t = _np.dtype(_np.float32)
    b = b.astype(t).reshape(-1)
    if x0 is None or (isinstance(x0, str) and x0 == "Mb"):
        x = tnp.zeros(n, dtype=t) if x0 is None else None
    else:
        x = _asarray(x0).astype(t).reshape(-1)
        if x.shape != (n,):
            raise ValueError(f"shapes of A {A.shape} and x0 {x0.shape} are incompatible")
        x = x.copy()
    M = IdentityOperator((n, n), dtype=t) if M is None else aslinearoperator(M)
    if x is None:
        x = M.matvec(b).astype(t)
    return A, M, x, b, t


def _start(A, M, x0, b, rtol, atol, maxiter):
    """What cg, bicgstab and gmres start from: the system (x None when b is zero, the answer),
    the absolute tolerance and the iteration limit (10 n by default, as SciPy)."""
    A, M, x, b, t = _system(A, M, x0, b)
    bnrm2 = _norm(b)
    maxiter = b.shape[0] * 10 if maxiter is None else maxiter
    return A, M, None if bnrm2 == 0 else x, b, t, _atol(bnrm2, atol, rtol), maxiter


def _atol(bnrm2, atol, rtol):
    if atol is None:
        atol = 0.0
    return max(float(atol), float(rtol) * float(bnrm2))


def _norm(x):
    return float(tnp.linalg.norm(x))


def _dot(t):
    return tnp.vdot if _np.dtype(t).kind == "c" else tnp.dot


def _scalar(v):
    v = v[()] if hasattr(v, "shape") else v
    return complex(v) if _np.iscomplexobj(v) else float(v)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Conjugate gradients for Hermitian positive definite A: (x, info), info 0 when converged,
    else the iterations run."""
    A, M, x, b, t, atol, maxiter = _start(A, M, x0, b, rtol, atol, maxiter)
    if x is None:  # b is zero: so is x
        return b, 0
    n = b.shape[0]
    dot = _dot(t)
    r = b - A.matvec(x) if bool(tnp.any(x)) else b.copy()
    rho_prev = p = None
    plain = isinstance(M, IdentityOperator)
    for iteration in range(maxiter):
        if plain:  # z = r: r . r is rho and the residual norm squared, read in one pass
            z = r
            rho = _scalar(dot(r, r))
            if _np.sqrt(abs(rho)) < atol:
                return x, 0
        else:
            if _norm(r) < atol:
                return x, 0
            z = M.matvec(r)
            rho = _scalar(dot(r, z))
        if iteration > 0:
            p = p * (rho / rho_prev) + z
        else:
            p = z.copy()
        q = A.matvec(p)
        alpha = rho / _scalar(dot(p, q))
        x += alpha * p
        r -= alpha * q
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """BiConjugate Gradient STABilized: (x, info) as SciPy (-10/-11 for breakdowns)."""
    A, M, x, b, t, atol, maxiter = _start(A, M, x0, b, rtol, atol, maxiter)
    if x is None:  # b is zero: so is x
        return b, 0
    n = b.shape[0]
    dot = _dot(t)
    rhotol = float(_np.finfo(t).eps) ** 2
    omegatol = rhotol
    r = b - A.matvec(x) if bool(tnp.any(x)) else b.copy()
    rtilde = r.copy()
    rho_prev = omega = alpha = p = v = None
    for iteration in range(maxiter):
        if _norm(r) < atol:
            return x, 0
        rho = _scalar(dot(rtilde, r))
        if abs(rho) < rhotol:
            return x, -10
        if iteration > 0:
            if abs(omega) < omegatol:
                return x, -11
            beta = (rho / rho_prev) * (alpha / omega)
            p = (p - omega * v) * beta + r
        else:
            p = r.copy()
        phat = M.matvec(p)
        v = A.matvec(phat)
        rv = _scalar(dot(rtilde, v))
        if rv == 0:
            return x, -11
        alpha = rho / rv
        r -= alpha * v
        s = r
        if _norm(s) < atol:
            x += alpha * phat
            return x, 0
        shat = M.matvec(s)
        tv = A.matvec(shat)
        omega = _scalar(dot(tv, s)) / _scalar(dot(tv, tv))
        x += alpha * phat
        x += omega * shat
        r -= omega * tv
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """Restarted GMRES with modified Gram–Schmidt and Givens rotations: (x, info). The basis
    vectors are tessera arrays; the small Hessenberg least-squares problem is scalars."""
    A, M, x, b, t, atol, maxiter = _start(A, M, x0, b, rtol, atol, maxiter)
    if x is None:  # b is zero: so is x
        return b, 0
    n = b.shape[0]
    restart = min(20 if restart is None else restart, n)
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    dot = _dot(t)
    cplx = _np.dtype(t).kind == "c"
    eps = float(_np.finfo(t).eps)
    inner = 0
    for outer in range(maxiter):
        r = M.matvec(b - A.matvec(x))
        beta = _norm(r)
        if _norm(b - A.matvec(x)) < atol:
            return x, 0
        if beta == 0:
            return x, 0
        V = [r / beta]
        H = _np.zeros((restart + 1, restart), dtype=complex if cplx else float)
        cs = _np.zeros(restart, dtype=H.dtype)
        sn = _np.zeros(restart, dtype=H.dtype)
        g = _np.zeros(restart + 1, dtype=H.dtype)
        g[0] = beta
        presid = beta
        j = 0
        breakdown = False
        for j in range(restart):
            w = M.matvec(A.matvec(V[j]))
            for i in range(j + 1):
                h = _scalar(dot(V[i], w))
                H[i, j] = h
                w = w - h * V[i]
            hn = _norm(w)
            H[j + 1, j] = hn
            for i in range(j):  # apply the previous rotations to column j
                tmp = cs[i] * H[i, j] + sn[i] * H[i + 1, j]
                H[i + 1, j] = -_np.conj(sn[i]) * H[i, j] + cs[i] * H[i + 1, j]
                H[i, j] = tmp
            a, c = H[j, j], H[j + 1, j]
            denom = _np.sqrt(abs(a) ** 2 + abs(c) ** 2)
            if denom == 0:
                cs[j], sn[j] = 1.0, 0.0
            else:
                cs[j] = abs(a) / denom if a != 0 else 0.0
                sn[j] = (a / abs(a)) * _np.conj(c) / denom if a != 0 else 1.0
            H[j, j] = cs[j] * a + sn[j] * c
            H[j + 1, j] = 0
            g[j + 1] = -_np.conj(sn[j]) * g[j]
            g[j] = cs[j] * g[j]
            presid = abs(g[j + 1])
            inner += 1
            if callback is not None and callback_type in ("legacy", "pr_norm"):
                callback(presid / bnrm2)
            if hn <= eps * beta:
                breakdown = True
            if presid <= atol or breakdown or j == restart - 1:
                break
            V.append(w / hn)
        k = j + 1
        y = _np.linalg.solve(_np.triu(H[:k, :k]), g[:k]) if k else _np.zeros(0)
        for i in range(k):
            x = x + complex(y[i]) * V[i] if cplx else x + float(y[i]) * V[i]
        if callback is not None and callback_type == "x":
            callback(x)
        if _norm(b - A.matvec(x)) <= atol:
            return x, 0
        if breakdown and presid > atol:
            return x, inner
    return x, maxiter


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False, check=False):
    """MINRES for symmetric (possibly indefinite) A: (x, info), info 0 when ||b - Ax|| <=
    rtol ||b||, else the iterations run. Only M=None is supported here."""
    A, Mop, x, b, t = _system(A, M, x0, b)
    if M is not None:
        raise NotImplementedError("minres with a preconditioner is not supported")
    n = b.shape[0]
    maxiter = 5 * n if maxiter is None else maxiter
    bnrm2 = _norm(b)
    if bnrm2 == 0:
        return b, 0
    dot = _dot(t)
    r1 = b - A.matvec(x) if bool(tnp.any(x)) else b.copy()
    if shift:
        r1 = r1 + shift * x
    beta1 = _norm(r1)
    if beta1 == 0:
        return x, 0
    tol = float(rtol) * bnrm2
    v_prev = tnp.zeros(n, dtype=t)
    v = r1 / beta1
    beta = 0.0  # the Lanczos coefficient above the first column
    w_prev = tnp.zeros(n, dtype=t)
    w_prev2 = tnp.zeros(n, dtype=t)
    c_prev, s_prev = 1.0, 0.0
    c_prev2, s_prev2 = 1.0, 0.0
    eta = beta1
    for it in range(maxiter):
        Av = A.matvec(v)
        if shift:
            Av = Av - shift * v
        alpha = _scalar(dot(v, Av)).real if _np.dtype(t).kind == "c" else _scalar(dot(v, Av))
        u = Av - alpha * v - beta * v_prev
        beta_next = _norm(u)
        # rotations: previous two applied to the new column (beta, alpha, beta_next)
        delta = c_prev * alpha - c_prev2 * s_prev * beta
        rho1 = _np.hypot(delta, beta_next)
        rho2 = s_prev * alpha + c_prev2 * c_prev * beta
        rho3 = s_prev2 * beta
        c, s = (delta / rho1, beta_next / rho1) if rho1 != 0 else (1.0, 0.0)
        w = (v - rho3 * w_prev2 - rho2 * w_prev) / rho1 if rho1 != 0 else v * 0
        x = x + (c * eta) * w
        eta = -s * eta
        if callback:
            callback(x)
        if abs(eta) <= tol or beta_next == 0:
            return x, 0
        v_prev, v = v, u / beta_next
        w_prev2, w_prev = w_prev, w
        c_prev2, s_prev2, c_prev, s_prev = c_prev, s_prev, c, s
        beta = beta_next
    return x, maxiter


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """x with A x = b for square sparse A. Iterative, not direct: GMRES (no restart limit past
    n) to a relative residual of 1e-12, on tessera's SpMV; raises when it does not converge.
    A 2-D b is solved column by column."""
    from tessera.sparse._base import _is_scipy_sparse
    from tessera.sparse._compressed import csr_array

    if not isinstance(A, _spbase):
        if _is_scipy_sparse(A):
            A = csr_array(A)
        else:
            raise TypeError("spsolve needs a sparse matrix A")
    m, n = A.shape
    if m != n:
        raise ValueError(f"matrix must be square (has shape {A.shape})")
    if isinstance(b, _spbase):
        b = b.toarray()
    b = _asarray(b)
    if b.shape[0] != n:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - {b.shape[0]})")
    A = A.tocsr()
    if b.ndim == 2 and b.shape[1] > 1:
        return tnp.stack([spsolve(A, b[:, j]) for j in range(b.shape[1])], axis=1)
    x, info = gmres(A, b.reshape(-1), rtol=1e-12, atol=0.0, restart=min(n, 200), maxiter=max(10, n))
    if info != 0:
        from numpy.linalg import LinAlgError

        raise LinAlgError("spsolve: the iterative solver did not converge (singular or ill-conditioned matrix?)")
    return x.reshape(b.shape) if b.ndim == 2 else x
