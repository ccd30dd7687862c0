"""Dense linear algebra on LAPACK, N = 4000: linalg.solve of a diagonally dominant system
with 8 right-hand sides and the Cholesky factor of an SPD matrix.
"""
import time

KERNEL = True  # library functions, not a program


def size(quick):
    return 1000 if quick else 4000


def run(np, quick=False):
    n = size(quick)
    i = np.arange(n, dtype=np.float64)
    a = 1.0 / (1.0 + np.abs(i[:, None] - i[None, :])) + n * np.eye(n)
    b = np.cos(np.arange(n * 8, dtype=np.float64)).reshape(n, 8)
    float(np.sum(a) + np.sum(b))
    start = time.perf_counter()
    x = np.linalg.solve(a, b)
    c = np.linalg.cholesky(a)
    checksum = float(np.sum(x)) + float(np.sum(c))
    return time.perf_counter() - start, checksum
