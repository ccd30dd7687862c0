"""Random numbers.  tessera's generator is counter-based, so its values differ from NumPy's:
these tests compare shapes and dtypes with NumPy's, and check ranges, reproducibility and
rough moments of tessera's own streams (in selfcheck mode, of NumPy's)."""

import numpy
import pytest

from parity import public_exception_type, tnp

SIZES = [None, 0, 5, (3, 4), (2, 0), (2, 3, 4)]
# Generator method -> positional arguments before size.
GENERATOR_CALLS = {
    "random": (), "standard_normal": (), "uniform": (-2.0, 3.0), "normal": (1.5, 0.5),
    "integers": (-3, 7),
}
# Five-sigma bounds on sample moments make a false failure vanishingly unlikely.
N = 100_000
SIGMAS = 5


def as_numpy(x):
    return numpy.asarray(x)


def assert_like_numpy(actual, expected):
    actual, expected = as_numpy(actual), as_numpy(expected)
    assert actual.shape == expected.shape
    assert actual.dtype == expected.dtype


def raises_like_numpy(fn):
    """fn(module) must raise in NumPy; tessera must raise the same public exception type."""
    with pytest.raises(Exception) as info:
        fn(numpy)
    with pytest.raises(public_exception_type(info.value)):
        fn(tnp)


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("method", GENERATOR_CALLS)
def test_generator_shapes_and_dtypes(method, size):
    args = GENERATOR_CALLS[method]
    expected = getattr(numpy.random.default_rng(0), method)(*args, size=size)
    actual = getattr(tnp.random.default_rng(0), method)(*args, size=size)
    assert_like_numpy(actual, expected)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("method", ["random", "standard_normal"])
def test_generator_float_dtypes(method, dtype):
    actual = getattr(tnp.random.default_rng(1), method)(size=(50,), dtype=dtype)
    assert_like_numpy(actual, getattr(numpy.random.default_rng(1), method)((50,), dtype=dtype))
    raises_like_numpy(lambda xp: getattr(xp.random.default_rng(1), method)(3, dtype="int32"))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32", "int64", "uint64"])
def test_integers_dtype_and_range(dtype):
    values = as_numpy(tnp.random.default_rng(2).integers(0, 100, size=10_000, dtype=dtype))
    assert values.dtype == numpy.dtype(dtype)
    assert values.min() >= 0 and values.max() < 100
    assert set(numpy.unique(values).tolist()) == set(range(100)), "every value should occur"


@pytest.mark.parametrize("low,high", [(0, 2), (-5, 5), (10, 11), (-(2**40), 2**40)])
def test_integers_half_open_interval(low, high):
    values = as_numpy(tnp.random.default_rng(3).integers(low, high, size=20_000))
    assert values.min() >= low and values.max() < high
    if high - low <= 10:
        assert values.min() == low and values.max() == high - 1
    inclusive = as_numpy(tnp.random.default_rng(3).integers(low, high, 20_000, endpoint=True))
    assert inclusive.min() >= low and inclusive.max() <= high
    single = as_numpy(tnp.random.default_rng(3).integers(high - low))  # [0, high - low)
    assert single.shape == () and 0 <= int(single) < high - low


@pytest.mark.parametrize("low,high", [(0.0, 1.0), (-3.0, -1.0), (5.0, 5.5), (-1e3, 1e3)])
def test_uniform_half_open_interval(low, high):
    values = as_numpy(tnp.random.default_rng(4).uniform(low, high, size=N))
    assert values.min() >= low and values.max() < high
    mean, spread = (low + high) / 2, (high - low) / numpy.sqrt(12)
    assert abs(values.mean() - mean) < SIGMAS * spread / numpy.sqrt(N)
    unit = as_numpy(tnp.random.default_rng(4).random(N))
    assert unit.min() >= 0.0 and unit.max() < 1.0


def test_generator_reproducibility():
    for method, args in GENERATOR_CALLS.items():
        first = as_numpy(getattr(tnp.random.default_rng(42), method)(*args, size=(100,)))
        again = as_numpy(getattr(tnp.random.default_rng(42), method)(*args, size=(100,)))
        other = as_numpy(getattr(tnp.random.default_rng(43), method)(*args, size=(100,)))
        numpy.testing.assert_array_equal(first, again, err_msg=method)
        assert not numpy.array_equal(first, other), f"{method}: seeds 42 and 43 agree"


def test_successive_draws_differ_and_stream_is_deterministic():
    rng = tnp.random.default_rng(7)
    a, b = as_numpy(rng.random(1000)), as_numpy(rng.random(1000))
    assert not numpy.array_equal(a, b)
    replay = tnp.random.default_rng(7)
    numpy.testing.assert_array_equal(as_numpy(replay.random(1000)), a)
    numpy.testing.assert_array_equal(as_numpy(replay.random(1000)), b)


def test_normal_moments():
    values = as_numpy(tnp.random.default_rng(11).standard_normal(N))
    assert abs(values.mean()) < SIGMAS / numpy.sqrt(N)
    assert abs(values.std() - 1.0) < SIGMAS / numpy.sqrt(2 * N)
    assert abs(numpy.mean(values**3)) < SIGMAS * numpy.sqrt(15 / N)  # symmetric
    assert abs(numpy.mean(numpy.abs(values) < 1) - 0.6827) < 0.01  # shape, not just moments
    shifted = as_numpy(tnp.random.default_rng(12).normal(10.0, 3.0, size=N))
    assert abs(shifted.mean() - 10.0) < SIGMAS * 3.0 / numpy.sqrt(N)
    assert abs(shifted.std() - 3.0) < SIGMAS * 3.0 / numpy.sqrt(2 * N)


def test_normal_broadcasts_parameters():
    loc, scale = tnp.asarray([0.0, 100.0]), tnp.asarray([1.0, 0.01])
    values = as_numpy(tnp.random.default_rng(13).normal(loc, scale, size=(N // 10, 2)))
    assert values.shape == (N // 10, 2) and values.dtype == numpy.float64
    assert abs(values[:, 0].mean()) < 0.1 and abs(values[:, 1].mean() - 100.0) < 0.001
    assert abs(values[:, 1].std() - 0.01) < 0.001


def test_float32_streams_have_right_moments():
    rng = tnp.random.default_rng(14)
    values = as_numpy(rng.standard_normal(N, dtype="float32")).astype(numpy.float64)
    assert abs(values.mean()) < SIGMAS / numpy.sqrt(N)
    uniform = as_numpy(rng.random(N, dtype="float32"))
    assert uniform.min() >= 0 and uniform.max() < 1
    assert abs(uniform.astype(numpy.float64).mean() - 0.5) < SIGMAS * 0.2887 / numpy.sqrt(N)


def test_generator_argument_errors():
    raises_like_numpy(lambda xp: xp.random.default_rng(0).integers(5, 2))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).normal(0.0, -1.0, 3))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).random(-1))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).integers(0, 300, dtype="uint8"))
    raises_like_numpy(lambda xp: xp.random.default_rng(-1))
    # uniform: the Generator refuses high < low and a range that is not finite, for array bounds too
    raises_like_numpy(lambda xp: xp.random.default_rng(0).uniform(5, 1))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).uniform(xp.asarray([0.0, 5.0]), 1.0))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).uniform(0.0, xp.asarray([1.0, numpy.inf])))
    raises_like_numpy(lambda xp: xp.random.uniform(0, numpy.inf))
    raises_like_numpy(lambda xp: xp.random.permutation(1.5))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).permutation("a"))


@pytest.mark.parametrize("bounds", [(5.0, 1.0), ([5.0, 0.0], [1.0, 2.0])])
def test_legacy_uniform_draws_between_bounds_in_either_order(bounds):
    """numpy.random.uniform (unlike Generator.uniform) takes high < low: values in (high, low]."""
    low, high = (numpy.asarray(b) for b in bounds)
    want = numpy.random.uniform(low, high, size=(1000, low.size))
    got = numpy.asarray(tnp.random.uniform(tnp.asarray(low), tnp.asarray(high), size=(1000, low.size)))
    assert got.shape == want.shape and got.dtype == want.dtype
    lo, hi = numpy.minimum(low, high), numpy.maximum(low, high)
    assert numpy.all((got >= lo) & (got <= hi)) and numpy.all((want >= lo) & (want <= hi))
    assert numpy.all(numpy.abs(got.mean(axis=0) - (lo + hi) / 2) < 0.2 * (hi - lo))


def test_permutation_of_a_negative_count_is_empty():
    for xp in (numpy, tnp):
        for p in (xp.random.default_rng(0).permutation(-1), xp.random.permutation(-3)):
            assert numpy.asarray(p).shape == (0,) and numpy.asarray(p).dtype == numpy.int64


LEGACY = {
    "rand": lambda r: r.rand(3, 4), "rand_scalar": lambda r: r.rand(),
    "randn": lambda r: r.randn(2, 5), "randn_scalar": lambda r: r.randn(),
    "random": lambda r: r.random((4, 2)), "random_scalar": lambda r: r.random(),
    "random_int_size": lambda r: r.random(6), "randint": lambda r: r.randint(-2, 9, size=(30,)),
    "randint_one_bound": lambda r: r.randint(5, size=20),
    "randint_dtype": lambda r: r.randint(0, 4, size=30, dtype="int8"),
}


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_shapes_dtypes_and_seeding(name):
    call = LEGACY[name]
    numpy.random.seed(0)
    tnp.random.seed(0)
    assert_like_numpy(call(tnp.random), call(numpy.random))
    tnp.random.seed(123)
    first = as_numpy(call(tnp.random))
    tnp.random.seed(123)
    numpy.testing.assert_array_equal(as_numpy(call(tnp.random)), first)
    if first.size > 1:
        tnp.random.seed(124)
        assert not numpy.array_equal(as_numpy(call(tnp.random)), first)


def test_legacy_ranges_and_moments():
    tnp.random.seed(5)
    uniform = as_numpy(tnp.random.rand(N))
    assert uniform.min() >= 0 and uniform.max() < 1
    assert abs(uniform.mean() - 0.5) < SIGMAS * 0.2887 / numpy.sqrt(N)
    normal = as_numpy(tnp.random.randn(N))
    assert abs(normal.mean()) < SIGMAS / numpy.sqrt(N)
    assert abs(normal.std() - 1) < SIGMAS / numpy.sqrt(2 * N)
    ints = as_numpy(tnp.random.randint(-2, 9, size=N))
    assert ints.min() == -2 and ints.max() == 8
    sample = as_numpy(tnp.random.random(N))
    assert sample.min() >= 0 and sample.max() < 1


def test_legacy_successive_calls_differ():
    tnp.random.seed(9)
    a, b = as_numpy(tnp.random.rand(100)), as_numpy(tnp.random.rand(100))
    assert not numpy.array_equal(a, b)


def test_random_arrays_are_module_arrays():
    # Results feed straight into other operations like any array of the module.
    x = tnp.random.default_rng(0).random((3, 4))
    y = as_numpy((x * 2 + 1).sum(axis=0))
    assert y.shape == (4,) and numpy.all((y >= 4) & (y < 12))
