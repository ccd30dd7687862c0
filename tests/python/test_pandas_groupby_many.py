"""tessera.pandas' groupby, duplicated and drop_duplicates with many groups — about as many as
rows, or a good fraction of them, over many tiles (and in test mode tiles whose tables fill up,
so rows pass through as groups of their own): pandas' groups, their order (first appearance
with sort=False, sorted keys otherwise), null groups, labels, dtypes and values."""
import numpy
import pandas
import pytest

import tessera.pandas as tpd

N = 60_000


def host_frame(n, seed):
    rng = numpy.random.default_rng(seed)
    frame = pandas.DataFrame({
        "a": rng.integers(0, n, n),  # about 0.63 n distinct
        "b": rng.integers(0, 3, n).astype(numpy.int32),
        "f": numpy.where(rng.random(n) < 0.02, numpy.nan, rng.integers(-n // 8, n // 8, n) * 0.5),
        "u": numpy.arange(n)[::-1].copy(),  # every row its own group
        "cat": pandas.Categorical(rng.integers(0, 500, n)),
        "s": pandas.Series(rng.choice([f"s{i}" for i in range(2000)], n), dtype="str"),
        "v": numpy.round(rng.standard_normal(n), 3),
        "w": rng.integers(-5, 5, n),
        "x": rng.standard_normal(n).astype(numpy.float32),
    })
    frame.loc[::37, "v"] = numpy.nan
    frame.loc[3::101, "f"] = -0.0  # one group with 0.0
    frame.loc[7::101, "f"] = 0.0
    return frame


P = host_frame(N, 5)
T = tpd.DataFrame(P)
BENCH = dict(as_index=False, sort=False, observed=True, dropna=False)


def same(got, want):
    got = got.to_pandas() if hasattr(got, "to_pandas") else got
    if isinstance(want, pandas.DataFrame):
        pandas.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-12)
    else:
        pandas.testing.assert_series_equal(got, want, check_exact=False, rtol=1e-12)


QUERIES = {
    "every row a group": lambda x: x.groupby("u", **BENCH).agg({"v": "sum", "w": "size"}),
    "six keys, db-benchmark's q10": lambda x: x.groupby(["a", "b", "f", "cat", "s", "w"], **BENCH).agg(
        {"v": "sum", "x": "size"}),
    "one key, every aggregate": lambda x: x.groupby("a", **BENCH).agg(
        {"v": ["sum", "mean", "min", "max", "std", "count"], "w": ["sum", "var"]}),
    "sorted, two keys as the index": lambda x: x.groupby(["a", "b"]).agg({"v": "sum", "w": "max"}),
    "null groups kept in order of first appearance": lambda x: x.groupby("f", **BENCH).agg({"v": "mean"}),
    "null groups left out": lambda x: x.groupby("f", sort=False).agg({"v": "sum"}),
    "null group last when sorted": lambda x: x.groupby("f", dropna=False).agg({"w": "sum"}),
    "strings and floats, sorted": lambda x: x.groupby(["s", "f"], dropna=False).agg({"v": "count"}),
    "size": lambda x: x.groupby(["a", "w"], sort=False).size(),
    "size as a frame": lambda x: x.groupby(["a", "w"], as_index=False, sort=False).size(),
    "series mean": lambda x: x.groupby("a", sort=False)["v"].mean(),
    "head": lambda x: x.groupby("a", sort=False).head(1),
    "tail with null groups": lambda x: x.groupby(["f", "b"], dropna=False).tail(2),
    "cumcount": lambda x: x.groupby(["a", "b"]).cumcount(),
    "transform": lambda x: x.groupby("a")["v"].transform("sum"),
    "median": lambda x: x.groupby("a", sort=False)["v"].median(),
    "drop_duplicates of two keys": lambda x: x[["a", "b"]].drop_duplicates(),
    "drop_duplicates keeping the last": lambda x: x.drop_duplicates(subset=["a", "f"], keep="last"),
    "drop_duplicates keeping none": lambda x: x.drop_duplicates(subset=["f", "w"], keep=False),
    "duplicated with null keys": lambda x: x.duplicated(subset=["f", "cat"]),
    "series drop_duplicates": lambda x: x["a"].drop_duplicates(),
    "series duplicated keeping none": lambda x: x["f"].duplicated(keep=False),
}


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("query", list(QUERIES))
def test_many_groups_give_pandas_result(query):
    same(QUERIES[query](T), QUERIES[query](P))


@pytest.mark.usefixtures("no_fallback")
def test_float32_means_are_exact_means_rounded_once():
    """pandas adds float32 groups in float32; tessera in float64, rounding the mean once: they
    agree to float32's rounding of the sums (absolutely where a sum nearly cancels)."""
    got = T.groupby("a", **BENCH).agg({"x": ["mean", "min"]}).to_pandas()
    want = P.groupby("a", **BENCH).agg({"x": ["mean", "min"]})
    pandas.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-6, atol=1e-6)


@pytest.mark.usefixtures("no_fallback")
def test_groups_beyond_a_full_table_over_several_tiles():
    """More rows than a tile holds outside test mode, and more keys per tile than its table
    folds: the rows past the full table are groups of their own until the merge."""
    n = 1_200_000
    rng = numpy.random.default_rng(9)
    p = pandas.DataFrame({"k": rng.integers(0, n // 2, n), "j": rng.integers(0, 2, n), "v": rng.random(n)})
    t = tpd.DataFrame(p)
    for q in (lambda x: x.groupby(["k", "j"], **BENCH).agg({"v": "sum"}),
              lambda x: x.groupby("k").agg({"v": ["min", "count"]}),
              lambda x: x.drop_duplicates(subset=["k"])):
        same(q(t), q(p))
