"""Sparse matrix × vector on the 2-D Poisson matrix (≥ 10M stored values): 50 products.

Under NumPy the matrix is scipy.sparse's CSR (whose SpMV runs on one core); under tessera,
tessera.sparse's, whose SpMV is cut by row blocks over every core. x is rescaled after each
product so the values stay bounded, as power iteration does.
"""
import time

from benchmarks.workloads._poisson import nnz, poisson, side

KERNEL = True  # a library kernel, not one of the seed programs

REPEATS = 50


def units(quick):
    return REPEATS, "SpMV"


def traffic(quick):
    """Per product: the matrix once (float64 values and int32 column indices, 12 bytes per
    stored value; int32 row offsets), x read and y written (8 bytes each per row); the rescale
    reads and writes y once more. The checksum reads x."""
    n = side(quick) ** 2
    per = nnz(side(quick)) * 12 + (n + 1) * 4 + 2 * 8 * n + 2 * 8 * n
    return REPEATS * per + 8 * n


def run(np, quick=False):
    A = poisson(np, side(quick))
    rows = A.shape[0]
    x = np.linspace(0.0, 1.0, rows)
    float(np.sum(A @ x))
    start = time.perf_counter()
    for _ in range(REPEATS):
        x = A @ x
        x *= 0.125
    checksum = float(np.sum(x))
    return time.perf_counter() - start, checksum
