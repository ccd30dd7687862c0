"""Conjugate gradient on a dense SPD system: N=4000, tolerance 1e-8.

The system of examples/python/cg.py: A[i, j] = 1 / (1 + |i - j|) and
b = linspace(0, 1, N); about 50 iterations, convergence tested every 10.
"""
import time

ITERATIONS = {}  # quick -> iterations the last run took (run() records it; traffic uses it)


def size(quick):
    """Unknowns."""
    return 1000 if quick else 4000


def units(quick):
    """run.py prints the time per iteration."""
    return ITERATIONS[quick], "iteration"


def traffic(quick):
    """Each iteration reads A once (the rest is vectors): A @ p with p . Ap reads p and
    writes Ap; the x and r updates with r . r read x, p, r, Ap and write x, r (8 vector
    passes); every iteration but the last then makes the new p, reading r and p and
    writing p (3). Before the loop, making x, r, p and r . r is 6 vector passes; the
    checksum reads x."""
    n, iterations = size(quick), ITERATIONS[quick]
    return (iterations * (n * n + 8 * n) + (iterations - 1) * 3 * n + (6 + 1) * n) * 8


def run(np, quick=False):
    n, tol, max_iters, check_every = size(quick), 1e-8, 1000, 10
    i = np.arange(n, dtype=np.float64)
    A = 1.0 / (1.0 + np.abs(i[:, None] - i[None, :]))
    b = np.linspace(0.0, 1.0, n)
    float(np.sum(A) + np.sum(b))

    start = time.perf_counter()
    x = np.zeros(n)
    r = b.copy()
    p = r.copy()
    rr = r.dot(r)
    for it in range(1, max_iters + 1):
        Ap = A.dot(p)
        alpha = rr / p.dot(Ap)
        x += alpha * p
        r -= alpha * Ap
        rr_new = r.dot(r)
        if it % check_every == 0 and np.sqrt(rr_new) < tol:
            break
        p = r + (rr_new / rr) * p
        rr = rr_new
    checksum = float(np.sum(x))
    ITERATIONS[quick] = it
    return time.perf_counter() - start, checksum
