"""Order statistics and covariance: median, quantile, percentile, their nan* forms, cov and
corrcoef match NumPy (values, dtypes, shapes, errors, warnings) over dtypes, shapes, axes,
keepdims, q, every interpolation method, NaN inputs and `out=`; the nan* forms on several
slices holding different numbers of NaN and the weighted quantiles bit for bit."""

import warnings

import numpy
import pytest

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


def run_both(name, a, *args, **kwargs):
    """numpy.name and np.name on the same data: (result or exception type, RuntimeWarning messages)."""
    results = []
    for module, convert in ((numpy, numpy.asarray), (np, np.array)):
        kw = {k: convert(v) if isinstance(v, numpy.ndarray) else v for k, v in kwargs.items()}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = numpy.asarray(getattr(module, name)(convert(a), *args, **kw))
            except Exception as exc:  # noqa: BLE001  the same type must be raised
                got = type(exc)
        results.append((got, sorted({str(w.message) for w in caught if w.category is RuntimeWarning})))
    return results


def assert_identical(name, a, *args, **kwargs):
    """np.name gives NumPy's values bit for bit (same dtype, shape, NaNs, warnings or exception)."""
    (want, want_warnings), (got, got_warnings) = run_both(name, a, *args, **kwargs)
    if isinstance(want, type):
        assert got is want
        return
    assert not isinstance(got, type), got
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    assert numpy.array_equal(got, want, equal_nan=True), (got, want)
    assert got_warnings == want_warnings


def nan_slices(dtype, shape, seed=0, first_all_nan=False):
    """Data whose slices hold different numbers of NaN, some of them only NaN."""
    rng = numpy.random.default_rng(seed)
    a = (rng.normal(size=shape) * 10).astype(dtype)
    a[rng.random(shape) < 0.3] = numpy.nan
    a[..., 1] = numpy.nan  # along the last axis: a slice of NaNs only
    if first_all_nan:  # NumPy's result takes the dtype of the first slice's
        a[0] = numpy.nan
    return a


NAN_SHAPES_AXES = [((4, 6), 1), ((4, 6), 0), ((6, 4), -1), ((3, 4, 5), 1), ((3, 4, 5), (0, 2)), ((3, 4, 5), (2, 0)),
                   ((2, 3, 4, 2), (1, 3)), ((5, 3), 0)]
Q_ARGS = [0.3, 0, 1, [0.0, 0.25, 0.5, 0.9, 1.0], [[0.1, 0.7], [0.3, 0.33]], numpy.float32(0.6),
          numpy.array([0.2, 0.8], dtype=numpy.float32)]


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
@pytest.mark.parametrize("shape,axis", NAN_SHAPES_AXES)
@pytest.mark.parametrize("first_all_nan", [False, True])
def test_nan_functions_several_slices(dtype, shape, axis, first_all_nan):
    a = nan_slices(dtype, shape, first_all_nan=first_all_nan)
    for keepdims in (False, True):
        assert_identical("nanmedian", a, axis=axis, keepdims=keepdims)
    for q in Q_ARGS:
        assert_identical("nanquantile", a, q, axis=axis)
        assert_identical("nanpercentile", a, numpy.multiply(q, 100), axis=axis, keepdims=True)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_nan_functions_several_slices_methods(method, dtype):
    a = nan_slices(dtype, (5, 13), seed=3)
    q = numpy.linspace(0, 1, 21)
    for axis in (1, 0):
        assert_identical("nanquantile", a, q, axis=axis, method=method)
        assert_identical("nanquantile", a, 0.4, axis=axis, method=method)
        assert_identical("nanpercentile", a, 37.5, axis=axis, method=method, keepdims=True)


def test_nan_functions_several_slices_views_and_long_slices():
    a = nan_slices("float64", (6, 1300), seed=4)
    assert_identical("nanmedian", a, axis=1)  # 600 or more: NumPy's median of each slice
    assert_identical("nanmedian", a[:, ::2], axis=1)
    assert_identical("nanmedian", a[::2, :500].T, axis=0)
    assert_identical("nanquantile", a[:, ::-3], [0.1, 0.5], axis=1, method="weibull")
    b = nan_slices("float32", (4, 5), seed=5)
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        np.nanmedian(np.array(b), axis=0)
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        np.nanquantile(np.array(b), [0.5], axis=0)


def full_weights(w, a, axis):
    """`w` (a's shape, or the reduced axes' shape in `axis` order) broadcast to a's shape."""
    if w.shape == a.shape:
        return w
    axes = numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    w = w.transpose(numpy.argsort(axes)).reshape(tuple(n if i in axes else 1 for i, n in enumerate(a.shape)))
    return numpy.broadcast_to(w, a.shape)


WEIGHT_CASES = [((10,), None, (10,)), ((4, 6), 1, (6,)), ((4, 6), 0, (4,)), ((4, 6), None, (4, 6)),
                ((4, 6), 1, (4, 6)), ((3, 4, 5), (2, 0), (5, 3)), ((3, 4, 5), (0, 2), (3, 5)), ((3, 4, 5), 1, (3, 4, 5))]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8"])
@pytest.mark.parametrize("shape,axis,wshape", WEIGHT_CASES)
@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_weights(dtype, shape, axis, wshape, name):
    rng = numpy.random.default_rng(len(shape))
    a = data(dtype, shape, seed=1)
    if dtype.startswith("float"):
        a[rng.random(shape) < 0.2] = numpy.nan
        a[..., 1] = numpy.nan  # a slice of NaNs only
    w = rng.integers(0, 4, wshape).astype(float)
    w.ravel()[0] = 0  # a leading zero weight is passed over
    if name.startswith("nan") and wshape != shape:
        # NumPy's nan* functions index such weights out of bounds (an IndexError): compare with
        # the same weights given in a's shape
        w_numpy = full_weights(w, a, axis)
    else:
        w_numpy = w
    for q in Q_ARGS:
        q = numpy.multiply(q, 100) if "percent" in name else q
        for keepdims in (False, True):
            kwargs = {"axis": axis, "method": "inverted_cdf", "keepdims": keepdims}
            with warnings.catch_warnings(record=True) as want_warnings:
                warnings.simplefilter("always")
                want = getattr(numpy, name)(a, q, weights=w_numpy, **kwargs)
            with warnings.catch_warnings(record=True) as got_warnings:
                warnings.simplefilter("always")
                got = numpy.asarray(getattr(np, name)(np.array(a), q, weights=np.array(w), **kwargs))
            assert {str(m.message) for m in got_warnings} == {str(m.message) for m in want_warnings}
            assert (got.dtype, got.shape) == (want.dtype, want.shape)
            assert numpy.array_equal(got, want, equal_nan=True), (got, want)


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_weights_views_and_errors(name):
    a = data("float64", (5, 8), seed=2)
    w = numpy.arange(40.0).reshape(5, 8) % 3
    assert_identical(name, a[:, ::2], 0.4, axis=1, method="inverted_cdf", weights=w[:, 1::2])
    assert_identical(name, a.T, [0.1, 0.9], axis=0, method="inverted_cdf", weights=w.T)
    assert_identical(name, a, 0.0, axis=1, method="inverted_cdf", weights=numpy.array([0, 0, 1, 2, 0, 1, 1, 1.0])[None, :] + 0 * w)
    for kwargs in ({"method": "linear", "weights": w}, {"method": "inverted_cdf", "weights": -w},
                   {"method": "inverted_cdf", "weights": w[0]}, {"method": "inverted_cdf", "weights": w[:, 0], "axis": 1},
                   {"method": "inverted_cdf", "weights": 0 * w}, {"method": "inverted_cdf", "weights": w[0], "axis": 3},
                   {"method": "inverted_cdf", "weights": numpy.where(w == 1, numpy.inf, w)}):
        assert_identical(name, a, 0.3, **kwargs)
    assert_identical(name, a, 1.5, method="inverted_cdf", weights=w)
    for empty in (numpy.zeros(0), numpy.zeros((2, 0)), numpy.zeros((0, 3))):
        assert_identical(name, empty, 0.5, axis=-1 if empty.ndim > 1 else None, method="inverted_cdf",
                         weights=numpy.ones(empty.shape))
    out = np.zeros(5)
    assert np.quantile(np.array(a), 0.5, axis=1, method="inverted_cdf", weights=np.array(w), out=out) is out
    assert numpy.array_equal(numpy.asarray(out), numpy.quantile(a, 0.5, axis=1, method="inverted_cdf", weights=w))


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
