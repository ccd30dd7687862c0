"""Searching, sets and counting on the native sort: searchsorted, unique (values, first
positions, counts), unique_values/unique_counts, isin, intersect1d, setdiff1d, union1d,
setxor1d, digitize, histogram and histogram_bin_edges match NumPy (values, dtypes, shapes,
errors, NaN handling), unique along an axis and intersect1d's indices included. histogram's
string bin rules fall back, with a warning."""

import warnings

import numpy
import pytest

import tessera
import tessera.numpy as np


pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively


def same(got, want):
    got = numpy.asarray(got)
    want = numpy.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and numpy.array_equal(got, want, equal_nan=True)


def samples(seed=0):
    rng = numpy.random.default_rng(seed)
    floats = rng.integers(0, 20, 500).astype(float)
    floats[::13] = numpy.nan
    floats[1::17] = -0.0
    return [floats, rng.integers(-5, 5, (7, 9)), rng.random(300) < 0.3, rng.integers(0, 1000, 200_003),
            numpy.zeros(0), rng.integers(0, 3, 11).astype(numpy.float32)]


@pytest.mark.parametrize("k", range(6))
def test_unique(k):
    a = samples()[k]
    t = np.array(a)
    assert same(np.unique(t), numpy.unique(a))
    for flags in ((True, False), (False, True), (True, True)):
        got = np.unique(t, return_index=flags[0], return_counts=flags[1])
        want = numpy.unique(a, return_index=flags[0], return_counts=flags[1])
        assert all(same(g, w) for g, w in zip(got, want))
    if a.dtype.kind == "f":
        assert same(np.unique(t, equal_nan=False), numpy.unique(a, equal_nan=False))
    # NumPy's order of unique_values may vary (it hashes integers): sorted is one such order
    assert same(np.unique_values(t), numpy.sort(numpy.unique_values(a)))
    got, want = np.unique_counts(t), numpy.unique_counts(a)
    assert same(got.values, want.values) and same(got.counts, want.counts)


UNIQUE_INPUTS = {
    "ints": numpy.array([3, 1, 3, 2, 1, 3]),
    "matrix": numpy.array([[3, 1], [1, 2], [2, 2]]),
    "floats_nan": numpy.array([numpy.nan, 1.0, -0.0, numpy.nan, 0.0, 1.0, -numpy.inf]),
    "bool": numpy.array([True, False, True]),
    "empty": numpy.zeros((0, 3)),
    "0d": numpy.array(4.5),
    "strided": numpy.arange(20)[::-3] % 4,
    "complex": numpy.array([1 + 1j, 1 - 1j, 1 + 1j, 0j]),
}


@pytest.mark.parametrize("name", UNIQUE_INPUTS)
def test_unique_with_inverse(name):
    a = UNIQUE_INPUTS[name]
    t = np.array(a)
    for flags in [(False, True, False), (True, True, True), (False, True, True)]:
        for equal_nan in (True, False):
            got = np.unique(t, *flags, equal_nan=equal_nan)
            want = numpy.unique(a, *flags, equal_nan=equal_nan)
            assert len(got) == len(want)
            for g, w in zip(got, want):
                assert same(g, w), (flags, equal_nan)
    for ours, theirs in [(np.unique_inverse, numpy.unique_inverse), (np.unique_all, numpy.unique_all)]:
        got, want = ours(t), theirs(a)
        assert type(got).__name__ == type(want).__name__ and got._fields == want._fields
        for g, w in zip(got, want):
            assert same(g, w)


def test_unique_inverse_reconstructs_large_input():
    a = numpy.random.default_rng(3).integers(0, 1000, 300_000)
    values, inverse = np.unique(np.array(a), return_inverse=True)
    assert same(values[inverse], a)
    assert same(inverse, numpy.unique(a, return_inverse=True)[1])


def same_results(got, want):
    """Two results (an array or a tuple of arrays) agree in value, dtype and shape."""
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))


def axis_samples():
    rng = numpy.random.default_rng(1)
    return [rng.integers(0, 2, (6, 3)), rng.integers(0, 2, (3, 4, 5)), rng.integers(0, 3, (4, 2, 3)).astype(float),
            numpy.array([[numpy.nan, 1], [numpy.nan, 1], [0.0, -0.0], [-0.0, 0.0], [1, 2]]),
            rng.random((5, 4)) < 0.5, numpy.array([[1 + 1j, 2], [1 + 1j, 2], [numpy.nan, 0], [1, 1j]]),
            rng.integers(-3, 3, (40, 2)).astype(numpy.float32), numpy.zeros((3, 0)), numpy.zeros((0, 3)),
            numpy.zeros((0, 0), dtype=numpy.int16), numpy.arange(7) % 3]


@pytest.mark.parametrize("index", range(11))
@pytest.mark.parametrize("flags", [(False, False, False), (True, False, False), (False, True, False),
                                   (False, False, True), (True, True, True)])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_axis(index, flags, equal_nan):
    a = axis_samples()[index]
    for axis in range(-a.ndim, a.ndim):
        want = numpy.unique(a, *flags, axis=axis, equal_nan=equal_nan)
        assert same_results(np.unique(np.array(a), *flags, axis=axis, equal_nan=equal_nan), want)


def test_unique_axis_views_and_errors():
    rng = numpy.random.default_rng(2)
    a = rng.integers(0, 2, (8, 6)).astype(numpy.int8)
    t = np.array(a)
    for tv, nv in ((t[:, ::2], a[:, ::2]), (t.T, a.T), (t[::-1, 1:4], a[::-1, 1:4])):
        for axis in (0, 1):
            assert same_results(np.unique(tv, True, True, True, axis=axis), numpy.unique(nv, True, True, True, axis=axis))
    for bad_axis in (2, -3):
        with pytest.raises(numpy.exceptions.AxisError):
            np.unique(t, axis=bad_axis)
    with pytest.raises(numpy.exceptions.AxisError):
        np.unique(np.array(5), axis=0)


INTERSECT_CASES = [([1, 3, 4, 3, 7], [3, 1, 2, 1]), ([[1.0, numpy.nan], [2, 5]], [numpy.nan, 5, 2, 2]),
                   (numpy.zeros(0), numpy.arange(3)), ([5, 1, 3], [3, 5, 9]),
                   (numpy.arange(10)[::-2], numpy.arange(6, dtype=numpy.int8)), (3, [3, 3]),
                   (numpy.array([2, 0, 1], dtype=numpy.uint8), numpy.array([1.0, 2.0])), ([True, False], [True])]


@pytest.mark.parametrize("x,y", INTERSECT_CASES)
@pytest.mark.parametrize("assume_unique", [False, True])
def test_intersect1d_return_indices(x, y, assume_unique):
    want = numpy.intersect1d(x, y, assume_unique=assume_unique, return_indices=True)
    got = np.intersect1d(np.array(x), np.array(y), assume_unique=assume_unique, return_indices=True)
    assert same_results(got, want)
    x_view = np.array(numpy.arange(20) % 7)[::3]
    assert same_results(np.intersect1d(x_view, np.array(y) if numpy.ndim(y) else y, return_indices=True),
                        numpy.intersect1d((numpy.arange(20) % 7)[::3], y, return_indices=True))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_with_sorter(side):
    a = numpy.array([3.0, numpy.nan, -1.0, 2.0, 2.0, 0.5])
    sorter = numpy.argsort(a, kind="stable")
    v = numpy.array([[2.0, -5.0], [numpy.nan, 0.5]])
    assert same(np.searchsorted(np.array(a), np.array(v), side=side, sorter=np.array(sorter)),
                numpy.searchsorted(a, v, side=side, sorter=sorter))
    assert same(np.searchsorted(np.array(a), 2.0, side=side, sorter=list(sorter)),
                numpy.searchsorted(a, 2.0, side=side, sorter=list(sorter)))
    for bad in (numpy.array([0.0, 1, 2, 3, 4, 5]), numpy.array([0, 1, 2, 3, 4, 9]), numpy.array([0, 1])):
        with pytest.raises(Exception) as want:
            numpy.searchsorted(a, v, sorter=bad)
        with pytest.raises(want.type):
            np.searchsorted(np.array(a), np.array(v), sorter=np.array(bad))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(side):
    a = numpy.sort(numpy.array([0.5, 1.0, 1.0, 2.0, 3.5, numpy.nan, numpy.inf, -numpy.inf]))
    v = numpy.array([[1.0, 0.0, numpy.nan], [numpy.inf, 2.0, 9.0]])
    assert same(np.searchsorted(np.array(a), np.array(v), side=side), numpy.searchsorted(a, v, side=side))
    assert same(np.array(a).searchsorted(np.array(v), side=side), a.searchsorted(v, side=side))
    ints = numpy.arange(0, 100, 3)
    assert same(np.searchsorted(np.array(ints), np.array([4.5, -1.0, 99.0]), side=side),
                numpy.searchsorted(ints, [4.5, -1.0, 99.0], side=side))
    assert int(np.searchsorted(np.array(ints), 50, side=side)) == numpy.searchsorted(ints, 50, side=side)
    with pytest.raises(ValueError):
        np.searchsorted(np.array(ints), 3, side="middle")
    with pytest.raises(ValueError):
        np.searchsorted(np.ones((2, 2)), 1.0)


def test_isin_and_set_operations():
    rng = numpy.random.default_rng(3)
    a = rng.integers(0, 30, 400).astype(float)
    b = rng.integers(10, 50, 300).astype(float)
    a[::7] = numpy.nan
    b[::5] = numpy.nan
    ta, tb = np.array(a), np.array(b)
    assert same(np.isin(ta, tb), numpy.isin(a, b))
    assert same(np.isin(ta, tb, invert=True), numpy.isin(a, b, invert=True))
    assert same(np.isin(ta.reshape(20, 20), [1.0, 2.0]), numpy.isin(a.reshape(20, 20), [1.0, 2.0]))
    assert same(np.isin(np.array(5), [5, 6]), numpy.isin(5, [5, 6]))
    for name in ("intersect1d", "setdiff1d", "union1d", "setxor1d"):
        assert same(getattr(np, name)(ta, tb), getattr(numpy, name)(a, b)), name
    ia, ib = numpy.unique(a[:50]), numpy.unique(b[:50])
    for name in ("intersect1d", "setdiff1d", "setxor1d"):
        assert same(getattr(np, name)(np.array(ia), np.array(ib), assume_unique=True),
                    getattr(numpy, name)(ia, ib, assume_unique=True)), name
    assert same(np.intersect1d([1, 3, 4, 3], [3, 1, 2, 1]), numpy.intersect1d([1, 3, 4, 3], [3, 1, 2, 1]))
    with pytest.raises(ValueError):
        np.isin(ta, tb, kind="bogus")


def test_digitize():
    x = numpy.array([0.2, 6.4, 3.0, 1.6, 10.0, -1.0, numpy.nan])
    up = numpy.array([0.0, 1.0, 2.5, 4.0, 10.0])
    for bins in (up, up[::-1]):
        for right in (False, True):
            assert same(np.digitize(np.array(x), np.array(bins), right=right), numpy.digitize(x, bins, right=right))
    with pytest.raises(ValueError, match="monotonically"):
        np.digitize(np.array(x), np.array([0.0, 2.0, 1.0]))
    with pytest.raises(TypeError, match="complex"):
        np.digitize(np.array([1j]), np.array(up))


@pytest.mark.parametrize("kwargs", [{}, {"bins": 7}, {"bins": 1}, {"range": (2.0, 9.0)}, {"density": True},
                                    {"bins": [0.0, 1.0, 5.0, 5.5, 20.0]}, {"bins": 4, "range": (0, 4), "density": True}])
def test_histogram(kwargs):
    rng = numpy.random.default_rng(4)
    for a in (rng.integers(0, 10, 1000), rng.standard_normal(10_001) * 3 + 5, numpy.float32(rng.random(64)),
              numpy.full(5, 2.0)):
        got, want = np.histogram(np.array(a), **kwargs), numpy.histogram(a, **kwargs)
        assert same(got[0], want[0]) if not kwargs.get("density") else numpy.allclose(numpy.asarray(got[0]), want[0])
        assert same(got[1], want[1])
        assert same(np.histogram_bin_edges(np.array(a), **{k: v for k, v in kwargs.items() if k != "density"}),
                    numpy.histogram_bin_edges(a, **{k: v for k, v in kwargs.items() if k != "density"}))


def test_histogram_errors():
    with pytest.raises(ValueError, match="not finite"):
        np.histogram(np.array([1.0, numpy.nan]))
    with pytest.raises(ValueError, match="larger than min"):
        np.histogram(np.array([1.0]), range=(3, 1))
    with pytest.raises(ValueError, match="positive"):
        np.histogram(np.array([1.0]), bins=0)
    with pytest.raises(ValueError, match="monotonically"):
        np.histogram(np.array([1.0]), bins=[3, 1, 2])
    with pytest.raises(ValueError, match="estimator"):
        np.histogram(np.array([1.0]), bins="guess")
    with pytest.raises(TypeError, match="weighted"):
        np.histogram(np.array([1.0]), bins="auto", weights=np.array([2.0]))


@pytest.mark.parametrize("rule", ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"])
def test_histogram_bin_rules(rule):
    rng = numpy.random.default_rng(1)
    for a in (rng.standard_normal(10_000), rng.integers(0, 50, 1000), numpy.arange(10.0), numpy.zeros(5),
              numpy.array([])):
        for range_ in (None, (-1, 1)):
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "The number of bins estimated may be suboptimal")
                got = np.histogram(np.array(a), bins=rule, range=range_)
                want = numpy.histogram(a, bins=rule, range=range_)
                edges = np.histogram_bin_edges(np.array(a), bins=rule, range=range_)
            assert same(got[0], want[0]) and same(edges, want[1])
            numpy.testing.assert_allclose(numpy.asarray(got[1]), want[1], rtol=1e-14)


@pytest.mark.parametrize("kwargs", [{"bins": 10}, {"bins": [-1.0, 0.0, 0.5, 2.0]}, {"bins": 5, "range": (-1, 1)},
                                    {"bins": 7, "density": True}])
@pytest.mark.parametrize("wdtype", ["float64", "float32", "int64", "complex128"])
def test_weighted_histogram(kwargs, wdtype):
    rng = numpy.random.default_rng(6)
    a = rng.standard_normal(100_000)
    a[::1000] = 2.0  # on the last edge of some bins
    w = (rng.random(100_000) * 10).astype(wdtype)
    got = np.histogram(np.array(a), weights=np.array(w), **kwargs)
    want = numpy.histogram(a, weights=w, **kwargs)
    assert numpy.asarray(got[0]).dtype == want[0].dtype and same(got[1], want[1])
    if wdtype == "float32":  # tessera adds float32 weights in double; NumPy in float32 (blocks or a running
        # sum, by the kind of bins), so the reference is the double-precision sum, rounded
        exact = numpy.histogram(a, weights=w.astype(numpy.float64), **kwargs)[0].astype(numpy.float32)
        numpy.testing.assert_allclose(numpy.asarray(got[0]), exact, rtol=1e-6)
    else:
        numpy.testing.assert_allclose(numpy.asarray(got[0]), want[0], rtol=1e-9)
    with pytest.raises(ValueError):
        np.histogram(np.array(a), weights=np.array(w[:10]), **kwargs)
