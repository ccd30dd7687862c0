"""20000 in-place additions on overlapping 4096-element slices of a 1M array.

Each operation is too small to parallelise; this measures the per-operation
overhead of the runtime (run.py also reports it per operation).
"""
import time

OPERATIONS = 20000
WIDTH = 4096


def run(np, quick=False):
    n = 1 << 20
    a = np.zeros(n)
    b = np.arange(n, dtype=np.float64) % 7.0
    float(np.sum(b))

    start = time.perf_counter()
    for i in range(OPERATIONS):
        lo = (i * 3001) % (n - WIDTH)
        a[lo:lo + WIDTH] += b[lo:lo + WIDTH]
    checksum = float(np.sum(a))
    return time.perf_counter() - start, checksum
