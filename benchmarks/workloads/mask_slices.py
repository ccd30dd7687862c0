"""The "inefficient" loop: a masked update of each 4096-element slice of a 4M array, in turn.

For each slice s: gt = s > 1; s[gt] = s[gt] + 2; s[~gt] = s[~gt] - 2. Eight passes over
the float64 array (one takes well under 0.1 s in NumPy, too short to time on a shared
machine). The data are a golden-ratio sequence in [0, 4), so both branches occur in every
slice, and they keep occurring on later passes (values above 1 only grow, the others only
shrink). Every statement is small and boolean-mask indexing has a data-dependent size, so
this measures the runtime's per-operation cost on a loop written the slow way; run.py also
reports it per slice.
"""
import time

WIDTH = 4096


def size(quick):
    """(elements, passes over the array)."""
    return (1 << 20, 1) if quick else (1 << 22, 8)


def units(quick):
    """run.py prints the time per slice."""
    n, passes = size(quick)
    return passes * n // WIDTH, "slice"


def traffic(quick):
    """Bytes moved at least: each pass reads and writes the array once (the slices are
    disjoint, so one fused pass could do all of them); the checksum reads it once more."""
    n, passes = size(quick)
    return (2 * passes + 1) * n * 8


def run(np, quick=False):
    n, passes = size(quick)
    a = np.empty(n)
    a[:] = (np.arange(n, dtype=np.float64) * 0.6180339887498949) % 1.0 * 4.0
    float(np.sum(a))

    start = time.perf_counter()
    for _ in range(passes):
        for lo in range(0, n, WIDTH):
            s = a[lo:lo + WIDTH]
            gt = s > 1
            s[gt] = s[gt] + 2
            s[~gt] = s[~gt] - 2
    checksum = float(np.sum(a))
    return time.perf_counter() - start, checksum
