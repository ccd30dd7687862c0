"""tessera.pandas' concat, duplicated / drop_duplicates, melt, query and eval against pandas: values,
dtypes, row labels, column order and names, and pandas' exceptions — native (no fallback allowed)
on numeric, boolean, string and categorical columns, with NaN, empty frames and frames of several
tiles; what is not native yet runs in pandas, announced, with pandas' result."""
import numpy
import pandas
import pytest

import tessera
import tessera.pandas as tpd

N = 20_000  # several tiles in test mode


def host_frame(n=N, seed=3):
    rng = numpy.random.default_rng(seed)
    frame = pandas.DataFrame({
        "i": rng.integers(0, 40, n),
        "i32": rng.integers(-3, 3, n).astype(numpy.int32),
        "u8": rng.integers(0, 4, n).astype(numpy.uint8),
        "f": numpy.where(rng.random(n) < 0.1, numpy.nan, rng.integers(0, 5, n) - 2.0),
        "f32": rng.integers(0, 3, n).astype(numpy.float32),
        "b": rng.random(n) < 0.4,
        "s": pandas.Series(rng.choice(["b", "a", "c", None], n), dtype="str"),
        "cat": pandas.Categorical(rng.choice(["x", "y", "z"], n), categories=["z", "y", "x"]),
    })
    frame.loc[::7, "f"] = -0.0  # equal to 0.0, as pandas' hashing has it
    frame.loc[3::11, "cat"] = numpy.nan
    return frame


P = host_frame()
T = tpd.DataFrame(P)
NUMERIC = ["i", "i32", "u8", "f", "f32", "b"]


def same(got, want):
    if isinstance(want, pandas.DataFrame):
        assert isinstance(got, tpd.DataFrame), type(got)
        pandas.testing.assert_frame_equal(got.to_pandas(), want)
    else:
        assert isinstance(got, tpd.Series), type(got)
        pandas.testing.assert_series_equal(got.to_pandas(), want)


def both(frame):
    return tpd.DataFrame(frame), frame


def held(df, *names):
    """The columns are tessera arrays (nothing came back through pandas)."""
    for name in names:
        assert not df[name]._on_host, name


# --- concat --------------------------------------------------------------------------------------
A = pandas.DataFrame({"x": [1, 2, 3], "y": [1.5, numpy.nan, -2.0], "b": [True, False, True],
                      "s": pandas.Series(["p", None, "q"], dtype="str")})
B = pandas.DataFrame({"y": [3.0, 4.0], "z": numpy.array([7, 8], dtype=numpy.int8), "x": [5, 6]})
C = pandas.DataFrame({"x": numpy.array([1.5], dtype=numpy.float32), "b": [False]}, index=[10])
EMPTY_ROWS = pandas.DataFrame({"x": pandas.Series([], dtype=numpy.int64), "w": pandas.Series([], dtype=numpy.float32)})

CONCAT = {
    "parts of one frame": lambda pd, f: pd.concat([f[: 5000], f[5000: 12000], f[12000:]]),
    "parts, ignore_index": lambda pd, f: pd.concat([f[: 7], f[7:]], ignore_index=True),
    "numeric columns": lambda pd, f: pd.concat([f[NUMERIC][:100], f[NUMERIC][100:]]),
    "reversed columns": lambda pd, f: pd.concat([f[["i", "f"]][:50], f[["f", "i"]][50:]]),
    "tuple of three": lambda pd, f: pd.concat((f[:3], f[3:9], f[9:20])),
    "one frame": lambda pd, f: pd.concat([f[:30]]),
    "with None": lambda pd, f: pd.concat([None, f[:30], None, f[30:40]]),
    "inner, same columns": lambda pd, f: pd.concat([f[:10], f[10:20]], join="inner"),
    "columns as integers": lambda pd, f: pd.concat([f[["i"]][:5].rename(columns={"i": 0}),
                                                    f[["f"]][:5].rename(columns={"f": 1})]),
    "sort=False": lambda pd, f: pd.concat([f[["i", "f"]][:5], f[["u8", "i"]][5:9]], sort=False),
}
CONCAT_SMALL = {
    "missing columns": lambda pd, a, b, c, e: pd.concat([a, b]),
    "missing columns, ignore_index": lambda pd, a, b, c, e: pd.concat([a, b], ignore_index=True),
    "other labels": lambda pd, a, b, c, e: pd.concat([c, a, c]),
    "int and float32": lambda pd, a, b, c, e: pd.concat([a[["x"]], c[["x"]]]),
    "float32 and int": lambda pd, a, b, c, e: pd.concat([c[["x"]], a[["x"]], b[["z"]]]),
    "bool and missing": lambda pd, a, b, c, e: pd.concat([c, b]),
    "inner join": lambda pd, a, b, c, e: pd.concat([a, b], join="inner"),
    "inner join, ignore_index": lambda pd, a, b, c, e: pd.concat([b, a, c], join="inner", ignore_index=True),
    "sorted union": lambda pd, a, b, c, e: pd.concat([b, a], sort=True),
    "empty frame with columns": lambda pd, a, b, c, e: pd.concat([e, b]),
    "empty frame first": lambda pd, a, b, c, e: pd.concat([e, a, e]),
    "empty frames only": lambda pd, a, b, c, e: pd.concat([e, e]),
    "0x0 frame": lambda pd, a, b, c, e: pd.concat([pd.DataFrame(), b]),
    "rows without columns": lambda pd, a, b, c, e: pd.concat([pd.DataFrame(index=range(2)), b]),
    "columns side by side": lambda pd, a, b, c, e: pd.concat([a[["x"]], a[["y", "s"]]], axis=1),
    "frame and named series": lambda pd, a, b, c, e: pd.concat([b, b["x"].rename("x2"), b[["y"]].rename(
        columns={"y": "y2"})], axis="columns"),
    "series side by side": lambda pd, a, b, c, e: pd.concat([a["x"], a["y"], a["s"]], axis=1),
}


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("case", list(CONCAT))
def test_concat_frames(case):
    same(CONCAT[case](tpd, T), CONCAT[case](pandas, P))


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("case", list(CONCAT_SMALL))
def test_concat_small_frames(case):
    frames = [A, B, C, EMPTY_ROWS]
    same(CONCAT_SMALL[case](tpd, *map(tpd.DataFrame, frames)), CONCAT_SMALL[case](pandas, *frames))


@pytest.mark.usefixtures("no_fallback")
def test_concat_columns_are_tessera_arrays():
    got = tpd.concat([T[: 100], T[["i", "f"]][100:]])
    held(got, "i", "i32", "u8", "f", "f32")
    assert got["b"].dtype == object  # booleans with missing rows: objects, as in pandas
    same(got, pandas.concat([P[: 100], P[["i", "f"]][100:]]))


@pytest.mark.usefixtures("no_fallback")
def test_concat_side_by_side_copies():
    t, p = both(pandas.DataFrame({"x": numpy.arange(10.0)}))
    got = tpd.concat([t, t["x"].rename("y")], axis=1)
    got["x"][0] = -1.0  # a write to the result is not seen by the frame it came from
    assert numpy.asarray(t["x"])[0] == 0.0
    p_got = pandas.concat([p, p["x"].rename("y")], axis=1)
    p_got.loc[0, "x"] = -1.0
    same(got, p_got)


SERIES = {
    "int parts": lambda pd, f: pd.concat([f["i"][:10], f["i"][10:]]),
    "int and float": lambda pd, f: pd.concat([f["i"][:10], f["f"][10:30]]),
    "float32 and int8": lambda pd, f: pd.concat([f["f32"][:10], f["i32"][10:30].astype("int8")]),
    "float32 and int32": lambda pd, f: pd.concat([f["f32"][:10], f["i32"][10:30]]),
    "uint8 and int32, ignore_index": lambda pd, f: pd.concat([f["u8"][:10], f["i32"][10:30]], ignore_index=True),
    "empty and int": lambda pd, f: pd.concat([f["f"][:0], f["i"][:5]]),
    "bools": lambda pd, f: pd.concat([f["b"][:3], f["b"][5:9]]),
    "series side by side": lambda pd, f: pd.concat([f["i"], f["f"].rename("g")], axis=1),
}


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("case", list(SERIES))
def test_concat_series(case):
    same(SERIES[case](tpd, T), SERIES[case](pandas, P))


@pytest.mark.usefixtures("no_fallback")
def test_concat_errors():
    for pd in (pandas, tpd):
        with pytest.raises(ValueError, match="No objects to concatenate"):
            pd.concat([])
        with pytest.raises(ValueError, match="All objects passed were None"):
            pd.concat([None, None])
        with pytest.raises(TypeError, match="cannot concatenate object of type"):
            pd.concat([pd.DataFrame({"a": [1]}), 1])
        for x in (pd.DataFrame({"a": [1]}), pd.Series([1.0]), "ab", 5):
            with pytest.raises(TypeError, match="first argument must be an iterable of pandas objects"):
                pd.concat(x)


FALLBACK_CONCAT = {
    "keys": lambda pd, f: pd.concat([f[:3], f[3:5]], keys=["p", "q"]),
    "labels to align": lambda pd, f: pd.concat([f[["i"]][:4], f[["f"]][2:6]], axis=1),
    "frame and series along rows": lambda pd, f: pd.concat([f[["i"]][:3], f["f"][:2]]),
    "strings and numbers": lambda pd, f: pd.concat([f["s"][:3], f["i"][:3]]),
    "booleans and numbers": lambda pd, f: pd.concat([f["b"][:3], f["i"][:3]]),
    "verify_integrity": lambda pd, f: pd.concat([f[:3], f[3:5]], verify_integrity=True),
}


@pytest.mark.fallback
@pytest.mark.parametrize("case", list(FALLBACK_CONCAT))
def test_concat_in_pandas_is_announced(case):
    from tessera.pandas import _fallback
    _fallback._warned.discard("concat")
    with pytest.warns(tessera.FallbackWarning, match="concat"):
        got = FALLBACK_CONCAT[case](tpd, T)
    same(got, FALLBACK_CONCAT[case](pandas, P))


# --- duplicated and drop_duplicates ----------------------------------------------------------
SUBSETS = [None, "i", "f", "f32", "b", "s", "cat", ["i32", "u8"], ["s", "cat"], ["f", "b", "s"], ("i", "i32", "u8")]


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("keep", ["first", "last", False])
@pytest.mark.parametrize("subset", SUBSETS, ids=str)
def test_duplicated_and_drop_duplicates(subset, keep):
    same(T.duplicated(subset, keep=keep), P.duplicated(subset, keep=keep))
    same(T.drop_duplicates(subset, keep=keep), P.drop_duplicates(subset, keep=keep))


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("keep", ["first", "last", False])
@pytest.mark.parametrize("column", ["i", "f", "f32", "b", "s", "cat"])
def test_series_duplicated_and_drop_duplicates(column, keep):
    same(T[column].duplicated(keep=keep), P[column].duplicated(keep=keep))
    same(T[column].drop_duplicates(keep=keep), P[column].drop_duplicates(keep=keep))
    same(T[column].drop_duplicates(keep=keep, ignore_index=True),
         P[column].drop_duplicates(keep=keep, ignore_index=True))


@pytest.mark.usefixtures("no_fallback")
def test_drop_duplicates_labels_and_ignore_index():
    p = P[["i32", "u8", "f"]][:300].copy()
    p.index = numpy.arange(300)[::-1] * 3
    t = tpd.DataFrame(p)
    same(t.drop_duplicates(["i32", "u8"]), p.drop_duplicates(["i32", "u8"]))
    same(t.drop_duplicates(["i32", "u8"], keep="last", ignore_index=True),
         p.drop_duplicates(["i32", "u8"], keep="last", ignore_index=True))
    got = t.drop_duplicates()
    held(got, "i32", "u8", "f")


@pytest.mark.usefixtures("no_fallback")
def test_duplicated_of_empty_frames():
    for p in (P[:0], pandas.DataFrame(index=range(3)), pandas.DataFrame()):
        t = tpd.DataFrame(p)
        same(t.duplicated(), p.duplicated())
        same(t.drop_duplicates(), p.drop_duplicates())
    same(T["f"][:0].duplicated(), P["f"][:0].duplicated())
    same(T["f"][:0].drop_duplicates(), P["f"][:0].drop_duplicates())


@pytest.mark.usefixtures("no_fallback")
def test_duplicated_errors():
    for df in (P, T):
        with pytest.raises(KeyError, match="nope"):
            df.duplicated(["i", "nope"])
        with pytest.raises(KeyError):
            df.drop_duplicates("nope")
        with pytest.raises(ValueError, match="keep must be either"):
            df.duplicated(keep="middle")
        with pytest.raises(ValueError, match="keep must be either"):
            df["i"].drop_duplicates(keep=True)


# --- melt ----------------------------------------------------------------------------------------
MELT = {
    "ids and values": lambda pd, f: pd.melt(f, id_vars=["s", "i"], value_vars=["f", "i32"]),
    "one id, every other column numeric": lambda pd, f: f[["i", "f", "f32"]].melt(id_vars="i"),
    "no ids": lambda pd, f: f[["i", "i32", "u8"]].melt(),
    "float32 values": lambda pd, f: pd.melt(f, id_vars=["cat"], value_vars=["f32"]),
    "int32 and uint8": lambda pd, f: pd.melt(f, value_vars=["i32", "u8"]),
    "names": lambda pd, f: f.melt(id_vars=["b"], value_vars=["f", "i"], var_name="which", value_name="v"),
    "labels kept": lambda pd, f: f[:100].melt(id_vars=["i"], value_vars=["f", "f32"], ignore_index=False),
    "value_vars only": lambda pd, f: f.melt(value_vars="f"),
    "empty": lambda pd, f: f[:0].melt(id_vars=["s"], value_vars=["i", "f"]),
    "named columns": lambda pd, f: f[["i", "f"]].rename_axis(columns="what").melt(),
    "integer labels": lambda pd, f: f[["i", "f"]].rename(columns={"i": 1, "f": 2}).melt(),
}


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("case", list(MELT))
def test_melt(case):
    t = T.rename(columns={"i": 1, "f": 2}) if case == "integer labels" else T
    if case == "named columns":
        t = tpd.DataFrame(P[["i", "f"]].rename_axis(columns="what"))
        same(t.melt(), P[["i", "f"]].rename_axis(columns="what").melt())
        return
    if case == "integer labels":
        p = P[["i", "f"]].rename(columns={"i": 1, "f": 2})
        same(tpd.DataFrame(p).melt(), p.melt())
        return
    got = MELT[case](tpd, t)
    same(got, MELT[case](pandas, P))


@pytest.mark.usefixtures("no_fallback")
def test_melt_value_column_is_one_tessera_array():
    got = T.melt(id_vars=["i"], value_vars=["f", "f32"])
    held(got, "i", "value")
    same(got, P.melt(id_vars=["i"], value_vars=["f", "f32"]))


@pytest.mark.usefixtures("no_fallback")
def test_melt_errors():
    for pd, f in ((pandas, P), (tpd, T)):
        with pytest.raises(ValueError, match="cannot match an element"):
            pd.melt(f, id_vars=["i"], value_name="f")
        with pytest.raises(KeyError, match="not present in the DataFrame"):
            f.melt(id_vars=["nope"], value_vars=["f"])
        with pytest.raises(ValueError, match="duplicate names"):
            f.melt(id_vars=["i"], value_vars=["f"], var_name="i")


@pytest.mark.fallback
def test_melt_of_strings_runs_in_pandas():
    from tessera.pandas import _fallback
    _fallback._warned.discard("melt")
    with pytest.warns(tessera.FallbackWarning, match="melt"):
        got = tpd.melt(T[:50], id_vars=["i"], value_vars=["s", "f"])
    same(got, pandas.melt(P[:50], id_vars=["i"], value_vars=["s", "f"]))


# --- query and eval --------------------------------------------------------------------------------
LIMIT = 2
EXPRESSIONS = [
    "i > 20", "f != f", "i > 10 & f < 1", "i > 10 and f < 1", "i < 5 | b", "i < 5 or not b", "~b",
    "1 < i < 30", "i % 3 == 1", "f32 * 2.5 > i32", "u8 + i32 >= 2", "(i - 3) ** 2 < 100", "i // 7 == 2",
    "i / 4 > f", "-f > 0.5", "f == 0", "i == 2.0", "b & (i > 3)", "i > @LIMIT", "i > @LIMIT * 2 & b",
    "not (i > 4 or f > 0) and u8 != 1",
]


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_query_and_eval(expr):
    same(T.query(expr), P.query(expr))
    same(T.eval(expr), P.eval(expr))


ARITHMETIC = ["i + f", "i", "i + i", "f32 * 2.5", "i32 * u8 - 1", "i / 3", "i ** 2", "-f", "f32 + i",
              "i * @LIMIT"]


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("expr", ARITHMETIC)
def test_eval_arithmetic(expr):
    got = T.eval(expr)
    same(got, P.eval(expr))
    assert not got._on_host


@pytest.mark.usefixtures("no_fallback")
def test_eval_assignment_and_locals():
    same(T.eval("z = i * 2 + f"), P.eval("z = i * 2 + f"))
    same(T.eval("i = i - 1"), P.eval("i = i - 1"))
    threshold = 3.5
    same(T.query("f32 + i < @threshold"), P.query("f32 + i < @threshold"))
    same(T.query("i < @t", local_dict={"t": 4}), P.query("i < @t", local_dict={"t": 4}))
    column = T.eval("f")
    column[0] = 99.0  # a copy: the frame keeps its values
    assert numpy.asarray(T["f"])[0] != 99.0


@pytest.mark.usefixtures("no_fallback")
def test_query_of_empty_frames_and_no_rows():
    same(T[:0].query("i > 2"), P[:0].query("i > 2"))
    same(T.query("i > 1000"), P.query("i > 1000"))
    with pytest.raises(ValueError, match="expr must be a string"):
        T.query(5)


FALLBACK_QUERIES = ["s == 'a'", "index > 5", "i in [1, 2]", "`i` > 3", "abs(f) > 1"]


@pytest.mark.fallback
@pytest.mark.parametrize("expr", FALLBACK_QUERIES)
def test_query_in_pandas_is_announced(expr):
    from tessera.pandas import _fallback
    _fallback._warned.discard("DataFrame.query")
    with pytest.warns(tessera.FallbackWarning, match="query"):
        got = T.query(expr)
    same(got, P.query(expr))


@pytest.mark.fallback
def test_query_errors_are_pandas():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        with pytest.raises(pandas.errors.UndefinedVariableError):
            T.query("nope > 1")
        with pytest.raises(SyntaxError):
            T.query("i >")
        outside = 1.5
        same(T.query("f > @outside and s == 'b'"), P.query("f > @outside and s == 'b'"))


# --- pivot_table -------------------------------------------------------------------------------------
PIVOTS = [
    dict(values="f", index="i32", columns="u8", aggfunc="sum"),
    dict(values=["f", "f32"], index=["i32"], columns=["b"], aggfunc="mean"),
    dict(values="i", index=["cat"], columns=["s"], aggfunc="count"),
    dict(values="i", index=["s", "b"], columns="u8", aggfunc="max", fill_value=0),
    dict(values="f32", index="u8", columns=["i32", "b"], aggfunc="min"),
    dict(values="i", columns="u8", aggfunc="sum"),
    dict(values="i", index="u8", aggfunc="mean"),
    dict(values="i", index="u8", columns="cat", aggfunc="mean", sort=False),
    dict(values=["i", "f"], index=["s", "u8"], columns="i32", aggfunc="sum", sort=False),
]


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("case", PIVOTS, ids=str)
def test_pivot_table(case):
    want = pandas.pivot_table(P, **case)
    same(tpd.pivot_table(T, **case), want)
    same(T.pivot_table(**case), want)


@pytest.mark.usefixtures("no_fallback")
def test_pivot_table_leaves_out_groups_of_nan_only():
    p = pandas.DataFrame({"k": [1, 1, 2, 2, 3], "c": [0, 1, 0, 1, 0], "v": [1.0, numpy.nan, numpy.nan, numpy.nan, 2.0]})
    t = tpd.DataFrame(p)
    for how in ("sum", "mean", "max", "count"):
        same(t.pivot_table(values="v", index="k", columns="c", aggfunc=how),
             p.pivot_table(values="v", index="k", columns="c", aggfunc=how))
    with pytest.raises(KeyError):
        t.pivot_table(values="nope", index="k", columns="c")


@pytest.mark.fallback
@pytest.mark.parametrize("case", [dict(values="i", index="u8", columns="b", aggfunc="sum", margins=True),
                                  dict(values="i", index="u8", columns="b", aggfunc=["sum", "mean"]),
                                  dict(index="u8", columns="b", aggfunc="sum")], ids=str)
def test_pivot_table_in_pandas_is_announced(case):
    from tessera.pandas import _fallback
    _fallback._warned.discard("pivot_table")
    frame, host = T[NUMERIC], P[NUMERIC]
    with pytest.warns(tessera.FallbackWarning, match="pivot_table"):
        got = tpd.pivot_table(frame, **case)
    same(got, pandas.pivot_table(host, **case))


@pytest.mark.usefixtures("no_fallback")
def test_concat_of_frames_without_rows_or_columns():
    for parts in ([pandas.DataFrame(), pandas.DataFrame()], [pandas.DataFrame(), EMPTY_ROWS, pandas.DataFrame()],
                  [pandas.DataFrame(index=[4, 5]), pandas.DataFrame()]):
        same(tpd.concat([tpd.DataFrame(p) for p in parts]), pandas.concat(parts))
        same(tpd.concat([tpd.DataFrame(p) for p in parts], join="inner"), pandas.concat(parts, join="inner"))


@pytest.mark.usefixtures("no_fallback")
def test_concat_of_one_frame_is_a_copy():
    t, p = both(pandas.DataFrame({"x": numpy.arange(6.0), "y": numpy.arange(6)}))
    for got in (tpd.concat([t]), tpd.concat([t["x"]]), tpd.concat([t[:4]])):
        column = got["x"] if isinstance(got, tpd.DataFrame) else got
        column[2] = -1.0  # a copy: the frame it came from keeps its values
        assert numpy.asarray(column)[2] == -1.0
        assert numpy.asarray(t["x"])[2] == 2.0
    same(t, p)
