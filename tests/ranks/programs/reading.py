"""Reading values of an array split across ranks moves only what is read: writes, per check,
the bytes this rank received while doing it and whether the value matches NumPy, to
OUT/rank-N.txt (N = this rank).

    python reading.py OUT
"""
import sys
from pathlib import Path

import numpy

import tessera._tessera as t
import tessera.numpy as np

out = Path(sys.argv[1]) / f"rank-{t._rank()}.txt"
n = 2_000_000  # 16 MB of float64: each rank computes half of it
reference = numpy.arange(n, dtype=numpy.float64) * 0.5 + 1.0
a = np.arange(n, dtype=np.float64) * 0.5 + 1.0
b = (a * 2.0).reshape(2000, 1000)
float(a[0] + b[0, 0])  # every rank is past the computation before anything is counted
lines = []


def check(name, read, expected):
    before = t._comm_stats()["bytes_received"]
    value = read()
    received = t._comm_stats()["bytes_received"] - before
    lines.append(f"{name} {received} {'ok' if value == expected else repr((value, expected))}")


check("float_last", lambda: float(a[n - 1]), float(reference[n - 1]))
check("item_middle", lambda: a.item(n // 2 + 7), reference.item(n // 2 + 7))
check("item_2d", lambda: b.item(1999, 999), float(reference[-1] * 2.0))
check("repr", lambda: repr(a), repr(reference))
check("str_2d", lambda: str(b), str((reference * 2.0).reshape(2000, 1000)))
check("tolist_slice", lambda: a[n - 4:].tolist(), reference[n - 4:].tolist())
out.write_text("\n".join(lines) + "\n")
