"""What the machine can do, measured with plain NumPy: memory bandwidth and GEMM peak.

Bandwidth is STREAM-like on 200 MB float64 arrays, best of 3, counted the
STREAM way (copy moves 16 bytes per element, triad 24). The triad
a = b + 3 * c runs in cache-sized blocks so that NumPy's temporary never
reaches memory. It is measured on one thread and on every CPU (threads on
disjoint chunks; NumPy releases the GIL inside its loops). The GEMM peak is a
float64 2000 x 2000 matmul, best of 3, through NumPy's BLAS.
"""
import os
import time
from concurrent.futures import ThreadPoolExecutor

ELEMENTS = 25_000_000  # 200 MB per float64 array
BLOCK = 1 << 15        # 256 KB blocks for the triad
GEMM_N = 2000


def best_of(repeats, fn):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def triad(np, a, b, c):
    tmp = np.empty(min(BLOCK, a.shape[0]))
    for lo in range(0, a.shape[0], BLOCK):
        hi = min(lo + BLOCK, a.shape[0])
        t = tmp[:hi - lo]
        np.multiply(c[lo:hi], 3.0, out=t)
        np.add(b[lo:hi], t, out=a[lo:hi])


def bandwidth(np, threads, a, b, c):
    """(copy GB/s, triad GB/s) using `threads` threads on disjoint chunks."""
    bounds = [(a.shape[0] * t // threads, a.shape[0] * (t + 1) // threads) for t in range(threads)]
    parts = [(a[lo:hi], b[lo:hi], c[lo:hi]) for lo, hi in bounds]
    with ThreadPoolExecutor(threads) as pool:
        t_copy = best_of(3, lambda: list(pool.map(lambda p: np.copyto(p[2], p[0]), parts)))
        t_triad = best_of(3, lambda: list(pool.map(lambda p: triad(np, *p), parts)))
    size = a.nbytes / 1e9
    return 2 * size / t_copy, 3 * size / t_triad


def run(np, quick=False):
    """A dict of bandwidths (GB/s) and GEMM GFLOP/s; `quick` changes nothing."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    a, b, c = (np.full(ELEMENTS, v) for v in (1.0, 2.0, 0.5))
    copy_1, triad_1 = bandwidth(np, 1, a, b, c)
    copy_n, triad_n = bandwidth(np, cpus, a, b, c)
    del a, b, c

    m = np.full((GEMM_N, GEMM_N), 0.5)
    t_gemm = best_of(3, lambda: m @ m)
    return {"cpus": cpus, "numpy": np.__version__,
            "copy_1": copy_1, "triad_1": triad_1, "copy_n": copy_n, "triad_n": triad_n,
            "gemm_gflops": 2 * GEMM_N ** 3 / t_gemm / 1e9}
