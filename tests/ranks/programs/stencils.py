"""Stencil loops over arrays split across ranks: Jacobi sweeps with a convergence check every
25 sweeps (fused in time, renamed, computed in place), and pressure iterations through a copy
(`pn = p.copy()` then `p[1:-1, 1:-1] = f(pn)`, the copy exchanged for the array's memory)
with boundary rows and columns set after each. Writes one line per loop to OUT/rank-N.txt
(N = this rank): its name, the bytes this rank sent per sweep, and a digest of the result's
bytes.

    python stencils.py OUT [N]
"""
import hashlib
import sys
from pathlib import Path

import numpy

import tessera._tessera as t
import tessera.numpy as np

out = Path(sys.argv[1]) / f"rank-{t._rank()}.txt"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000


def digest(a):
    return hashlib.sha256(numpy.ascontiguousarray(np.asarray(a)).tobytes()).hexdigest()


def sent():
    return t._comm_stats()["bytes_sent"]


def jacobi(sweeps=50, check_every=25):
    p = np.zeros((n, n))
    p[0, :] = 1.0
    float(np.sum(p))
    before = sent()
    for it in range(1, sweeps + 1):
        check = it % check_every == 0
        if check:
            pn = p.copy()
        p[1:-1, 1:-1] = .25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])
        if check:
            float(np.sqrt(np.sum((p - pn) ** 2)))
    float(np.sum(p))
    return (sent() - before) / sweeps, digest(p)


def pressure(iters=20):
    p = np.zeros((n, n))
    b = np.ones((n, n)) * 0.01
    b[n // 3:n // 2, n // 4:n // 2] = 3.0
    float(np.sum(p) + np.sum(b))
    before = sent()
    for _ in range(iters):
        pn = p.copy()
        p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, :-2]) * 0.5 + (pn[2:, 1:-1] + pn[:-2, 1:-1]) * 0.5) / 2.0
                         - 0.1 * b[1:-1, 1:-1])
        p[:, -1] = p[:, -2]
        p[0, :] = p[1, :]
        p[:, 0] = p[:, 1]
        p[-1, :] = 0
    float(np.sum(p))
    return (sent() - before) / iters, digest(p)


lines = []
for name, loop in (("jacobi", jacobi), ("pressure", pressure)):
    per_sweep, d = loop()
    lines.append(f"{name} {per_sweep:.0f} {d}")
out.write_text("\n".join(lines) + "\n")
