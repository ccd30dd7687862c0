"""Jacobi sweeps of the 2-D Laplace equation: N=2000, 200 sweeps.

The stencil of examples/python/jacobi.py; every 25 sweeps the grid is copied
and the norm of the change is read back, as a convergence test would.
"""
import time


def size(quick):
    """(grid points per side, sweeps, sweeps between convergence checks)."""
    return (500, 50, 25) if quick else (2000, 200, 25)


def units(quick):
    """run.py prints the time per sweep."""
    return size(quick)[1], "sweep"


def traffic(quick):
    """Each sweep reads the grid and writes it once; the checksum reads it once more. The
    convergence checks (copy, norm of the change) are assumed folded into their sweep."""
    n, iters, _ = size(quick)
    return (2 * iters + 1) * n * n * 8


def run(np, quick=False):
    n, iters, check_every = size(quick)
    p = np.zeros((n, n))
    p[0, :] = 1.0
    float(np.sum(p))

    start = time.perf_counter()
    for it in range(1, iters + 1):
        check = it % check_every == 0
        if check:
            pn = p.copy()
        p[1:-1, 1:-1] = .25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])
        if check:
            float(np.sqrt(np.sum((p - pn) ** 2)))
    checksum = float(np.sum(p))
    return time.perf_counter() - start, checksum
