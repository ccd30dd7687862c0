"""Conjugate gradient on a dense symmetric positive definite N x N system.

A[i, j] = 1 / (1 + |i - j|) is SPD (a Toeplitz matrix of a convex decreasing
sequence; condition number about 40) and b is a linspace, so both backends
solve the same system without depending on a random generator. The residual
is compared with the tolerance only every K iterations, because that
comparison makes the program wait for the result. Only `load_numpy` knows
about tessera: the solver itself is plain NumPy.

    python examples/python/cg.py -n 1000 --backend numpy
"""
import argparse
import time


def load_numpy(backend):
    """Return the array module: tessera.numpy or numpy."""
    if backend == "tessera":
        try:
            import tessera.numpy as np
        except ImportError as e:
            raise SystemExit(f"tessera is not importable ({e}); try --backend numpy")
    else:
        import numpy as np
    return np


def build_system(np, n):
    """The SPD matrix A and right-hand side b described in the module docstring."""
    i = np.arange(n, dtype=np.float64)
    A = 1.0 / (1.0 + np.abs(i[:, None] - i[None, :]))
    b = np.linspace(0.0, 1.0, n)
    return A, b


def cg(np, A, b, tol, max_iters, check_every):
    """Solve A x = b from x = 0; return (x, iterations, residual norm)."""
    x = np.zeros(b.shape[0])
    r = b.copy()
    p = r.copy()
    rr = r.dot(r)
    for it in range(1, max_iters + 1):
        Ap = A.dot(p)
        alpha = rr / p.dot(Ap)
        x += alpha * p
        r -= alpha * Ap
        rr_new = r.dot(r)
        if it % check_every == 0 and np.sqrt(rr_new) < tol:
            break
        p = r + (rr_new / rr) * p
        rr = rr_new
    return x, it, float(np.sqrt(rr_new))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="matrix size (default 1000)")
    parser.add_argument("--tol", type=float, default=1e-8, help="residual norm to reach (default 1e-8)")
    parser.add_argument("--max-iters", type=int, default=1000, help="iteration limit (default 1000)")
    parser.add_argument("-k", "--check-every", type=int, default=10,
                        help="test convergence every K iterations (default 10)")
    parser.add_argument("--backend", choices=["numpy", "tessera"], default="tessera")
    args = parser.parse_args()

    np = load_numpy(args.backend)
    A, b = build_system(np, args.n)
    float(np.sum(A) + np.sum(b))  # finish building the system before the clock starts
    start = time.perf_counter()
    x, iters, residual = cg(np, A, b, args.tol, args.max_iters, args.check_every)
    checksum = float(np.sum(x))
    elapsed = time.perf_counter() - start
    print(f"iterations = {iters}")
    print(f"residual = {residual!r}")
    print(f"sum(x) = {checksum!r}")
    print(f"time = {elapsed:.4f} s")


if __name__ == "__main__":
    main()
