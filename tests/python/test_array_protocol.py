"""The array as a Python object: conversions to Python scalars, item, tolist, __array__,
len, iteration, attributes, repr and str (exactly NumPy's), and truth values."""

import operator

import numpy
import pytest

from parity import ALL_DTYPES, check, ids, sample

CONVERSIONS = {"float": float, "int": int, "bool": bool, "complex": complex,
               "index": operator.index}
ONE_ELEMENT_SHAPES = [(), (1,), (1, 1)]


@pytest.mark.parametrize("shape", ONE_ELEMENT_SHAPES, ids=ids)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("convert", CONVERSIONS)
def test_python_scalar_conversion(convert, dtype, shape):
    # NumPy 2 converts only 0-d arrays to Python numbers (TypeError otherwise, except bool);
    # float() of complex is a TypeError; operator.index accepts only integers.
    for value in (2.75, 1.5 if dtype.startswith("uint") else -1.5, 0):
        a = numpy.full(shape, value).astype(dtype)
        check(lambda xp, a: CONVERSIONS[convert](a), a)


@pytest.mark.parametrize("shape", [(2,), (2, 3), (0,)], ids=ids)
def test_bool_of_multi_element_or_empty_array_raises(shape):
    check(lambda xp, a: bool(a), sample("int32", shape))
    check(lambda xp, a: "yes" if a else "no", sample("int32", shape))


def test_zero_dimensional_integer_as_index():
    check(lambda xp, a: [10, 20, 30][a], numpy.array(1))
    check(lambda xp, a: "abcdef"[a:], numpy.array(2, "int8"))
    check(lambda xp, a: range(10)[a], numpy.array(1.0))  # float: TypeError


ITEM_ARGS = [(), (0,), (5,), (-1,), (1, 2), (-1, -1), (6,), (2, 0), (0, 0, 0)]


@pytest.mark.parametrize("args", ITEM_ARGS, ids=ids)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_item(dtype, args):
    # Multi-element .item() without arguments is a ValueError; out of range an IndexError.
    check(lambda xp, a: a.item(*args), sample(dtype, (2, 3)))
    check(lambda xp, a: a.item(*args), sample(dtype, (1,)))


@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (2, 0, 3), (1, 2, 2)], ids=ids)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tolist(dtype, shape):
    check(lambda xp, a: a.tolist(), sample(dtype, shape))
    if len(shape) == 2:
        check(lambda xp, a: a.T[::-1].tolist(), sample(dtype, shape))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dunder_array(dtype):
    def plain(xp, a, *args, **kwargs):
        result = a.__array__(*args, **kwargs)
        assert type(result) is numpy.ndarray
        return result

    a = sample(dtype, (3, 4))
    check(plain, a)
    check(lambda xp, a: plain(xp, a[::-1, 1::2]), a)
    check(plain, a, numpy.dtype("float64"))
    check(lambda xp, a: plain(xp, a, copy=True), a)
    check(lambda xp, a: numpy.asarray(a).dtype, a)
    check(lambda xp, a: numpy.array(a.T), a)
    check(lambda xp, a: numpy.add(numpy.asarray(a), 1), a)


@pytest.mark.parametrize("shape", [(), (0,), (4,), (3, 2), (2, 3, 4)], ids=ids)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32", "complex128"])
def test_len_and_iteration(dtype, shape):
    # Iterating a 0-d array, or taking its len, is a TypeError.
    a = sample(dtype, shape)
    check(lambda xp, a: len(a), a)
    check(lambda xp, a: list(a), a)
    check(lambda xp, a: [list(row) for row in a] if a.ndim > 1 else list(a), a)
    if len(shape) > 1:
        check(lambda xp, a: list(a.T[::-1]), a)


ATTRIBUTES = ["shape", "ndim", "size", "dtype", "itemsize", "nbytes"]


@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4), (2, 0, 3), (2, 3, 4)], ids=ids)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_attributes(dtype, shape):
    a = sample(dtype, shape)
    check(lambda xp, a: tuple(getattr(a, name) for name in ATTRIBUTES), a)
    check(lambda xp, a: tuple(getattr(a.T[..., ::2], name) for name in ATTRIBUTES), a)
    check(lambda xp, a: (xp.shape(a), xp.ndim(a), xp.size(a)), a)


def test_dtype_attribute_is_a_numpy_dtype():
    def f(xp, a):
        assert isinstance(a.dtype, numpy.dtype)
        return a.dtype, a.dtype.type, a.dtype.kind, a.dtype == numpy.float32, str(a.dtype)

    check(f, sample("float32", (2,)))


def special_floats(dtype):
    values = [0.1, 1 / 3, -0.0, 1e-5, 12345.678, numpy.nan, numpy.inf, -numpy.inf]
    return numpy.array(values).astype(dtype)


REPR_CASES = {
    **{f"{d}_2x3": (lambda d=d: sample(d, (2, 3))) for d in ALL_DTYPES},
    **{f"{d}_0d": (lambda d=d: sample(d, ())) for d in ALL_DTYPES},
    **{f"{d}_empty": (lambda d=d: numpy.zeros((0,), d)) for d in ALL_DTYPES},
    **{f"{d}_specials": (lambda d=d: special_floats(d))
       for d in ["float16", "float32", "float64", "complex64", "complex128"]},
    "empty_2d": lambda: numpy.zeros((2, 0, 3)),
    "three_d": lambda: sample("int16", (2, 3, 4)),
    "large_ints": lambda: numpy.array([2**62, -(2**62), 7], "int64"),
    "uint64_max": lambda: numpy.array([2**64 - 1, 0], "uint64"),
    "summarised": lambda: numpy.arange(2000, dtype="float64"),
    "summarised_2d": lambda: numpy.arange(3000).reshape(30, 100),
    "wide_row": lambda: numpy.linspace(0, 1, 40),
    "mixed_magnitudes": lambda: numpy.array([1e-8, 1.0, 1e8]),
    "long_1d_ints": lambda: numpy.arange(-50, 50),
}


@pytest.mark.parametrize("case", REPR_CASES)
def test_repr_and_str_match_numpy(case):
    a = REPR_CASES[case]()
    check(lambda xp, a: repr(a), a)
    check(lambda xp, a: str(a), a)
    check(lambda xp, a: (repr(a[::-1]), str(a.T)) if a.ndim else repr(a[()]), a)


def test_repr_follows_numpy_printoptions():
    a = numpy.linspace(0, 1, 7)
    with numpy.printoptions(precision=3, suppress=True):
        check(lambda xp, a: (repr(a), str(a)), a)
    with numpy.printoptions(threshold=5, edgeitems=2):
        check(lambda xp, a: (repr(a), str(a)), a)


def test_array_of_module_array_is_independent_copy():
    def f(xp, a):
        b = xp.array(a)
        a[0] = 99
        return b, a

    check(f, sample("int32", (3,)))
