"""Integer-array indexing on 10M float64 values: a gather y = x[idx] through a random
permutation-like index, a scatter z[idx] = y, a row gather m[rows] of a 4000 x 1000 matrix
and a bincount with weights, 5 rounds.
"""
import time

KERNEL = True  # one library mechanism, not a program
ROUNDS = 5


def size(quick):
    return 1_000_000 if quick else 10_000_000


def units(quick):
    return ROUNDS, "round"


def run(np, quick=False):
    n = size(quick)
    idx = (np.arange(n, dtype=np.int64) * 7919) % n  # every position once, scattered
    x = np.cos(np.arange(n, dtype=np.float64))
    m = np.linspace(0.0, 1.0, n // 10).reshape(n // 10000, 1000)
    rows = (np.arange(n // 10000, dtype=np.int64) * 31) % (n // 10000)
    bins = idx % 1000
    z = np.zeros(n)
    float(np.sum(idx) + np.sum(x) + np.sum(m))
    start = time.perf_counter()
    checksum = 0.0
    for _ in range(ROUNDS):
        y = x[idx]
        z[idx] = y
        r = m[rows]
        h = np.bincount(bins, weights=x)
        checksum += float(np.sum(z) + np.sum(r) + np.sum(h))
    return time.perf_counter() - start, checksum
