"""Property tests (hypothesis): broadcasting, dtype promotion with arrays and Python scalars
(NEP 50), basic slicing (values and view write-through), and reductions over random axes.
Every example is a `check` against NumPy."""

import hypothesis.extra.numpy as hnp
import numpy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parity import ALL_DTYPES, check, sample

# Modest example counts keep the suite fast; no deadline, since the first call into the
# runtime may be slow.
PROPERTY = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

OPS = {
    "a + b": lambda xp, a, b: a + b,
    "a - b": lambda xp, a, b: a - b,
    "a * b": lambda xp, a, b: a * b,
    "a / b": lambda xp, a, b: a / b,
    "maximum": lambda xp, a, b: xp.maximum(a, b),
    "a < b": lambda xp, a, b: a < b,
    "a == b": lambda xp, a, b: a == b,
    "a | b": lambda xp, a, b: a | b,
}


small_ints = st.integers(-100, 100)


@PROPERTY
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4,
                                                min_side=0, max_side=4),
       data=st.data())
def test_broadcast_add(shapes, data):
    a = data.draw(hnp.arrays(numpy.int64, shapes.input_shapes[0], elements=small_ints))
    b = data.draw(hnp.arrays(numpy.int64, shapes.input_shapes[1], elements=small_ints))
    actual, expected = check(lambda xp, a, b: a + b, a, b)
    assert expected.shape == shapes.result_shape
    check(lambda xp, a, b: xp.add(b, a), a, b)
    check(lambda xp, a, b: xp.broadcast_to(a, shapes.result_shape) * 2 - b, a, b)


@PROPERTY
@given(first=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
       second=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
def test_broadcast_any_shapes(first, second):
    # Compatible shapes give NumPy's result; incompatible ones the same ValueError.
    check(lambda xp, a, b: xp.multiply(a, b), sample("float64", first),
          sample("float64", second, seed=1))


@PROPERTY
@given(left=st.sampled_from(ALL_DTYPES), right=st.sampled_from(ALL_DTYPES),
       name=st.sampled_from(sorted(OPS)))
def test_promotion_of_array_pairs(left, right, name):
    check(OPS[name], sample(left, (2, 3)),
          sample(right, (3,), "nonzero", seed=1))


python_scalars = st.one_of(
    st.integers(-20, 20),
    st.sampled_from([300, -300, 2**31, -(2**31) - 1, 2**63, 2**64]),
    st.floats(-1e6, 1e6, allow_subnormal=False),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e300]),
    st.complex_numbers(max_magnitude=1e6, allow_nan=False, allow_infinity=False,
                       allow_subnormal=False),
    st.booleans(),
)


@PROPERTY
@given(dtype=st.sampled_from(ALL_DTYPES), name=st.sampled_from(sorted(OPS)),
       scalar=python_scalars, scalar_first=st.booleans())
def test_promotion_with_python_scalars(dtype, name, scalar, scalar_first):
    # NEP 50: the scalar is weak (takes the array's dtype when its kind allows); an int
    # that does not fit the array's integer dtype raises OverflowError.
    def f(xp, a):
        return OPS[name](xp, scalar, a) if scalar_first else OPS[name](xp, a, scalar)

    check(f, sample(dtype, (4,)))


@PROPERTY
@given(dtype=st.sampled_from(ALL_DTYPES), scalar=st.sampled_from(
    [numpy.int8(3), numpy.uint16(7), numpy.int64(-2), numpy.float16(1.5),
     numpy.float32(-0.25), numpy.float64(2.0), numpy.complex64(1j), numpy.bool_(True)]))
def test_promotion_with_numpy_scalars(dtype, scalar):
    # NumPy scalars are strongly typed: they promote like 0-d arrays of their dtype.
    check(lambda xp, a: a + scalar, sample(dtype, (4,)))
    check(lambda xp, a: scalar * a, sample(dtype, (4,)))


shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6)


@PROPERTY
@given(data=st.data(), shape=shapes)
def test_basic_slicing_reads(data, shape):
    index = data.draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True,
                                        allow_ellipsis=True))
    a = numpy.arange(int(numpy.prod(shape)), dtype=numpy.int32).reshape(shape)
    check(lambda xp, a: a[index], a)
    check(lambda xp, a: a[index][...], a)


@PROPERTY
@given(data=st.data(), shape=shapes)
def test_basic_slicing_views_write_through(data, shape):
    index = data.draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True,
                                        allow_ellipsis=True))
    a = numpy.arange(int(numpy.prod(shape)), dtype=numpy.float64).reshape(shape)
    is_view = isinstance(a[index], numpy.ndarray)

    def through_view(xp, a):
        if is_view:
            view = a[index]
            view[...] = -1
        return a

    def through_setitem(xp, a):
        a[index] = -2.5
        return a

    check(through_view, a)
    check(through_setitem, a)


@PROPERTY
@given(data=st.data(), shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
def test_slices_of_strided_views(data, shape):
    # Two random slicings of a non-contiguous view (every other column of the base).
    base = numpy.arange(int(numpy.prod(shape)) * 2, dtype=numpy.int16)
    base = base.reshape(shape[:-1] + (shape[-1] * 2,))
    first = data.draw(hnp.basic_indices(shape, allow_ellipsis=False))
    second = data.draw(hnp.basic_indices(base[..., ::2][first].shape, min_dims=0))
    is_view = isinstance(base[..., ::2][first][second], numpy.ndarray)

    def f(xp, a):
        v = a[..., ::2][first][second]
        if is_view:
            v[...] = -1
        return a, v

    check(f, base)


@PROPERTY
@given(data=st.data(), shape=hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4),
       name=st.sampled_from(["sum", "max", "mean", "any", "prod"]), keepdims=st.booleans())
def test_reductions_over_random_axes(data, shape, name, keepdims):
    axis = data.draw(st.none() | hnp.valid_tuple_axes(len(shape), min_size=1))
    a = sample("float64", shape, "pm" if name == "prod" else "any")
    check(lambda xp, a: getattr(xp, name)(a, axis=axis, keepdims=keepdims), a)
