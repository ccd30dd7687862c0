"""sort, argsort and ndarray.sort/argsort run natively and match NumPy: values (NaN last,
-0.0 and 0.0 equal), dtypes, shapes, every axis, in place, kinds and errors. argsort is
stable, so it equals NumPy's stable argsort exactly. Long 1-D arrays are sorted in chunks
and merged; the result must not depend on the chunks (cpus, tiles)."""

import numpy
import pytest

import tessera.numpy as np
from parity import same_output_under


pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively


def data(shape, dtype, seed=0, specials=False):
    rng = numpy.random.default_rng(seed)
    kind = numpy.dtype(dtype).kind
    if kind == "b":
        return rng.random(shape) < 0.5
    if kind in "iu":
        info = numpy.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(dtype)
    if kind == "c":
        a = (rng.integers(-3, 3, shape) + 1j * rng.integers(-3, 3, shape)).astype(dtype)
    else:
        a = rng.standard_normal(shape).astype(dtype)
    if specials and a.size:
        flat = a.reshape(-1)
        flat[::7] = numpy.nan
        flat[1::11] = -0.0
        flat[2::13] = 0.0
        flat[3::17] = numpy.inf
        flat[4::19] = -numpy.inf
    return a


DTYPES = [numpy.float64, numpy.float32, numpy.float16, numpy.int64, numpy.int32, numpy.int8, numpy.uint8,
          numpy.uint64, numpy.bool_, numpy.complex128]
SHAPES_AXES = [((9,), -1), ((9,), None), ((6, 7), 0), ((6, 7), 1), ((6, 7), None), ((3, 4, 5), 1),
               ((3, 4, 5), -1), ((3, 4, 5), 0), ((0, 4), 1), ((5, 0), 0), ((1,), 0)]


def same(got, want):
    got = numpy.asarray(got)
    return got.dtype == want.dtype and got.shape == want.shape and numpy.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
def test_sort_and_argsort_match_numpy(dtype, shape, axis):
    a = data(shape, dtype, specials=True)
    t = np.array(a)
    assert same(np.sort(t, axis=axis), numpy.sort(a, axis=axis))
    assert same(np.argsort(t, axis=axis), numpy.argsort(a, axis=axis, kind="stable"))
    assert same(t.argsort(axis=axis), numpy.argsort(a, axis=axis, kind="stable"))
    if axis is not None:
        b = a.copy()
        b.sort(axis=axis)
        t.sort(axis=axis)
        assert same(t, b)


@pytest.mark.parametrize("n", [131_071, 131_072, 300_001, 2_000_003])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.int64, numpy.int16, numpy.complex64])
def test_long_rows(n, dtype):
    a = data(n, dtype, seed=n, specials=True)
    t = np.array(a)
    assert same(np.sort(t), numpy.sort(a))
    assert same(np.argsort(t), numpy.argsort(a, kind="stable"))
    t.sort()
    assert same(t, numpy.sort(a))


def test_sorting_a_view_in_place_reaches_the_array():
    a = data((8, 300_000), numpy.float64)
    t = np.array(a)
    t[3].sort()          # a long row of a larger array, chunked and copied back
    t[:, ::1000].sort(axis=0)
    a[3].sort()
    a[:, ::1000].sort(axis=0)
    assert same(t, a)


def test_stable_keeps_signed_zeros_in_order():
    a = numpy.array([0.0, -0.0, 1.0, -0.0, 0.0] * 30_000)
    for kind in ("stable", "mergesort"):
        got = numpy.asarray(np.sort(np.array(a), kind=kind))
        assert numpy.array_equal(numpy.signbit(got), numpy.signbit(numpy.sort(a, kind="stable")))
    got = numpy.asarray(np.sort(np.array(a), stable=True))
    assert numpy.array_equal(numpy.signbit(got), numpy.signbit(numpy.sort(a, stable=True)))


@pytest.mark.parametrize("dtype,bits,quiet", [(numpy.float64, numpy.uint64, 0x7FF8 << 48),
                                              (numpy.float32, numpy.uint32, 0x7FC0 << 16),
                                              (numpy.float16, numpy.uint16, 0x7E00)])
def test_unstable_sort_orders_equal_values_by_their_bits(dtype, bits, quiet):
    # -0.0 and 0.0 and NaNs of several payloads compare equal: an unstable sort puts them in
    # the order of their bits as signed numbers (-0.0 first), whatever the chunks were.
    rng = numpy.random.default_rng(11)
    a = rng.integers(-3, 4, 300_001).astype(dtype)
    a[rng.random(a.size) < 0.3] = -0.0
    sign = 1 << (8 * numpy.dtype(dtype).itemsize - 1)
    nans = numpy.array([quiet, quiet + 1, quiet + 2, quiet + 1 + sign], bits).view(dtype)
    a[::11] = nans[rng.integers(0, 4, a[::11].size)]
    signed = numpy.dtype(f"i{numpy.dtype(dtype).itemsize}")
    expected = a[numpy.lexsort((a.view(signed), a))]
    got = numpy.asarray(np.sort(np.array(a)))
    assert numpy.array_equal(got.view(signed), expected.view(signed))


def test_kinds_and_errors():
    a = data((4, 5), numpy.float64)
    for kind in ("quicksort", "heapsort", "mergesort", "stable", "q"):
        assert same(np.sort(np.array(a), kind=kind), numpy.sort(a, kind=kind))
    with pytest.raises(ValueError, match="sort kind"):
        np.sort(np.array(a), kind="bogus")
    with pytest.raises(ValueError, match="can't be provided at the same time"):
        np.sort(np.array(a), kind="stable", stable=True)
    with pytest.raises(ValueError, match="no fields"):
        np.sort(np.array(a), order="x")
    with pytest.raises(numpy.exceptions.AxisError):
        np.sort(np.array(a), axis=2)
    # NumPy's argsort sees a 0-d array as one element (np.sort raises for it).
    assert same(np.argsort(np.array(3.0)), numpy.argsort(numpy.array(3.0)))
    assert same(np.sort(np.array(3.0), axis=None), numpy.sort(numpy.array(3.0), axis=None))
    with pytest.raises(numpy.exceptions.AxisError):
        np.array(a).sort(axis=-3)


SCRIPT = "\n".join([
    "import hashlib, numpy, tessera.numpy as np",
    "a = numpy.random.default_rng(5).integers(0, 1000, 700_007).astype(float)",
    "a[::9] = numpy.nan",
    "a[1::5] = -0.0",
    "r = np.sort(np.array(a)), np.argsort(np.array(a)), np.argsort(np.array(a.reshape(7, -1)), axis=0)",
    "print(hashlib.sha1(b''.join(numpy.asarray(x).tobytes() for x in r)).hexdigest())",
])


def test_results_do_not_depend_on_chunks():
    same_output_under(SCRIPT, ["--cpus=2", "--cpus=1", "--cpus=3", "--cpus=2 --min-cpu-chunk=2"])
