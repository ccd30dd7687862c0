"""numpy.fft: the one-axis and several-axis transforms (every n/s, axis/axes and norm, each
dtype, views, out=), the frequencies and the shifts, NumPy's errors and deprecations, and
that nothing falls back to NumPy. Values are compared relative to the largest magnitude of
NumPy's result (FFTW and pocketfft round differently)."""

import warnings

import numpy
import pytest

import tessera
from parity import ids, public_exception_type, tnp

NORMS = [None, "backward", "ortho", "forward"]
ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
SEVERAL_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
# Functions that read complex input meaningfully (the others' complex input is a TypeError).
REAL_ONLY = {"rfft", "ihfft", "rfftn", "rfft2"}
RTOL = {numpy.dtype("float16"): 4e-3, numpy.dtype("float32"): 1e-5, numpy.dtype("float64"): 1e-12}


def data(dtype, shape, seed=0):
    """Random values of `dtype` (small integers for integer and bool dtypes)."""
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -5, 6, shape).astype(dtype)
    values = rng.standard_normal(shape)
    if dtype.kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def _materialize(value):
    if isinstance(value, (list, tuple)):
        return type(value)(_materialize(v) for v in value)
    if isinstance(value, (bool, int, float, complex, numpy.generic)) or value is None:
        return value
    return numpy.asarray(value)


def _run(xp, fn, args):
    converted = [xp.array(a, copy=True) if isinstance(a, numpy.ndarray) else a for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("error", tessera.FallbackWarning)  # everything here is native
        return _materialize(fn(xp, *converted))


def _assert_close(actual, expected, where):
    if isinstance(expected, (list, tuple)):
        assert type(actual) is type(expected) and len(actual) == len(expected), where
        for i, (a, e) in enumerate(zip(actual, expected)):
            _assert_close(a, e, f"{where}[{i}]")
        return
    if not isinstance(expected, numpy.ndarray):
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"
        return
    assert isinstance(actual, numpy.ndarray), f"{where}: {type(actual)}"
    assert actual.dtype == expected.dtype, f"{where}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{where}: shape {actual.shape} != {expected.shape}"
    if expected.size == 0:
        return
    if expected.dtype.kind not in "fc":
        numpy.testing.assert_array_equal(actual, expected, err_msg=where, strict=True)
        return
    scale = float(numpy.abs(expected.astype(numpy.complex128)).max())
    rtol = RTOL[numpy.empty(0, expected.dtype).real.dtype]
    error = float(numpy.abs(actual.astype(numpy.complex128) - expected).max())
    assert error <= rtol * max(scale, 1e-300), f"{where}: error {error} relative to {scale}"


def check(fn, *args):
    """fn(numpy, *args) and fn(tessera.numpy, *args) agree, or raise the same public type."""
    try:
        expected = _run(numpy, fn, args)
    except (AssertionError, NameError, tessera.FallbackWarning):
        raise
    except Exception as exc:  # noqa: BLE001 - NumPy's error is what tessera must raise
        with pytest.raises(public_exception_type(exc)):
            _run(tnp, fn, args)
        return
    _assert_close(_run(tnp, fn, args), expected, "result")


def call(name, **kwargs):
    def fn(xp, a):
        return getattr(xp.fft, name)(a, **kwargs)
    return fn


# (shape, axis): every axis of 1-, 2- and 3-D arrays, negative ones, size-1 axes, and an
# axis out of range.
AXIS_CASES = [((8,), -1), ((7,), 0), ((1,), 0), ((4, 6), 0), ((4, 6), 1), ((4, 6), -2), ((3, 5, 4), 0),
              ((3, 5, 4), 1), ((3, 5, 4), -1), ((5, 1), 1), ((1, 5), 0), ((4, 6), 2), ((4, 6), -3)]


@pytest.mark.parametrize("n", [None, 1, 3, 10])
@pytest.mark.parametrize("case", AXIS_CASES, ids=ids)
@pytest.mark.parametrize("name", ONE_AXIS)
def test_one_axis(name, case, n):
    shape, axis = case
    dtype = "float64" if name in REAL_ONLY else "complex128"
    for norm in NORMS:
        check(call(name, n=n, axis=axis, norm=norm), data(dtype, shape))


DTYPES = ["bool", "int8", "int32", "int64", "uint8", "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ONE_AXIS)
def test_one_axis_dtypes(name, dtype):
    # float32 and complex64 stay single precision; integers and bools compute in double;
    # complex input to rfft and ihfft is a TypeError.
    a = data(dtype, (3, 8))
    for kwargs in [{}, {"axis": 0}, {"n": 5, "norm": "ortho"}, {"n": 12, "axis": 0, "norm": "forward"}]:
        check(call(name, **kwargs), a)


VIEWS = {
    "strided": lambda a: a[::2, 1::2],
    "transposed": lambda a: a.T,
    "reversed": lambda a: a[::-1, ::-3],
    "column": lambda a: a[:, 2],
}


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("name", ONE_AXIS + ["fftn", "rfftn", "irfftn"])
def test_views(name, view):
    dtype = "float64" if name in REAL_ONLY else "complex128"
    a = data(dtype, (6, 9))
    make = VIEWS[view]
    check(lambda xp, a: getattr(xp.fft, name)(make(a)), a)
    check(lambda xp, a: getattr(xp.fft, name)(make(a), axis=0) if name in ONE_AXIS else
          getattr(xp.fft, name)(make(a), axes=(0,)), a)


def test_broadcast_input():
    a = data("float64", (1, 8))
    check(lambda xp, a: xp.fft.fft(xp.broadcast_to(a, (5, 8))), a)
    check(lambda xp, a: xp.fft.rfft(xp.broadcast_to(a, (5, 8)), axis=0), a)


# (shape, s, axes): s smaller and larger than the axes, -1 entries, axes in any order,
# repeated axes (NumPy transforms twice), empty axes and errors.
SEVERAL_CASES = [
    ((4, 6), None, None), ((4, 6), (3, 8), None), ((4, 6), None, (0,)), ((4, 6), None, (1, 0)),
    ((4, 6), (5, 2), (1, 0)), ((4, 6), (-1, 4), (0, 1)), ((3, 4, 5), None, None), ((3, 4, 5), (2, 6), (0, 2)),
    ((3, 4, 5), (4, -1, 3), (2, 0, 1)), ((3, 4, 5), None, (-1, -3)), ((3, 4, 5), None, (0, 0)),
    ((3, 4, 5), (3, 3), (1, 1)), ((2, 1, 5), None, (1, 2)), ((4, 6), None, ()), ((4, 6), (3,), (0, 1)),
    ((4, 6), None, (0, 2)), ((4, 6), (0, 3), (0, 1)), ((6,), None, None), ((6,), None, (-2, -1)),
]


@pytest.mark.parametrize("case", SEVERAL_CASES, ids=ids)
@pytest.mark.parametrize("name", SEVERAL_AXES)
def test_several_axes(name, case):
    shape, s, axes = case
    dtype = "float64" if name in REAL_ONLY else "complex128"
    a = data(dtype, shape)
    for norm in NORMS:
        kwargs = {"norm": norm}
        if s is not None:
            kwargs["s"] = s
        if axes is not None:
            kwargs["axes"] = axes
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # s without axes (test_deprecations)
            check(call(name, **kwargs), a)


@pytest.mark.parametrize("dtype", ["int32", "bool", "float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", SEVERAL_AXES)
def test_several_axes_dtypes(name, dtype):
    a = data(dtype, (4, 5, 6))
    check(call(name), a)
    check(call(name, s=(3, 7), axes=(2, 0), norm="ortho"), a)


# Functions whose out= NumPy honours; ifft2, irfft2 and hfft accept it and ignore it.
OUT_SHAPES = {"fft": (4, 6), "ifft": (4, 6), "rfft": (4, 4), "ihfft": (4, 4), "irfft": (4, 10), "fftn": (4, 6),
              "ifftn": (4, 6), "fft2": (4, 6), "rfftn": (4, 4), "rfft2": (4, 4), "irfftn": (4, 10)}
IGNORED_OUT = {"ifft2": ((4, 6), "complex128"), "irfft2": ((4, 10), "float64"), "hfft": ((4, 10), "float64")}


@pytest.mark.parametrize("out_dtype", ["complex128", "complex64", "float64", "float32"])
@pytest.mark.parametrize("name", list(OUT_SHAPES))
def test_out(name, out_dtype):
    a = data("float64" if name in REAL_ONLY else "complex128", (4, 6))

    def fn(xp, a):
        out = xp.zeros(OUT_SHAPES[name], out_dtype)
        r = getattr(xp.fft, name)(a, out=out)
        return r is out, out

    check(fn, a)


@pytest.mark.parametrize("name", list(OUT_SHAPES))
def test_out_view_and_errors(name):
    a = data("float64" if name in REAL_ONLY else "complex128", (4, 6))
    rows, cols = OUT_SHAPES[name]
    dtype = "float64" if name in ("irfft", "irfftn") else "complex128"

    def into_view(xp, a):
        big = xp.zeros((rows * 2, cols + 3), dtype)
        r = getattr(xp.fft, name)(a, out=big[::2, 1:cols + 1])
        return r.shape, big

    check(into_view, a)
    check(lambda xp, a: getattr(xp.fft, name)(a, out=xp.zeros((rows, cols + 1), dtype)), a)  # wrong shape
    check(lambda xp, a: getattr(xp.fft, name)(a, out=xp.zeros((rows, cols), dtype)[None]), a)  # wrong rank
    check(lambda xp, a: getattr(xp.fft, name)(a, out=[1]), a)  # not an array


@pytest.mark.parametrize("name", list(IGNORED_OUT))
def test_ignored_out(name):
    shape, dtype = IGNORED_OUT[name]

    def fn(xp, a):
        out = xp.zeros(shape, dtype)
        r = getattr(xp.fft, name)(a, out=out)
        return r is out, r, out

    check(fn, data("complex128", (4, 6)))


def test_out_is_the_input():
    # In place: NumPy reads the input before it writes; so must tessera.
    def fn(xp, a):
        r = xp.fft.fft(a, out=a)
        s = xp.fft.fftn(a, axes=(1, 0), out=a)
        return r is a, s is a, a

    check(fn, data("complex128", (4, 6)))
    check(lambda xp, a: (xp.fft.fft(a.T, out=a), a), data("complex128", (5, 5)))


def test_out_broadcasts_the_batch():
    # As for any ufunc, the other axes of the input broadcast to the output's.
    def fn(xp, a):
        out = xp.zeros((3, 6), "complex128")
        xp.fft.fft(a, out=out)
        return out

    check(fn, data("float64", (1, 6)))
    check(fn, data("float64", (2, 6)))


def test_empty_and_size_one_axes():
    check(call("fft"), data("float64", (0, 4)))
    check(call("rfft", axis=0), data("float64", (3, 0)))
    check(call("fft", n=4), data("float64", (0,)))
    # An empty input zero-padded to 6 values transforms to zeros (NumPy 2.4's irfft returns
    # uninitialised memory here, so it is not the reference).
    r = numpy.asarray(tnp.fft.irfft(tnp.zeros(0, "complex128"), n=6))
    assert r.dtype == numpy.float64 and r.shape == (6,) and not r.any()
    check(call("fft"), data("float64", (0,)))
    check(call("fftn"), data("float64", (2, 0, 3)))
    check(call("fftn", s=(2, 3), axes=(0, 1)), data("float64", (0, 0)))
    check(call("fft"), data("float64", (1,)))
    check(call("irfft"), data("complex128", (1,)))
    check(call("irfft", n=1), data("complex128", (1,)))
    check(call("hfft", n=1), data("complex128", (3,)))


ERRORS = {
    "n zero": lambda xp, a: xp.fft.fft(a, n=0),
    "n negative": lambda xp, a: xp.fft.rfft(a, n=-2),
    "irfft of one value": lambda xp, a: xp.fft.irfft(a[:, :1]),
    "n not an integer": lambda xp, a: xp.fft.fft(a, n=2.5),
    "bad norm": lambda xp, a: xp.fft.ifft(a, norm="unitary"),
    "bad norm hfft": lambda xp, a: xp.fft.hfft(a, norm="both"),
    "n checked before norm": lambda xp, a: xp.fft.fft(a, n=0, norm="bad"),
    "axis": lambda xp, a: xp.fft.fft(a, axis=2),
    "axis with n": lambda xp, a: xp.fft.ifft(a, n=4, axis=-3),
    "axis not an integer": lambda xp, a: xp.fft.fft(a, axis=1.0),
    "0-d": lambda xp, a: xp.fft.fft(a[0, 0]),
    "complex rfft": lambda xp, a: xp.fft.rfft(a + 1j),
    "complex ihfft": lambda xp, a: xp.fft.ihfft(a * 1j, n=5),
    "complex rfftn": lambda xp, a: xp.fft.rfftn(a + 1j),
    "s and axes lengths": lambda xp, a: xp.fft.fftn(a, s=(3, 4), axes=(0,)),
    "s an integer": lambda xp, a: xp.fft.fftn(a, s=3, axes=(0,)),
    "axes an integer": lambda xp, a: xp.fft.fftn(a, s=(3,), axes=0),
    "axes out of range": lambda xp, a: xp.fft.fftn(a, axes=(0, 5)),
    "s zero": lambda xp, a: xp.fft.ifftn(a, s=(0, 2), axes=(0, 1)),
    "rfftn without axes": lambda xp, a: xp.fft.rfftn(a, axes=()),
    "irfftn without axes": lambda xp, a: xp.fft.irfftn(a, axes=()),
    "fft2 of 1-D": lambda xp, a: xp.fft.fft2(a[0]),
    "out real for complex": lambda xp, a: xp.fft.fft(a, out=xp.zeros((3, 4))),
    "out of unbroadcastable batch": lambda xp, a: xp.fft.fft(a, out=xp.zeros((2, 4), complex)),
    "string input": lambda xp, a: xp.fft.fft(["a", "b"]),
    "fftfreq of a float": lambda xp, a: xp.fft.fftfreq(4.0),
    "fftfreq of zero": lambda xp, a: xp.fft.fftfreq(0),
    "fftfreq with d zero": lambda xp, a: xp.fft.fftfreq(4, 0.0),
    "rfftfreq of zero": lambda xp, a: xp.fft.rfftfreq(0, 1j),
    "fftfreq negative": lambda xp, a: xp.fft.fftfreq(-3),
    "fftfreq device": lambda xp, a: xp.fft.fftfreq(4, device="gpu"),
    "fftshift of 0-d": lambda xp, a: xp.fft.fftshift(a[0, 0]),
    "fftshift axis": lambda xp, a: xp.fft.fftshift(a, axes=2),
    "ifftshift axes": lambda xp, a: xp.fft.ifftshift(a, axes=(0, -3)),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors(case):
    a = data("float64", (3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            ERRORS[case](numpy, a)
        except Exception as exc:  # noqa: BLE001
            expected = public_exception_type(exc)
        else:
            pytest.fail(f"NumPy raised nothing for {case}")
        with pytest.raises(expected):
            _run(tnp, ERRORS[case], (a,))


def test_error_messages():
    a = tnp.ones((3, 4))
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\) specified\."):
        tnp.fft.fft(a, n=0)
    with pytest.raises(ValueError, match='Invalid norm value unitary; should be "backward", "ortho" or "forward"'):
        tnp.fft.fft(a, norm="unitary")
    with pytest.raises(numpy.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        tnp.fft.fft(a, axis=2)
    with pytest.raises(TypeError, match="rfft_n_even' not supported for the input types"):
        tnp.fft.rfft(a + 1j)
    with pytest.raises(ValueError, match="output array has wrong shape"):
        tnp.fft.fft(a, out=tnp.zeros((3, 5), complex))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'fft' output from dtype\\('complex128'\\)"):
        tnp.fft.fft(a, out=tnp.zeros((3, 4)))
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        tnp.fft.fftn(a, s=(1, 2), axes=(0,))
    with pytest.raises(ValueError, match="n should be an integer"):
        tnp.fft.rfftfreq(2.0)
    # The runtime stays usable after each.
    numpy.testing.assert_allclose(numpy.asarray(tnp.fft.fft(a)), numpy.fft.fft(numpy.ones((3, 4))))


def test_deprecations():
    # NumPy 2 deprecates s without axes, and None in s; both still work and warn.
    a = data("complex128", (3, 4, 5))
    for name in ["fftn", "irfftn"]:
        for kwargs in [{"s": (3, 6)}, {"s": (None, 6), "axes": (0, 2)}, {"s": (4, None), "axes": (1, 2)}]:
            for xp in (numpy, tnp):
                with pytest.warns(DeprecationWarning):
                    getattr(xp.fft, name)(xp.asarray(a), **kwargs)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                check(call(name, **kwargs), a)


def test_irfft_ignores_the_imaginary_parts_a_real_signal_lacks():
    check(call("irfft", n=4), numpy.array([1 + 1j, 2 + 3j, 4 + 5j]))
    check(call("irfft", n=5), numpy.array([1 + 1j, 2 + 3j, 4 + 5j]))
    check(call("hfft"), numpy.array([[1 - 2j, 2 + 3j, 4 + 5j], [3j, 1, 2]]))


@pytest.mark.parametrize("n", [2, 17, 97, 128, 1000, 4097])
def test_lengths(n):
    # Powers of two, primes and mixed radices take different FFTW algorithms.
    check(call("fft"), data("complex128", (3, n)))
    check(call("rfft"), data("float64", (n,)))
    check(call("irfft", n=n), data("complex128", (2, n // 2 + 1)))
    check(call("fft"), data("complex64", (2, n)))


def test_python_inputs():
    check(lambda xp: xp.fft.fft([1, 2, 3, 4]))
    check(lambda xp: xp.fft.rfft([1.5, 2, 3]))
    check(lambda xp: xp.fft.ifft([[1j, 2], [3, 4]], axis=0))
    check(lambda xp: xp.fft.fftn([[1, 2], [3, 4]]))
    check(lambda xp: xp.fft.fftshift([1, 2, 3, 4, 5]))
    check(lambda xp: xp.fft.fft(numpy.arange(6.0)))


@pytest.mark.parametrize("d", [1.0, 0.25, 3, numpy.float32(0.1), numpy.float64(2.5), 2j, True])
@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_frequencies(n, d):
    check(lambda xp: xp.fft.fftfreq(n, d))
    check(lambda xp: xp.fft.rfftfreq(n, d=d, device="cpu"))
    check(lambda xp: xp.fft.fftfreq(numpy.int32(n)))


def test_rfftfreq_of_a_negative_length():
    check(lambda xp: xp.fft.rfftfreq(-3))


SHIFT_AXES = [None, 0, -1, (0,), (1, 0), (0, 0), (), [1]]


@pytest.mark.parametrize("axes", SHIFT_AXES, ids=ids)
@pytest.mark.parametrize("shape", [(1,), (7,), (8,), (3, 4), (2, 3, 5), (0, 3)], ids=ids)
@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts(name, shape, axes):
    a = data("int32", shape)
    check(lambda xp, a: getattr(xp.fft, name)(a, axes=axes), a)
    check(lambda xp, a: getattr(xp.fft, name)(a.astype("complex64")[::-1], axes), a)


def test_shift_round_trip():
    a = data("float64", (5, 6, 7))
    check(lambda xp, a: xp.fft.ifftshift(xp.fft.fftshift(a)), a)
    check(lambda xp, a: xp.fft.fftshift(xp.fft.fftfreq(9, 0.5)), a)


def test_round_trips():
    a = data("float64", (6, 10))
    check(lambda xp, a: xp.fft.ifft(xp.fft.fft(a)).real, a)
    check(lambda xp, a: xp.fft.irfft(xp.fft.rfft(a), n=10), a)
    check(lambda xp, a: xp.fft.irfftn(xp.fft.rfftn(a), s=a.shape, axes=(0, 1)), a)
    check(lambda xp, a: xp.fft.ihfft(xp.fft.hfft(a + 0j), n=18), a)


def test_lines_do_not_depend_on_the_tiling():
    # Each line goes through the same plan from an aligned buffer: transforming a batch gives,
    # bit for bit, the transforms of its lines one at a time.
    a = tnp.asarray(data("complex128", (64, 96)))
    batch = numpy.asarray(tnp.fft.fft(a))
    for i in (0, 17, 63):
        numpy.testing.assert_array_equal(batch[i], numpy.asarray(tnp.fft.fft(a[i])))
    columns = numpy.asarray(tnp.fft.fft(a, axis=0))
    numpy.testing.assert_array_equal(columns[:, 5], numpy.asarray(tnp.fft.fft(a[:, 5])))


def test_large_batch():
    a = data("float64", (512, 256), seed=3)
    check(call("rfft"), a)
    check(call("fft", axis=0), a)
    check(call("fft2"), a)
    check(call("irfft2", s=(500, 300)), a)


def test_no_function_falls_back():
    assert set(numpy.fft.__all__) <= set(dir(tnp.fft)) | {"helper"}, "numpy.fft names missing"
    a = tnp.asarray(data("float64", (4, 6)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", tessera.FallbackWarning)
        for name in numpy.fft.__all__:
            f = getattr(tnp.fft, name)
            assert f is getattr(tessera._tessera._fft, name), f"{name} is not the native function"
            result = f(4) if name.endswith("freq") else f(a)
            assert isinstance(result, tessera.numpy.ndarray), name


def test_numpy_functions_dispatch_to_tessera():
    # numpy.fft's functions given a tessera array run tessera's (NEP 18), not the fallback.
    a = data("float64", (4, 6))
    t = tnp.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tessera.FallbackWarning)
        results = [numpy.fft.rfft2(t), numpy.fft.ifft(t, axis=0, norm="ortho"), numpy.fft.fftshift(t, axes=0)]
    expected = [numpy.fft.rfft2(a), numpy.fft.ifft(a, axis=0, norm="ortho"), numpy.fft.fftshift(a, axes=0)]
    for r, e in zip(results, expected):
        assert type(r) is type(t)
        _assert_close(numpy.asarray(r), e, "dispatched")
