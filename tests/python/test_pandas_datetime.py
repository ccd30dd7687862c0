"""tessera.pandas' datetime, timedelta and categorical columns against pandas: held in tessera
(int64 counts, integer codes), with pandas' values, dtypes, labels, NaT and NaN handling and
exceptions — construction, the .dt and .cat accessors, arithmetic and comparisons, reductions,
and frames through selection, filtering, sort_values, concat, merge and groupby — natively (no
fallback allowed); accessors of columns kept on this process behave as pandas', announced."""
import warnings

import numpy
import pandas
import pytest

import tessera
import tessera.pandas as tpd
from tessera.pandas import _fallback

pytestmark = pytest.mark.usefixtures("no_fallback")

N = 5_000  # several tiles in test mode
UNITS = ["s", "ms", "us", "ns"]


def same(got, want):
    if isinstance(want, pandas.DataFrame):
        assert isinstance(got, tpd.DataFrame), type(got)
        pandas.testing.assert_frame_equal(got.to_pandas(), want)
    else:
        assert isinstance(got, tpd.Series), type(got)
        pandas.testing.assert_series_equal(got.to_pandas(), want)


def coded(s):
    """The column is held in tessera (a Coded column, not a pandas object on this process)."""
    assert s._coded, type(s._data)


def stamps(n=N, unit="ns", nat=True, seed=0):
    """Datetimes from 1880 to 2080 (before and after 1970) at every resolution of `unit`."""
    rng = numpy.random.default_rng(seed)
    per_s = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}[unit]
    secs = rng.integers(-90 * 365 * 86400, 110 * 365 * 86400, n)
    counts = secs * per_s + (rng.integers(0, per_s, n) if per_s > 1 else 0)
    counts[:8] = numpy.array([0, -1, 86400 * per_s - 1, 951782400 * per_s, 951868800 * per_s,  # 2000-02-29, 03-01
                              -2208988800 * per_s, 946684799 * per_s, 1609459199 * per_s])[:min(n, 8)]
    values = counts.view(f"M8[{unit}]").copy()
    if nat:
        values[5::17] = numpy.datetime64("NaT")
    return pandas.Series(values, name="t")


def deltas(n=N, unit="ns", nat=True, seed=1):
    rng = numpy.random.default_rng(seed)
    per_s = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}[unit]
    counts = rng.integers(-400 * 86400 * per_s, 400 * 86400 * per_s, n)
    values = counts.view(f"m8[{unit}]").copy()
    if nat:
        values[3::13] = numpy.timedelta64("NaT")
    return pandas.Series(values, name="d")


def categories(n=N, seed=2, ordered=False):
    rng = numpy.random.default_rng(seed)
    values = pandas.Categorical(rng.choice(["x", "y", "z", "w"], n), categories=["z", "y", "x", "w", "unused"],
                                ordered=ordered)
    s = pandas.Series(values, name="c")
    s[3::11] = numpy.nan
    return s


# --- construction ---------------------------------------------------------------------------------
@pytest.mark.parametrize("unit", UNITS)
def test_datetime_columns_are_held_with_pandas_values(unit):
    want = stamps(unit=unit)
    got = tpd.Series(want)
    coded(got)
    assert got.dtype == want.dtype == numpy.dtype(f"M8[{unit}]")
    same(got, want)
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(want))
    assert numpy.asarray(got).dtype == numpy.asarray(want).dtype
    assert repr(got) == repr(want)
    assert got.count() == want.count()
    same(got.isna(), want.isna())
    same(got.dropna(), want.dropna())


def test_construction_from_what_pandas_takes():
    for data in (pandas.to_datetime(["2020-01-01", "2021-03-04"]), numpy.array(["2020-01-01", "NaT"], dtype="M8[ns]"),
                 pandas.date_range("2020-01-01", periods=7, freq="17h"), pandas.to_timedelta(["1 day", "-3 s", None]),
                 numpy.array([1, -2], dtype="m8[ms]")):
        got, want = tpd.Series(data), pandas.Series(data)
        coded(got)
        same(got, want)
    got, want = tpd.Series(["b", "a", None, "b"], dtype="category"), pandas.Series(["b", "a", None, "b"], dtype="category")
    coded(got)
    same(got, want)
    assert repr(got) == repr(want)
    pandas.testing.assert_series_equal(pandas.Series(numpy.asarray(got)), pandas.Series(numpy.asarray(want)))
    frame = pandas.DataFrame({"t": stamps(50), "d": deltas(50), "c": categories(50), "x": numpy.arange(50)})
    df = tpd.DataFrame(frame)
    for c in "tdc":
        coded(df[c])
    same(df, frame)
    assert repr(df) == repr(frame)
    pandas.testing.assert_series_equal(df.dtypes, frame.dtypes)
    same(tpd.Series(tpd.Series(frame["t"]), dtype="M8[s]"), frame["t"].astype("M8[s]"))


def test_tz_aware_columns_stay_on_this_process():
    want = pandas.Series(pandas.date_range("2020-03-29", periods=5, freq="7h", tz="Europe/Paris"))
    got = tpd.Series(want)
    assert got._on_host
    same(got, want)


def test_dt_year_of_to_datetime():
    got = tpd.Series(pandas.to_datetime(["2020-01-01"])).dt.year
    same(got, pandas.Series(pandas.to_datetime(["2020-01-01"])).dt.year)
    assert got.dtype == numpy.int32 and list(got.to_pandas()) == [2020]


# --- the .dt accessor -----------------------------------------------------------------------------
FIELDS = ["year", "month", "day", "hour", "minute", "second", "microsecond", "nanosecond", "day_of_week",
          "day_of_year", "quarter", "days_in_month", "is_month_start", "is_month_end", "is_quarter_start",
          "is_quarter_end", "is_year_start", "is_year_end", "is_leap_year"]


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("nat", [False, True])
def test_datetime_fields(unit, nat):
    want = stamps(unit=unit, nat=nat)
    got = tpd.Series(want)
    for name in FIELDS:
        r, w = getattr(got.dt, name), getattr(want.dt, name)
        assert r.dtype == w.dtype, name
        same(r, w)
        assert not r._on_host


def test_deprecated_field_names_warn_as_pandas():
    want = stamps(40)
    got = tpd.Series(want)
    for name in ("dayofweek", "weekday", "dayofyear", "daysinmonth"):
        with pytest.warns(pandas.errors.Pandas4Warning, match=f"Series.dt.{name} is deprecated"):
            r = getattr(got.dt, name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            same(r, getattr(want.dt, name))


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("freq", ["s", "min", "h", "D", "15min", "3s", "ms"])
def test_floor_ceil_round(unit, freq):
    for want in (stamps(unit=unit), deltas(unit=unit)):
        got = tpd.Series(want)
        for how in ("floor", "ceil", "round"):
            r = getattr(got.dt, how)(freq)
            coded(r)
            same(r, getattr(want.dt, how)(freq))
    same(tpd.Series(stamps(unit=unit)).dt.normalize(), stamps(unit=unit).dt.normalize())


def test_rounding_ties_to_even():
    want = pandas.Series(pandas.to_datetime(["2020-01-01 00:00:00.5", "2020-01-01 00:00:01.5", "1969-12-31 23:59:59.5",
                                             "1969-12-31 23:59:58.5", "2020-01-01 00:30:00", "2020-01-01 01:30:00"],
                                            format="ISO8601"))
    got = tpd.Series(want)
    for freq in ("s", "h", "2s"):
        same(got.dt.round(freq), want.dt.round(freq))


def test_rounding_to_a_frequency_that_is_not_fixed_raises_pandas_error():
    got, want = tpd.Series(stamps(10)), stamps(10)
    with pytest.raises(ValueError) as theirs:
        want.dt.floor("ME")
    with pytest.raises(ValueError, match=str(theirs.value)):
        got.dt.floor("ME")


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("nat", [False, True])
def test_timedelta_fields(unit, nat):
    want = deltas(unit=unit, nat=nat)
    got = tpd.Series(want)
    for name in ("days", "seconds", "microseconds", "nanoseconds"):
        r = getattr(got.dt, name)
        assert r.dtype == getattr(want.dt, name).dtype
        same(r, getattr(want.dt, name))
    same(got.dt.total_seconds(), want.dt.total_seconds())


def test_dt_of_other_dtypes_raises_pandas_error():
    for host in (pandas.Series([1, 2]), pandas.Series([1.5]), pandas.Series([True]), categories(10)):
        s = tpd.Series(host)
        with pytest.raises(AttributeError, match="Can only use .dt accessor with datetimelike values"):
            s.dt
        assert not hasattr(s, "dt")
    for host in (pandas.Series([1, 2]), stamps(5)):
        with pytest.raises(AttributeError, match="Can only use .cat accessor with a 'category' dtype"):
            tpd.Series(host).cat
    with pytest.raises(AttributeError, match="Can only use .str accessor with string values"):
        tpd.Series([1, 2]).str
    with pytest.raises(AttributeError, match="sparse"):
        tpd.Series([1, 2]).sparse
    with pytest.raises(AttributeError, match="no attribute 'total_seconds'"):
        tpd.Series(stamps(5)).dt.total_seconds()
    with pytest.raises(AttributeError, match="no attribute 'no_such_field'"):
        tpd.Series(stamps(5)).dt.no_such_field


@pytest.mark.fallback
def test_accessors_of_host_columns_are_pandas_own_announced():
    words = pandas.Series(["apple", None, "Banana", "cherry"], name="w")
    s = tpd.Series(words)
    assert s._on_host
    _fallback._warned.discard("Series.str")
    with pytest.warns(tessera.FallbackWarning, match="Series.str"):
        acc = s.str
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        same(acc.upper(), words.str.upper())
        same(s.str.len(), words.str.len())
        same(s.str[0], words.str[0])
        same(s.str.contains("an"), words.str.contains("an"))
        aware = pandas.Series(pandas.date_range("2020-01-01", periods=4, freq="13h", tz="UTC"))
        t = tpd.Series(aware)
        same(t.dt.hour, aware.dt.hour)
        same(t.dt.floor("D"), aware.dt.floor("D"))
        assert t.dt.tz == aware.dt.tz
        # what .dt has no native version of runs in pandas
        want = stamps(30)
        same(tpd.Series(want).dt.strftime("%Y/%m"), want.dt.strftime("%Y/%m"))
        same(tpd.Series(want).dt.date, want.dt.date)
        frame = pandas.DataFrame({"w": words})
        same(tpd.DataFrame(frame).w.str.lower(), frame.w.str.lower())
        same(tpd.Series(categories(20)).cat.add_categories(["v"]), categories(20).cat.add_categories(["v"]))
    _fallback._warned.discard("Series.dt.strftime")
    with pytest.warns(tessera.FallbackWarning, match="Series.dt.strftime"):
        tpd.Series(want).dt.strftime("%Y")


# --- arithmetic, comparisons, reductions ----------------------------------------------------------
@pytest.mark.parametrize("unit", ["s", "us", "ns"])
def test_datetime_arithmetic(unit):
    a, b = stamps(unit=unit), stamps(unit="us", seed=5)
    ta, tb = tpd.Series(a), tpd.Series(b)
    d = deltas(unit=unit)
    td = tpd.Series(d)
    cases = [
        (ta - tb, a - b), (tb - ta, b - a), (ta - pandas.Timestamp("2000-01-01"), a - pandas.Timestamp("2000-01-01")),
        (pandas.Timestamp("2000-01-01 00:00:00.5") - ta, pandas.Timestamp("2000-01-01 00:00:00.5") - a),
        (ta + pandas.Timedelta("1 day 3 ns"), a + pandas.Timedelta("1 day 3 ns")),
        (ta - pandas.Timedelta(hours=5), a - pandas.Timedelta(hours=5)),
        (ta + td, a + d), (ta - td, a - d), (td + ta, d + a), (td + td, d + d), (td - td, d - d),
        (ta + numpy.timedelta64(7, "ms"), a + numpy.timedelta64(7, "ms")),
        (ta - numpy.datetime64("2001-01-01"), a - numpy.datetime64("2001-01-01")),
    ]
    for got, want in cases:
        coded(got)
        same(got, want)
    with pytest.raises(TypeError):
        a + b
    with pytest.raises(TypeError):
        ta + tb


@pytest.mark.parametrize("unit", ["s", "ns"])
def test_datetime_comparisons(unit):
    a, b = stamps(unit=unit), stamps(unit="ms", seed=9)
    ta, tb = tpd.Series(a), tpd.Series(b)
    for other in (pandas.Timestamp("2000-02-29"), "2000-02-29", "2000-02-29 12:00:00.000000001",
                  numpy.datetime64("1969-12-31T23:59:59"), pandas.Timestamp("1970-01-01").to_pydatetime()):
        for op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
            got, want = getattr(ta, op)(other), getattr(a, op)(other)
            assert not got._on_host
            same(got, want)
    for op in ("__eq__", "__ne__", "__lt__", "__ge__"):
        same(getattr(ta, op)(tb), getattr(a, op)(b))
    same(ta.between("1990-01-01", "2010-12-31"), a.between("1990-01-01", "2010-12-31"))
    d = deltas()
    same(tpd.Series(d) > pandas.Timedelta("3 days"), d > pandas.Timedelta("3 days"))
    same(tpd.Series(d) <= "-1 day", d <= "-1 day")
    assert not (ta > "2000-01-01")._on_host
    with pytest.raises(TypeError):
        a < 5
    with pytest.raises(TypeError):
        ta < 5


@pytest.mark.parametrize("make", [stamps, deltas])
def test_min_max_diff(make):
    for nat in (False, True):
        want = make(nat=nat)
        got = tpd.Series(want)
        for name in ("min", "max"):
            r, w = getattr(got, name)(), getattr(want, name)()
            assert type(r) is type(w) and r == w and r.unit == w.unit
            r, w = getattr(got, name)(skipna=False), getattr(want, name)(skipna=False)
            assert type(r) is type(w) and (r is w or r == w)
        for periods in (1, 3, -2, 0, N + 5):
            same(got.diff(periods), want.diff(periods))
            coded(got.diff(periods))
    empty, none = make(0), make(3)
    none[:] = None
    for host in (empty, none):
        assert tpd.Series(host).min() is host.min() is pandas.NaT
        same(tpd.Series(host).diff(), host.diff())


def test_numeric_diff():
    for dtype in ("int8", "int16", "int32", "int64", "float32", "float64"):
        want = pandas.Series(numpy.array([5, 3, -100, 127, -128, 1, 0], dtype=dtype))
        if dtype[0] == "f":
            want[2] = numpy.nan
        got = tpd.Series(want)
        for periods in (1, 2, -1, 0, 10):
            same(got.diff(periods), want.diff(periods))


# --- .cat, value_counts and categorical comparisons -----------------------------------------------
def test_cat_accessor():
    want = categories()
    got = tpd.Series(want)
    coded(got)
    same(got.cat.codes, want.cat.codes)
    assert got.cat.codes.dtype == want.cat.codes.dtype
    assert not got.cat.codes._on_host
    pandas.testing.assert_index_equal(got.cat.categories, want.cat.categories)
    assert got.cat.ordered is want.cat.ordered
    assert got.dtype == want.dtype


@pytest.mark.parametrize("kwargs", [{}, {"dropna": False}, {"normalize": True}, {"sort": False},
                                    {"ascending": True}, {"normalize": True, "dropna": False}])
def test_categorical_value_counts(kwargs):
    for want in (categories(), categories(7), categories(0), pandas.Series(["a", "b"], dtype="category")):
        same(tpd.Series(want).value_counts(**kwargs), want.value_counts(**kwargs))


def test_categorical_comparisons():
    want = categories()
    got = tpd.Series(want)
    for other in ("x", "unused", "not a category"):
        same(got == other, want == other)
        same(got != other, want != other)
    ordered = categories(ordered=True)
    t = tpd.Series(ordered)
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        same(getattr(t, op)("y"), getattr(ordered, op)("y"))
    with pytest.raises(TypeError):
        want < "y"
    with pytest.raises(TypeError):
        got < "y"


# --- frames ----------------------------------------------------------------------------------------
def frame(n=N, seed=4):
    rng = numpy.random.default_rng(seed)
    t = stamps(n, seed=seed)
    t = t.dt.floor("D") if n else t  # repeated days: groups
    return pandas.DataFrame({"t": t, "d": deltas(n, unit="us"), "c": categories(n), "x": rng.integers(0, 5, n),
                             "f": rng.random(n)})


def test_selection_filtering_head():
    want = frame()
    got = tpd.DataFrame(want)
    mask = want["x"] > 2
    for g, w in ((got[["t", "c"]], want[["t", "c"]]), (got[got["x"] > 2], want[mask]), (got.head(7), want.head(7)),
                 (got.tail(3), want.tail(3)), (got[10:20], want[10:20]), (got[got["t"] > "2000-01-01"],
                                                                           want[want["t"] > "2000-01-01"])):
        same(g, w)
        for c in w.columns.intersection(["t", "d", "c"]):
            coded(g[c])
    s = got["t"]
    same(s[s.dt.month == 2], want["t"][want["t"].dt.month == 2])
    got["t2"] = got["t"] + pandas.Timedelta("1h")
    want["t2"] = want["t"] + pandas.Timedelta("1h")
    same(got, want)
    got["when"] = numpy.datetime64("2020-01-01")
    want["when"] = numpy.datetime64("2020-01-01")
    same(got, want)


@pytest.mark.parametrize("by", ["t", "c", "d", ["c", "x"], ["t", "f"]])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["last", "first"])
def test_sort_values(by, ascending, na_position):
    want = frame()
    got = tpd.DataFrame(want).sort_values(by, ascending=ascending, na_position=na_position)
    w = want.sort_values(by, ascending=ascending, na_position=na_position, kind="stable")
    same(got, w)
    coded(got["t"])
    coded(got["c"])


def test_concat():
    a, b = frame(300), frame(200, seed=8)
    same(tpd.concat([tpd.DataFrame(a), tpd.DataFrame(b)]), pandas.concat([a, b]))
    out = tpd.concat([tpd.DataFrame(a), tpd.DataFrame(b)], ignore_index=True)
    for c in "tdc":
        coded(out[c])
    same(tpd.concat([tpd.Series(a["t"]), tpd.Series(b["t"])]), pandas.concat([a["t"], b["t"]]))
    same(tpd.concat([tpd.Series(a["c"]), tpd.Series(b["c"])]), pandas.concat([a["c"], b["c"]]))
    # a frame without the column: NaT rows
    c = a[["x"]].iloc[:5]
    same(tpd.concat([tpd.DataFrame(a), tpd.DataFrame(c)]), pandas.concat([a, c]))
    side = tpd.concat([tpd.DataFrame(a[["t"]]), tpd.DataFrame(a[["c"]])], axis=1)
    same(side, pandas.concat([a[["t"]], a[["c"]]], axis=1))
    coded(side["t"])


@pytest.mark.fallback
def test_concat_of_other_units_and_categories_is_pandas_own():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        a = pandas.DataFrame({"t": stamps(20, unit="s"), "c": categories(20)})
        b = pandas.DataFrame({"t": stamps(10, unit="ns"), "c": pandas.Series(["q"] * 10, dtype="category")})
        same(tpd.concat([tpd.DataFrame(a), tpd.DataFrame(b)]), pandas.concat([a, b]))


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_merge_on_datetime_keys(how):
    left = frame(400)
    rng = numpy.random.default_rng(3)
    right = pandas.DataFrame({"t": left["t"].sample(300, random_state=1).to_numpy(), "y": rng.integers(0, 9, 300),
                              "e": stamps(300, seed=11)})
    right = pandas.concat([right, pandas.DataFrame({"t": pandas.to_datetime(["1800-01-01"]).astype(left["t"].dtype),
                                                    "y": [1], "e": stamps(1)})], ignore_index=True)
    got = tpd.merge(tpd.DataFrame(left), tpd.DataFrame(right), on="t", how=how)
    same(got, pandas.merge(left, right, on="t", how=how))
    coded(got["t"])
    coded(got["e"])
    coded(got["c"])


@pytest.mark.parametrize("how", ["inner", "left"])
def test_merge_on_categorical_keys(how):
    left = frame(500)
    right = pandas.DataFrame({"c": pandas.Categorical(["x", "w", "q", None], categories=["w", "x", "q"]),
                              "y": [1, 2, 3, 4]})
    got = tpd.merge(tpd.DataFrame(left), tpd.DataFrame(right), on="c", how=how)
    same(got, pandas.merge(left, right, on="c", how=how))
    same_dtype = pandas.DataFrame({"c": pandas.Categorical(["x", "w", None], dtype=left["c"].dtype), "y": [1, 2, 3]})
    got = tpd.merge(tpd.DataFrame(left), tpd.DataFrame(same_dtype), on="c", how=how)
    same(got, pandas.merge(left, same_dtype, on="c", how=how))
    coded(got["c"])


@pytest.mark.parametrize("options", [{}, {"sort": False}, {"dropna": False}, {"as_index": False},
                                     {"dropna": False, "sort": False}])
def test_groupby_datetime_keys(options):
    want = frame()
    got = tpd.DataFrame(want)
    for by in ("t", "d", ["t", "c"]):
        same(got.groupby(by, **options)[["x", "f"]].sum(), want.groupby(by, **options)[["x", "f"]].sum())
        same(got.groupby(by, **options)["f"].mean(), want.groupby(by, **options)["f"].mean())
        size_got, size_want = got.groupby(by, **options).size(), want.groupby(by, **options).size()
        same(size_got, size_want)


@pytest.mark.parametrize("options", [{}, {"observed": True}, {"sort": False}, {"dropna": False}, {"as_index": False}])
def test_groupby_categorical_keys(options):
    want = frame()
    got = tpd.DataFrame(want)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pandas' default observed= warns of nothing; nor does tessera
        same(got.groupby("c", **options)[["x", "f"]].sum(), want.groupby("c", **options)[["x", "f"]].sum())
        same(got.groupby(["c", "x"], **options)["f"].max(), want.groupby(["c", "x"], **options)["f"].max())


@pytest.mark.fallback
def test_groupby_categorical_unobserved_is_pandas_own():
    want = frame(300)
    got = tpd.DataFrame(want)
    _fallback._warned.discard("DataFrameGroupBy.sum")
    with pytest.warns(tessera.FallbackWarning, match="DataFrameGroupBy.sum"):
        r = got.groupby("c", observed=False)[["x", "f"]].sum()
    same(r, want.groupby("c", observed=False)[["x", "f"]].sum())


def test_duplicates_of_datetimes_and_categoricals():
    want = frame()[["t", "c"]]
    got = tpd.DataFrame(want)
    same(got.duplicated(), want.duplicated())
    same(got.drop_duplicates(keep="last"), want.drop_duplicates(keep="last"))
    same(got["t"].drop_duplicates(), want["t"].drop_duplicates())


def test_empty_columns():
    want = frame(0)
    got = tpd.DataFrame(want)
    same(got, want)
    for name in ("year", "is_month_end", "hour"):
        same(getattr(got["t"].dt, name), getattr(want["t"].dt, name))
    same(got["c"].value_counts(), want["c"].value_counts())


def test_overflow_raises_as_pandas():
    want = pandas.Series(pandas.to_datetime(["1680-01-01", "2260-01-01", None]).as_unit("ns"))
    got = tpd.Series(want)
    with pytest.raises(OverflowError, match="Overflow in int64 addition"):
        want.diff()
    with pytest.raises(OverflowError, match="Overflow in int64 addition"):
        got.diff()
    with pytest.raises(OverflowError, match="Overflow in int64 addition"):
        got - pandas.Timestamp("2260-01-01")
    # keys spanning more than int64 still group as pandas groups them
    frame = pandas.DataFrame({"t": want, "x": [1, 2, 3]})
    same(tpd.DataFrame(frame).groupby("t", dropna=False)["x"].sum(), frame.groupby("t", dropna=False)["x"].sum())


def test_read_csv_parse_dates(tmp_path):
    path = tmp_path / "dates.csv"
    n = 3000
    pandas.DataFrame({"when": pandas.date_range("2020-01-01", periods=n, freq="37min").astype(str),
                      "x": numpy.arange(n), "k": numpy.where(numpy.arange(n) % 3, "a", "b"),
                      "day": [f"2021-01-0{i % 9 + 1}" for i in range(n)]}).to_csv(path, index=False)
    for kwargs in ({"parse_dates": ["when"]}, {"parse_dates": ["when", "day"], "dtype": {"k": "category"}},
                   {"parse_dates": ["when"], "usecols": ["when", "x"]}):
        got, want = tpd.read_csv(path, **kwargs), pandas.read_csv(path, **kwargs)
        same(got, want)
        for c in kwargs["parse_dates"]:
            coded(got[c])
    same(tpd.read_csv(path, parse_dates=["when"])["when"].dt.hour, pandas.read_csv(path, parse_dates=["when"])["when"].dt.hour)


@pytest.mark.fallback
def test_scalars_and_arrays_are_pandas_own():
    want = stamps(20)
    got = tpd.Series(want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        assert type(got.iloc[0]) is pandas.Timestamp and got.iloc[0] == want.iloc[0]
        assert got.iloc[5] is pandas.NaT
        assert got.tolist() == want.tolist()
    pandas.testing.assert_extension_array_equal(got.unique(), want.unique())
    c = categories(30)
    pandas.testing.assert_extension_array_equal(tpd.Series(c).unique(), c.unique())
    assert type(tpd.Series(c).values) is type(c.values)
    numpy.testing.assert_array_equal(got.to_numpy(), want.to_numpy())


@pytest.mark.parametrize("sort", [True, False])
def test_pivot_table_and_melt_with_datetime_and_categorical_keys(sort):
    want = frame(2000)
    got = tpd.DataFrame(want)
    kwargs = dict(values="f", index="t", columns="c", aggfunc="sum", sort=sort)
    same(got.pivot_table(**kwargs), want.pivot_table(**kwargs))
    kwargs = dict(values="x", index="c", columns="d", aggfunc="max", sort=sort)
    small = want.iloc[:50]
    same(tpd.DataFrame(small).pivot_table(**kwargs), small.pivot_table(**kwargs))
    melted = got.melt(id_vars=["t", "c"], value_vars=["x", "f"])
    same(melted, want.melt(id_vars=["t", "c"], value_vars=["x", "f"]))
    coded(melted["t"])
    coded(melted["c"])
