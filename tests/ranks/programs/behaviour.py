"""Runtime behaviour across ranks, checked on every rank: writes one line per check to
OUT/rank-N.txt (N = this rank) so the test can compare ranks without mpirun's interleaving.

    python behaviour.py OUT
"""
import sys
from pathlib import Path

import numpy

import tessera._tessera as t
import tessera.numpy as np

out = Path(sys.argv[1]) / f"rank-{t._rank()}.txt"
lines = []


def record(name, value):
    lines.append(f"{name} {value}")


# Large enough to be cut into tiles on several ranks (the default chunk is 65,536 elements).
n = 600
rng = numpy.random.default_rng(7)
A0, B0, v0 = rng.standard_normal((n, n)), rng.standard_normal((n, n)), rng.standard_normal(n)
A, B, v = np.array(A0), np.array(B0), np.array(v0)

# Operations that change which rank holds which part: each must match NumPy.
C, C0 = A.copy(), A0.copy()
C[::2, 1::3] = -1.0
C0[::2, 1::3] = -1.0
D, D0 = A.copy(), A0.copy()
D[D > 0.5] = 0.25
D0[D0 > 0.5] = 0.25
E, E0 = A.copy(), A0.copy()
E[:, 10] = E[:, 11] * 2
E0[:, 10] = E0[:, 11] * 2
checks = {
    "transpose_add": (A + A.T, A0 + A0.T),
    "matmul": (A @ B, A0 @ B0),
    "matvec": (A @ v, A0 @ v0),
    "transposed_matvec": (A.T @ v, A0.T @ v0),
    "concatenate_rows": (np.concatenate([A, B]), numpy.concatenate([A0, B0])),
    "concatenate_columns": (np.concatenate([A, B], axis=1), numpy.concatenate([A0, B0], axis=1)),
    "reshape_view": ((A * 2).reshape(n // 2, 2 * n)[::3] + 1, (A0 * 2).reshape(n // 2, 2 * n)[::3] + 1),
    "transposed_ravel": (A.T.ravel()[:5000], A0.T.ravel()[:5000]),
    "column_sums": (A.sum(axis=0), A0.sum(axis=0)),
    "row_maxima": (A.max(axis=1), A0.max(axis=1)),
    "mask_get": (A[A > 1.0], A0[A0 > 1.0]),
    "fancy_get": (A[[5, 500, 17]], A0[[5, 500, 17]]),
    "flip": (A[::-1, ::-1] - A, A0[::-1, ::-1] - A0),
    "strided_set": (C, C0),
    "mask_set": (D, D0),
    "column_set": (E, E0),
}
for name, (got, want) in checks.items():
    got = np.asarray(got).__array__()
    record(name, "ok" if got.shape == want.shape and numpy.allclose(got, want, rtol=1e-12, atol=1e-12)
           else f"WRONG shape {got.shape} vs {want.shape}")

# A task that fails on one rank's tile only: every rank raises the same error at the same line.
a = np.arange(10**6)
b = np.ones(10**6, dtype=np.int64)
b[-1] = -1
try:
    float((a ** b).sum())
    record("power_error", "none")
except ValueError as e:
    record("power_error", f"ValueError: {e}")
record("after_error", float(np.sum(a * 2.0)))  # the run goes on, the same on every rank

# Unseeded generators draw the same numbers on every rank.
g = np.random.default_rng()
record("unseeded", f"{g.random()!r} {float(np.random.random(200000).sum())!r}")

# The legacy functions draw alike on every rank too, unseeded or reseeded without a seed, and
# shuffle's in-place change reaches every rank's array.
x = np.arange(200000)
np.random.shuffle(x)
picks = np.random.choice(1000, 5)
np.random.seed()
y = np.arange(1000)
np.random.shuffle(y)
record("unseeded_fallback", f"{int((x * np.arange(200000) % 1000003).sum())} {np.asarray(picks).tolist()} "
                            f"{np.asarray(y[:5]).tolist()}")
record("shuffle_is_a_permutation", "ok" if np.asarray(np.sort(x)).tolist() == list(range(200000)) else "no")

out.write_text("\n".join(lines) + "\n")
