"""tessera.pandas' merge against pandas: inner, left, right and outer joins on one or several
numeric keys, categorical and string keys, left_on/right_on and suffixes give pandas' rows, in
its order, with its columns and dtypes (ints that gained missing values become float64, bools
objects) — natively; what is not native yet runs in pandas with a FallbackWarning."""
import numpy
import pandas
import pytest

import tessera
import tessera.pandas as tpd


def sides(n=20_000, m=400, seed=3):
    rng = numpy.random.default_rng(seed)
    letters = [chr(ord("a") + i) for i in range(26)]
    words = [a + b for a in letters[:6] for b in letters[:6]]  # 36 strings
    left = pandas.DataFrame({
        "k": rng.integers(0, 800, n), "k2": rng.integers(0, 3, n),
        "c": pandas.Categorical(rng.choice(letters[:20] + [None], n)),
        "s": pandas.Series(rng.choice(words[:30] + [None], n), dtype="str"),
        "f": numpy.where(rng.random(n) < 0.02, numpy.nan, rng.integers(0, 50, n).astype(float)),
        "v": rng.random(n), "w": rng.integers(0, 9, n).astype(numpy.int32), "b": rng.random(n) < 0.5,
    })
    right = pandas.DataFrame({
        "k": rng.integers(0, 1000, m), "k2": rng.integers(0, 3, m),
        "c": pandas.Categorical(rng.choice(letters[4:26] + [None], m)),
        "s": pandas.Series(rng.choice(words[6:36] + [None], m), dtype="str"),
        "f": numpy.where(rng.random(m) < 0.02, numpy.nan, rng.integers(0, 60, m).astype(float)),
        "v": rng.random(m), "z": rng.integers(0, 9, m), "t": rng.random(m) < 0.5,
    })
    return left, right


def same(got, want):
    """pandas.testing.assert_frame_equal's verdict, reached fast for large joins (it compares
    categoricals of other categories slowly): equals() with the same labels and dtypes."""
    got = got.to_pandas()
    if not (got.columns.equals(want.columns) and got.index.equals(want.index) and
            list(got.dtypes) == list(want.dtypes) and got.equals(want)):
        pandas.testing.assert_frame_equal(got, want)  # says what differs
        raise AssertionError("equals() disagrees with assert_frame_equal")


L, R = sides()
TL, TR = tpd.DataFrame(L), tpd.DataFrame(R)

NATIVE = [
    dict(on="k"), dict(on="k", how="left"), dict(on="k", how="right"), dict(on="k", how="outer"),
    dict(on=["k", "k2"]), dict(on=["k2", "k"], how="outer"), dict(on="f"), dict(on="f", how="outer"),
    dict(left_on="k", right_on="z"), dict(left_on="w", right_on="k", how="left"),
    dict(on="k", suffixes=("_l", "_r")), dict(on="c"), dict(on="c", how="left"), dict(on="s"),
    dict(on=["s", "k"], how="left"),
]


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("kw", NATIVE, ids=[repr(k) for k in NATIVE])
def test_native_merge_gives_pandas_rows(kw):
    got = TL.merge(TR, **kw)
    assert isinstance(got, tpd.DataFrame)
    same(got, L.merge(R, **kw))


@pytest.mark.usefixtures("no_fallback")
def test_module_merge_and_categoricals_of_the_same_categories():
    r2 = R.assign(c=R["c"].cat.set_categories(L["c"].cat.categories))
    got = tpd.merge(TL, tpd.DataFrame(r2), on="c", how="left")
    same(got, pandas.merge(L, r2, on="c", how="left"))


@pytest.mark.usefixtures("no_fallback")
def test_numeric_columns_of_the_result_are_tessera_arrays():
    got = TL.merge(TR, on="k")
    assert not got["v_x"]._on_host and not got["z"]._on_host


@pytest.mark.fallback
def test_what_is_not_native_runs_in_pandas():
    from tessera.pandas import _fallback
    _fallback._warned.discard("merge")
    with pytest.warns(tessera.FallbackWarning, match="merge"):
        got = TL.merge(TR, on="k", indicator=True)
    same(got, L.merge(R, on="k", indicator=True))


def test_bad_merges_raise_pandas_errors():
    for kw, error in [(dict(on="nope"), KeyError), (dict(how="sideways", on="k"), ValueError),
                      (dict(on="k", validate="one_to_one"), tpd.MergeError)]:
        with pytest.raises(error):
            L.merge(R, **kw)
        with pytest.raises(error):
            TL.merge(TR, **kw)
