"""tessera.pandas' groupby and drop_duplicates with many groups, their results printed as
digests of their bits: the same on any number of cpus and ranks (the tiles, the partial groups
and the order they fold in follow the data, DESIGN §5 and §7).

    python groupby_bits.py            # or under mpirun, or with TESSERA_TEST=1
"""
import hashlib

import numpy
import pandas

import tessera.pandas as tpd


def digest(frame):
    """The bits of a result's values, labels and dtypes."""
    frame = frame.to_pandas() if hasattr(frame, "to_pandas") else frame
    h = hashlib.sha256(repr(list(frame.dtypes.astype(str))).encode())
    h.update(pandas.util.hash_pandas_object(frame, index=True).to_numpy().tobytes())
    for c in frame.columns:  # the float bits themselves (hash_pandas_object hashes -0.0 as 0.0)
        col = frame[c]
        if col.dtype.kind == "f":
            h.update(col.to_numpy().tobytes())
    return h.hexdigest()[:32]


def main():
    rng = numpy.random.default_rng(20261130)
    n = 300_000
    p = pandas.DataFrame({
        "k": rng.integers(0, n // 3, n),
        "c": pandas.Categorical(rng.integers(0, 40, n)),
        "f": numpy.where(rng.random(n) < 0.03, numpy.nan, rng.integers(0, 1000, n) * 0.25),
        "v": rng.standard_normal(n),
        "w": rng.integers(-9, 9, n),
    })
    t = tpd.DataFrame(p)
    bench = dict(as_index=False, sort=False, observed=True, dropna=False)
    print("many groups =", digest(t.groupby(["k", "c", "f"], **bench).agg({"v": "sum", "w": "size"})))
    print("one key =", digest(t.groupby("k", **bench).agg({"v": ["mean", "std", "max"], "w": "sum"})))
    print("sorted =", digest(t.groupby(["f", "c"], dropna=False).agg({"v": "sum"})))
    print("drop_duplicates =", digest(t.drop_duplicates(subset=["k", "f"])))
    print("cumcount =", digest(t.groupby(["k", "f"], dropna=False).cumcount().to_frame()))


main()
