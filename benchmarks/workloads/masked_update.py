"""Masked updates over 10M float32 elements: putmask and boolean-mask assignment.

x and y are golden-ratio sequences in [0, 1), so the masks are irregular.
"""
import time


def size(quick):
    """float32 elements."""
    return 1_000_000 if quick else 10_000_000


def traffic(quick):
    """All the statements are element-wise on the same elements, so one pass could do
    them: read x and y, write z; the checksum reads z again. The mask m is a temporary."""
    return (2 + 1 + 1) * size(quick) * 4


def run(np, quick=False):
    n = size(quick)
    k = np.arange(n, dtype=np.float64)
    x = np.empty(n, dtype=np.float32)
    y = np.empty(n, dtype=np.float32)
    x[:] = (k * 0.6180339887498949) % 1.0
    y[:] = (k * 0.7548776662466927) % 1.0
    z = np.zeros(n, dtype=np.float32)
    float(np.sum(x) + np.sum(y))

    start = time.perf_counter()
    np.add(x, y, out=z)
    np.putmask(z, z > 0.5, y)
    m = x < y
    z[m] = x[m] * 2
    z[~m] += 1
    checksum = float(np.sum(z, dtype=np.float64))
    return time.perf_counter() - start, checksum
