"""tessera.pandas' groupby against pandas: one or several keys (numbers, categoricals, strings),
sort=, as_index=, dropna=, observed=, aggregations by name, list, dict and named aggregation,
medians, and what works row by row (head, tail, nth, cumcount, transform) —
native (no fallback allowed) with pandas' groups, order, labels, dtypes and values; and what is
not native yet runs in pandas with a FallbackWarning, and refuses under --fallback=error."""
import warnings

import numpy
import pandas
import pytest

import tessera
import tessera.pandas as tpd

N = 40_000  # several tiles in test mode, and more than one outside it on the wider dtypes


def host_frame():
    rng = numpy.random.default_rng(11)
    ids = numpy.array([f"id{i:03d}" for i in range(1, 13)])
    frame = pandas.DataFrame({
        "cat": pandas.Categorical(rng.choice(ids[:10], N)),
        "cat2": pandas.Categorical(rng.choice(ids, N), categories=list(ids[::-1])),  # not in sorted order
        "i": rng.integers(1, 9, N),
        "i32": rng.integers(-3, 3, N).astype(numpy.int32),
        "fk": numpy.where(rng.random(N) < 0.05, numpy.nan, rng.integers(0, 6, N) - 2.5),
        "s": pandas.Series(rng.choice(["b", "a", "c", None], N), dtype="str"),
        "v1": rng.integers(1, 6, N),
        "v2": rng.integers(0, 100, N).astype(numpy.int32),
        "v3": numpy.round(rng.random(N) * 100, 6),
        "f32": rng.standard_normal(N).astype(numpy.float32),
        "b": rng.random(N) < 0.3,
        "u8": rng.integers(0, 255, N).astype(numpy.uint8),
    })
    frame.loc[::17, "v3"] = numpy.nan
    frame.loc[5::23, "cat"] = numpy.nan
    return frame


P = host_frame()
T = tpd.DataFrame(P)
BENCH = dict(as_index=False, sort=False, observed=True, dropna=False)  # db-benchmark's options


def same(got, want):
    got = got.to_pandas() if hasattr(got, "to_pandas") else got
    if isinstance(want, pandas.DataFrame):
        pandas.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-12)
    else:
        pandas.testing.assert_series_equal(got, want, check_exact=False, rtol=1e-12)


NATIVE = {
    "one categorical key, sum": lambda x: x.groupby("cat", **BENCH).agg({"v1": "sum"}),
    "two keys": lambda x: x.groupby(["cat", "cat2"], **BENCH).agg({"v1": "sum"}),
    "sum and mean": lambda x: x.groupby("cat2", **BENCH).agg({"v1": "sum", "v3": "mean"}),
    "means by an integer key": lambda x: x.groupby("i", **BENCH).agg({"v1": "mean", "v2": "mean", "v3": "mean"}),
    "std and var, list per column": lambda x: x.groupby(["i", "i32"], **BENCH).agg({"v3": ["std", "var"]}),
    "min and max": lambda x: x.groupby("cat2", **BENCH).agg({"v1": "max", "v2": "min"}),
    "six keys, sum and size": lambda x: x.groupby(["cat", "cat2", "i", "i32", "s", "fk"], **BENCH).agg(
        {"v3": "sum", "v1": "size"}),
    "sorted, string and integer keys": lambda x: x.groupby(["s", "i32"]).agg({"v3": "sum", "v1": "size"}),
    "sorted with null groups": lambda x: x.groupby(["s", "fk"], dropna=False).agg({"v3": "sum", "v1": "count"}),
    "categorical in category order": lambda x: x.groupby("cat2").agg({"v2": "sum"}),
    "float key, NaN left out": lambda x: x.groupby("fk").agg({"v3": "mean", "v2": "max"}),
    "series std": lambda x: x.groupby("cat").v3.std(),
    "series var by two keys": lambda x: x.groupby(["i", "cat"])["v3"].var(),
    "size": lambda x: x.groupby("cat").size(),
    "size by two keys": lambda x: x.groupby(["cat", "i"], sort=False).size(),
    "size as a frame": lambda x: x.groupby("cat", as_index=False).size(),
    "series size": lambda x: x.groupby("i")["v2"].size(),
    "named aggregation": lambda x: x.groupby("s").agg(lo=("v1", "min"), hi=("v3", "max"), n=("v2", "count")),
    "list of functions": lambda x: x.groupby("i")[["v1", "v3"]].agg(["sum", "max"]),
    "series list of functions": lambda x: x.groupby("i", sort=False)["v1"].agg(["sum", "max"]),
    "series as a frame": lambda x: x.groupby("i", as_index=False)["v1"].mean(),
    "every column": lambda x: x[["i", "v1", "v2", "v3", "b", "u8"]].groupby("i").sum(),
    "float32, bool and uint8 means": lambda x: x[["i", "f32", "b", "u8"]].groupby("i").mean(),
    "float32, bool and uint8 min": lambda x: x[["i", "f32", "b", "u8"]].groupby("i").min(),
    "float32 std": lambda x: x.groupby("cat")["f32"].std(),
    "bool key": lambda x: x.groupby("b")[["v1", "v3"]].max(),
    "count": lambda x: x.groupby("cat2", sort=False)[["v3", "v1"]].count(),
    "median and std": lambda x: x.groupby(["i", "i32"], **BENCH).agg({"v3": ["median", "std"]}),
    "median of ints and floats": lambda x: x.groupby("cat")[["v2", "v3", "f32"]].median(),
    "head": lambda x: x.groupby("cat").head(2),
    "head with null groups": lambda x: x.groupby("fk", dropna=False).head(3),
    "head of a negative count": lambda x: x.groupby("fk").head(-40),
    "tail by two keys": lambda x: x.groupby(["cat", "i"]).tail(1),
    "nth": lambda x: x.groupby("s").nth(3),
    "nth from the end": lambda x: x.groupby("cat2").nth(-2),
    "cumcount": lambda x: x.groupby("fk").cumcount(),
    "cumcount descending": lambda x: x.groupby(["i", "b"]).cumcount(ascending=False),
    "transform sum": lambda x: x.groupby("fk", dropna=False)["v3"].transform("sum"),
    "transform count": lambda x: x.groupby("fk")["v2"].transform("count"),
    "transform mean of a frame": lambda x: x[["cat", "v1", "v3"]].groupby("cat").transform("mean"),
    "selected head": lambda x: x.groupby("cat")[["v3"]].head(1),
    "largest two by group": lambda x: x[~x["v3"].isna()][["i", "v3"]].sort_values(
        "v3", ascending=False, kind="stable").groupby("i", **BENCH).head(2),
}


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("query", list(NATIVE))
def test_native_groupby_gives_pandas_result(query):
    same(NATIVE[query](T), NATIVE[query](P))


@pytest.mark.usefixtures("no_fallback")
def test_group_sums_are_the_same_bits_as_on_one_tile():
    """The tiles are the data's and the partials combine in a fixed order: a sum's bits are
    those of the same computation on any machine — here, compared with pandas' to the last
    bits allowed by compensated sums on both sides."""
    got = T.groupby("cat2").agg({"v3": "sum"}).to_pandas()
    want = P.groupby("cat2").agg({"v3": "sum"})
    numpy.testing.assert_allclose(got["v3"].to_numpy(), want["v3"].to_numpy(), rtol=1e-14)


@pytest.mark.usefixtures("no_fallback")
def test_float32_sums_are_exact_sums_rounded_once():
    """pandas adds float32 groups in float32; tessera adds them in float64 and rounds the total
    once, so its sums are the exact ones (pandas' are within float32's accumulated error)."""
    got = T.groupby("i")["f32"].sum().to_pandas()
    exact = P.assign(f32=P["f32"].astype(numpy.float64)).groupby("i")["f32"].sum().astype(numpy.float32)
    pandas.testing.assert_series_equal(got, exact, check_exact=False, rtol=1e-7)
    pandas.testing.assert_series_equal(got, P.groupby("i")["f32"].sum(), check_exact=False, rtol=1e-5)


@pytest.mark.fallback
def test_what_is_not_native_runs_in_pandas_with_a_warning():
    from tessera.pandas import _fallback
    _fallback._warned.discard("DataFrameGroupBy.agg")  # warned once per process: this test wants it
    with pytest.warns(tessera.FallbackWarning, match="DataFrameGroupBy.agg"):
        got = T.groupby(["i", "i32"], **BENCH).agg({"v3": ["prod", "nunique"]})
    same(got, P.groupby(["i", "i32"], **BENCH).agg({"v3": ["prod", "nunique"]}))


@pytest.mark.fallback
def test_apply_runs_in_pandas():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        f = lambda g: g["v1"].corr(g["v2"]) ** 2  # noqa: E731
        got = T[["cat", "i", "v1", "v2"]].groupby(["cat", "i"], **BENCH).apply(f)
    same(got, P[["cat", "i", "v1", "v2"]].groupby(["cat", "i"], **BENCH).apply(f))


@pytest.mark.usefixtures("no_fallback")
def test_what_is_not_native_refuses_under_fallback_error():
    with pytest.raises(tessera.FallbackError, match="prod"):
        T.groupby("i").prod()


@pytest.mark.usefixtures("no_fallback")
def test_bad_keys_raise_pandas_errors():
    with pytest.raises(KeyError):
        T.groupby("nope")
    with pytest.raises(KeyError):
        P.groupby("nope")
