"""Running sums and products (cumsum, cumprod, their nan* and cumulative_* spellings,
ufunc.accumulate) and differences (diff, ediff1d) run natively and match NumPy: values,
dtypes, shapes, errors. An axis longer than one block (65536 elements) is scanned in blocks
in parallel: integers stay exact, floats agree to rounding and do not depend on the tiling;
a shorter axis is NumPy's element-after-element scan, bit for bit."""
import warnings

import numpy
import pytest

import tessera.numpy as np
from parity import same_output_under


pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively


def data(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind == "b":
        return rng.random(shape) < 0.5
    if numpy.dtype(dtype).kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)
    return rng.uniform(0.5, 1.5, shape).astype(dtype)


DTYPES = [numpy.float64, numpy.float32, numpy.int32, numpy.int64, numpy.uint8, numpy.bool_]
SHAPES_AXES = [((7,), None), ((7,), 0), ((5, 6), None), ((5, 6), 0), ((5, 6), 1), ((5, 6), -1),
               ((3, 4, 5), 1), ((3, 4, 5), 0), ((4, 1, 3), 2), ((0, 3), 1), ((0,), None)]


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
def test_short_axes_match_numpy_bitwise(name, dtype, shape, axis):
    a = data(shape, dtype)
    want = getattr(numpy, name)(a, axis=axis)
    got = getattr(np, name)(np.array(a), axis=axis)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert numpy.asarray(got).tobytes() == want.tobytes()
    method = getattr(np.array(a), name)(axis=axis)
    assert numpy.asarray(method).tobytes() == want.tobytes()


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_dtype_and_out(name):
    a = data((4, 9), numpy.int32)
    want = getattr(numpy, name)(a, axis=1, dtype=numpy.float32)
    got = getattr(np, name)(np.array(a), axis=1, dtype=np.float32)
    assert got.dtype == numpy.float32 and numpy.array_equal(numpy.asarray(got), want)
    out = np.zeros((4, 9), dtype=np.int64)
    r = getattr(np, name)(np.array(a), axis=0, out=out)
    assert r is out
    assert numpy.array_equal(numpy.asarray(out), getattr(numpy, name)(a, axis=0, out=numpy.zeros((4, 9), numpy.int64)))


def test_zero_d_and_errors():
    assert numpy.array_equal(numpy.asarray(np.cumsum(np.array(5))), numpy.cumsum(numpy.array(5)))
    assert numpy.array_equal(numpy.asarray(np.cumsum(np.array(5), axis=0)), numpy.cumsum(numpy.array(5), axis=0))
    with pytest.raises(numpy.exceptions.AxisError):
        np.cumsum(np.ones(3), axis=1)
    with pytest.raises(ValueError, match="wrong size"):
        np.cumsum(np.ones(3), out=np.ones(4))


def test_integers_wrap_like_numpy():
    a = numpy.full(10, 2**62, dtype=numpy.int64)
    assert numpy.array_equal(numpy.asarray(np.cumsum(np.array(a))), numpy.cumsum(a))
    b = numpy.full(70, 3, dtype=numpy.int64)
    assert numpy.array_equal(numpy.asarray(np.cumprod(np.array(b))), numpy.cumprod(b))


@pytest.mark.parametrize("n", [65536, 65537, 200_003, 1_000_000])
def test_long_axes(n):
    ints = numpy.random.default_rng(1).integers(-1000, 1000, n)
    assert numpy.array_equal(numpy.asarray(np.cumsum(np.array(ints))), numpy.cumsum(ints))
    floats = numpy.random.default_rng(2).standard_normal((2, n))
    got = numpy.asarray(np.cumsum(np.array(floats), axis=1))
    want = numpy.cumsum(floats, axis=1)
    scale = numpy.cumsum(numpy.abs(floats), axis=1)
    assert numpy.all(numpy.abs(got - want) <= 1e-12 * scale + 1e-300)
    near_one = 1.0 + 1e-7 * numpy.random.default_rng(3).standard_normal(n)
    assert numpy.allclose(numpy.asarray(np.cumprod(np.array(near_one))), numpy.cumprod(near_one), rtol=1e-12)


SCRIPT = "\n".join([
    "import hashlib, numpy, tessera.numpy as np",
    "a = numpy.random.default_rng(4).standard_normal((3, 300_001))",
    "r = np.cumsum(np.array(a), axis=1), np.cumsum(np.array(a)), np.cumprod(np.array(1 + a / 1e6), axis=1)",
    "print(hashlib.sha1(b''.join(numpy.asarray(x).tobytes() for x in r)).hexdigest())",
])


def test_long_scans_do_not_depend_on_tiling():
    same_output_under(SCRIPT, ["--cpus=2", "--cpus=1", "--cpus=2 --min-cpu-chunk=2"])


def test_nan_variants():
    a = numpy.array([[numpy.nan, 1.0, 2.0], [3.0, numpy.nan, numpy.nan]])
    for name in ("nancumsum", "nancumprod"):
        for axis in (None, 0, 1):
            want = getattr(numpy, name)(a, axis=axis)
            got = getattr(np, name)(np.array(a), axis=axis)
            assert got.dtype == want.dtype and numpy.array_equal(numpy.asarray(got), want)
    ints = numpy.arange(6).reshape(2, 3)
    assert numpy.array_equal(numpy.asarray(np.nancumsum(np.array(ints), axis=1)), numpy.nancumsum(ints, axis=1))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative(name):
    a = data((3, 4), numpy.int32)
    f, g = getattr(numpy, name), getattr(np, name)
    for kwargs in ({"axis": 0}, {"axis": 1, "include_initial": True}, {"axis": -1, "dtype": numpy.float32}):
        want = f(a, **kwargs)
        got = g(np.array(a), **kwargs)
        assert got.dtype == want.dtype and numpy.array_equal(numpy.asarray(got), want)
    v = numpy.arange(1, 6)
    assert numpy.array_equal(numpy.asarray(g(np.array(v), include_initial=True)), f(v, include_initial=True))
    assert numpy.array_equal(numpy.asarray(g(np.array(7))), f(numpy.array(7)))
    with pytest.raises(ValueError, match="axis"):
        g(np.array(a))


def test_ufunc_accumulate():
    a = data((4, 5), numpy.float64)
    for axis in (0, 1):
        assert numpy.array_equal(numpy.asarray(np.add.accumulate(np.array(a), axis=axis)),
                                 numpy.add.accumulate(a, axis=axis))
        assert numpy.array_equal(numpy.asarray(np.multiply.accumulate(np.array(a), axis=axis)),
                                 numpy.multiply.accumulate(a, axis=axis))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int64, numpy.uint8, numpy.bool_])
def test_diff(dtype):
    a = data((4, 7), dtype)
    for kwargs in ({}, {"n": 2}, {"axis": 0}, {"n": 3, "axis": 0}, {"n": 0},
                   {"prepend": 0}, {"append": numpy.ones((4, 1), dtype)}, {"prepend": 1, "append": 2, "axis": 0}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # uint8 wraps, in both
            want = numpy.diff(a, **kwargs)
            got = np.diff(np.array(a), **kwargs)
        assert numpy.asarray(got).dtype == want.dtype and numpy.array_equal(numpy.asarray(got), want), kwargs
    with pytest.raises(ValueError):
        np.diff(np.array(a), n=-1)
    with pytest.raises(ValueError):
        np.diff(np.array(5.0))
    with pytest.raises(numpy.exceptions.AxisError):
        np.diff(np.array(a), axis=2)


def test_ediff1d():
    a = numpy.array([[1, 4, 9], [16, 25, 36]])
    for kwargs in ({}, {"to_end": [100, 200]}, {"to_begin": -1}, {"to_begin": [0], "to_end": 7}):
        want = numpy.ediff1d(a, **kwargs)
        got = np.ediff1d(np.array(a), **kwargs)
        assert numpy.asarray(got).dtype == want.dtype and numpy.array_equal(numpy.asarray(got), want), kwargs
    with pytest.raises(TypeError):
        np.ediff1d(np.array(a), to_end=[1.5])
