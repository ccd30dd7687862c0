"""Jacobi sweeps that write each new grid into a fresh array: N=6000, 10 sweeps.

Each sweep makes q = np.empty_like(p), copies p's boundary into it and averages the four
neighbours of every interior point of p into q's interior; q becomes p. No update in place:
the runtime reads one array and writes another, the pattern whose speed is compared with
the STREAM triad. 6000² float64 is 288 MB, more than the last-level cache of the machines
this runs on.
"""
import time

KERNEL = True  # a mechanism (writing into fresh arrays), not one of the seed programs


def size(quick):
    """(points per side, sweeps)."""
    return (1000, 5) if quick else (6000, 10)


def units(quick):
    """run.py prints the time per sweep."""
    return size(quick)[1], "sweep"


def traffic(quick):
    """Each sweep reads p once (its four shifted views counted once) and writes q once; the
    checksum reads the last grid."""
    n, sweeps = size(quick)
    return (2 * sweeps + 1) * n * n * 8


def run(np, quick=False):
    n, sweeps = size(quick)
    p = np.linspace(0.0, 1.0, n * n).reshape(n, n)
    float(np.sum(p))

    start = time.perf_counter()
    for _ in range(sweeps):
        q = np.empty_like(p)
        q[0, :] = p[0, :]
        q[-1, :] = p[-1, :]
        q[1:-1, 0] = p[1:-1, 0]
        q[1:-1, -1] = p[1:-1, -1]
        q[1:-1, 1:-1] = 0.25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])
        p = q
    checksum = float(np.sum(p))
    return time.perf_counter() - start, checksum
