"""Running sums: np.cumsum of 20M float64 values and of a 4000 x 5000 matrix along its last
axis, 5 rounds.
"""
import time

KERNEL = True  # one library function, not a program
ROUNDS = 5


def size(quick):
    return 2_000_000 if quick else 20_000_000


def units(quick):
    return ROUNDS, "round"


def traffic(quick):
    """Each cumsum reads its input and writes its result; the checksums read the last elements only."""
    return ROUNDS * 2 * 2 * size(quick) * 8


def run(np, quick=False):
    n = size(quick)
    x = np.cos(np.arange(n, dtype=np.float64))
    m = x.reshape(n // 5000, 5000)
    float(np.sum(x))
    start = time.perf_counter()
    checksum = 0.0
    for _ in range(ROUNDS):
        c = np.cumsum(x)
        r = np.cumsum(m, axis=1)
        checksum += float(c[-1] + r[-1, -1])
    return time.perf_counter() - start, checksum
