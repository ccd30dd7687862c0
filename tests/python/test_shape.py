"""Shape manipulation and conversion: copy, astype, reshape, ravel, flatten, transpose, .T,
swapaxes, squeeze, expand_dims, concatenate, stack — values, dtypes, and which results are
views (writes reach the base) or copies (they do not)."""

import numpy
import pytest

from parity import ALL_DTYPES, check, ids, sample


def writes_through(op):
    """fn(xp, a): apply op, write into the result, and return both base and result."""

    def f(xp, a):
        result = op(xp, a)
        result[...] = -1
        return a, result

    return f


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copy_is_independent(dtype):
    a = sample(dtype, (3, 4))
    check(writes_through(lambda xp, a: a.copy()), a)
    check(writes_through(lambda xp, a: xp.copy(a)), a)
    check(writes_through(lambda xp, a: a[::-1, ::2].copy()), a)
    check(lambda xp, a: a.T.copy(), a)


@pytest.mark.parametrize("target", ALL_DTYPES)
@pytest.mark.parametrize("source", ALL_DTYPES)
def test_astype(source, target):
    # Non-negative data, so float -> unsigned conversions are well defined; complex -> real
    # drops the imaginary part (NumPy warns ComplexWarning; only values are compared).
    a = sample(source, (3, 4), "nonneg")
    check(lambda xp, a: a.astype(target), a)
    check(lambda xp, a: a[::-1].T.astype(target), a)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_astype_copy_semantics(dtype):
    check(writes_through(lambda xp, a: a.astype(dtype)), sample("int32", (3, 4)))
    check(lambda xp, a: a.astype(dtype, copy=False) is a, sample("int32", (3, 4)))
    check(lambda xp, a: a.astype(numpy.dtype(dtype)).dtype, sample("int32", (3, 4)))


def test_astype_float_to_int_truncates():
    values = numpy.array([-2.75, -1.5, -0.25, 0.25, 1.5, 2.75, 100.5])
    for target in ["int8", "int16", "int32", "int64", "bool"]:
        check(lambda xp, a: a.astype(target), values)


RESHAPES = [
    ((24,), (4, 6)), ((24,), (2, 3, 4)), ((2, 3, 4), (6, 4)), ((2, 3, 4), (-1,)),
    ((2, 3, 4), (4, -1)), ((2, 3, 4), (2, -1, 2)), ((2, 3, 4), 24), ((2, 3, 4), -1),
    ((1,), ()), ((), (1, 1)), ((0,), (0, 5)), ((0, 3), (-1, 3)), ((6,), (1, 6, 1)),
    ((2, 3, 4), (5, 5)), ((2, 3, 4), (-1, -1)), ((2, 3, 4), (5, -1)), ((0,), (-1, 0)),
    ((2, 3, 4), (-2, 12)),
]


@pytest.mark.parametrize("source,target", RESHAPES, ids=ids)
def test_reshape(source, target):
    # Includes impossible shapes (ValueError) and invalid -1 use (ValueError).
    a = sample("int16", source)
    check(lambda xp, a: a.reshape(target), a)
    check(lambda xp, a: xp.reshape(a, target), a)
    if isinstance(target, tuple) and len(target) > 1:
        check(lambda xp, a: a.reshape(*target), a)


@pytest.mark.parametrize("order", ["C", "F"])
def test_reshape_order(order):
    check(lambda xp, a: a.reshape((4, 6), order=order), sample("float32", (2, 3, 4)))
    check(lambda xp, a: a.ravel(order=order), sample("float32", (2, 3, 4)))


def test_reshape_views_write_through():
    a = sample("float64", (2, 3, 4))
    check(writes_through(lambda xp, a: a.reshape(6, 4)[1:3]), a)
    check(writes_through(lambda xp, a: a.reshape(-1)), a)
    check(writes_through(lambda xp, a: a[1].reshape(4, 3)), a)
    # A non-contiguous source cannot be reshaped as a view: the result is a copy.
    check(writes_through(lambda xp, a: a.T.reshape(-1)), a)
    check(writes_through(lambda xp, a: a[:, ::2].reshape(4, 4)), a)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float64", "complex64"])
def test_ravel_and_flatten(dtype):
    a = sample(dtype, (2, 3, 4))
    for f in (lambda xp, a: a.ravel(), lambda xp, a: xp.ravel(a), lambda xp, a: a.flatten(),
              lambda xp, a: a[::-1, :, 1::2].ravel(), lambda xp, a: a.T.flatten()):
        check(f, a)
    check(writes_through(lambda xp, a: a.ravel()), a)  # contiguous: a view
    check(writes_through(lambda xp, a: a.flatten()), a)  # always a copy
    check(writes_through(lambda xp, a: a.T.ravel()), a)  # non-contiguous: a copy


TRANSPOSES = [None, (0, 1, 2), (2, 0, 1), (1, 0, 2), (-1, 0, 1), (0, 1), (0, 0, 1), (0, 1, 3)]


@pytest.mark.parametrize("axes", TRANSPOSES, ids=ids)
def test_transpose(axes):
    a = sample("int32", (2, 3, 4))
    check(lambda xp, a: a.transpose(axes), a)
    check(lambda xp, a: xp.transpose(a, axes), a)
    if axes is not None and len(axes) == 3:
        check(lambda xp, a: a.transpose(*axes), a)


@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (2, 3, 4), (0, 2)], ids=ids)
def test_T_and_transpose_views(shape):
    a = sample("float32", shape)
    check(lambda xp, a: a.T, a)
    check(lambda xp, a: (a.T.T, a.T[::-1]), a)
    check(writes_through(lambda xp, a: a.T), a)
    check(writes_through(lambda xp, a: a.transpose()[..., ::2]), a)


@pytest.mark.parametrize("axes", [(0, 1), (0, 2), (2, 0), (1, 1), (-1, 0), (0, 3), (-4, 0)],
                         ids=ids)
def test_swapaxes(axes):
    a = sample("complex64", (2, 3, 4))
    check(lambda xp, a: a.swapaxes(*axes), a)
    check(lambda xp, a: xp.swapaxes(a, *axes), a)
    check(writes_through(lambda xp, a: xp.swapaxes(a, *axes)[:1]), a)


SQUEEZE = [((1, 3, 1, 4), None), ((1, 3, 1, 4), 0), ((1, 3, 1, 4), -2), ((1, 3, 1, 4), (0, 2)),
           ((1, 3, 1, 4), 1), ((1, 1), None), ((1,), 0), ((), None), ((3, 4), None),
           ((1, 3), 4), ((1, 0, 1), None)]


@pytest.mark.parametrize("shape,axis", SQUEEZE, ids=ids)
def test_squeeze(shape, axis):
    # Squeezing an axis whose length is not 1 is a ValueError; out of range an AxisError.
    a = sample("float64", shape)
    check(lambda xp, a: a.squeeze(axis), a)
    check(lambda xp, a: xp.squeeze(a, axis=axis), a)


def test_squeeze_is_a_view():
    check(writes_through(lambda xp, a: a.squeeze()), sample("int8", (1, 3, 1)))


EXPAND = [0, 1, 2, 3, -1, -4, (0, 1), (0, -1), (1, 3), 4, -5, (0, 0)]


@pytest.mark.parametrize("axis", EXPAND, ids=ids)
def test_expand_dims(axis):
    a = sample("uint8", (2, 3))
    check(lambda xp, a: xp.expand_dims(a, axis), a)
    check(lambda xp, a: xp.expand_dims(a[::-1], axis=axis), a)


def test_expand_dims_is_a_view():
    check(writes_through(lambda xp, a: xp.expand_dims(a, 1)), sample("int8", (2, 3)))


# (shapes, axis) for concatenate; the last ones are errors NumPy reports.
CONCAT = [
    ([(2, 3), (4, 3)], 0), ([(2, 3), (2, 5)], 1), ([(2, 3), (2, 1), (2, 2)], -1),
    ([(3,), (0,), (2,)], 0), ([(2, 3), (4, 3)], None), ([(2, 3, 4), (2, 3, 4)], 2),
    ([(2, 3)], 0), ([(2, 3), (3, 3)], 1), ([(2, 3), (3,)], 0), ([(2, 3), (2, 3)], 2),
    ([], 0), ([(), ()], 0), ([(), ()], None),
]


@pytest.mark.parametrize("shapes,axis", CONCAT, ids=ids)
def test_concatenate(shapes, axis):
    arrays = [sample("int32", s, seed=i) for i, s in enumerate(shapes)]
    check(lambda xp, *arrays: xp.concatenate(arrays, axis=axis), *arrays)
    check(lambda xp, *arrays: xp.concatenate(list(arrays), axis), *arrays)


@pytest.mark.parametrize("left", ["bool", "int8", "uint32", "float16", "float64", "complex64"])
@pytest.mark.parametrize("right", ["bool", "int64", "uint8", "float32", "complex128"])
def test_concatenate_promotes(left, right):
    check(lambda xp, a, b: xp.concatenate((a, b)), sample(left, (2,)), sample(right, (3,)))
    check(lambda xp, a, b: xp.concatenate((a, b), dtype="float64"), sample(left, (2,)),
          sample(right, (3,)))


def test_concatenate_views_lists_and_copies():
    a = sample("float32", (4, 6))
    check(lambda xp, a: xp.concatenate([a[::2], a[::-2, ::-1], a.T[:1].T.T]), a)
    check(lambda xp: xp.concatenate([[1, 2], [3.5]]))
    check(writes_through(lambda xp, a: xp.concatenate([a])), a)


STACK = [((3,), 3, 0), ((3,), 3, 1), ((3,), 2, -1), ((2, 3), 2, 2), ((2, 3), 4, -2),
         ((), 3, 0), ((3,), 2, 2), ((3,), 2, -3), ((2, 3), 1, 0)]


@pytest.mark.parametrize("shape,count,axis", STACK, ids=ids)
def test_stack(shape, count, axis):
    arrays = [sample("float64", shape, seed=i) for i in range(count)]
    check(lambda xp, *arrays: xp.stack(arrays, axis=axis), *arrays)
    check(lambda xp, *arrays: xp.stack([x[..., ::-1] for x in arrays], axis), *arrays)


def test_stack_errors_and_promotion():
    check(lambda xp, a, b: xp.stack([a, b]), sample("int8", (3,)), sample("int8", (4,)))
    check(lambda xp: xp.stack([]))
    check(lambda xp, a, b: xp.stack((a, b), axis=1), sample("int8", (3,)),
          sample("float32", (3,)))
