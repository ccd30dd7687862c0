"""Order statistics and covariance: median, quantile, percentile, their nan* forms, cov and
corrcoef match NumPy (values, dtypes, shapes, errors, warnings) over dtypes, shapes, axes,
keepdims, q, every interpolation method, NaN inputs and `out=`. Weighted quantiles and the
nan* forms on several slices holding NaN fall back, with a warning."""

import warnings

import numpy
import pytest

import tessera
import tessera.numpy as np


pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]
RTOL = {numpy.dtype("float64"): 1e-12, numpy.dtype("float32"): 1e-6, numpy.dtype("float16"): 1e-3}


def assert_same(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind == "f":
        numpy.testing.assert_allclose(got, want, rtol=RTOL[want.dtype], atol=0, equal_nan=True)
    else:
        assert numpy.array_equal(got, want)


def data(dtype, shape, seed=0, nans=False):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind == "b":
        return rng.random(shape) < 0.5
    a = rng.normal(size=shape) * 10 if numpy.dtype(dtype).kind == "f" else rng.integers(-50, 50, shape)
    a = a.astype(dtype)
    if nans:
        a.ravel()[::5] = numpy.nan
    return a


def same_call(name, a, *args, **kwargs):
    """Run numpy.name and np.name on the same data and compare (or the same exception type)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(numpy, name)(a, *args, **kwargs)
    except Exception as exc:  # noqa: BLE001  the same type must be raised
        with pytest.raises(type(exc)):
            getattr(np, name)(np.array(a), *args, **kwargs)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the warnings are checked on their own
        got = getattr(np, name)(np.array(a), *args, **kwargs)
    assert_same(got, want)


SHAPES_AXES = [((11,), None), ((11,), 0), ((12,), -1), ((6, 7), None), ((6, 7), 0), ((6, 7), 1), ((6, 7), (0, 1)),
               ((3, 4, 5), 1), ((3, 4, 5), (0, 2)), ((3, 4, 5), (2, 0)), ((3, 4, 5), None), ((1, 5), 0)]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_median(dtype, shape, axis, keepdims):
    same_call("median", data(dtype, shape), axis=axis, keepdims=keepdims)
    same_call("nanmedian", data(dtype, shape), axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "bool"])
@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@pytest.mark.parametrize("q", [0.5, 0, 1, [0.0, 0.25, 0.5, 0.9, 1.0], [[0.1, 0.7], [0.3, 0.33]]])
def test_quantile(dtype, shape, axis, q):
    a = data(dtype, shape)
    same_call("quantile", a, q, axis=axis)
    same_call("nanquantile", a, q, axis=axis)
    same_call("percentile", a, numpy.multiply(q, 100).tolist(), axis=axis, keepdims=True)
    same_call("nanpercentile", a, numpy.multiply(q, 100).tolist(), axis=axis)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bool"])
@pytest.mark.parametrize("n", [1, 2, 5, 10, 13])
def test_methods(method, dtype, n):
    a = data(dtype, (3, n), seed=n)
    q = numpy.linspace(0, 1, 21)
    for axis in (1, None):
        same_call("quantile", a, q, axis=axis, method=method)
        same_call("quantile", a, 0.4, axis=axis, method=method)
        same_call("percentile", a, 37.5, axis=axis, method=method, keepdims=True)
        same_call("nanquantile", a, q[::4], axis=axis, method=method)


@pytest.mark.parametrize("qdtype", ["float32", "float64"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "int64"])
def test_quantile_result_dtype(qdtype, dtype):
    a = data(dtype, (4, 9))
    same_call("quantile", a, numpy.array([0.3, 0.6], dtype=qdtype), axis=1)
    same_call("quantile", a, numpy.array(0.3, dtype=qdtype), axis=0)
    same_call("quantile", a, numpy.float32(0.3))


@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
def test_nan_slices(shape, axis):
    a = data("float64", shape, nans=True)
    same_call("median", a, axis=axis)
    same_call("quantile", a, [0.2, 0.5], axis=axis)
    same_call("percentile", a, 50, axis=axis, method="lower")


@pytest.mark.parametrize("method", ["linear", "nearest", "hazen", "inverted_cdf"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_nan_functions_one_slice(method, dtype):
    a = data(dtype, (4, 5), nans=True)
    for axis in (None, (0, 1)):
        same_call("nanmedian", a, axis=axis)
        same_call("nanquantile", a, [0.1, 0.5, 1.0], axis=axis, method=method)
        same_call("nanpercentile", a, 42.0, axis=axis, method=method, keepdims=True)
    same_call("nanmedian", a[0])
    same_call("nanquantile", a[1], 0.75, method=method)


def test_all_nan_warns():
    a = numpy.full(4, numpy.nan)
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = np.nanmedian(np.array(a))
    assert numpy.isnan(numpy.asarray(got))
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = np.nanquantile(np.array(a), [0.2, 0.8])
    assert_same(got, numpy.full(2, numpy.nan))
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        np.nanpercentile(np.array(a), 50)


@pytest.mark.fallback  # checks a fallback on purpose
def test_nan_functions_several_slices_fall_back():
    from tessera.numpy import _fallback
    a = data("float64", (4, 6), nans=True)
    for name, args in (("nanmedian", ()), ("nanquantile", (0.3,)), ("nanpercentile", ([10, 90],))):
        _fallback._warned.discard(f"numpy.{name}")  # a function warns once per process
        with pytest.warns(tessera.FallbackWarning, match=name):
            got = getattr(np, name)(np.array(a), *args, axis=1)
        assert_same(got, getattr(numpy, name)(a, *args, axis=1))


@pytest.mark.fallback  # checks a fallback on purpose
def test_weights_fall_back():
    from tessera.numpy import _fallback
    a, w = data("float64", (10,)), numpy.arange(1.0, 11.0)
    _fallback._warned.discard("numpy.quantile")
    with pytest.warns(tessera.FallbackWarning, match="quantile"):
        got = np.quantile(np.array(a), 0.3, method="inverted_cdf", weights=np.array(w))
    assert_same(got, numpy.quantile(a, 0.3, method="inverted_cdf", weights=w))


@pytest.mark.parametrize("keepdims", [False, True])
def test_out(keepdims):
    a = data("float64", (3, 4, 5))
    for name, args in (("median", ()), ("quantile", (0.3,)), ("percentile", ([20, 70],)),
                       ("nanmedian", ()), ("nanquantile", (0.6,))):
        want = getattr(numpy, name)(a, *args, axis=(0, 2), keepdims=keepdims)
        out = np.zeros(want.shape)
        got = getattr(np, name)(np.array(a), *args, axis=(0, 2), keepdims=keepdims, out=out)
        assert got is out
        assert_same(out, want)


def test_empty():
    same_call("median", numpy.zeros((0, 3)), axis=1)
    same_call("quantile", numpy.zeros((3, 0)), 0.5, axis=0)
    same_call("quantile", numpy.zeros((3, 0)), 0.5, axis=1)
    same_call("quantile", numpy.zeros(0), 0.5, method="lower")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = numpy.median(numpy.zeros(0))
    with pytest.warns(RuntimeWarning):
        got = np.median(np.zeros(0))
    assert_same(got, want)


def test_errors():
    a = np.array(data("float64", (4, 5)))
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        np.quantile(a, 1.5)
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        np.nanquantile(a, [0.5, -0.1])
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        np.percentile(a, 101)
    with pytest.raises(ValueError, match="not a valid method"):
        np.quantile(a, 0.5, method="nope")
    with pytest.raises(ValueError):
        np.quantile(a, numpy.zeros((1, 1, 1)))
    with pytest.raises(numpy.exceptions.AxisError):
        np.median(a, axis=2)
    with pytest.raises(numpy.exceptions.AxisError):
        np.quantile(a, 0.5, axis=(0, 3))
    with pytest.raises(TypeError):
        np.quantile(np.array(numpy.ones(3, complex)), 0.5)
    same_call("quantile", data("bool", (6,)), 0.4)  # NumPy cannot subtract booleans


COV_SAMPLES = [data("float64", (3, 8)), data("float32", (2, 6)), data("int64", (4, 5)), data("float64", (9,)),
               data("bool", (3, 7)), data("float64", (1, 6))]


@pytest.mark.parametrize("k", range(len(COV_SAMPLES)))
@pytest.mark.parametrize("rowvar", [True, False])
def test_cov(k, rowvar):
    m = COV_SAMPLES[k]
    same_call("cov", m, rowvar=rowvar)
    same_call("cov", m, rowvar=rowvar, bias=True)
    same_call("cov", m, rowvar=rowvar, ddof=2)
    same_call("cov", m, rowvar=rowvar, dtype=numpy.float32)
    same_call("corrcoef", m, rowvar=rowvar)
    if rowvar:
        n = m.shape[-1]
        fw, aw = numpy.arange(1, n + 1) % 3 + 1, numpy.linspace(0.5, 2.0, n)
        same_call("cov", m, fweights=fw)
        same_call("cov", m, aweights=aw)
        same_call("cov", m, fweights=fw, aweights=aw, ddof=0)
        same_call("cov", m, fweights=fw, aweights=aw)
        same_call("cov", m, fweights=numpy.ones(n + 1))  # RuntimeError
        same_call("cov", m, fweights=fw + 0.5)  # TypeError
        same_call("cov", m, aweights=-aw)  # ValueError


def test_cov_with_y():
    x, y = data("float64", (2, 7)), data("float64", (7,), seed=3)
    same_call("cov", x, y)
    same_call("corrcoef", x, y)
    same_call("cov", x.T, y.reshape(7, 1), rowvar=False)
    same_call("corrcoef", x[0], y)


def test_cov_errors_and_warnings():
    same_call("cov", numpy.zeros((2, 2, 2)))
    same_call("cov", numpy.ones((2, 3)), ddof=1.5)
    same_call("cov", numpy.zeros((0, 3)))
    with numpy.errstate(divide="ignore"), pytest.warns(RuntimeWarning, match=r"Degrees of freedom <= 0 for slice"):
        np.cov(np.array(data("float64", (2, 3))), ddof=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = numpy.cov(data("float64", (2, 3)), ddof=3)
        got = np.cov(np.array(data("float64", (2, 3))), ddof=3)
    assert_same(got, want)


def test_corrcoef_scalar():
    same_call("corrcoef", numpy.array([1.0, 2.0, 4.0]))
    same_call("corrcoef", numpy.array([1.0, 1.0, 1.0]))
