"""Conjugate gradients on the 2-D Poisson matrix (≥ 10M stored values): 100 iterations of
the backend's own sparse.linalg.cg (scipy.sparse.linalg under NumPy, tessera.sparse.linalg
under tessera), b = ones, rtol small enough that every iteration runs."""
import time

from benchmarks.workloads._poisson import nnz, poisson, side

KERNEL = True  # a library kernel, not one of the seed programs

ITERATIONS = 100


def units(quick):
    return ITERATIONS, "iteration"


def traffic(quick):
    """Per iteration: one SpMV (12 bytes per stored value, offsets, p read and q written),
    two dot products (p.q, r.r: 4 vector reads), the x and r updates (read 4, write 2) and
    the new p (read 2, write 1), and the residual norm (1 read): 14 vector passes of 8 bytes."""
    n = side(quick) ** 2
    return ITERATIONS * (nnz(side(quick)) * 12 + (n + 1) * 4 + 14 * 8 * n)


def linalg_module(np):
    if np.__name__.startswith("tessera"):
        import tessera.sparse.linalg as linalg
    else:
        import scipy.sparse.linalg as linalg
    return linalg


def run(np, quick=False):
    linalg = linalg_module(np)
    A = poisson(np, side(quick))
    b = np.ones(A.shape[0])
    float(np.sum(A @ b))
    start = time.perf_counter()
    x, info = linalg.cg(A, b, rtol=1e-30, atol=0.0, maxiter=ITERATIONS)
    checksum = float(np.sum(x))
    return time.perf_counter() - start, checksum
