"""The dataframe library's hash join (_tessera._join_indices) against pandas.merge(sort=False):
the same pairs of row positions in the same order for inner, left, right and outer joins, on
one to three key columns of int64 and float64 (NaN keys, -0.0 and 0.0, duplicates on both
sides, keys of one side only), int64 against float64, and empty sides."""
import warnings

import numpy
import pandas
import pytest

import tessera.numpy as tnp
from tessera import _tessera

HOWS = ["inner", "left", "right", "outer"]


def pandas_pairs(left, right, how):
    """Row positions of pandas.merge's rows, read back from a position column on each side."""
    lf = pandas.DataFrame({f"k{c}": k for c, k in enumerate(left)})
    rf = pandas.DataFrame({f"k{c}": k for c, k in enumerate(right)})
    lf["_lrow"] = numpy.arange(len(lf))
    rf["_rrow"] = numpy.arange(len(rf))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # merging int64 on float64 keys warns
        m = pandas.merge(lf, rf, on=[f"k{c}" for c in range(len(left))], how=how, sort=False)
    return (m["_lrow"].fillna(-1).to_numpy().astype(numpy.int64),
            m["_rrow"].fillna(-1).to_numpy().astype(numpy.int64))


def check(left, right, how):
    want_l, want_r = pandas_pairs(left, right, how)
    got_l, got_r = _tessera._join_indices([tnp.asarray(k) for k in left], [tnp.asarray(k) for k in right], how)
    assert isinstance(got_l, _tessera.ndarray) and isinstance(got_r, _tessera.ndarray)
    got_l, got_r = numpy.asarray(got_l), numpy.asarray(got_r)
    assert got_l.dtype == numpy.int64 and got_r.dtype == numpy.int64
    numpy.testing.assert_array_equal(got_l, want_l)
    numpy.testing.assert_array_equal(got_r, want_r)
    assert _tessera._join_size([tnp.asarray(k) for k in left], [tnp.asarray(k) for k in right], how) == len(want_l)


def float_keys(rng, n, distinct):
    k = rng.integers(-distinct // 2, distinct // 2, n).astype(numpy.float64)
    k[rng.random(n) < 0.05] = numpy.nan
    k[(k == 0) & (rng.random(n) < 0.5)] = -0.0
    return k


@pytest.mark.parametrize("how", HOWS)
def test_int_keys_most_rows_match(how):
    # db-benchmark's shape: a large left side, a smaller right one with unique keys, ~90% matching.
    rng = numpy.random.default_rng(1)
    right = rng.permutation(20_000).astype(numpy.int64) * 3
    left = rng.integers(0, 66_000, 200_000)
    check([left], [right], how)


@pytest.mark.parametrize("how", HOWS)
def test_large_build_side(how):
    # More than 65,536 build rows: a table of several partitions (the right side for inner,
    # left and outer; the left one for right).
    rng = numpy.random.default_rng(6)
    left = [rng.integers(0, 150_000, 150_000), float_keys(rng, 150_000, 40)]
    right = [rng.integers(0, 150_000, 140_000), float_keys(rng, 140_000, 40)]
    check(left, right, how)


@pytest.mark.parametrize("how", HOWS)
def test_float_keys_with_duplicates_nan_and_signed_zero(how):
    rng = numpy.random.default_rng(2)
    check([float_keys(rng, 50_000, 4_000)], [float_keys(rng, 5_000, 6_000)], how)


@pytest.mark.parametrize("how", HOWS)
def test_two_key_columns(how):
    rng = numpy.random.default_rng(3)
    n, m = 60_000, 3_000
    left = [rng.integers(0, 40, n), float_keys(rng, n, 60)]
    right = [rng.integers(0, 50, m), float_keys(rng, m, 60)]
    check(left, right, how)


@pytest.mark.parametrize("how", HOWS)
def test_three_key_columns_mixed_types(how):
    rng = numpy.random.default_rng(4)
    n, m = 20_000, 20_000
    left = [rng.integers(0, 8, n), rng.integers(0, 8, n).astype(numpy.float64), rng.integers(0, 30, n)]
    right = [rng.integers(0, 10, m).astype(numpy.float64), rng.integers(0, 8, m), rng.integers(0, 30, m)]
    check(left, right, how)


@pytest.mark.parametrize("how", HOWS)
def test_small_and_empty_sides(how):
    rng = numpy.random.default_rng(5)
    empty = numpy.array([], dtype=numpy.int64)
    some = rng.integers(0, 5, 17)
    for left, right in [(empty, empty), (empty, some), (some, empty), (some[:1], some), (some, some[:1])]:
        check([left], [right], how)


def test_errors():
    k = tnp.asarray(numpy.arange(4))
    with pytest.raises(ValueError, match="not a valid Merge type"):
        _tessera._join_indices([k], [k], "sideways")
    with pytest.raises(ValueError):
        _tessera._join_indices([k, k], [k], "inner")
    with pytest.raises(TypeError):
        _tessera._join_indices([tnp.asarray(numpy.arange(4, dtype=numpy.int32))], [k], "inner")
