"""Reductions: sum prod min max mean var std argmin argmax any all count_nonzero, as
functions and methods, over axes, with keepdims, dtype=, ddof, empty arrays and nan."""

import numpy
import pytest

from parity import ALL_DTYPES, check, ids, sample, tnp

REDUCTIONS = ["sum", "prod", "min", "max", "mean", "var", "std", "argmin", "argmax", "any",
              "all", "count_nonzero"]
METHODS = [name for name in REDUCTIONS if name != "count_nonzero"]
# Axes for a (2, 3, 4) array: valid ones, then ones NumPy rejects (AxisError, ValueError
# for duplicates, TypeError for tuples to argmin/argmax).
AXES = [None, 0, 1, 2, -1, -3, (0, 2), (-1, 0), (0, 1, 2), (), 3, -4, (0, 0), (1, 5)]
AXIS_DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64",
               "complex128"]


def data_kind(name):
    # Products of +-1, +-2 are exact; other reductions use small quarter-valued data.
    return "pm" if name == "prod" else "any"


def tolerance(name, dtype):
    # var/std square and sum in the storage precision: allow a few float16 ulps.
    if dtype == "float16" and name in ("var", "std"):
        return {"rtol": 1e-2, "atol": 1e-2}
    return {}


def as_function(name, **kwargs):
    return lambda xp, a: getattr(xp, name)(a, **kwargs)


def as_method(name, **kwargs):
    return lambda xp, a: getattr(a, name)(**kwargs)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name,form", [(n, as_function) for n in REDUCTIONS]
                         + [(n, as_method) for n in METHODS], ids=ids)
def test_reduce_all_dtypes(name, form, dtype):
    a = sample(dtype, (3, 4), data_kind(name))
    for axis in (None, 0, 1):
        check(form(name, axis=axis), a, **tolerance(name, dtype))


@pytest.mark.parametrize("axis", AXES, ids=ids)
@pytest.mark.parametrize("dtype", AXIS_DTYPES)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduce_axes(name, dtype, axis):
    a = sample(dtype, (2, 3, 4), data_kind(name))
    check(as_function(name, axis=axis), a, **tolerance(name, dtype))
    check(as_function(name, axis=axis, keepdims=True), a, **tolerance(name, dtype))
    if name in METHODS:
        check(as_method(name, axis=axis), a, **tolerance(name, dtype))


@pytest.mark.parametrize("shape", [(), (1,), (7,), (1, 5), (4, 1)], ids=ids)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduce_small_shapes(name, shape):
    a = sample("float64", shape, data_kind(name))
    check(as_function(name), a)
    check(as_function(name, keepdims=True), a)
    check(as_function(name, axis=-1), a)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduce_noncontiguous(name):
    a = sample("float32", (4, 6), data_kind(name))
    for axis in (None, 0, 1):
        check(lambda xp, a: getattr(xp, name)(a[::-2, 1::2], axis=axis), a)
        check(lambda xp, a: getattr(xp, name)(a.T, axis=axis), a)


# (reduction, input dtype, dtype= argument).
DTYPE_ARG = [
    (name, source, target)
    for name in ["sum", "prod", "mean"]
    for source in ["bool", "int8", "uint8", "int32", "float16", "float32", "complex64"]
    for target in [None, "int8", "int64", "uint64", "float32", "float64", "complex128"]
] + [
    (name, source, target)
    for name in ["var", "std"]
    for source in ["int16", "float32", "float64"]
    for target in [None, "float32", "float64", "int64"]
]


@pytest.mark.parametrize("name,source,target", DTYPE_ARG, ids=ids)
def test_dtype_argument(name, source, target):
    check(as_function(name, dtype=target), sample(source, (3, 4), data_kind(name)))
    check(as_method(name, dtype=target, axis=0), sample(source, (3, 4), data_kind(name)))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint8", "float16", "float64",
                                   "complex64"])
@pytest.mark.parametrize("name", ["any", "all", "min", "max", "argmax", "count_nonzero"])
def test_reductions_without_dtype_argument(name, dtype):
    # NumPy rejects dtype= for these with a TypeError.
    check(as_function(name, dtype="float64"), sample(dtype, (5,)))


@pytest.mark.parametrize("ddof", [0, 1, 2, 4, 5, 1.5, -1])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("name", ["var", "std"])
def test_ddof(name, dtype, ddof):
    a = sample(dtype, (3, 4))
    check(as_function(name, ddof=ddof), a)
    check(as_function(name, ddof=ddof, axis=1), a)
    check(as_method(name, ddof=ddof, axis=0, keepdims=True), a)


EMPTY = [((0,), None), ((0,), 0), ((0, 3), None), ((0, 3), 0), ((0, 3), 1), ((2, 0), 1),
         ((2, 0), 0), ((2, 0, 3), (0, 2)), ((2, 0, 3), 2)]


@pytest.mark.parametrize("shape,axis", EMPTY, ids=ids)
@pytest.mark.parametrize("dtype", ["bool", "int32", "float64", "complex64"])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_empty(name, dtype, shape, axis):
    # Identity-less reductions (min, max, argmin, argmax) of an empty axis are ValueErrors;
    # mean/var/std give nan; sum/prod/any/all give their identity.
    check(as_function(name, axis=axis), numpy.zeros(shape, dtype))


@pytest.mark.parametrize("name", ["min", "max", "sum", "prod"])
def test_initial_and_where(name):
    a = sample("int32", (3, 4), data_kind(name))
    mask = sample("bool", (3, 4), seed=7)
    check(as_function(name, initial=2), a)
    check(as_function(name, initial=2), numpy.zeros((0,), "float64"))
    check(as_function(name, axis=1, initial=-1, where=mask), a)


def with_specials(dtype, seed):
    a = sample(dtype, (4, 5), seed=seed).astype(dtype)
    a.ravel()[[3, 11]] = numpy.nan
    a.ravel()[[5]] = numpy.inf
    a.ravel()[[17]] = -numpy.inf
    return a


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_nan_and_inf_propagation(name, dtype):
    # argmin/argmax report the first nan; min/max propagate nan; any/all treat nan as True.
    a = with_specials(dtype, seed=3)
    for axis in (None, 0, 1, -1):
        check(as_function(name, axis=axis), a)
    check(as_function(name), numpy.full((3,), numpy.nan, dtype))
    check(as_function(name, axis=0), numpy.array([[numpy.inf], [-numpy.inf]], dtype))


def test_reduction_of_expression_results():
    # Reductions over freshly computed (possibly deferred) arrays.
    a, b = sample("float64", (5, 6)), sample("float64", (5, 6), seed=1)
    check(lambda xp, a, b: ((a - b) ** 2).sum(axis=0), a, b)
    check(lambda xp, a, b: xp.mean(a * b, axis=1, keepdims=True) - a, a, b)
    check(lambda xp, a, b: (a > b).any(axis=1) & (a < 1).all(axis=1), a, b)
    check(lambda xp, a, b: xp.argmax(a + b, axis=0)[::-1], a, b)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "int64"])
def test_narrow_integer_sums_wrap_as_numpy(dtype):
    # Every length from 1 to 299 (the pairwise blocks of 8 and 128) and a long one, whole and
    # along each axis, in the array's own dtype: the sums overflow and wrap.
    for n in list(range(1, 300)) + [100_003]:
        a = (numpy.arange(n) * 7 + 3).astype(dtype)
        t = tnp.asarray(a)
        assert tnp.sum(t, dtype=dtype) == numpy.sum(a, dtype=dtype), n
        assert tnp.prod(t[:40], dtype=dtype) == numpy.prod(a[:40], dtype=dtype), n
    m = (numpy.arange(300 * 7) * 5).astype(dtype).reshape(300, 7)
    for axis in (0, 1):
        numpy.testing.assert_array_equal(numpy.asarray(tnp.sum(tnp.asarray(m), axis=axis, dtype=dtype)),
                                         numpy.sum(m, axis=axis, dtype=dtype))
