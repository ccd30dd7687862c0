"""tessera.pandas against pandas: construction, selection, element-wise operations, reductions
and read_parquet give pandas' values, dtypes, labels and exceptions; numeric columns are
tessera arrays that share memory with what tessera.numpy computes on."""
import numpy
import pandas
import pyarrow
import pyarrow.parquet as pq
import pytest

import tessera.numpy as tnp
import tessera.pandas as tpd
from tessera import _tessera


def same(got, want):
    """A tessera.pandas result equals pandas' (values, dtypes, labels, names, scalar types)."""
    if isinstance(want, pandas.DataFrame):
        assert isinstance(got, tpd.DataFrame), type(got)
        pandas.testing.assert_frame_equal(got.to_pandas(), want)
    elif isinstance(want, pandas.Series):
        assert isinstance(got, tpd.Series), type(got)
        pandas.testing.assert_series_equal(got.to_pandas(), want)
    elif isinstance(want, float) and numpy.isnan(want):
        assert type(got) is type(want) and numpy.isnan(got), (got, want)
    else:
        assert type(got) is type(want), (type(got), type(want))
        assert got == want or (numpy.isnan(got) and numpy.isnan(want)), (got, want)


N = 300_000  # several tiles (and row groups) even outside test mode


def frames():
    rng = numpy.random.default_rng(7)
    data = {
        "i": rng.integers(-1000, 1000, N),
        "f": rng.standard_normal(N),
        "g": numpy.where(rng.random(N) < 0.1, numpy.nan, rng.standard_normal(N)),
        "u": rng.integers(0, 200, N).astype(numpy.uint8),
        "b": rng.random(N) < 0.5,
        "f32": rng.standard_normal(N).astype(numpy.float32),
    }
    return tpd.DataFrame(data), pandas.DataFrame(data)


@pytest.fixture(scope="module")
def pair():
    return frames()


def test_construction_and_metadata(pair):
    t, p = pair
    same(t, p)
    assert t.shape == p.shape and len(t) == len(p)
    assert list(t.columns) == list(p.columns)
    pandas.testing.assert_series_equal(t.dtypes, p.dtypes)
    assert t.index.equals(p.index)
    assert isinstance(t["f"].values, _tessera.ndarray)


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "mean", "median", "std", "var", "count", "any", "all"])
@pytest.mark.parametrize("col", ["i", "f", "g", "u", "b", "f32"])
def test_series_reductions(pair, name, col):
    t, p = pair
    got, want = getattr(t[col], name)(), getattr(p[col], name)()
    if isinstance(want, numpy.floating) and name in ("sum", "mean", "std", "var", "prod"):
        # Sums in another order (tessera's blocks against pandas' pairwise-by-8): not the same bits.
        assert type(got) is type(want)
        numpy.testing.assert_allclose(got, want, rtol=1e-5 if col == "f32" else 1e-10)
    else:
        same(got, want)


@pytest.mark.parametrize("values", [[], [numpy.nan, numpy.nan], [1.0], [3, 1, 2], [True, False]])
@pytest.mark.parametrize("name", ["sum", "min", "max", "mean", "std", "var", "count", "any", "all", "prod", "median"])
def test_small_and_empty_reductions(values, name):
    p = pandas.Series(values, dtype=float if not values else None)
    t = tpd.Series(p)
    same(getattr(t, name)(), getattr(p, name)())


def test_frame_reductions(pair):
    t, p = pair
    for name in ["sum", "min", "max", "count", "mean"]:
        got, want = getattr(t, name)(), getattr(p, name)()
        pandas.testing.assert_series_equal(got, want, check_exact=False, rtol=1e-5)  # float32 sums in another order


def test_elementwise_is_one_fused_pass_with_pandas_values(pair):
    t, p = pair
    same(t["i"] * 2 + t["f"], p["i"] * 2 + p["f"])
    same((t["f"] > 0) & t["b"], (p["f"] > 0) & p["b"])
    same(-t["g"].abs(), -p["g"].abs())
    same(t["u"] + 1, p["u"] + 1)
    same(2.5 - t["f32"], 2.5 - p["f32"])
    same(t["g"].fillna(0.5), p["g"].fillna(0.5))
    same(t["g"].isna(), p["g"].isna())
    same(t["f"].between(-0.5, 0.5), p["f"].between(-0.5, 0.5))
    same(t["f"].where(t["b"]), p["f"].where(p["b"]))


def test_selection(pair):
    t, p = pair
    same(t[["f", "i"]], p[["f", "i"]])
    same(t[t["f"] > 1.5], p[p["f"] > 1.5])
    same(t["g"].dropna(), p["g"].dropna())
    same(t.head(7), p.head(7))
    same(t.tail(3), p.tail(3))
    same(t["i"].iloc[10:20], p["i"].iloc[10:20])
    same(t[t["f"] > 1.5]["i"].sum(), p[p["f"] > 1.5]["i"].sum())


def test_assignment_copies_as_pandas_does():
    a = tnp.arange(10.0)
    t = tpd.DataFrame({"a": a})
    a[0] = 99.0  # pandas copied the array it was given: the frame does not see this
    assert t["a"].to_pandas().iloc[0] == 0.0
    t["b"] = t["a"] * 3
    t["c"] = 1.5
    p = pandas.DataFrame({"a": numpy.arange(10.0)})
    p["b"] = p["a"] * 3
    p["c"] = 1.5
    same(t, p)
    view = t["a"].to_numpy()
    assert isinstance(view, _tessera.ndarray) and not view.flags.writeable
    with pytest.raises(ValueError):
        view[0] = 1.0


def test_errors_are_pandas_errors(pair):
    t, p = pair
    with pytest.raises(KeyError):
        t["nope"]
    with pytest.raises(KeyError):
        t[["f", "nope"]]
    with pytest.raises(ValueError):
        t["x"] = tnp.arange(3.0)
    with pytest.raises(AttributeError):
        t.nope


def test_columns_of_other_dtypes_stay_pandas_columns():
    p = pandas.DataFrame({"s": ["x", "y", None], "v": [1.0, 2.0, 3.0],
                          "d": pandas.date_range("2024-01-01", periods=3, freq="D")})
    t = tpd.DataFrame(p)
    same(t, p)
    same(t["v"].sum(), p["v"].sum())
    same(t["s"], p["s"])
    with pytest.raises(TypeError):
        p.sum()
    with pytest.raises(TypeError):
        t.sum()


@pytest.mark.parametrize("row_group_size", [1000, 64 * 1024, N])
def test_read_parquet_by_row_groups(tmp_path, row_group_size):
    _, p = frames()
    p = p.copy()
    p["s"] = numpy.where(numpy.arange(N) % 3 == 0, "a", "bc")
    path = tmp_path / "t.parquet"
    p.to_parquet(path, row_group_size=row_group_size)
    got, want = tpd.read_parquet(path), pandas.read_parquet(path)
    same(got, want)
    assert isinstance(got["f"].values, _tessera.ndarray) and isinstance(got["u"].values, _tessera.ndarray)
    same(tpd.read_parquet(path, columns=["g", "i"]), pandas.read_parquet(path, columns=["g", "i"]))


def test_read_parquet_nulls_and_index(tmp_path):
    table = pyarrow.table({"i": pyarrow.array([1, None, 3] * 1000, pyarrow.int64()),
                           "f": pyarrow.array([1.5, None, 2.0] * 1000),
                           "u": pyarrow.array([1, 2, 3] * 1000, pyarrow.uint16()),
                           "h": pyarrow.array([0.5, 1.0, None] * 1000, pyarrow.float32())})
    path = tmp_path / "n.parquet"
    pq.write_table(table, path, row_group_size=700)
    same(tpd.read_parquet(path), pandas.read_parquet(path))
    labelled = pandas.DataFrame({"v": [1.0, 2.0, 3.0]}, index=pandas.Index([10, 20, 30], name="k"))
    labelled.to_parquet(tmp_path / "k.parquet")
    same(tpd.read_parquet(tmp_path / "k.parquet"), pandas.read_parquet(tmp_path / "k.parquet"))
    ranged = pandas.DataFrame({"v": [1.0, 2.0, 3.0]}, index=pandas.RangeIndex(5, 11, 2))
    ranged.to_parquet(tmp_path / "r.parquet")
    same(tpd.read_parquet(tmp_path / "r.parquet"), pandas.read_parquet(tmp_path / "r.parquet"))
    bools = pyarrow.table({"b": pyarrow.array([True, None, False])})
    pq.write_table(bools, tmp_path / "b.parquet")
    same(tpd.read_parquet(tmp_path / "b.parquet"), pandas.read_parquet(tmp_path / "b.parquet"))


def test_read_parquet_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        tpd.read_parquet(tmp_path / "missing.parquet")
    with pytest.raises(FileNotFoundError):
        pandas.read_parquet(tmp_path / "missing.parquet")
    pandas.DataFrame({"a": [1, 2]}).to_parquet(tmp_path / "a.parquet")
    with pytest.raises(pyarrow.lib.ArrowInvalid):
        pandas.read_parquet(tmp_path / "a.parquet", columns=["zz"])
    with pytest.raises(pyarrow.lib.ArrowInvalid):
        tpd.read_parquet(tmp_path / "a.parquet", columns=["zz"])


def assert_same_result(got, want, exact):
    if isinstance(want, pandas.DataFrame):
        pandas.testing.assert_frame_equal(got.to_pandas(), want, check_exact=exact, rtol=1e-5)
    else:
        pandas.testing.assert_series_equal(got.to_pandas(), want, check_exact=exact, rtol=1e-5)


@pytest.mark.parametrize("how", ["sum", "mean", "count", "min", "max", "size"])
def test_groupby_by_a_numeric_key(pair, how):
    t, p = pair
    t = t.copy()
    t["k"] = t["i"] % 97
    p = p.assign(k=p["i"] % 97)
    # Sums in another order than pandas' (and float32 ones accumulated in float64): not exact.
    exact = how in ("count", "min", "max", "size")
    assert_same_result(getattr(t.groupby("k"), how)(), getattr(p.groupby("k"), how)(), exact)
    assert_same_result(getattr(t.groupby("k")["g"], how)(), getattr(p.groupby("k")["g"], how)(), exact)
    assert_same_result(getattr(t.groupby("u")[["f", "i"]], how)(), getattr(p.groupby("u")[["f", "i"]], how)(), exact)
    assert_same_result(t.groupby("g").agg(how), p.groupby("g").agg(how), exact)  # float keys: NaN keys left out


def test_groupby_edge_cases_and_other_keys():
    p = pandas.DataFrame({"k": [1.0, numpy.nan, -0.0, 0.0, 1.0], "v": [numpy.nan, 1.0, 2.0, 3.0, numpy.nan],
                          "w": numpy.array([1, 2, 3, 4, 5], numpy.int16), "s": list("abcab")})
    t = tpd.DataFrame(p)
    for how in ["sum", "mean", "count", "min", "max", "size"]:
        assert_same_result(getattr(t[["k", "v", "w"]].groupby("k"), how)(), getattr(p[["k", "v", "w"]].groupby("k"), how)(), True)
        # A string key (a pandas column here) and several keys: pandas' own result.
        assert_same_result(getattr(t[["s", "v"]].groupby("s"), how)(), getattr(p[["s", "v"]].groupby("s"), how)(), True)
        assert_same_result(getattr(t.groupby(["s", "w"])["v"], how)(), getattr(p.groupby(["s", "w"])["v"], how)(), True)
    with pytest.raises(KeyError):
        p.groupby("nope")
    with pytest.raises(KeyError):
        t.groupby("nope")


def test_writing_and_csv_round_trip(tmp_path):
    p = pandas.DataFrame({"a": numpy.arange(50, dtype=numpy.int64), "b": numpy.linspace(0, 1, 50),
                          "s": ["x", "y"] * 25})
    t = tpd.DataFrame(p)
    t.to_parquet(tmp_path / "t.parquet")
    same(tpd.read_parquet(tmp_path / "t.parquet"), pandas.read_parquet(tmp_path / "t.parquet"))
    pandas.testing.assert_frame_equal(pandas.read_parquet(tmp_path / "t.parquet"), p)
    t.to_csv(tmp_path / "t.csv", index=False)
    assert (tmp_path / "t.csv").read_text() == p.to_csv(index=False)
    got = tpd.read_csv(tmp_path / "t.csv")
    same(got, pandas.read_csv(tmp_path / "t.csv"))
    assert isinstance(got["b"].values, _tessera.ndarray)
    with pytest.raises(FileNotFoundError):
        tpd.read_csv(tmp_path / "missing.csv")
