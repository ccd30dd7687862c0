"""Products (dot, matmul/@, vdot, inner, outer), linalg.norm, and the selection and
comparison helpers where, putmask, nonzero, allclose, isclose, array_equal."""

import numpy
import pytest

import tessera.numpy as np
from parity import check, ids, sample

# Operand shapes; inner dimensions stay small, so float products of the quarter-valued
# sample data sum exactly in any order, even in float16.
PRODUCT_SHAPES = [
    ((4,), (4,)), ((3, 4), (4, 2)), ((3, 4), (4,)), ((4,), (4, 2)), ((1, 4), (4, 1)),
    ((2, 3, 4), (4, 2)), ((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4,)), ((0,), (0,)),
    ((3, 0), (0, 2)), ((0, 4), (4, 3)), ((), (4,)), ((3, 4), ()), ((), ()),
    ((4,), (3,)), ((3, 4), (3, 4)), ((3, 4), (5,)), ((2, 3, 4), (3, 4, 5)),
]
PRODUCTS = {
    "dot": lambda xp, a, b: xp.dot(a, b),
    "matmul": lambda xp, a, b: xp.matmul(a, b),
    "@": lambda xp, a, b: a @ b,
    "method_dot": lambda xp, a, b: a.dot(b),
    "vdot": lambda xp, a, b: xp.vdot(a, b),
    "inner": lambda xp, a, b: xp.inner(a, b),
    "outer": lambda xp, a, b: xp.outer(a, b),
}
PRODUCT_DTYPES = [("int32", "int32"), ("int64", "int64"), ("float32", "float32"),
                  ("float64", "float64"), ("complex64", "complex64"),
                  ("complex128", "complex128"), ("bool", "bool"), ("int8", "int8"),
                  ("float16", "float16"), ("int32", "float64"), ("uint8", "int16"),
                  ("float32", "complex128"), ("bool", "float32")]


@pytest.mark.parametrize("shapes", PRODUCT_SHAPES, ids=ids)
@pytest.mark.parametrize("name", PRODUCTS)
def test_product_shapes(name, shapes):
    # Includes shape mismatches (ValueError) and 0-d operands (errors for matmul/@).
    a, b = sample("float64", shapes[0]), sample("float64", shapes[1], seed=1)
    check(PRODUCTS[name], a, b)


@pytest.mark.parametrize("dtypes", PRODUCT_DTYPES, ids=ids)
@pytest.mark.parametrize("name", PRODUCTS)
def test_product_dtypes(name, dtypes):
    for shapes in [((4,), (4,)), ((3, 4), (4, 2)), ((3, 4), (4,)), ((4,), (4, 3))]:
        a, b = sample(dtypes[0], shapes[0]), sample(dtypes[1], shapes[1], seed=1)
        check(PRODUCTS[name], a, b)
        check(PRODUCTS[name], b.T, a.T)


def test_products_of_noncontiguous_operands():
    a, b = sample("float64", (6, 8)), sample("float64", (8, 6), seed=1)
    check(lambda xp, a, b: a[::2, ::2] @ b[::2, ::-2], a, b)
    check(lambda xp, a, b: xp.dot(a.T, b.T), a, b)
    check(lambda xp, a, b: xp.vdot(a[:, 1], b[::-1, 0]), a, b)
    check(lambda xp, a, b: xp.outer(a[1, ::3], b[::4, 2]), a, b)
    check(lambda xp, a, b: xp.inner(a[:3, :6], b.T[::-2]), a, b)


def test_matmul_out_and_inplace():
    a, b = sample("float64", (3, 3)), sample("float64", (3, 3), seed=1)

    def with_out(xp, a, b, out):
        assert xp.matmul(a, b, out=out) is out
        return out

    def inplace(xp, a, b):
        a @= b
        return a

    check(with_out, a, b, sample("float64", (3, 3), seed=2))
    check(inplace, a, b)


VECTOR_ORDS = [None, 1, 2, numpy.inf, -numpy.inf, 0, 3, -1, 0.5]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf, 3]


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=ids)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "bool"])
def test_norm_vector(dtype, ord):
    check(lambda xp, a: xp.linalg.norm(a, ord), sample(dtype, (7,)))
    check(lambda xp, a: xp.linalg.norm(a, ord=ord, keepdims=True), sample(dtype, (7,)))
    check(lambda xp, a: xp.linalg.norm(a, ord, axis=1), sample(dtype, (3, 4)))


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=ids)
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_norm_matrix(dtype, ord):
    # ord=3 is not a matrix norm: ValueError.
    a = sample(dtype, (3, 4))
    check(lambda xp, a: xp.linalg.norm(a, ord), a, rtol=1e-4 if "32" in dtype else 1e-10)
    check(lambda xp, a: xp.linalg.norm(a, ord, axis=(1, 0), keepdims=True), a,
          rtol=1e-4 if "32" in dtype else 1e-10)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1), (1, 2), (0, 0), 3], ids=ids)
def test_norm_axis(axis):
    a = sample("float64", (2, 3, 4))
    check(lambda xp, a: xp.linalg.norm(a, axis=axis), a)
    check(lambda xp, a: xp.linalg.norm(a[0], axis=axis), a)
    check(lambda xp, a: xp.linalg.norm(a, axis=axis, keepdims=True), a)
    check(lambda xp, a: xp.linalg.norm(a.T[::-1], axis=axis), a)


def test_norm_special_values():
    for values in ([0.0, 0.0], [], [numpy.inf, 1.0], [numpy.nan, 1.0], [1e200, 1e200]):
        check(lambda xp, a: xp.linalg.norm(a), numpy.array(values))


WHERE_DTYPES = [("int8", "int8"), ("int32", "float32"), ("uint8", "int8"), ("bool", "bool"),
                ("float16", "complex64"), ("float64", "int64")]


@pytest.mark.parametrize("dtypes", WHERE_DTYPES, ids=ids)
def test_where_three_arguments(dtypes):
    cond = sample("bool", (3, 4))
    x, y = sample(dtypes[0], (3, 4), seed=1), sample(dtypes[1], (3, 4), seed=2)
    check(lambda xp, c, x, y: xp.where(c, x, y), cond, x, y)
    check(lambda xp, c, x, y: xp.where(c[:, :1], x[0], y.T.T), cond, x, y)  # broadcasting
    check(lambda xp, c, x: xp.where(c, x, 0), cond, x)  # Python scalar: weak
    check(lambda xp, c, y: xp.where(c, 2.5, y), cond, y)
    check(lambda xp, x, y: xp.where(x > 0, x, y), x, y)
    check(lambda xp, c, x, y: xp.where(c, x, y[:2]), cond, x, y)  # cannot broadcast
    check(lambda xp, x, y: xp.where(x, x, y), x, y)  # non-bool condition: truthiness


def test_where_scalars_and_mixed_arguments():
    check(lambda xp: xp.where(True, 1, 2.0))
    check(lambda xp: xp.where([True, False], [1, 2], [3, 4]))
    check(lambda xp, x: xp.where(x, 7, -7), sample("int16", (5,)))
    check(lambda xp, x: xp.where(x > 1, x), sample("int16", (5,)))  # only two arguments


@pytest.mark.parametrize("shape", [(0,), (7,), (3, 4), (2, 3, 4), ()], ids=ids)
@pytest.mark.parametrize("dtype", ["bool", "int32", "float64", "complex64"])
def test_where_one_argument_and_nonzero(dtype, shape):
    a = sample(dtype, shape)
    check(lambda xp, a: xp.where(a), a)
    check(lambda xp, a: xp.nonzero(a), a)
    check(lambda xp, a: a.nonzero(), a)
    check(lambda xp, a: xp.nonzero(a[::-1].T if a.ndim else a), a)


@pytest.mark.parametrize("values", [5, 2.5, [1, 2], [1, 2, 3, 4, 5, 6, 7], [-1.5] * 12],
                         ids=ids)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_putmask(dtype, values):
    # putmask repeats `values` cyclically over the flattened array and returns None.
    def f(xp, a, mask):
        assert xp.putmask(a, mask, values) is None
        return a

    check(f, sample(dtype, (3, 4)), sample("bool", (3, 4), seed=3))
    check(f, sample(dtype, (3, 4)), sample("bool", (4,), seed=3))  # mask shape: ValueError


def test_putmask_with_array_values_and_views():
    def array_values(xp, a, mask, v):
        xp.putmask(a, mask, v)
        return a

    def into_view(xp, a, mask, v):
        xp.putmask(a[::2], mask[::2], v)  # writes reach the base array
        return a

    args = (sample("float32", (4, 3)), sample("bool", (4, 3), seed=1),
            sample("float32", (4, 3), seed=2))
    check(array_values, *args)
    check(into_view, *args)


CLOSE = [
    ([1.0, 2.0], [1.0, 2.0 + 1e-9], {}), ([1.0, 2.0], [1.0, 2.1], {}),
    ([1.0, 2.0], [1.0, 2.1], {"atol": 0.2}), ([1.0, 2.0], [1.0, 2.1], {"rtol": 0.1}),
    ([numpy.nan, 1.0], [numpy.nan, 1.0], {}), ([numpy.nan, 1.0], [numpy.nan, 1.0],
                                               {"equal_nan": True}),
    ([numpy.inf, -numpy.inf], [numpy.inf, -numpy.inf], {}), ([numpy.inf], [-numpy.inf], {}),
    ([1e-9, 0.0], [0.0, 1e-9], {}), ([1e-9], [0.0], {"atol": 0.0}),
    ([[1.0], [2.0]], [1.0, 2.0], {}), ([1.0, 2.0], [1.0, 2.0, 3.0], {}),
    ([1 + 1j], [1 + 1.0000001j], {}), ([0, 1], [0, 1], {}),
]


@pytest.mark.parametrize("a,b,kwargs", CLOSE, ids=ids)
def test_isclose_and_allclose(a, b, kwargs):
    check(lambda xp, a, b: xp.isclose(a, b, **kwargs), numpy.array(a), numpy.array(b))
    check(lambda xp, a, b: xp.allclose(a, b, **kwargs), numpy.array(a), numpy.array(b))
    check(lambda xp, a: xp.isclose(a, b, **kwargs), numpy.array(a))  # second as a list


EQUAL = [
    ([1, 2, 3], [1, 2, 3], {}), ([1, 2, 3], [1, 2, 4], {}), ([1, 2], [1, 2, 3], {}),
    ([[1, 2]], [1, 2], {}), ([1.0, 2.0], [1, 2], {}), ([], [], {}),
    ([numpy.nan, 1.0], [numpy.nan, 1.0], {}), ([numpy.nan, 1.0], [numpy.nan, 1.0],
                                               {"equal_nan": True}),
    ([True, False], [1, 0], {}), ([1 + 1j], [1 + 1j], {}),
]


@pytest.mark.parametrize("a,b,kwargs", EQUAL, ids=ids)
def test_array_equal(a, b, kwargs):
    check(lambda xp, a, b: xp.array_equal(a, b, **kwargs), numpy.array(a), numpy.array(b))
    check(lambda xp, a: xp.array_equal(a, b, **kwargs), numpy.array(a))


@pytest.mark.parametrize("n", [65_536, 90_000, 200_003])
def test_dot_and_norm_over_several_reduction_blocks(n):
    # Several 65536-element blocks: their partial results are combined by one point that must
    # see all of them (on several ranks in test mode, too).
    x = numpy.linspace(-1.0, 1.0, n)
    y = numpy.cos(numpy.arange(n) * 0.001)
    check(lambda xp, a, b: xp.dot(a, b), x, y, rtol=1e-12)
    check(lambda xp, a: xp.vdot(a, a), x, rtol=1e-12)
    check(lambda xp, a: xp.linalg.norm(a), y, rtol=1e-12)


def test_products_of_a_large_matrix_by_vectors_agree_in_either_reading_direction():
    """Every other product of a large matrix (over 16 MB) by a vector reads its rows backwards,
    starting with those the last product left in the caches; each block of rows is still one
    BLAS call, so the values are the same bits every time, and NumPy's to rounding."""
    a = numpy.random.default_rng(0).standard_normal((3000, 1500))
    x = numpy.random.default_rng(1).standard_normal(1500)
    ta, tx = np.array(a), np.array(x)
    products = [numpy.asarray(ta @ tx) for _ in range(4)] + [numpy.asarray(ta.dot(tx)) for _ in range(3)]
    for p in products[1:]:
        assert numpy.array_equal(p, products[0])
    numpy.testing.assert_allclose(products[0], a @ x, rtol=1e-12, atol=1e-12)
