"""20000 in-place additions on overlapping 4096-element slices of a 1M array.

Each operation is too small to parallelise; this measures the per-operation
overhead of the runtime (run.py also reports it per operation).
"""
import time

MICRO = True  # the per-operation overhead, not a program

OPERATIONS = 20000
WIDTH = 4096
N = 1 << 20


def units(quick):
    """run.py prints the time per operation."""
    return OPERATIONS, "operation"


def traffic(quick):
    """Each operation overlaps the next, so each is a pass: it reads a slice of a and of b
    and writes the slice of a. The checksum reads a once. (The arrays are 8 MB each, so
    this mostly moves through cache, not memory.)"""
    return OPERATIONS * 3 * WIDTH * 8 + N * 8


def run(np, quick=False):
    n = N
    a = np.zeros(n)
    b = np.arange(n, dtype=np.float64) % 7.0
    float(np.sum(b))

    start = time.perf_counter()
    for i in range(OPERATIONS):
        lo = (i * 3001) % (n - WIDTH)
        a[lo:lo + WIDTH] += b[lo:lo + WIDTH]
    checksum = float(np.sum(a))
    return time.perf_counter() - start, checksum
