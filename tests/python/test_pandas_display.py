"""repr and notebooks' HTML of tessera.pandas objects: pandas' own text, made from the rows shown
only (a long frame is never copied whole to this process to be printed)."""
import numpy
import pandas
import pytest

import tessera.pandas as tpd


def frame(n):
    return pandas.DataFrame({"a": numpy.arange(n), "b": numpy.arange(n) * 0.5,
                             "s": pandas.Series(["x", "yy"] * (n // 2) + ["z"] * (n % 2), dtype="str")},
                            index=pandas.RangeIndex(n) * 3)


@pytest.mark.parametrize("n", [0, 5, 60, 61, 1000])
def test_repr_and_html_are_pandas(n):
    p = frame(n)
    t = tpd.DataFrame(p)
    assert repr(t) == repr(p)
    assert t._repr_html_() == p._repr_html_()
    assert repr(t["a"]) == repr(p["a"]) and repr(t["s"]) == repr(p["s"])


def test_display_options_are_honoured():
    p = frame(500)
    t = tpd.DataFrame(p)
    with pandas.option_context("display.max_rows", 20, "display.min_rows", 7):
        assert repr(t) == repr(p) and repr(t["b"]) == repr(p["b"]) and t._repr_html_() == p._repr_html_()
    with pandas.option_context("display.max_rows", None):
        assert repr(t) == repr(p)


def test_a_long_frame_is_not_fetched_whole(monkeypatch):
    t = tpd.DataFrame(frame(100_000))
    whole = []
    original = tpd.DataFrame.to_pandas

    def to_pandas(self):
        whole.append(len(self))
        return original(self)
    monkeypatch.setattr(tpd.DataFrame, "to_pandas", to_pandas)
    repr(t)
    t._repr_html_()
    assert whole and max(whole) <= 6  # the head's 5 rows, the tail's 6

