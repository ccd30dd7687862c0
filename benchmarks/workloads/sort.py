"""Sorting 10M float64 values (NaN-free, random order), 3 rounds: np.sort of the whole
array, then argsort of a 1M slice (stable on tessera, NumPy's default quicksort).
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
    x = np.sin(np.arange(n, dtype=np.float64) * 12.9898) * 43758.5453
    x = x - np.floor(x)  # pseudo-random in [0, 1)
    float(np.sum(x))
    start = time.perf_counter()
    checksum = 0.0
    for _ in range(ROUNDS):
        s = np.sort(x)
        order = np.argsort(x[: n // 10])
        checksum += float(s[n // 2] + s[-1]) + float(order[0])
    return time.perf_counter() - start, checksum
