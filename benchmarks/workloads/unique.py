"""np.unique of 10M int64 values drawn from 100k distinct ones, with counts and the inverse
(which rebuilds the input), 3 rounds.
"""
import time

KERNEL = True  # one library function, not a program
ROUNDS = 3


def size(quick):
    return 1_000_000 if quick else 10_000_000


def units(quick):
    return ROUNDS, "round"


def run(np, quick=False):
    n = size(quick)
    x = (np.arange(n, dtype=np.int64) * 2654435761) % 100_003
    float(np.sum(x))
    start = time.perf_counter()
    checksum = 0.0
    for _ in range(ROUNDS):
        values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
        checksum += float(values.size) + float(np.sum(counts * values)) + float(inverse[n // 3])
    return time.perf_counter() - start, checksum
