"""How long issuing work takes compared with finishing it.

Issues 50 element-wise operations on 20M-element float64 arrays and returns
(seconds until the loop returned, seconds until a final float() came back).
NumPy computes eagerly, so both are about equal; a deferred runtime returns
from the loop early and waits at float().
"""
import time

OPERATIONS = 50


def run(np, quick=False):
    n = 2_000_000 if quick else 20_000_000
    a = np.linspace(0.0, 1.0, n)
    b = np.linspace(0.0, 0.5, n)
    float(np.sum(a) + np.sum(b))

    start = time.perf_counter()
    x = a
    for _ in range(OPERATIONS // 2):
        x = x * b
        x = x + a
    issued = time.perf_counter() - start
    float(np.sum(x))
    return issued, time.perf_counter() - start
