"""Padding (every mode), insert and delete, block, axis and conversion helpers, piecewise and
the per-slice appliers, histogram2d/histogramdd, the index constructors (tril/triu/diag/mask
indices, ix_, ravel_multi_index, unravel_index) and packbits/unpackbits match NumPy: values,
dtypes, shapes and exception types, over dtypes, 0-d and empty inputs and strided views."""

import warnings

import numpy
import pytest

import tessera
from parity import ALL_DTYPES, FLOAT, INTEGER, check, ids, sample

pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively

PAD_DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex128"]


# ---------------------------------------------------------------------------------- pad

PAD_WIDTHS = [1, (2, 3), ((1, 0), (0, 2)), ((3, 1), (2, 4)), 0, ((0, 0), (7, 9))]


@pytest.mark.parametrize("width", PAD_WIDTHS, ids=ids)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp",
                                  "maximum", "minimum", "mean", "median"])
def test_pad_modes(mode, width):
    a = sample("float64", (3, 4))
    check(lambda xp, a: xp.pad(a, width, mode=mode), a)
    check(lambda xp, a: xp.pad(a[::-1, ::2], width, mode=mode), a)  # a strided view


@pytest.mark.parametrize("dtype", PAD_DTYPES)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap", "maximum", "minimum"])
def test_pad_dtypes(mode, dtype):
    a = sample(dtype, (2, 5), "nonneg")
    check(lambda xp, a: xp.pad(a, ((1, 2), (3, 1)), mode=mode), a)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex128"])
@pytest.mark.parametrize("mode", ["mean", "median", "linear_ramp"])
def test_pad_computed_values_round_into_the_dtype(mode, dtype):
    a = sample(dtype, (3, 5), "nonneg", seed=3)
    check(lambda xp, a: xp.pad(a, ((2, 3), (4, 1)), mode=mode), a)


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("width", [2, 7, (9, 4)], ids=ids)
def test_pad_odd_reflections(mode, width):
    a = sample("float64", (4,), seed=1)
    check(lambda xp, a: xp.pad(a, width, mode=mode, reflect_type="odd"), a)
    check(lambda xp, a: xp.pad(a, width, mode=mode), a)
    check(lambda xp, a: xp.pad(a[:1], width, mode=mode, reflect_type="odd"), a)  # one element
    check(lambda xp, a: xp.pad(a[:2], width, mode=mode), a)


@pytest.mark.parametrize("width", [5, (11, 3)], ids=ids)
def test_pad_wrap_wider_than_the_array(width):
    a = sample("int32", (3, 2))
    check(lambda xp, a: xp.pad(a, width, mode="wrap"), a)


def test_pad_keywords():
    a = sample("float32", (3, 4))
    check(lambda xp, a: xp.pad(a, 2, constant_values=7.5), a)
    check(lambda xp, a: xp.pad(a, 2, constant_values=((1, 2), (3, 4))), a)
    check(lambda xp, a: xp.pad(a.astype("int8"), 2, constant_values=(-1.75, 3.5)), a)
    check(lambda xp, a: xp.pad(a, ((1, 2), (3, 4)), mode="linear_ramp", end_values=((5, -2), (1, 0.5))), a)
    check(lambda xp, a: xp.pad(a, 3, mode="mean", stat_length=2), a)
    check(lambda xp, a: xp.pad(a, 3, mode="mean", stat_length=0), a)  # NaN
    check(lambda xp, a: xp.pad(a, 3, mode="maximum", stat_length=((1, 2), (3, 1))), a)
    check(lambda xp, a: xp.pad(a, 3, mode="median", stat_length=(1, 10)), a)
    check(lambda xp, a: xp.pad(a, {0: 1, 1: (2, 3)}), a)
    check(lambda xp, a: xp.pad(a, numpy.array([[1, 2], [0, 3]])), a)


def test_pad_empty_mode_and_0d_and_empty_inputs():
    a = sample("int64", (3, 4))
    check(lambda xp, a: xp.pad(a, 2, mode="empty"), a, values=False)
    check(lambda xp, a: xp.pad(a, 2, mode="empty")[2:-2, 2:-2], a)
    check(lambda xp, a: xp.pad(a[0, 0], 3), a)  # 0-d: nothing to pad
    check(lambda xp, a: xp.pad(a[:0], ((1, 2), (0, 1))), a)
    check(lambda xp, a: xp.pad(a[:0], ((0, 0), (1, 1)), mode="edge"), a)  # no width on the empty axis
    check(lambda xp, a: xp.pad(a[:0], ((1, 0), (0, 0)), mode="edge"), a)  # ValueError


@pytest.mark.parametrize("call", [
    lambda xp, a: xp.pad(a, -1),
    lambda xp, a: xp.pad(a, 1.5),
    lambda xp, a: xp.pad(a, ((1, 2, 3),)),
    lambda xp, a: xp.pad(a, 1, mode="nope"),
    lambda xp, a: xp.pad(a, 1, mode="edge", constant_values=3),
    lambda xp, a: xp.pad(a, 1, mode="maximum", stat_length=0),
    lambda xp, a: xp.pad(a, 1, mode="minimum", stat_length=-1),
])
def test_pad_errors(call):
    check(call, sample("float64", (3, 4)))


def pad_with(vector, pad_width, iaxis, kwargs):  # NumPy's example of a callable mode
    pad_value = kwargs.get("padder", 10)
    vector[:pad_width[0]] = pad_value
    vector[vector.size - pad_width[1]:] = pad_value


def test_pad_callable_mode():
    a = sample("int32", (3, 4))
    check(lambda xp, a: xp.pad(a, 2, pad_with), a)
    check(lambda xp, a: xp.pad(a[::-1, 1:], ((1, 0), (3, 2)), pad_with, padder=-7), a)
    check(lambda xp, a: xp.pad(a[0], (2, 1), lambda v, w, ax, kw: None), a)  # the zero padding stays
    check(lambda xp, a: xp.pad(a[:0], 1, pad_with), a)


# ------------------------------------------------------------------- insert and delete

DELETE_OBJS = [0, -1, 3, slice(1, 4), slice(None, None, 2), slice(None, None, -3), slice(5, 1), [0, 2, 2],
               [-1, 0], [], numpy.array([1, 3]), numpy.array([], dtype=int), [True, False, True, False, True],
               numpy.array([2]), 5, -6, [7], [1.0], [True, False]]


@pytest.mark.parametrize("obj", DELETE_OBJS, ids=ids)
def test_delete_flat(obj):
    check(lambda xp, a: xp.delete(a, obj), sample("int16", (5,)))
    if not isinstance(obj, list) or len(obj) != 5:
        check(lambda xp, a: xp.delete(a, obj), sample("float32", (5, 1)))  # flattened first


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
@pytest.mark.parametrize("obj", [1, slice(0, 2), [0, 3], [True, False, True, False], numpy.array([-2])], ids=ids)
def test_delete_axis(obj, axis):
    a = sample("complex128", (4, 4))
    check(lambda xp, a: xp.delete(a, obj, axis=axis), a)
    check(lambda xp, a: xp.delete(a.T[::-1], obj, axis=axis), a)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_delete_dtypes(dtype):
    a = sample(dtype, (3, 5))
    check(lambda xp, a: xp.delete(a, [0, 4], axis=1), a)
    check(lambda xp, a: xp.delete(a, 1, axis=0), a)


def test_tessera_positions():
    a = sample("int32", (3, 5))
    check(lambda xp, a: xp.delete(a, xp.asarray([0, 4, -1]), axis=1), a)
    check(lambda xp, a: xp.delete(a, a[0] > 0, axis=1), a)
    check(lambda xp, a: xp.delete(a, xp.nonzero(a[0])[0], axis=1), a)
    check(lambda xp, a: xp.insert(a, xp.asarray([5, 0, -2, 5]), a[0, :4] * 10, axis=1), a)
    check(lambda xp, a: xp.insert(a, a[0] > 0, 7, axis=1), a)
    check(lambda xp, a: xp.insert(a, xp.asarray([1, 9]), 7, axis=1), a)  # IndexError


INSERT_CASES = [
    (1, 9), (0, [7, 8]), (5, 9), (-1, 9), ([1], [7, 8]), ([1, 3], 9), ([3, 1, 1], [10, 20, 30]), ([4, 0], [1, 2]),
    (slice(1, 4), 6), (numpy.array([True, False, True, False, False]), [1, 2]), ([], []), ([2, 2, 2], [1, 2, 3]),
    (6, 9), (-6, 9), ([9], [1]), (numpy.array([0, 5]), [3.7, -2.2]), (numpy.int8(2), 1), ([-1, 0, -5, 2], [1, 2, 3, 4]),
]


@pytest.mark.parametrize("obj,values", INSERT_CASES, ids=ids)
def test_insert_flat(obj, values):
    check(lambda xp, a: xp.insert(a, obj, values), sample("int32", (5,)))
    check(lambda xp, a: xp.insert(a, obj, values), sample("float64", (5,)))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("obj,values", [(1, 5), (1, [[1], [2], [3]]), ([1], [[1, 2, 3]]), ([0, 2], 4),
                                        ([2, 0], [[1], [2]]), (slice(None), 0), ([1, 1], [[1, 2, 3], [4, 5, 6]])],
                         ids=ids)
def test_insert_axis(obj, values, axis):
    a = sample("float32", (3, 3))
    check(lambda xp, a: xp.insert(a, obj, values, axis=axis), a)
    check(lambda xp, a: xp.insert(a[::-1, ::2], obj, values, axis=axis), a)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_insert_dtypes(dtype):
    a = sample(dtype, (2, 4), "nonneg")
    check(lambda xp, a: xp.insert(a, [1, 3], a[:, :1], axis=1), a)
    check(lambda xp, a: xp.insert(a, 2, 1), a)


def test_insert_and_delete_errors():
    a = sample("int64", (2, 3))
    check(lambda xp, a: xp.insert(a, [[1]], 0), a)
    check(lambda xp, a: xp.insert(a, numpy.array([[True]]), 0), a)
    check(lambda xp, a: xp.insert(a, 1, [1, 2, 3, 4], axis=0), a)
    check(lambda xp, a: xp.insert(a, 1, 0, axis=2), a)
    check(lambda xp, a: xp.delete(a, 1, axis=-3), a)
    check(lambda xp, a: xp.delete(a, [True, False], axis=1), a)
    check(lambda xp, a: xp.insert(a, [0, 1], [[1, 2]]), a)  # leading length-1 axes of values are dropped
    check(lambda xp, a: xp.insert(a, 1, [[[1, 2, 3]]], axis=0), a)
    check(lambda xp, a: xp.insert(a, [1], [[[1, 2, 3]], [[4, 5, 6]]], axis=0), a)  # ValueError
    check(lambda xp, a: xp.insert(a, 1.5, 0), a)  # TypeError
    check(lambda xp, a: xp.insert(a, [1.5, 2], 0), a)  # IndexError
    check(lambda xp, a: xp.insert(a, [1.5], 0), a)  # TypeError
    check(lambda xp, a: xp.insert(a[0, 0], 0, 1), a)  # 0-d: flattened
    check(lambda xp, a: xp.delete(a[0, 0], 0), a)


# --------------------------------------------------------------------------------- block

def test_block():
    a = sample("float64", (2, 2))
    b = sample("int32", (2, 3), seed=1)
    c = sample("float32", (1, 5), seed=2)
    check(lambda xp, a, b, c: xp.block([[a, b], [c]]), a, b, c)
    check(lambda xp, a, b, c: xp.block([a[0], b[1], c[0]]), a, b, c)
    check(lambda xp, a, b, c: xp.block([[[a]], [[a]]]), a, b, c)  # depth 3
    check(lambda xp, a, b, c: xp.block([[[[a[0, 0], 1]], [[2, 3]]]]), a, b, c)  # scalars, depth 4
    check(lambda xp, a, b, c: xp.block(a), a, b, c)  # no list: a copy
    check(lambda xp, a, b, c: xp.block(7), a, b, c)
    check(lambda xp, a, b, c: xp.block([[1, 2], [3, 4]]), a, b, c)
    check(lambda xp, a, b, c: xp.block([[a.T[::-1], b[:, :0]], [a, a]]), a, b, c)
    check(lambda xp, a, b, c: xp.block([[a], [b]]), a, b, c)  # ValueError: columns differ
    check(lambda xp, a, b, c: xp.block([[a], b]), a, b, c)  # ValueError: depths mismatched
    check(lambda xp, a, b, c: xp.block([[a], []]), a, b, c)  # ValueError: empty list
    check(lambda xp, a, b, c: xp.block([]), a, b, c)
    check(lambda xp, a, b, c: xp.block((a, b)), a, b, c)  # TypeError: a tuple
    check(lambda xp, a, b, c: xp.block([[a, (a,)]]), a, b, c)


# ------------------------------------------------------------------ axes and conversions

@pytest.mark.parametrize("axis,start", [(0, 0), (2, 0), (0, 3), (-1, 1), (1, -2), (3, 0), (0, 4), (0, -5)], ids=ids)
def test_rollaxis(axis, start):
    a = sample("int8", (2, 3, 4))
    check(lambda xp, a: xp.rollaxis(a, axis, start), a)
    check(lambda xp, a: xp.rollaxis(a[::-1], axis, start), a)


def test_row_stack():
    a = sample("float64", (2, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check(lambda xp, a: xp.row_stack([a, a[0]]), a)
        check(lambda xp, a: xp.row_stack([a, a[:, :2]]), a)  # ValueError
    with pytest.warns(DeprecationWarning, match="row_stack"):
        tessera.numpy.row_stack([tessera.numpy.ones(2), tessera.numpy.zeros(2)])


@pytest.mark.parametrize("dtype", ["float64", "int32", "int8"])
def test_fromfunction(dtype):
    check(lambda xp: xp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=dtype))
    check(lambda xp: xp.fromfunction(lambda i: i ** 2, (5,), dtype=dtype))
    check(lambda xp: xp.fromfunction(lambda i, j, k: i - j * k, (2, 0, 3), dtype=dtype))
    check(lambda xp: xp.fromfunction(lambda i, j, scale: (i + j) * scale, (2, 2), dtype=dtype, scale=3))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copy_astype_and_friends(dtype):
    a = sample(dtype, (3, 4))

    def written(xp, result, a):
        result[...] = 0
        return result, a

    check(lambda xp, a: written(xp, xp.copy(a[::-1]), a), a)
    check(lambda xp, a: xp.copy(a[1, 2]), a)
    check(lambda xp, a: xp.astype(a, "float32"), a)
    check(lambda xp, a: xp.astype(a[:, ::2], "int16"), a)
    check(lambda xp, a: xp.astype(a, a.dtype, copy=False) is a, a)
    check(lambda xp, a: written(xp, xp.astype(a, a.dtype), a), a)
    check(lambda xp, a: xp.asanyarray(a) is a, a)
    check(lambda xp, a: xp.asanyarray(a.tolist(), dtype=a.dtype), a)
    check(lambda xp, a: xp.ascontiguousarray(a) is a, a)  # no copy when it already is one
    check(lambda xp, a: xp.ascontiguousarray(a, dtype=a.dtype) is a, a)
    check(lambda xp, a: xp.ascontiguousarray(a[::-1, 1:]), a)
    check(lambda xp, a: xp.ascontiguousarray(a[0, 0]), a)
    check(lambda xp, a: xp.asfortranarray(a.T, dtype="complex128"), a)
    check(lambda xp, a: xp.asfortranarray(a[0, 0]), a)
    check(lambda xp, a: xp.asarray_chkfinite(a), a)
    check(lambda xp, a: xp.require(a[::2], dtype="float64", requirements=["C", "W"]), a)
    check(lambda xp, a: xp.require(a, requirements="O"), a)


def test_conversion_errors_and_edges():
    a = sample("float64", (2, 3))
    check(lambda xp, a: xp.astype([1, 2], "int8"), a)  # TypeError: not an array
    check(lambda xp, a: xp.astype(a, "int8", device="gpu"), a)
    check(lambda xp, a: xp.copy([[1, 2], [3, 4]]), a)
    check(lambda xp, a: xp.require(a, requirements="CF"), a)
    check(lambda xp, a: xp.require(a, requirements="X"), a)  # KeyError
    check(lambda xp, a: xp.require([1, 2], dtype="int8"), a)
    check(lambda xp, a: xp.require(a, requirements=["aligned", "ENSUREARRAY"]), a)
    check(lambda xp, a: xp.asarray_chkfinite(xp.divide(a, 0)), a)  # ValueError: infs
    check(lambda xp, a: xp.asarray_chkfinite([1, 2, 3]), a)
    check(lambda xp, a: xp.ascontiguousarray(a[:0]), a)
    ro = numpy.arange(4.0)
    t = tessera.numpy.array(ro)
    t.setflags(write=False)
    assert tessera.numpy.require(t, requirements="W").flags.writeable
    ro.setflags(write=False)
    assert numpy.require(ro, requirements="W").flags.writeable


@pytest.mark.parametrize("b", [[1, 2], [[1, 2], [1, 2]], [[1, 2], [1, 3]], [1, 2, 3], [[1], [2]], 1, []], ids=ids)
def test_array_equiv(b):
    check(lambda xp, a: xp.array_equiv(a, b), numpy.array([1, 2]))
    check(lambda xp, a: xp.array_equiv(b, a[::-1]), numpy.array([2, 1]))
    check(lambda xp, a: xp.array_equiv(a[:0], b), numpy.array([2, 1]))


# -------------------------------------------------------------- per-slice application

def test_piecewise():
    x = numpy.linspace(-2.5, 2.5, 11)
    check(lambda xp, x: xp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]), x)
    check(lambda xp, x: xp.piecewise(x, [x < -1, x > 1], [0, lambda v: v ** 2, 5]), x)  # a default
    check(lambda xp, x: xp.piecewise(x, x > 0, [1]), x)  # one condition, no list
    check(lambda xp, x: xp.piecewise(x, [x > 0], [lambda v, k: v + k], 10), x)  # extra arguments
    check(lambda xp, x: xp.piecewise(x, [x > 0], [lambda v, k=0: v * k], k=3), x)
    check(lambda xp, x: xp.piecewise(x.reshape(1, 11), [x.reshape(1, 11) > 0], [lambda v: v - 1]), x)
    check(lambda xp, x: xp.piecewise(x[::2].astype(int), [x[::2] > 0, x[::2] < 0], [1.7, -1.2]), x)
    check(lambda xp, x: xp.piecewise(x[3], [True], [lambda v: v + 1]), x)  # 0-d
    check(lambda xp, x: xp.piecewise(x[3], [True, False], [1, 2]), x)  # 0-d with two conditions
    check(lambda xp, x: xp.piecewise(x[:0], [x[:0] > 0], [1]), x)  # empty
    check(lambda xp, x: xp.piecewise(x, [x > 0, x < 0], [1]), x)  # ValueError: too few functions


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_apply_along_axis(axis):
    a = sample("int32", (2, 3, 4))
    check(lambda xp, a: xp.apply_along_axis(lambda v: v.sum(), axis, a), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v: v[::-1] * 2, axis, a), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v: xp.stack([v.min(), v.max(), v[0]]), axis, a[:, ::-1]), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v: xp.outer(v, v), axis, a), a)  # 2-D results
    check(lambda xp, a: xp.apply_along_axis(lambda v, k: v.mean() + k, axis, a, 0.5), a)


def test_apply_along_axis_edges():
    a = sample("float64", (3, 4))
    check(lambda xp, a: xp.apply_along_axis(xp.sum, 0, a[:1]), a)
    check(lambda xp, a: xp.apply_along_axis(xp.sum, 0, a[:, :0]), a)  # ValueError: no slices
    check(lambda xp, a: xp.apply_along_axis(xp.sum, 1, a[:, :0]), a)  # empty slices
    check(lambda xp, a: xp.apply_along_axis(xp.sum, 2, a), a)  # AxisError
    check(lambda xp, a: xp.apply_along_axis(xp.sum, 0, a[0, 0]), a)  # 0-d: AxisError
    # later results are cast to the first one's dtype
    check(lambda xp, a: xp.apply_along_axis(lambda v: v[0] if v[0] > 0 else v[0] + 0.5, 1,
                                            xp.arange(4).reshape(2, 2)), a)


@pytest.mark.parametrize("axes", [0, 1, [0, 2], [-1], (2, 0, 1), []], ids=ids)
def test_apply_over_axes(axes):
    a = sample("int16", (2, 3, 4))
    check(lambda xp, a: xp.apply_over_axes(xp.sum, a, axes), a)
    check(lambda xp, a: xp.apply_over_axes(lambda x, ax: xp.max(x, axis=ax, keepdims=True), a[::-1], axes), a)
    check(lambda xp, a: xp.apply_over_axes(lambda x, ax: x.sum(axis=None), a, axes), a)  # ValueError unless []


# ----------------------------------------------------------------------- histograms

def points(n=200, d=3, seed=0):
    rng = numpy.random.default_rng(seed)
    return (rng.integers(-8, 9, (n, d)) / 4.0)


@pytest.mark.parametrize("bins", [10, 3, [2, 3, 4], [numpy.array([-2, 0, 0.5, 2]), 4, numpy.array([-1.0, 1.0])],
                                  [1, 1, 1]], ids=ids)
def test_histogramdd(bins):
    check(lambda xp, s: xp.histogramdd(s, bins=bins), points())
    check(lambda xp, s: xp.histogramdd(s, bins=bins, density=True), points())
    check(lambda xp, s: xp.histogramdd(s, bins=bins, range=[(-1, 1), (0, 2), (-3, 0)]), points())
    check(lambda xp, s: xp.histogramdd(s[::-2], bins=bins), points())


def test_histogramdd_inputs():
    s = points(50, 2, seed=1)
    check(lambda xp, s: xp.histogramdd([s[:, 0], s[:, 1]], bins=4), s)  # a sequence of coordinates
    check(lambda xp, s: xp.histogramdd(s[:, 0], bins=5), s)  # 1-D sample: one dimension
    check(lambda xp, s: xp.histogramdd(s.astype(numpy.float32), bins=3), s)
    check(lambda xp, s: xp.histogramdd((s * 4).astype(numpy.int64), bins=[3, 2]), s)
    check(lambda xp, s: xp.histogramdd(s[:0], bins=3), s)  # no points
    check(lambda xp, s: xp.histogramdd(numpy.full((4, 2), 1.5), bins=2), s)  # one value: range +-0.5
    with_nan = s.copy()
    with_nan[3, 0] = numpy.nan
    check(lambda xp, s: xp.histogramdd(s, bins=3, range=[(-1, 1), (-1, 1)]), with_nan)


@pytest.mark.parametrize("call", [
    lambda xp, s: xp.histogramdd(s, bins=[2, 3, 4]),
    lambda xp, s: xp.histogramdd(s, bins=0),
    lambda xp, s: xp.histogramdd(s, bins=[2.5, 3]),
    lambda xp, s: xp.histogramdd(s, bins=[numpy.array([3, 1, 2]), 2]),
    lambda xp, s: xp.histogramdd(s, bins=[numpy.ones((2, 2)), 2]),
    lambda xp, s: xp.histogramdd(s, range=[(0, 1)]),
    lambda xp, s: xp.histogramdd(s, range=[(1, 0), (0, 1)]),
    lambda xp, s: xp.histogramdd(s, range=[(0, numpy.inf), (0, 1)]),
    lambda xp, s: xp.histogram2d(s[:, 0], s[:5, 1]),
])
def test_histogramdd_errors(call):
    check(call, points(20, 2))


@pytest.mark.parametrize("bins", [10, 3, [2, 5], [numpy.array([-1.0, 0, 1]), 3], numpy.array([-2, -1, 0, 1, 2.0]),
                                  [numpy.array([-1.0, 0, 1]), numpy.array([0.0, 2])]], ids=ids)
def test_histogram2d(bins):
    s = points(100, 2, seed=2)
    check(lambda xp, s: xp.histogram2d(s[:, 0], s[:, 1], bins=bins), s)
    check(lambda xp, s: xp.histogram2d(s[:, 0], s[:, 1], bins=bins, density=True), s)
    check(lambda xp, s: xp.histogram2d(s[:, 1], s[:, 0], bins=bins, range=[[-1, 1], [-2, 0.5]]), s)


@pytest.mark.parametrize("density", [False, True])
def test_weighted_histograms(density):
    s = points(3000, 3, seed=3)
    w = numpy.random.default_rng(4).standard_normal(3000)
    got = tessera.numpy.histogram2d(tessera.numpy.array(s[:, 0]), tessera.numpy.array(s[:, 1]), bins=[3, 5],
                                    weights=tessera.numpy.array(w), density=density)
    for g, e in zip(got, numpy.histogram2d(s[:, 0], s[:, 1], bins=[3, 5], weights=w, density=density)):
        assert numpy.asarray(g).dtype == e.dtype
        numpy.testing.assert_allclose(numpy.asarray(g), e, rtol=1e-12, atol=1e-12)
    got, edges = tessera.numpy.histogramdd(tessera.numpy.array(s), bins=4, weights=tessera.numpy.array(w),
                                           density=density)
    want, want_edges = numpy.histogramdd(s, bins=4, weights=w, density=density)
    numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-12, atol=1e-12)
    assert all(numpy.array_equal(numpy.asarray(g), e) for g, e in zip(edges, want_edges))
    with pytest.raises(ValueError):
        tessera.numpy.histogramdd(tessera.numpy.array(s), weights=tessera.numpy.array(w[:5]))


# ----------------------------------------------------------------- index construction

@pytest.mark.parametrize("n,k,m", [(4, 0, None), (4, 1, None), (4, -2, 6), (3, 5, 2), (0, 0, None), (5, -9, 3),
                                   (1, 0, 1)], ids=ids)
def test_tri_indices(n, k, m):
    check(lambda xp: xp.tril_indices(n, k, m))
    check(lambda xp: xp.triu_indices(n, k, m))
    a = numpy.zeros((n, n if m is None else m))
    check(lambda xp, a: xp.tril_indices_from(a, k), a)
    check(lambda xp, a: xp.triu_indices_from(a, k=k), a)


def test_indices_from_errors_and_diag_indices():
    check(lambda xp, a: xp.tril_indices_from(a), numpy.zeros(3))
    check(lambda xp, a: xp.triu_indices_from(a), numpy.zeros((2, 2, 2)))
    check(lambda xp, a: xp.diag_indices_from(a), numpy.zeros((3, 3, 3)))
    check(lambda xp, a: xp.diag_indices_from(a), numpy.zeros((3, 3)))
    check(lambda xp, a: xp.diag_indices_from(a), numpy.zeros((3, 4)))
    check(lambda xp, a: xp.diag_indices_from(a), numpy.zeros(3))
    check(lambda xp: xp.diag_indices(4))
    check(lambda xp: xp.diag_indices(3, ndim=4))
    check(lambda xp: xp.diag_indices(0))


def test_mask_indices():
    check(lambda xp: xp.mask_indices(4, xp.triu))
    check(lambda xp: xp.mask_indices(4, xp.tril, -1))
    check(lambda xp: xp.mask_indices(3, lambda m, k: m * 0))


def test_ix():
    check(lambda xp: xp.ix_([0, 1], [2, 4, 5]))
    check(lambda xp: xp.ix_([True, False, True], [1], numpy.array([3, 2], dtype=numpy.int8)))
    check(lambda xp: xp.ix_([], [1.5, 2]))
    check(lambda xp: xp.ix_())
    check(lambda xp, a: xp.ix_(a[::2], a > 2), numpy.arange(5))
    check(lambda xp, a: xp.ix_(a[:0]), numpy.arange(5.0))  # an empty array keeps its dtype
    check(lambda xp: xp.ix_([[0, 1]]))  # ValueError


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("clip", "wrap"), ["wrap", "raise"]], ids=ids)
@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_multi_index(mode, order):
    inside = (numpy.array([0, 2, 1, 2]), numpy.array([[3], [0]]))
    outside = (numpy.array([-1, 3, 7]), numpy.array([5, -6, 0]))
    check(lambda xp, i, j: xp.ravel_multi_index((i, j), (3, 4), mode=mode, order=order), *inside)
    check(lambda xp, i, j: xp.ravel_multi_index((i, j), (3, 4), mode=mode, order=order), *outside)
    check(lambda xp, i, j: xp.ravel_multi_index((i[::-1], j[::-1]), (3, 4), mode=mode, order=order), *inside)


def test_ravel_multi_index_inputs():
    check(lambda xp: xp.ravel_multi_index((1, 2), (3, 4)))
    check(lambda xp: xp.ravel_multi_index(([1, 2], [3, 0], [1, 1]), (3, 4, 2), order="F"))
    check(lambda xp, i: xp.ravel_multi_index((i, i), (256, 256)), numpy.array([5, 200], dtype=numpy.uint8))
    check(lambda xp, i: xp.ravel_multi_index((i, i), (3, 4)), numpy.array([True, False]))
    check(lambda xp, i: xp.ravel_multi_index((i, i), (3, 4)), numpy.array([], dtype=numpy.int64))
    check(lambda xp, i: xp.ravel_multi_index((i, i), (3, 4)), numpy.array([1.0]))  # TypeError
    check(lambda xp: xp.ravel_multi_index(([1],), (3, 4)))
    check(lambda xp: xp.ravel_multi_index(([1], [2]), (3, 4), mode="bad"))
    check(lambda xp: xp.ravel_multi_index(([1], [2]), (3, 4), mode=("clip",)))
    check(lambda xp: xp.ravel_multi_index(([1], [2]), (3, 4), order="X"))
    check(lambda xp: xp.ravel_multi_index(([1], [2]), (3, 4), order="A"))
    check(lambda xp: xp.ravel_multi_index(([1], [2]), (2 ** 40, 2 ** 40)))
    check(lambda xp: xp.ravel_multi_index(([1], [2]), (3.0, 4)))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), 12, (12,), (1, 12, 1)], ids=ids)
def test_unravel_index(shape, order):
    check(lambda xp, i: xp.unravel_index(i, shape, order=order), numpy.array([0, 5, 11, 7]))
    check(lambda xp, i: xp.unravel_index(i, shape, order=order), numpy.array([[3, 1], [11, 0]])[:, ::-1])
    check(lambda xp, i: xp.unravel_index(i, shape, order=order), numpy.array(6, dtype=numpy.int8))
    check(lambda xp: xp.unravel_index(4, shape, order=order))


def test_unravel_index_errors_and_edges():
    check(lambda xp: xp.unravel_index(12, (3, 4)))
    check(lambda xp: xp.unravel_index(-1, (3, 4)))
    check(lambda xp: xp.unravel_index([1.0], (3, 4)))
    check(lambda xp: xp.unravel_index([1], (3, -4)))
    check(lambda xp: xp.unravel_index([1], (3, 4), order="K"))
    check(lambda xp: xp.unravel_index([True, False], (3, 4)))
    check(lambda xp: xp.unravel_index(0, ()))
    check(lambda xp: xp.unravel_index([], (3, 4)))
    check(lambda xp, i: xp.unravel_index(i, (7, 9)), numpy.array([3, 62], dtype=numpy.uint64))


# ----------------------------------------------------------------------- bit packing

@pytest.mark.parametrize("dtype", ["bool", *INTEGER])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(dtype, bitorder):
    a = sample(dtype, (3, 11), "any" if dtype != "bool" else "any")
    check(lambda xp, a: xp.packbits(a, bitorder=bitorder), a)
    for axis in (0, 1, -1):
        check(lambda xp, a: xp.packbits(a, axis=axis, bitorder=bitorder), a)
        check(lambda xp, a: xp.packbits(a[::-1, ::2], axis=axis, bitorder=bitorder), a)


def test_packbits_edges_and_errors():
    check(lambda xp, a: xp.packbits(a[0, 0]), sample("int8", (2, 3)))
    check(lambda xp, a: xp.packbits(a[:0]), sample("int8", (2, 3)))
    check(lambda xp, a: xp.packbits(a[:0], axis=1), sample("int8", (2, 3)))
    check(lambda xp, a: xp.packbits(a, axis=2), sample("int8", (2, 3)))
    check(lambda xp, a: xp.packbits(a), sample("float32", (2, 3)))  # TypeError
    check(lambda xp, a: xp.packbits(a, bitorder="middle"), sample("int8", (2, 3)))
    check(lambda xp, a: xp.packbits(a.reshape(8, 8)), numpy.eye(8, dtype=bool)[::-1].ravel())


@pytest.mark.parametrize("count", [None, 0, 5, 16, 17, 30, -3, -16, -17], ids=ids)
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpackbits(count, bitorder):
    a = numpy.array([[0, 1, 255, 128], [7, 64, 200, 33]], dtype=numpy.uint8)
    check(lambda xp, a: xp.unpackbits(a, count=count, bitorder=bitorder), a)
    for axis in (0, 1, -2):
        check(lambda xp, a: xp.unpackbits(a, axis=axis, count=count, bitorder=bitorder), a)
        check(lambda xp, a: xp.unpackbits(a.T[::-1], axis=axis, count=count, bitorder=bitorder), a)


def test_unpackbits_edges_and_errors():
    a = numpy.array([[0, 1, 255, 128], [7, 64, 200, 33]], dtype=numpy.uint8)
    check(lambda xp, a: xp.unpackbits(a[0, 2]), a)
    check(lambda xp, a: xp.unpackbits(a[0, 2], axis=0), a)
    check(lambda xp, a: xp.unpackbits(a[:0], axis=1), a)
    check(lambda xp, a: xp.unpackbits(a.astype(numpy.int8)), a)  # TypeError
    check(lambda xp, a: xp.unpackbits(a, count=-33), a)
    check(lambda xp, a: xp.unpackbits(a, count=1.5), a)
    check(lambda xp, a: xp.unpackbits(a, axis=3), a)
    check(lambda xp, a: xp.unpackbits(xp.packbits(a > 100, axis=1), axis=1, count=4), a)
