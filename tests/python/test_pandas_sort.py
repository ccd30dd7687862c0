"""tessera.pandas' sort_values against pandas' stable sort: one or several numeric keys, mixed
ascending, NaN first or last, ignore_index — natively; string keys in pandas, with a warning.
(pandas' default kind for one key, quicksort, leaves equal keys in an order that depends on
the CPU; tessera's order is the stable one, which is what pandas gives with kind="stable".)"""
import numpy
import pandas
import pytest

import tessera
import tessera.pandas as tpd

rng = numpy.random.default_rng(9)
N = 30_000
P = pandas.DataFrame({
    "a": rng.integers(0, 50, N), "f": numpy.where(rng.random(N) < 0.1, numpy.nan, rng.integers(0, 40, N) * 0.5),
    "u": rng.integers(0, 9, N).astype(numpy.uint8), "b": rng.random(N) < 0.5,
    "s": pandas.Series(rng.choice(["x", "y", "z"], N), dtype="str"),
}, index=pandas.RangeIndex(N)[::-1])
T = tpd.DataFrame(P)

CASES = [dict(by="a"), dict(by="a", ascending=False), dict(by="f"), dict(by="f", ascending=False),
         dict(by="f", na_position="first"), dict(by=["a", "f"]), dict(by=["f", "u"], ascending=[False, True]),
         dict(by=["u", "f"], ascending=[True, False], na_position="first"), dict(by="f", ignore_index=True),
         dict(by=["b", "a"], ascending=False)]


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.parametrize("kw", CASES, ids=[repr(c) for c in CASES])
def test_sort_values_gives_pandas_stable_order(kw):
    got = T.sort_values(**kw)
    pandas.testing.assert_frame_equal(got.to_pandas(), P.sort_values(kind="stable", **kw))


@pytest.mark.fallback
def test_string_keys_sort_in_pandas():
    from tessera.pandas import _fallback
    _fallback._warned.discard("DataFrame.sort_values")
    with pytest.warns(tessera.FallbackWarning, match="sort_values"):
        got = T.sort_values(["s", "a"], kind="stable")
    pandas.testing.assert_frame_equal(got.to_pandas(), P.sort_values(["s", "a"], kind="stable"))


def test_bad_keys_raise_pandas_errors():
    for kw, error in [(dict(by="nope"), KeyError), (dict(by="a", ascending="yes"), ValueError),
                      (dict(by="a", na_position="middle"), ValueError)]:
        with pytest.raises(error):
            P.sort_values(**kw)
        with pytest.raises(error):
            T.sort_values(**kw)


@pytest.mark.usefixtures("no_fallback")
@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index is deprecated")
@pytest.mark.parametrize("drop", [False, True])
def test_reset_index_after_a_sort(drop):
    got = T.sort_values("a", kind="stable").reset_index(drop=drop)
    pandas.testing.assert_frame_equal(got.to_pandas(), P.sort_values("a", kind="stable").reset_index(drop=drop))
    named = tpd.DataFrame(P.rename_axis("row"))
    pandas.testing.assert_frame_equal(named.reset_index(drop=drop).to_pandas(),
                                      P.rename_axis("row").reset_index(drop=drop))
    t, p = T.copy(), P.copy()
    assert t.reset_index(drop=drop, inplace=True) is None
    p.reset_index(drop=drop, inplace=True)
    pandas.testing.assert_frame_equal(t.to_pandas(), p)
