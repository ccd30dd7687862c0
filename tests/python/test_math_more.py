"""NumPy 2's alias ufuncs, the ufuncs gcd, lcm, nextafter, spacing, ldexp, frexp, modf, divmod,
float_power and bitwise_count, i0, and the numeric functions convolve, correlate, cross,
interp, unwrap, trapezoid, gradient, the windows and the polynomial functions match NumPy
(values, dtypes, shapes and exception types) over dtypes, 0-d, empty and strided inputs."""

import warnings

import numpy
import pytest

import tessera.numpy as np
from parity import ALL_DTYPES, FLOAT, INTEGER, check, ids, sample

pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively

SHAPES = [(), (0,), (7,), (3, 5)]


@pytest.fixture(autouse=True)
def nothing_falls_back():
    """No call of a test reaches the NumPy fallback, even where parity.check silences
    RuntimeWarnings (FallbackWarning is one): the fallback's record of what it ran stays empty."""
    from tessera.numpy import _fallback

    before = set(_fallback._warned)
    _fallback._warned.clear()
    yield
    fell_back = set(_fallback._warned)
    _fallback._warned.update(before)
    assert not fell_back, f"fell back to NumPy: {sorted(fell_back)}"


def bits_equal(got, want):
    """Bitwise equality (NaNs by position, the sign of zero included) with dtype and shape."""
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        assert numpy.array_equal(numpy.isnan(got), numpy.isnan(want))
        ok = numpy.isnan(want) | (got == want)
        assert ok.all(), (got, want)
        assert numpy.array_equal(numpy.signbit(got.real), numpy.signbit(want.real))
    else:
        assert numpy.array_equal(got, want)


def ulps_within(got, want, ulps):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    spacing = numpy.abs(numpy.spacing(want.astype(numpy.float64 if want.dtype == numpy.float64 else want.dtype)))
    finite = numpy.isfinite(want)
    assert numpy.array_equal(numpy.isnan(got), numpy.isnan(want))
    assert (got[~finite & ~numpy.isnan(want)] == want[~finite & ~numpy.isnan(want)]).all()
    assert (numpy.abs(got[finite].astype(numpy.float64) - want[finite]) <= ulps * spacing[finite]).all(), (got, want)


def both(name, *args, **kwargs):
    """numpy.name and np.name on copies of args: (tessera's result, NumPy's), or the same error."""
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            want = getattr(numpy, name)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001  the same type must be raised
            with pytest.raises(type(exc)):
                getattr(np, name)(*[np.array(a) if isinstance(a, numpy.ndarray) else a for a in args], **kwargs)
            return None, None
        got = getattr(np, name)(*[np.array(a) if isinstance(a, numpy.ndarray) else a for a in args], **kwargs)
    return got, want


# -- aliases ---------------------------------------------------------------------------

ALIASES = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
           "atan2": "arctan2", "atanh": "arctanh", "bitwise_invert": "invert",
           "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift"}


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_alias_is_the_classic_ufunc(alias):
    assert getattr(np, alias) is getattr(np, ALIASES[alias])
    assert isinstance(getattr(np, alias), np.ufunc)
    assert getattr(np, alias).__name__ == getattr(numpy, alias).__name__


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_alias_computes_like_numpy(alias):
    f = getattr(numpy, alias)
    if f.nin == 1:
        kind = "unit" if alias in ("acos", "asin", "atanh") else "ge1" if alias == "acosh" else "any"
        dtype = "int32" if alias == "bitwise_invert" else "float64"
        check(lambda xp, a: getattr(xp, alias)(a), sample(dtype, (3, 4), kind))
    else:
        dtype = "int64" if "shift" in alias else "float32"
        b_kind = "shift" if "shift" in alias else "nonzero"
        check(lambda xp, a, b: getattr(xp, alias)(a, b), sample(dtype, (3, 4)), sample(dtype, (4,), b_kind))


# -- gcd, lcm, bitwise_count -----------------------------------------------------------

@pytest.mark.parametrize("name", ["gcd", "lcm"])
@pytest.mark.parametrize("dtype", ["bool"] + INTEGER + ["float64"])
def test_gcd_lcm(name, dtype):
    rng = numpy.random.default_rng(1)
    a = rng.integers(-60, 60, (4, 6)).astype(dtype) if dtype != "bool" else rng.integers(0, 2, (4, 6)).astype(bool)
    b = rng.integers(-60, 60, (6,)).astype(dtype) if dtype != "bool" else rng.integers(0, 2, (6,)).astype(bool)
    check(lambda xp, a, b: getattr(xp, name)(a, b), a, b)
    check(lambda xp, a: getattr(xp, name)(a[:, ::2], 12), a)  # strided view, Python int


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_gcd_lcm_extremes(dtype):
    info = numpy.iinfo(dtype)
    a = numpy.array([info.min, info.min, info.max, -7, 0, 0, info.max, info.min // 3], dtype)
    b = numpy.array([0, 1, info.min, 0, 0, -5, 3, 3], dtype)
    for name in ("gcd", "lcm"):
        got, want = both(name, a, b)
        bits_equal(got, want)


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_gcd_reduce_and_empty(shape):
    check(lambda xp, a, b: xp.gcd(a, b), sample("int64", shape, "nonzero"), sample("int64", shape, "nonzero", 2))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_bitwise_count(dtype):
    a = sample(dtype, (5, 4)) if dtype in ("bool",) or dtype not in INTEGER else \
        numpy.random.default_rng(0).integers(numpy.iinfo(dtype).min, numpy.iinfo(dtype).max, (5, 4), dtype=dtype,
                                             endpoint=True)
    check(lambda xp, a: xp.bitwise_count(a), a)
    check(lambda xp, a: xp.bitwise_count(a.T[::2]), a)


# -- nextafter, spacing, ldexp, frexp, modf --------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 1e-310, -1e-310, 5e-324, 65504.0, -65504.0, 1e38, 3.4e38, 1e308,
           1.7976931348623157e308, numpy.inf, -numpy.inf, numpy.nan, 0.1, -3.75, 1e-5, 6e-8, -6e-8]


@pytest.mark.parametrize("dtype", FLOAT)
def test_nextafter_bitwise(dtype):
    with numpy.errstate(all="ignore"):
        x = numpy.array(SPECIAL, dtype)
    for y in (numpy.inf, -numpy.inf, 0.0, -0.0, numpy.nan, 1.0):
        got, want = both("nextafter", x, numpy.full(x.shape, y, dtype))
        bits_equal(got, want)
    got, want = both("nextafter", x[:, None], x[None, ::3])
    bits_equal(got, want)


@pytest.mark.parametrize("dtype", FLOAT)
def test_spacing_bitwise(dtype):
    with numpy.errstate(all="ignore"):
        x = numpy.array(SPECIAL, dtype)
    got, want = both("spacing", x)
    bits_equal(got, want)
    got, want = both("spacing", x[::-2])
    bits_equal(got, want)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "int64", "uint16", "complex64"])
def test_nextafter_spacing_dtypes(dtype):
    check(lambda xp, a: xp.spacing(a), sample(dtype, (4,)))
    check(lambda xp, a, b: xp.nextafter(a, b), sample(dtype, (4,)), sample(dtype, (4,), seed=1))


@pytest.mark.parametrize("mantissa", FLOAT + ["int8", "int64", "bool"])
@pytest.mark.parametrize("exponent", ["int8", "int32", "int64", "uint8", "uint64", "float32"])
def test_ldexp_types(mantissa, exponent):
    m = sample(mantissa, (3, 4))
    e = sample(exponent, (4,), "shift")
    check(lambda xp, m, e: xp.ldexp(m, e), m, e)


@pytest.mark.parametrize("dtype", FLOAT)
def test_ldexp_bitwise(dtype):
    with numpy.errstate(all="ignore"):
        x = numpy.array(SPECIAL, dtype)
    for e in (0, 1, -1, 30, -30, 1100, -1100, 2 ** 40, -(2 ** 40)):
        got, want = both("ldexp", x, numpy.full(x.shape, e, numpy.int64))
        bits_equal(got, want)
    got, want = both("ldexp", x, 3)
    bits_equal(got, want)
    check(lambda xp: xp.ldexp(2.0, 3))
    check(lambda xp: xp.ldexp(1.5, 2.0))
    check(lambda xp, e: xp.ldexp(2, e), numpy.arange(4, dtype=numpy.int8))


@pytest.mark.parametrize("name", ["frexp", "modf"])
@pytest.mark.parametrize("dtype", FLOAT + ["int8", "int64", "bool", "complex128"])
def test_two_output_ufuncs(name, dtype):
    if dtype in FLOAT:
        with numpy.errstate(all="ignore"):
            x = numpy.array(SPECIAL, dtype)
        got, want = both(name, x)
        assert isinstance(got, tuple) and len(got) == 2
        for g, w in zip(got, want):
            bits_equal(g, w)
        got, want = both(name, x[::3].reshape(2, 4))
        for g, w in zip(got, want):
            bits_equal(g, w)
    else:
        check(lambda xp, a: getattr(xp, name)(a), sample(dtype, (5,)))


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_two_output_shapes(shape):
    check(lambda xp, a: xp.frexp(a), sample("float32", shape))
    check(lambda xp, a: xp.modf(a), sample("float64", shape))
    check(lambda xp, a, b: xp.divmod(a, b), sample("int32", shape), sample("int32", shape, "nonzero"))


def test_two_output_dtype():
    check(lambda xp, a: xp.modf(a, dtype="float32"), sample("float64", (5,)))
    check(lambda xp, a: xp.frexp(a, dtype="float32"), sample("float64", (5,)))
    check(lambda xp, a: xp.divmod(a, 3, dtype="float64"), sample("int16", (5,)))


def test_two_output_out_and_where():
    x = sample("float64", (6,))
    for xp in (numpy, np):
        m, e = xp.zeros(6), xp.zeros(6, dtype="int32")
        r = xp.frexp(xp.asarray(x), out=(m, e))
        assert r[0] is m and r[1] is e
    check(lambda xp, a: xp.frexp(a, out=(xp.zeros(6), xp.zeros(6, "int32")))[1], x)
    check(lambda xp, a: xp.frexp(a, xp.ones(6))[0], x)
    check(lambda xp, a: xp.frexp(a, out=(None, xp.zeros(6, "int32"))), x)
    check(lambda xp, a: xp.modf(a, out=(xp.ones(6), xp.ones(6)), where=a > 0), x)
    check(lambda xp, a: xp.divmod(a, 3, out=(xp.zeros(6, "int64"), xp.zeros(6, "int64")), where=a > 0),
          sample("int64", (6,)))
    check(lambda xp, a: xp.frexp(a, out=xp.zeros(6)), x)  # TypeError: out must be a tuple
    check(lambda xp, a: xp.frexp(a, out=(xp.zeros(6),)), x)  # ValueError: one entry per output
    check(lambda xp, a: xp.frexp(a, out=(xp.zeros(6), xp.zeros(6, "int8"))), x)  # casting error
    # the input as an output: the second pass still reads the original values
    check(lambda xp, a: xp.modf(a, out=(a, xp.zeros(6)))[1], x)
    check(lambda xp, a: xp.divmod(a, 4, out=(a, xp.zeros(6, "int64")))[1], sample("int64", (6,)))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32", "float64", "bool", "complex64"])
def test_divmod(dtype):
    a = sample(dtype, (4, 5))
    b = sample(dtype, (5,), "nonzero")
    check(lambda xp, a, b: xp.divmod(a, b), a, b)
    check(lambda xp, a: xp.divmod(a[:, ::2], 3), a)
    assert np.divmod.nin == 2 and np.divmod.nout == 2 and isinstance(np.divmod, np.ufunc)


def test_divmod_special_values():
    x = numpy.array([5.0, -5.0, 0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e308])
    for y in (3.0, -3.0, 0.0, -0.0, numpy.inf, -numpy.inf):
        got, want = both("divmod", x, y)
        for g, w in zip(got, want):
            bits_equal(g, w)


# -- float_power -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_float_power_dtypes(dtype):
    a = sample(dtype, (3, 4), "positive")
    b = sample(dtype, (4,), "shift")
    check(lambda xp, a, b: xp.float_power(a, b), a, b)
    check(lambda xp, a: xp.float_power(a, 0.5), a)
    check(lambda xp, a: xp.float_power(a, -2), a)


def test_float_power_special_and_out():
    x = numpy.array([0.0, -0.0, 2.0, -2.0, numpy.inf, -numpy.inf, numpy.nan, 1e300], numpy.float32)
    for y in (0.5, -1.0, 2.0, numpy.inf, -numpy.inf, 3.0):
        got, want = both("float_power", x, y)
        ulps_within(got, want, 1)
    check(lambda xp, a: xp.float_power(a, 2, out=xp.zeros(4)), sample("int32", (4,)))
    check(lambda xp, a: xp.float_power(a, 2, out=xp.zeros(4, "float32")), sample("int32", (4,)))  # casting error
    check(lambda xp, a: xp.float_power(a, 2, where=a > 0, out=xp.ones(4)), sample("int32", (4,)))


# -- ufunc attributes ------------------------------------------------------------------

NEW_UFUNCS = ["gcd", "lcm", "nextafter", "spacing", "ldexp", "frexp", "modf", "divmod", "float_power",
              "bitwise_count"]


@pytest.mark.parametrize("name", NEW_UFUNCS)
def test_new_ufuncs_are_ufunc_objects(name):
    u, nu = getattr(np, name), getattr(numpy, name)
    assert isinstance(u, np.ufunc)
    assert (u.__name__, u.nin, u.nout, u.nargs) == (nu.__name__, nu.nin, nu.nout, nu.nargs)


@pytest.mark.parametrize("name", ["gcd", "lcm", "nextafter", "ldexp", "float_power"])
def test_new_binary_out_and_where(name):
    dtype = "int64" if name in ("gcd", "lcm") else "float64"
    a, b = sample(dtype, (4,), "positive"), sample("int64" if name != "nextafter" else dtype, (4,), "shift")
    check(lambda xp, a, b: getattr(xp, name)(a, b, out=xp.zeros(4, dtype)), a, b)
    check(lambda xp, a, b: getattr(xp, name)(a, b, out=xp.ones(4, dtype), where=a > 2), a, b)


@pytest.mark.parametrize("name", ["spacing", "bitwise_count"])
def test_new_unary_out_and_where(name):
    dtype = "int16" if name == "bitwise_count" else "float32"
    out_dtype = "uint8" if name == "bitwise_count" else "float32"
    check(lambda xp, a: getattr(xp, name)(a, out=xp.zeros(5, out_dtype)), sample(dtype, (5,)))
    check(lambda xp, a: getattr(xp, name)(a, out=xp.ones(5, out_dtype), where=a > 0), sample(dtype, (5,)))


def test_gcd_outer():
    check(lambda xp, a, b: xp.gcd.outer(a, b), sample("int32", (4,), "nonzero"), sample("int32", (3,), "ge1"))


# -- i0 --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "complex128"])
def test_i0(dtype):
    if dtype == "complex128":
        check(lambda xp, a: xp.i0(a), sample(dtype, (3,)))
        return
    rng = numpy.random.default_rng(3)
    x = (rng.random(200) * 60 - 30).astype(dtype) if dtype != "bool" else rng.integers(0, 2, 8).astype(bool)
    x = numpy.concatenate([x, numpy.array([0, 8, -8, 7.999, 8.001, 700]).astype(dtype)]) if dtype != "bool" else x
    got, want = both("i0", x)
    ulps_within(got, want, 4)
    got, want = both("i0", x[::-3])
    ulps_within(got, want, 4)


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_i0_shapes(shape):
    check(lambda xp, a: xp.i0(a), sample("float64", shape))


# -- convolve, correlate ---------------------------------------------------------------

MODES = ["full", "same", "valid", 0, 1, 2]


@pytest.mark.parametrize("mode", MODES, ids=ids)
@pytest.mark.parametrize("n, m", [(1, 1), (7, 3), (3, 7), (6, 4), (4, 6), (10, 10), (300, 70), (5, 1)])
def test_convolve_correlate_modes(mode, n, m):
    a, v = sample("float64", (n,)), sample("float64", (m,), seed=4)
    check(lambda xp, a, v: xp.convolve(a, v, mode), a, v)
    check(lambda xp, a, v: xp.correlate(a, v, mode), a, v)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_convolve_correlate_dtypes(dtype):
    a, v = sample(dtype, (9,)), sample(dtype, (4,), seed=2)
    check(lambda xp, a, v: xp.convolve(a, v), a, v)
    check(lambda xp, a, v: xp.correlate(a, v, "full"), a, v)
    check(lambda xp, a, v: xp.correlate(v, a, "same"), a, v)
    check(lambda xp, a, v: xp.convolve(a[::2], v[::-1], "same"), a, v)
    check(lambda xp, a: xp.correlate(a, numpy.array([1, 2], "uint8")), a)


def test_convolve_correlate_errors_and_lists():
    check(lambda xp: xp.convolve([1, 2, 3], [0, 1, 0.5]))
    check(lambda xp: xp.correlate([1j, 2], [1j, 2]))
    check(lambda xp: xp.convolve(3, [1, 2]))
    for bad in ([], [[1.0]]):
        check(lambda xp: xp.correlate(bad, [1.0]))
        check(lambda xp: xp.correlate([1.0], bad))
        check(lambda xp: xp.convolve(bad, [1.0]))
    check(lambda xp: xp.correlate(1.0, 2.0))
    check(lambda xp: xp.correlate([1.0], [1.0], mode="bad"))
    check(lambda xp: xp.convolve([1.0], [1.0], mode=5))


# -- cross -----------------------------------------------------------------------------

@pytest.mark.parametrize("na, nb", [(3, 3), (2, 3), (3, 2), (2, 2)])
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128", "uint8"])
def test_cross(na, nb, dtype):
    a, b = sample(dtype, (4, na)), sample(dtype, (nb,), seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check(lambda xp, a, b: xp.cross(a, b), a, b)
        check(lambda xp, a, b: xp.cross(a.T, b, axisa=0), a, b)
        check(lambda xp, a, b: xp.cross(b, a), a, b)


def test_cross_axes_and_errors():
    a, b = sample("float64", (3, 4, 5)), sample("float64", (4, 3, 5), seed=1)
    check(lambda xp, a, b: xp.cross(a, b, axisa=0, axisb=1), a, b)
    check(lambda xp, a, b: xp.cross(a, b, axisa=0, axisb=1, axisc=1), a, b)
    check(lambda xp, a, b: xp.cross(a, b, axisa=0, axisb=1, axisc=-1), a, b)
    check(lambda xp, a: xp.cross(a, a, axis=0), a)
    check(lambda xp, a: xp.cross(a, a, axis=5), a)  # AxisError
    check(lambda xp, a: xp.cross(a, a, axisc=4), sample("float64", (2, 3)))  # AxisError
    check(lambda xp, a: xp.cross(a, a), sample("float64", (2, 4)))  # ValueError
    check(lambda xp: xp.cross(1.0, [1.0, 2.0, 3.0]))
    check(lambda xp: xp.cross([True, False, True], [True, True, False]))  # TypeError: bool subtract
    with pytest.warns(DeprecationWarning):
        np.cross(np.array([1.0, 2.0]), np.array([3.0, 4.0]))


# -- interp ----------------------------------------------------------------------------

def test_interp_basic():
    xp_, fp = numpy.array([0.0, 1.0, 1.5, 4.0, 4.0, 7.0]), numpy.array([3.0, -1.0, 2.0, 5.0, 6.0, 0.5])
    x = numpy.array([-1.0, 0.0, 0.5, 1.0, 1.2, 4.0, 5.5, 7.0, 8.0, numpy.nan, numpy.inf, -numpy.inf])
    check(lambda xp, x, a, b: xp.interp(x, a, b), x, xp_, fp)
    check(lambda xp, x, a, b: xp.interp(x, a, b, left=-10, right=10.5), x, xp_, fp)
    check(lambda xp, x, a, b: xp.interp(x.reshape(3, 4)[:, ::2], a, b), x, xp_, fp)
    check(lambda xp, x, a, b: xp.interp(x, a, b + 1j * b[::-1], left=1j), x, xp_, fp)
    check(lambda xp, x, a, b: xp.interp(x, a[:1], b[:1]), x, xp_, fp)
    check(lambda xp, x, a, b: xp.interp(x, a[:1], b[:1], left=-1, right=1), x, xp_, fp)
    check(lambda xp, a, b: xp.interp(2.5, a, b), xp_, fp)
    check(lambda xp, a, b: xp.interp(numpy.zeros(0), a, b), xp_, fp)
    check(lambda xp, x, a: xp.interp(x, a, numpy.arange(6)), x, xp_)
    check(lambda xp, x, a: xp.interp(x.astype("float32"), a.astype("int32"), numpy.arange(6, dtype="float32")),
          numpy.arange(-1.0, 9.0), xp_)


def test_interp_infinite_samples_and_errors():
    xp_ = numpy.array([0.0, 1.0, 2.0])
    for fp in ([0.0, numpy.inf, 1.0], [numpy.inf, numpy.inf, 1.0], [-numpy.inf, numpy.inf, 0.0]):
        check(lambda xp, x, a, b: xp.interp(x, a, b), numpy.linspace(-0.5, 2.5, 13), xp_, numpy.array(fp))
    check(lambda xp: xp.interp([1.0], [], []))
    check(lambda xp: xp.interp([1.0], [1.0, 2.0], [1.0]))
    check(lambda xp: xp.interp([1.0], [1.0, 2.0], [1.0, 2.0], period=0))
    check(lambda xp: xp.interp([1.0], [[1.0, 2.0]], [[1.0, 2.0]], period=3))


@pytest.mark.parametrize("period", [360, -360, 2.5])
def test_interp_period(period):
    x = numpy.array([-180.0, -190, -170, 185, -10, -5, 0, 365, 7.5, 1000.25])
    a = numpy.array([190.0, -190, 350, -350, 10.5, 0.25])
    f = numpy.array([5.0, 10, 3, 4, -1, 2])
    check(lambda xp, x, a, f: xp.interp(x, a, f, period=period), x, a, f)
    check(lambda xp, x, a, f: xp.interp(x, a, f + 2j * f, period=period, left=7), x, a, f)


# -- unwrap, trapezoid, gradient -------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_unwrap(dtype):
    rng = numpy.random.default_rng(7)
    p = numpy.cumsum(rng.normal(size=(4, 30)) * 3, axis=1).astype(dtype)
    check(lambda xp, p: xp.unwrap(p), p)
    check(lambda xp, p: xp.unwrap(p, axis=0), p)
    check(lambda xp, p: xp.unwrap(p, discont=4.0), p)
    check(lambda xp, p: xp.unwrap(p[:, ::2], period=6), p)
    check(lambda xp: xp.unwrap(numpy.array([0, 1, 2, -1, 0, 4, 3, 5]), period=4))
    check(lambda xp: xp.unwrap(numpy.array([0, 1, 2, -1, 0, 4, 3, 5]), period=5))
    check(lambda xp: xp.unwrap(numpy.array([0.0, numpy.pi, 0.0, -numpy.pi])))
    check(lambda xp: xp.unwrap(numpy.zeros(0)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
def test_trapezoid(dtype):
    y = sample(dtype, (4, 6))
    x = numpy.cumsum(sample("float64", (6,), "positive"))
    check(lambda xp, y: xp.trapezoid(y), y)
    check(lambda xp, y: xp.trapezoid(y, dx=0.5, axis=0), y)
    check(lambda xp, y, x: xp.trapezoid(y, x), y, x)
    check(lambda xp, y, x: xp.trapezoid(y.T, x[:4]), y, x)
    check(lambda xp, y: xp.trapezoid(y, y.astype("float64"), axis=0), y if dtype != "complex128" else y.real)
    check(lambda xp, y: xp.trapezoid(y[:, ::2]), y)
    check(lambda xp: xp.trapezoid(numpy.zeros(0)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8", "complex64", "bool"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(dtype, edge_order):
    f = sample(dtype, (5, 6), "nonneg")
    x = numpy.array([0.0, 1.0, 1.5, 3.5, 4.0, 7.0])
    check(lambda xp, f: xp.gradient(f, edge_order=edge_order), f)
    check(lambda xp, f: xp.gradient(f, 2.0, edge_order=edge_order), f)
    check(lambda xp, f: xp.gradient(f, 0.5, 3, edge_order=edge_order), f)
    check(lambda xp, f, x: xp.gradient(f, x, axis=1, edge_order=edge_order), f, x)
    check(lambda xp, f, x: xp.gradient(f, x[:5], x, edge_order=edge_order), f, x)
    check(lambda xp, f: xp.gradient(f, numpy.arange(6) * 2, axis=-1, edge_order=edge_order), f)
    check(lambda xp, f: xp.gradient(f[:, ::2], axis=(0, 1), edge_order=edge_order), f)
    check(lambda xp, f: xp.gradient(f[0], edge_order=edge_order), f)


def test_gradient_errors():
    f = sample("float64", (3, 4))
    check(lambda xp, f: xp.gradient(f, edge_order=3), f)
    check(lambda xp, f: xp.gradient(f[:, :2], axis=1, edge_order=2), f)
    check(lambda xp, f: xp.gradient(f, 1.0, 2.0, 3.0), f)
    check(lambda xp, f: xp.gradient(f, numpy.ones((3, 3)), 1.0), f)
    check(lambda xp, f: xp.gradient(f, numpy.ones(4), 1.0), f)
    check(lambda xp, f: xp.gradient(f, axis=2), f)


# -- windows ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 12, 51, 6.0])
def test_windows(name, M):
    check(lambda xp: getattr(xp, name)(M), atol=1e-15)


@pytest.mark.parametrize("M, beta", [(0, 1.0), (1, 5.0), (2, 0.0), (12, 14.0), (51, 8.6), (10, -3)])
def test_kaiser(M, beta):
    check(lambda xp: xp.kaiser(M, beta), atol=1e-15)


# -- polynomials -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_polyadd_sub_mul(dtype):
    a, b = sample(dtype, (4,)), sample(dtype, (2,), seed=3)
    for name in ("polyadd", "polysub", "polymul"):
        check(lambda xp, a, b: getattr(xp, name)(a, b), a, b)
        check(lambda xp, a, b: getattr(xp, name)(b, a), a, b)
        check(lambda xp, a: getattr(xp, name)(a, 2), a)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_polyder_polyint(dtype):
    p = sample(dtype, (5,))
    for m in (0, 1, 2, 6):
        check(lambda xp, p: xp.polyder(p, m), p)
        check(lambda xp, p: xp.polyint(p, m), p)
    check(lambda xp, p: xp.polyint(p, 2, k=[1.0, 2.0]), p)
    check(lambda xp, p: xp.polyint(p, 3, k=2), p)
    check(lambda xp, p: xp.polyint(p, 3, k=[1, 2]), p)  # ValueError
    check(lambda xp, p: xp.polyder(p, -1), p)
    check(lambda xp, p: xp.polyint(p, -1), p)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_polyval(dtype):
    p = sample(dtype, (4,))
    check(lambda xp, p, x: xp.polyval(p, x), p, sample("float64", (3, 5)))
    check(lambda xp, p, x: xp.polyval(p, x), p, sample("int32", (6,)))
    check(lambda xp, p, x: xp.polyval(p, x[::2]), p, sample("float32", (6,)))
    check(lambda xp, p: xp.polyval(p, 2.5), p)
    check(lambda xp, p: xp.polyval(p, numpy.zeros(0)), p)


def test_polydiv():
    check(lambda xp: xp.polydiv([3.0, 5.0, 2.0], [2.0, 1.0]))
    check(lambda xp: xp.polydiv([1, 2, 3, 4, 5], [1, 1]))
    check(lambda xp: xp.polydiv([1.0, 2.0], [1.0, 2.0, 3.0]))
    check(lambda xp: xp.polydiv([1.0, 2.0j, 3.0], [1.0j, 1.0]))
    check(lambda xp: xp.polydiv(numpy.array([1.0, 3, 3, 1]), numpy.array([1.0, 1])))


def test_poly1d_arguments_give_poly1d_results_as_numpy():
    P, Q = numpy.poly1d([1.0, 2.0, 3.0]), numpy.poly1d([2.0, -1.0])
    cases = [("polyadd", (P, [1.0, 2.0, 3.0, 4.0])), ("polysub", ([1.0, 2.0], P)), ("polymul", (P, Q)),
             ("polyder", (P,)), ("polyint", (P,)), ("polydiv", (P, Q)), ("polyval", (P, numpy.arange(4.0)))]
    for name, args in cases:
        want = getattr(numpy, name)(*args)
        got = getattr(np, name)(*[np.asarray(a) if isinstance(a, (list, numpy.ndarray)) else a for a in args])
        pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
        for g, w in pairs:
            assert type(g) is (numpy.poly1d if isinstance(w, numpy.poly1d) else np.ndarray), (name, type(g))
            numpy.testing.assert_allclose(numpy.asarray(g), numpy.asarray(w), rtol=1e-14)


def test_poly():
    check(lambda xp: xp.poly([1.0, 2.0, 3.0]))
    check(lambda xp: xp.poly(numpy.array([1, 2, -3], "int32")))
    check(lambda xp: xp.poly(numpy.array([1, 2], "float32")))
    check(lambda xp: xp.poly([1 + 1j, 1 - 1j, 2.0]))
    check(lambda xp: xp.poly([1 + 1j, 2.0]))
    check(lambda xp: xp.poly([]))
    check(lambda xp: xp.poly(numpy.array([[1.0, 2.0], [3.0, 4.0]])))
    check(lambda xp: xp.poly(numpy.ones((2, 3))))


def sorted_roots(xp, p):
    r = numpy.asarray(xp.roots(p))
    return numpy.sort_complex(r) if r.dtype.kind == "c" else numpy.sort(r)


@pytest.mark.parametrize("p", [[1.0, -6.0, 11.0, -6.0], [1, 0, 1], [0, 0, 2, -4, 0, 0], [0.0, 0.0], [5.0],
                               [2, 0], [1.0, 2.0j, -1.0], numpy.array([1, 3, 3, 1], "int8")], ids=ids)
def test_roots(p):
    check(lambda xp: sorted_roots(xp, p))
    check(lambda xp: xp.roots(numpy.ones((2, 2))))


@pytest.mark.parametrize("deg", [0, 1, 3])
def test_polyfit(deg):
    x = numpy.linspace(-2, 3, 20)
    y = 1.5 * x ** 3 - x + 0.25 + numpy.sin(7 * x) * 0.1
    check(lambda xp, x, y: xp.polyfit(x, y, deg), x, y)
    check(lambda xp, x, y: xp.polyfit(x, numpy.stack([y, 2 * y], axis=1), deg), x, y)
    check(lambda xp, x, y: xp.polyfit(x, y, deg, w=numpy.linspace(1, 2, 20)), x, y)
    check(lambda xp, x, y: xp.polyfit(x, y, deg, full=True)[:3], x, y)
    check(lambda xp, x, y: xp.polyfit(x, y, deg, cov=True), x, y)
    check(lambda xp, x, y: xp.polyfit(x, y, deg, cov="unscaled"), x, y)


def test_polyfit_errors():
    x = numpy.linspace(0, 1, 5)
    check(lambda xp, x: xp.polyfit(x, x, -1), x)
    check(lambda xp, x: xp.polyfit(x.reshape(5, 1), x, 1), x)
    check(lambda xp, x: xp.polyfit(x[:0], x[:0], 1), x)
    check(lambda xp, x: xp.polyfit(x, x[:4], 1), x)
    check(lambda xp, x: xp.polyfit(x, x, 1, w=x[:3]), x)
    check(lambda xp, x: xp.polyfit(x[:2], x[:2], 2, cov=True), x)


# -- more argument kinds ---------------------------------------------------------------

EDGE_CASES = [
    ("interp int x", lambda xp: xp.interp(numpy.arange(5), [0, 2, 4], [1, 5, 2])),
    ("interp np scalars",
     lambda xp: xp.interp([0.5, 9], [0.0, 1.0], [2.0, 3.0], left=numpy.float32(1.5), right=numpy.int64(4))),
    ("interp fp int", lambda xp: xp.interp(xp.asarray([0.5, 1.5]), xp.asarray([0, 1, 2]), xp.asarray([1, 5, 2]))),
    ("interp 2d x", lambda xp: xp.interp(xp.asarray([[0.5, 1.5], [3, -1]]), [0, 1, 2], [1, 5, 2])),
    ("interp complex x", lambda xp: xp.interp(xp.asarray([0.5 + 1j]), [0, 1, 2], [1, 5, 2])),
    ("interp period complex", lambda xp: xp.interp(xp.asarray([0.5, 7.0]), [0, 1, 2], [1j, 5, 2], period=3)),
    ("cross bcast",
     lambda xp: xp.cross(xp.asarray(numpy.arange(12.).reshape(4, 3)), xp.asarray(numpy.arange(6.).reshape(2, 1, 3)))),
    ("cross bcast 2",
     lambda xp: xp.cross(xp.asarray(numpy.arange(8.).reshape(4, 2)), xp.asarray(numpy.arange(4.).reshape(2, 1, 2)))),
    ("cross int8 overflow",
     lambda xp: xp.cross(xp.asarray(numpy.array([100, 100, 100], "int8")),
                         xp.asarray(numpy.array([-100, 100, 50], "int8")))),
    ("cross mixed",
     lambda xp: xp.cross(xp.asarray(numpy.array([1, 2, 3], "int16")), xp.asarray(numpy.array([0.5, 1, 2], "float32")))),
    ("gradient axis neg tuple",
     lambda xp: xp.gradient(xp.asarray(numpy.arange(24.).reshape(2, 3, 4) ** 2), 1.0, 2.0, axis=(-1, 0))),
    ("gradient per axis arrays",
     lambda xp: xp.gradient(xp.asarray(numpy.arange(12.).reshape(3, 4) ** 2), xp.asarray([0., 1, 3]),
                            xp.asarray([0, 2, 3, 7]))),
    ("gradient 0d", lambda xp: xp.gradient(xp.asarray(3.0))),
    ("gradient list", lambda xp: xp.gradient([1, 4, 9, 16, 25])),
    ("gradient float16", lambda xp: xp.gradient(xp.asarray(numpy.array([1, 4, 9, 16], "float16")), edge_order=2)),
    ("gradient int dx", lambda xp: xp.gradient(xp.asarray(numpy.array([1, 4, 9, 16], "int32")), 2)),
    ("gradient const int spacing",
     lambda xp: xp.gradient(xp.asarray(numpy.array([1., 4, 9, 16])), xp.asarray(numpy.array([0, 2, 4, 6])))),
    ("trapezoid x 2d",
     lambda xp: xp.trapezoid(xp.asarray(numpy.arange(12.).reshape(3, 4)),
                             xp.asarray(numpy.arange(12.).reshape(3, 4) ** 2), axis=0)),
    ("trapezoid list", lambda xp: xp.trapezoid([1, 2, 3])),
    ("trapezoid bool", lambda xp: xp.trapezoid(xp.asarray([True, False, True]))),
    ("unwrap list", lambda xp: xp.unwrap([0, 3, 6.5, 0.5])),
    ("unwrap float32 discont",
     lambda xp: xp.unwrap(xp.asarray(numpy.array([0, 3, 6.5, 0.5, -3], "float32")), discont=1.0)),
    ("unwrap int period int", lambda xp: xp.unwrap(xp.asarray(numpy.array([0, 9, 18, 1, 4], "int32")), period=10)),
    ("unwrap bool", lambda xp: xp.unwrap(xp.asarray([True, False]))),
    ("polyfit complex",
     lambda xp: xp.polyfit(xp.asarray(numpy.linspace(0, 1, 6)), xp.asarray(numpy.linspace(0, 1, 6) * (1 + 2j)), 1)),
    ("polyfit int", lambda xp: xp.polyfit(xp.asarray(numpy.arange(6)), xp.asarray(numpy.arange(6) ** 2), 2)),
    ("roots complex", lambda xp: numpy.sort_complex(numpy.asarray(xp.roots(xp.asarray([1, 1j, 2]))))),
    ("poly 0d", lambda xp: xp.poly(2.0)),
    ("poly int8", lambda xp: xp.poly(xp.asarray(numpy.array([1, 2], "int8")))),
    ("poly complex64", lambda xp: xp.poly(xp.asarray(numpy.array([1j, -1j], "complex64")))),
    ("polyval list", lambda xp: xp.polyval([1, 2, 3], [0.5, 2])),
    ("polyval scalar p", lambda xp: xp.polyval(3, xp.asarray([1.0, 2.0]))),
    ("polyval float32 x", lambda xp: xp.polyval(xp.asarray([1.0, 2.0]), xp.asarray(numpy.array([1.5], "float32")))),
    ("polyadd lists", lambda xp: xp.polyadd([1, 2], [1.5, 2, 3])),
    ("polymul lists", lambda xp: xp.polymul([1, 2], [1, 2, 3])),
    ("polyder list", lambda xp: xp.polyder([1, 2, 3, 4], 2)),
    ("polyint list k", lambda xp: xp.polyint([1, 2, 3], 2, k=[1j, 2])),
    ("polydiv int", lambda xp: xp.polydiv([1, 5, 6], [1, 2])),
    ("polydiv zero rem", lambda xp: xp.polydiv([1.0, 0, -1], [1.0, 1])),
    ("kaiser float M", lambda xp: xp.kaiser(7.0, 2)),
    ("hanning neg", lambda xp: xp.hanning(-3)),
    ("bartlett 3", lambda xp: xp.bartlett(3)),
    ("i0 scalar", lambda xp: xp.i0(0.5)),
    ("i0 list", lambda xp: xp.i0([0.5, 10])),
    ("i0 float16", lambda xp: xp.i0(xp.asarray(numpy.array([0.5, 10], "float16")))),
    ("convolve int8 overflow",
     lambda xp: xp.convolve(xp.asarray(numpy.array([100, 100, 100], "int8")),
                            xp.asarray(numpy.array([100, 3], "int8")))),
    ("correlate complex same swapped",
     lambda xp: xp.correlate(xp.asarray([1j, 2, 3]), xp.asarray([1, 2j, 3, 4, 5]), "same")),
    ("convolve mixed",
     lambda xp: xp.convolve(xp.asarray(numpy.array([1, 2, 3], "uint8")), xp.asarray(numpy.array([1, -2], "int8")))),
    ("divmod scalars", lambda xp: xp.divmod(xp.asarray(7), 2)),
    ("frexp list", lambda xp: xp.frexp([1.5, 8])),
    ("modf scalar", lambda xp: xp.modf(-3.5)),
    ("ldexp list", lambda xp: xp.ldexp([1.5, 8], [2, -1])),
    ("gcd lists", lambda xp: xp.gcd([12, -18], [8, 27])),
    ("lcm uint64",
     lambda xp: xp.lcm(xp.asarray(numpy.array([2**63, 6], "uint64")), xp.asarray(numpy.array([3, 4], "uint64")))),
    ("gcd mixed sign/unsigned",
     lambda xp: xp.gcd(xp.asarray(numpy.array([12], "uint8")), xp.asarray(numpy.array([-8], "int8")))),
    ("gcd uint64 int64",
     lambda xp: xp.gcd(xp.asarray(numpy.array([12], "uint64")), xp.asarray(numpy.array([-8], "int64")))),
    ("bitwise_count python int", lambda xp: xp.bitwise_count(xp.asarray([-1, 255]))),
    ("float_power int neg", lambda xp: xp.float_power(xp.asarray([2, 3]), -2)),
    ("nextafter python", lambda xp: xp.nextafter(xp.asarray([1.0, 2.0]), 3)),
    ("spacing int", lambda xp: xp.spacing(xp.asarray(numpy.array([1, 2], "int16")))),
]


@pytest.mark.parametrize("case", EDGE_CASES, ids=[name for name, _ in EDGE_CASES])
def test_argument_kinds(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # cross of 2-vectors
        check(case[1])


# Python-float (and 0-d) arguments where NumPy takes arrays.
SCALAR_ARGUMENTS = {
    "convolve": (2.0, 2.0), "correlate": (2.0, 2.0), "cross": (2.0, 2.0), "interp": (2.0, [1., 2], [1., 2]),
    "unwrap": (2.0,), "trapezoid": (2.0,), "gradient": (2.0,), "poly": (2.0,), "polyadd": (2.0, 2.0),
    "polysub": (2.0, 2.0), "polymul": (2.0, 2.0), "polydiv": (2.0, 2.0), "polyder": (2.0,), "polyint": (2.0,),
    "polyval": (2.0, 2.0), "polyfit": (2.0, 2.0, 1), "roots": (2.0,), "i0": (2.0,),
}


@pytest.mark.parametrize("name", sorted(SCALAR_ARGUMENTS))
@pytest.mark.parametrize("as_array", [False, True])
def test_scalar_arguments(name, as_array):
    args = SCALAR_ARGUMENTS[name]
    check(lambda xp: getattr(xp, name)(*[xp.asarray(a) if as_array and isinstance(a, float) else a for a in args]))
