"""Advanced (integer-array) indexing and the functions on it match NumPy: x[key] and
x[key] = v for keys mixing index arrays (lists, NumPy and tessera arrays, negative and
repeated indices, booleans) with ints, slices, None and Ellipsis, on every dtype and on
views; take, put, take_along_axis, put_along_axis, place, compress, bincount, ufunc.at,
lexsort, partition, argpartition, sort_complex, unique's inverse. Errors as NumPy's.
Scatters with repeated indices end as NumPy's (the last write wins, every ufunc.at update
counts, in NumPy's order: float sums to the bit), on any number of cpus."""

import numpy
import pytest

import tessera.numpy as np
from parity import check, output_under, sample

pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively

A3 = numpy.arange(2 * 5 * 4).reshape(2, 5, 4)
I = numpy.array([3, 0, -1, 3])

# Keys for A3 (shape (2, 5, 4)).
KEYS = {
    "list": ([1, 0],),
    "array_axis1": (slice(None), I),
    "array_last": (Ellipsis, numpy.array([[0, 3], [-4, 1]])),
    "two_adjacent": (slice(None), I, numpy.array([1, 2, 3, 0])),
    "two_broadcast": (numpy.array([[0], [1]]), slice(None), numpy.array([0, 2, 3])),
    "int_and_array_apart": (1, slice(None), numpy.array([0, 3])),
    "int_and_array_adjacent": (slice(None), 4, numpy.array([0, 3])),
    "newaxis_between": (numpy.array([0, 1]), None, numpy.array([2, 0])),
    "newaxis_first": (None, slice(None), numpy.array([1, 1, 2])),
    "bool_axis": (slice(None), numpy.array([True, False, True, True, False])),
    "bool_2d": (numpy.array([[True, False, True, False, False], [False, True, False, False, True]]),),
    "bool_and_int_array": (numpy.array([False, True]), slice(None), numpy.array([3, 1])),
    "bool_scalar": (True, numpy.array([0, 1])),
    "false_scalar": (False, slice(None), numpy.array([0])),
    "empty_list": ([],),
    "empty_array_axis1": (slice(None), numpy.array([], dtype=numpy.int64)),
    "zero_d_array": (numpy.array(1), slice(1, 4), numpy.array([0, 2])),
    "all_arrays": (numpy.array([1, 0]), numpy.array([4, 2]), numpy.array([3, 3])),
    "all_zero_d": (numpy.array(1), numpy.array(2), numpy.array(-1)),
    "int32_index": (numpy.array([1, 0], dtype=numpy.int32), slice(None, None, 2)),
    "uint8_index": (slice(None), numpy.array([4, 0], dtype=numpy.uint8)),
    "slices_around": (slice(None, None, -1), numpy.array([[1, 2], [3, 4]]), slice(1, 3)),
}

VIEWS = {
    "whole": lambda a: a,
    "reversed": lambda a: a[::-1, ::-1],
    "strided": lambda a: a[:, ::1, ::-1],
    "transposed": lambda a: a.transpose(0, 2, 1)[:, :, :].transpose(0, 2, 1),
}


def _key(xp, key):
    """The key with its NumPy arrays as arrays of module xp (lists and scalars unchanged)."""
    return tuple(xp.asarray(k) if isinstance(k, numpy.ndarray) else k for k in key)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("name", KEYS)
def test_getitem(name, view):
    check(lambda xp, a: VIEWS[view](a)[_key(xp, KEYS[name])], A3)


@pytest.mark.parametrize("name", KEYS)
def test_getitem_with_numpy_index_arrays(name):
    check(lambda xp, a: a[KEYS[name]], A3)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
def test_getitem_and_setitem_every_dtype(dtype):
    a = sample(dtype, (6, 7))
    check(lambda xp, m: m[xp.asarray([5, 0, 0, -2])], a)
    check(lambda xp, m: m[:, xp.asarray([[6], [1]])], a)

    def write(xp, m):
        m[xp.asarray([1, 4]), 2:5] = m[0, :3]
        m[[0, 0], [1, 1]] = m[5, 5]
        return m
    check(write, a)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("name", sorted(set(KEYS) - {"all_zero_d"}))
def test_setitem_scalar_and_array(name, view):
    def scalar(xp, a):
        VIEWS[view](a)[_key(xp, KEYS[name])] = -7
        return a

    def array(xp, a):
        target = VIEWS[view](a)
        shape = target[_key(xp, KEYS[name])].shape
        target[_key(xp, KEYS[name])] = xp.arange(int(numpy.prod(shape)), dtype=xp.int64).reshape(shape) * 10
        return a

    def broadcast(xp, a):
        target = VIEWS[view](a)
        shape = target[_key(xp, KEYS[name])].shape
        if shape:
            target[_key(xp, KEYS[name])] = xp.arange(shape[-1]) + 100
        return a
    for fn in (scalar, array, broadcast):
        check(fn, A3)


def test_setitem_zero_d_result_and_casting():
    def write(xp, a):
        a[xp.asarray(1), xp.asarray(2), xp.asarray(-1)] = 99
        a[[0, 1], 0, [1, 2]] = [1.9, -2.7]  # float into int: cast as NumPy's setitem
        return a
    check(write, A3)
    check(lambda xp, a: (a.__setitem__(([0, 2],), [1.5, numpy.nan]), a)[1], numpy.arange(4.0))


def test_repeated_indices_last_write_wins():
    rng = numpy.random.default_rng(0)
    idx = rng.integers(0, 1000, 200_000)
    vals = rng.standard_normal(200_000)

    def write(xp, a):
        a[xp.asarray(idx)] = xp.asarray(vals)
        return a
    check(write, numpy.zeros(1000))
    m_idx = rng.integers(-50, 50, 300)
    scale = rng.standard_normal()

    def rows(xp, m):
        m[xp.asarray(m_idx), :] = scale * xp.arange(300.0)[:, None]
        return m
    check(rows, numpy.zeros((50, 8)))


def test_large_gather_matches_numpy():
    rng = numpy.random.default_rng(1)
    a = rng.standard_normal((3000, 300))
    rows = rng.integers(-3000, 3000, 5000)
    cols = rng.integers(0, 300, 5000)
    check(lambda xp, m: m[xp.asarray(rows)], a)
    check(lambda xp, m: m[xp.asarray(rows), xp.asarray(cols)], a)
    check(lambda xp, m: m[:, xp.asarray(cols[:40])], a)
    check(lambda xp, m: m[xp.asarray(rows[:100, None]), xp.asarray(cols[None, :50])], a)


def test_index_arrays_from_the_same_array():
    def self_index(xp, a):
        a[a] = 0  # the index array is the array written
        return a
    check(self_index, numpy.array([3, 0, 1, 2, 3]))

    def overlapping_values(xp, a):
        a[[0, 1, 2]] = a[1:4]  # values read from the array written
        return a
    check(overlapping_values, numpy.arange(6.0))


BAD_KEYS = {
    "out_of_range": ([0, 5],),
    "negative_out_of_range": (slice(None), [-6]),
    "int_out_of_range": (2, [0]),
    "float_array": (numpy.array([0.0, 1.0]),),
    "shape_mismatch": (slice(None), numpy.array([0, 1]), numpy.array([0, 1, 2])),
    "too_many": ([0], [0], [0], [0]),
    "bool_mismatch": (numpy.array([True, False, True]),),
    "bool_mismatch_axis1": (slice(None), numpy.array([True, False])),
    "two_ellipses": (Ellipsis, Ellipsis, [0]),
    "bad_item": ([0], "a"),
}


@pytest.mark.parametrize("name", BAD_KEYS)
def test_bad_keys_raise_as_numpy(name):
    check(lambda xp, a: a[_key(xp, BAD_KEYS[name])], A3)

    def write(xp, a):
        a[_key(xp, BAD_KEYS[name])] = 1
        return a
    check(write, A3)


def test_failed_write_changes_nothing():
    a = np.arange(6)
    with pytest.raises(IndexError, match="out of bounds"):
        a[np.array([0, 1, 9])] = -1
    with pytest.raises(IndexError):
        a.put([0, 99], [4, 5])
    assert numpy.array_equal(numpy.asarray(a), numpy.arange(6))


def test_value_shape_mismatch():
    def write(xp, a):
        a[[0, 1]] = xp.asarray([1, 2, 3])
    check(write, numpy.arange(5))

    def write2(xp, a):
        a[:, [0, 1]] = xp.ones((3, 2))
    check(write2, numpy.zeros((2, 4)))


def test_read_only_target():
    def write(xp, a):
        a.setflags(write=False)
        a[[0]] = 1
    check(write, numpy.arange(3))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_take(axis, mode):
    a = sample("float64", (4, 5))
    for idx in ([1, -2, 3], [[0, 4], [2, 2]], 3, numpy.array([], dtype=numpy.int64), [7, -9]):
        check(lambda xp, m: xp.take(m, idx, axis=axis, mode=mode), a)
        check(lambda xp, m: m.take(xp.asarray(idx), axis, mode=mode), a)
    check(lambda xp, m: xp.take(m[::-1, ::2], [2, 0], axis=axis, mode=mode), a)


def test_take_errors_and_out():
    a = numpy.arange(6.0)
    check(lambda xp, m, i: xp.take(m, i), a, numpy.array([0.5]))
    check(lambda xp, m: xp.take(m, [1], axis=2), a)
    check(lambda xp, m: xp.take(m, [1], mode="nearest"), a)
    check(lambda xp, m: xp.take(m[:0], [0], mode="wrap"), a)

    def with_out(xp, m):
        out = xp.zeros(2)
        r = xp.take(m, [4, 1], out=out)
        return r is out, out
    check(with_out, a)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(mode):
    for idx, vals in (([0, 2, -1], [9, 8, 7]), ([1, 1, 1], [5, 6, 7]), ([0, 3, 4, 5], [1, 2]),
                      ([10, -12], [3.5]), ([[0, 1], [2, 3]], numpy.arange(10))):
        def fn(xp, a):
            xp.put(a, idx, xp.asarray(vals))
            return a
        check(fn, numpy.arange(12).reshape(3, 4))

        def view(xp, a):
            a[::2, ::-1].put(idx, xp.asarray(vals), mode=mode)
            return a
        check(view, numpy.arange(12.0).reshape(3, 4))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_and_put_along_axis(axis):
    a = sample("float64", (4, 6), seed=3)
    order = numpy.argsort(a, axis=axis)
    check(lambda xp, m: xp.take_along_axis(m, xp.asarray(order), axis=axis), a)
    if axis is not None:
        check(lambda xp, m: xp.take_along_axis(m, xp.asarray(order[:2] if axis == 0 else order[:, :2]), axis=axis), a)

    def put(xp, m):
        xp.put_along_axis(m, xp.asarray(order), xp.arange(order.size, dtype=float).reshape(order.shape), axis=axis)
        return m
    check(put, a)

    def put_scalar(xp, m):
        xp.put_along_axis(m, xp.asarray(order), -1.0, axis=axis)
        return m
    check(put_scalar, a)


def test_along_axis_errors():
    a = numpy.arange(6.0).reshape(2, 3)
    check(lambda xp, m: xp.take_along_axis(m, xp.asarray([0, 1]), axis=0), a)
    check(lambda xp, m: xp.take_along_axis(m, xp.asarray([[0.0]]), axis=0), a)
    check(lambda xp, m: xp.take_along_axis(m, xp.asarray([[0]]), axis=2), a)
    check(lambda xp, m: xp.take_along_axis(m, xp.asarray([[0]]), axis=None), a)


def test_place_and_compress():
    a = numpy.arange(12.0).reshape(3, 4)
    for vals in ([1, 2], [5.5], numpy.arange(20.0), []):
        def place(xp, m):
            xp.place(m, m % 3 == 0, vals)
            return m
        check(place, a)
    check(lambda xp, m: xp.place(m, [True, False], [1]), a)
    for cond, axis in (([True, False, True], 0), ([False, True, True, False], 1), ([True] * 5, None),
                       ([], 0), ([True, False, True, True], 0), ([[True]], 0)):
        check(lambda xp, m: xp.compress(cond, m, axis=axis), a)
        check(lambda xp, m: m.compress(cond, axis), a)


def test_bincount():
    rng = numpy.random.default_rng(2)
    x = rng.integers(0, 50, 100_000)
    w = rng.standard_normal(100_000)
    check(lambda xp, v: xp.bincount(v), x)
    check(lambda xp, v: xp.bincount(v, minlength=80), x)
    check(lambda xp, v, ww: xp.bincount(v, weights=ww), x, w)  # sums in NumPy's order: to the bit
    out = np.bincount(np.asarray(x), weights=np.asarray(w))
    assert numpy.array_equal(numpy.asarray(out), numpy.bincount(x, weights=w))
    check(lambda xp, v: xp.bincount(v), numpy.array([], dtype=numpy.int64))
    check(lambda xp, v: xp.bincount(v, minlength=3), numpy.array([], dtype=numpy.int64))
    check(lambda xp, v: xp.bincount(v), numpy.array([True, False, True]))
    check(lambda xp, v: xp.bincount(v), numpy.array([1, 2], dtype=numpy.uint8))
    for bad, kwargs in ((numpy.array([[1]]), {}), (numpy.array([-1, 2]), {}), (numpy.array([1.0]), {}),
                        (numpy.array([1]), {"minlength": -1}), (numpy.array([1, 2]), {"weights": [1.0]}),
                        (numpy.array(3), {})):
        check(lambda xp, v: xp.bincount(v, **kwargs), bad)


AT_CASES = {
    "add": (numpy.add, "float64", 2.5),
    "add_int": (numpy.add, "int32", 3),
    "add_bool": (numpy.add, "bool", True),
    "subtract": (numpy.subtract, "int64", 2),
    "multiply": (numpy.multiply, "float32", numpy.float32(1.5)),
    "divide": (numpy.divide, "float64", 3.0),
    "minimum": (numpy.minimum, "float64", numpy.array([0.5, numpy.nan, -1.0, 2.0])),
    "maximum": (numpy.maximum, "int16", numpy.array([1, -3, 7, 2], dtype=numpy.int16)),
    "fmin": (numpy.fmin, "float64", numpy.array([0.5, numpy.nan, -1.0, 2.0])),
    "fmax": (numpy.fmax, "float64", numpy.array([numpy.nan, 3.0, -1.0, 2.0])),
    "bitwise_and": (numpy.bitwise_and, "uint8", numpy.uint8(6)),
    "bitwise_or": (numpy.bitwise_or, "int64", 5),
    "bitwise_xor": (numpy.bitwise_xor, "int8", numpy.int8(3)),
    "add_complex": (numpy.add, "complex128", 1 - 2j),
}


@pytest.mark.parametrize("name", AT_CASES)
def test_ufunc_at(name):
    uf, dtype, value = AT_CASES[name]
    a = sample(dtype, (10,), kind="nonzero")
    if dtype.startswith("float"):
        a[3] = numpy.nan

    def at(xp, m):
        getattr(xp, uf.__name__).at(m, xp.asarray([0, 3, 3, -1]), value)
        return m
    check(at, a)

    def at_2d(xp, m):
        getattr(xp, uf.__name__).at(m.reshape(2, 5), (xp.asarray([1, 1, 0, 1]), slice(1, 2)),
                                    value if numpy.ndim(value) == 0 else xp.asarray(value)[:, None])
        return m
    check(at_2d, a)


def test_ufunc_at_many_repeats_to_the_bit():
    rng = numpy.random.default_rng(4)
    idx = rng.integers(0, 7, 300_000)
    vals = rng.standard_normal(300_000)
    want = numpy.zeros(7)
    numpy.add.at(want, idx, vals)
    got = np.zeros(7)
    np.add.at(got, np.asarray(idx), np.asarray(vals))
    assert numpy.array_equal(numpy.asarray(got), want)


def test_ufunc_at_errors():
    def out_of_range(xp, m):
        xp.add.at(m, [5], 1)
    check(out_of_range, numpy.arange(3))


@pytest.mark.fallback  # checks a fallback on purpose
def test_ufunc_at_in_a_wider_type_runs_in_numpy():
    def float32_with_float64_array(xp, m):  # NumPy computes in float64, then rounds each update
        xp.add.at(m, [0, 0], xp.asarray([0.1, 0.2]))
        return m
    check(float32_with_float64_array, numpy.ones(3, dtype=numpy.float32))

    def int_with_float(xp, m):  # computed in float64, cast back unsafely
        xp.add.at(m, [0, 0], 1.5)
        return m
    check(int_with_float, numpy.arange(3))


@pytest.mark.parametrize("axis", [-1, 0])
def test_lexsort(axis):
    rng = numpy.random.default_rng(5)
    keys = [rng.integers(0, 3, (6, 8)), rng.standard_normal((6, 8)).round(0), rng.integers(0, 2, (6, 8))]
    check(lambda xp, a, b, c: xp.lexsort((a, b, c), axis=axis), *keys)
    check(lambda xp, a, b, c: xp.lexsort(xp.stack([a[0], b[0], c[0]])), *keys)
    check(lambda xp, a: xp.lexsort([a[0]]), keys[1])
    check(lambda xp, a, b: xp.lexsort((a, b[:, :3])), *keys[:2])
    check(lambda xp: xp.lexsort([]))
    check(lambda xp: xp.lexsort((xp.asarray(3.0), xp.asarray(1.0)), axis=axis))  # 0-d keys: one element
    check(lambda xp: xp.lexsort((xp.asarray(3.0),), axis=1))  # AxisError


@pytest.mark.parametrize("kth", [0, 3, -1, (1, 4), [2]])
def test_partition_and_argpartition(kth):
    a = sample("float64", (5, 7), seed=6)
    a[1, 2] = numpy.nan
    for axis in (-1, 0, None):
        part, order = np.partition(np.asarray(a), kth, axis=axis), np.argpartition(np.asarray(a), kth, axis=axis)
        want = numpy.partition(a, kth, axis=axis)
        part, order = numpy.asarray(part), numpy.asarray(order)
        assert part.shape == want.shape and part.dtype == want.dtype and order.dtype == numpy.intp
        flat_axis = 0 if axis is None else axis
        source = a.ravel() if axis is None else a
        for k in numpy.atleast_1d(kth):  # the kth elements are NumPy's; smaller ones before, larger after
            k_at = numpy.take(part, [k], axis=flat_axis)
            numpy.testing.assert_array_equal(k_at, numpy.take(want, [k], axis=flat_axis))
        numpy.testing.assert_array_equal(numpy.sort(part, axis=flat_axis), numpy.sort(want, axis=flat_axis))
        numpy.testing.assert_array_equal(numpy.take_along_axis(source, order, axis=flat_axis), part)
    m = np.asarray(a)
    m.partition(kth, axis=0)
    numpy.testing.assert_array_equal(numpy.sort(numpy.asarray(m), axis=0), numpy.sort(a, axis=0))


def test_partition_errors():
    a = numpy.arange(5.0)
    check(lambda xp, m: xp.partition(m, 5), a)
    check(lambda xp, m: xp.partition(m, -6), a)
    check(lambda xp, m: xp.argpartition(m, True), a)
    check(lambda xp, m: xp.partition(m, 1, kind="quick"), a)
    check(lambda xp, m: xp.partition(m, 1.5), a)
    check(lambda xp, m: xp.partition(m[0], 0), a)


@pytest.mark.parametrize("dtype", ["int16", "int64", "float32", "float64", "complex64", "complex128"])
def test_sort_complex(dtype):
    a = sample(dtype, (9,), seed=7)
    check(lambda xp, v: xp.sort_complex(v), a)


def test_scatter_and_gather_do_not_depend_on_cpus():
    code = """
import numpy, tessera.numpy as np
rng = numpy.random.default_rng(8)
a = np.zeros(50_000)
idx = np.asarray(rng.integers(0, 50_000, 400_000))
np.add.at(a, idx, np.asarray(rng.standard_normal(400_000)))
a[idx[:1000]] = np.arange(1000.0)
g = a[idx]
print(float(np.sum(g * np.arange(g.size))).hex(), float(np.sum(a)).hex())
"""
    outputs = {output_under(config, code) for config in ("--cpus=1", "--cpus=2", "--cpus=2 --min-cpu-chunk=1000")}
    assert len(outputs) == 1, outputs


def test_ufunc_at_with_basic_keys():
    def at(xp, m):
        xp.add.at(m, slice(1, 4), 10.0)
        xp.multiply.at(m, (0,), 2.0)
        xp.maximum.at(m, (1, Ellipsis), xp.asarray([[7.0]]))
        xp.subtract.at(m, (2, 3), 1.0)
        return m
    check(at, numpy.arange(24.0).reshape(4, 6))
