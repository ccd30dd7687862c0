"""Indexing: integers, slices with any step, Ellipsis, None, boolean masks and integer
arrays; reading, writing with broadcasting, views that write through to their base, and
the IndexErrors NumPy raises."""

import numpy
import pytest

from parity import check, ids, sample

S = slice
# Indices into an array of shape (3, 4, 5).
BASIC = [
    0, -1, 2, -3, (1, 2), (1, -1, 4), (-3, 0, -5), S(None), S(1, 3), S(None, None, 2),
    S(None, None, -1), S(2, 0, -1), S(-1, -4, -2), S(5, 10), S(-10, 10), S(3, 3),
    S(2, None, -2), (S(None), 1), (S(None), S(None, None, -2)), (1, S(1, None, 2), -1),
    (S(None, None, -1), S(3, 0, -2), S(None, None, 3)), (S(0, 3, 5), 0), Ellipsis,
    (Ellipsis, 0), (0, Ellipsis), (Ellipsis, S(1, 4, 2)), (1, Ellipsis, -2),
    (S(None, None, -1), Ellipsis, 2), None, (None, 0), (0, None, S(None), None),
    (Ellipsis, None), (None, Ellipsis, None), (S(1, None), None, 2, S(None, None, -2)),
    (), (1, 2, 3), (-1, -1, -1), (1, 2, 3, Ellipsis), (Ellipsis, 1, 2, 3),
    numpy.int64(1), (numpy.int32(-1), S(numpy.int64(1), None)),
]
# Indices NumPy rejects on shape (3, 4, 5): IndexError (out of range, too many indices,
# two Ellipses) or TypeError (float index).
BAD = [3, -4, (0, 4), (0, 0, 5), (0, 0, -6), (0, 0, 0, 0), (Ellipsis, Ellipsis),
       (0, Ellipsis, 0, 0, 0), 1.0, (S(None), 2.5), "a", S(None, None, 0)]
# Advanced indices: integer arrays/lists and boolean masks mixed with basic ones.
ADVANCED = [
    [0, 2], [-1, 0, -1], ([0, 2], [1, 3]), ([[0, 1], [2, 0]],), (S(None), [3, 0, 3]),
    (Ellipsis, [4, 0]), (1, [0, 3], S(1, 4)), ([0, 2], S(None), [1, 4]), ([], S(None)),
    ([True, False, True],), (S(None), [True, False, False, True]),
    (numpy.array([2, 1]), None, numpy.array([0, 0])),
]
BAD_ADVANCED = [[3], [-4], ([0, 1], [1, 2, 3]), ([True, False],), ([0.5],)]


@pytest.mark.parametrize("index", BASIC, ids=ids)
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64", "bool"])
def test_basic_read(dtype, index):
    check(lambda xp, a: a[index], sample(dtype, (3, 4, 5)))


@pytest.mark.parametrize("index", BASIC + ADVANCED, ids=ids)
def test_read_from_noncontiguous(index):
    base = sample("int64", (6, 8, 10))
    check(lambda xp, a: a[::2, ::-2, 1::3][index], base)
    check(lambda xp, a: a.T[::3, 1:5, ::-1][index], base)


@pytest.mark.parametrize("index", BAD + BAD_ADVANCED, ids=ids)
def test_bad_index_raises(index):
    check(lambda xp, a: a[index], sample("float32", (3, 4, 5)))

    def assign(xp, a):
        a[index] = 1
        return a

    check(assign, sample("float32", (3, 4, 5)))


@pytest.mark.parametrize("index", [0, -1, (), Ellipsis, None, S(None), 1, (0, 0)], ids=ids)
def test_zero_and_one_dimensional(index):
    check(lambda xp, a: a[index], numpy.array(2.5))
    check(lambda xp, a: a[index], sample("int8", (1,)))


@pytest.mark.parametrize("index", BASIC, ids=ids)
def test_views_write_through_to_base(index):
    # Only where NumPy returns an array view; full integer indices give scalars (below).
    is_view = isinstance(numpy.zeros((3, 4, 5))[index], numpy.ndarray)

    def f(xp, a):
        view = a[index]
        if is_view:
            view[...] = -7
        return a

    check(f, sample("int16", (3, 4, 5)))


@pytest.mark.parametrize("index", [(1, 2, 3), (-1, 0, 4), (numpy.int64(2), 1, 1)], ids=ids)
def test_full_integer_index_does_not_alias(index):
    # NumPy returns a scalar, so `x += 1` rebinds x and leaves the array alone.  A 0-d view
    # here would silently change user programs.
    def f(xp, a):
        x = a[index]
        x += 1
        return a, x

    check(f, sample("float32", (3, 4, 5)))


def test_views_of_views_and_mutation_visibility():
    def chain(xp, a):
        v = a[1:, ::-1][:, ::2][0]
        v[:] = 100
        return a

    def base_change_seen_by_view(xp, a):
        v = a[::2, 1]
        a[...] = 0
        a[2, 1] = 5
        return v

    def overlapping_views(xp, a):
        a[1:3] = a[0:2]  # assignment between overlapping views: copy semantics
        return a

    def slice_of_transpose(xp, a):
        a.T[1:3, ::2] = 9
        return a

    for f in (chain, base_change_seen_by_view, overlapping_views, slice_of_transpose):
        check(f, sample("float64", (4, 6)))


# (index, value) assignments to a (3, 4, 5) array; values broadcast to the indexed shape.
ASSIGN = [
    (0, 7), ((1, 2, 3), -1), (S(None, None, 2), 2.5), (S(None, None, -1), True),
    ((Ellipsis, 0), numpy.arange(3)), ((S(None), 1), numpy.arange(5)),
    ((S(None), S(None, None, 2)), numpy.arange(15).reshape(3, 1, 5)),
    ((1, S(None, None, -1), S(1, 4)), numpy.ones((4, 1))),
    (Ellipsis, numpy.arange(5) * 1.5), ((None, 0), numpy.arange(20).reshape(1, 4, 5)),
    ((0, 0), [1, 2, 3, 4, 5]), ((S(None), 0, 0), numpy.array([1, 2])),
    ((0, S(None)), numpy.ones((5, 4))), ([0, 2], 3), ((S(None), [1, 3]), numpy.arange(5)),
    (([0, 2], [1, 3], [4, 0]), [10, 20]), (S(None), 1 + 2j), (0, 2**40), ((0, 0, 0), "x"),
]


@pytest.mark.parametrize("index,value", ASSIGN, ids=ids)
@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "complex128", "bool"])
def test_assignment(dtype, index, value):
    # Values are cast to the array's dtype (int <- float truncates; complex -> real and
    # out-of-range Python ints raise, as in NumPy); impossible broadcasts raise ValueError.
    def f(xp, a, *value_array):
        a[index] = value_array[0] if value_array else value
        return a

    extra = (value,) if isinstance(value, numpy.ndarray) else ()
    check(f, sample(dtype, (3, 4, 5)), *extra)


def test_assignment_from_module_arrays_and_views():
    def from_view(xp, a, b):
        a[::2, 1:3] = b[::-1, ::2]
        return a

    def from_self(xp, a, b):
        a[:, 0] = a[:, -1]
        return a

    def row_swap(xp, a, b):
        a[[0, 1]] = a[[1, 0]]
        return a

    for f in (from_view, from_self, row_swap):
        check(f, sample("float64", (4, 6)), sample("float64", (2, 4), seed=1))


def masks(shape, seed):
    return sample("bool", shape, seed=seed)


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64", "bool"])
def test_boolean_mask_read(dtype):
    a = sample(dtype, (3, 4, 5))
    check(lambda xp, a, m: a[m], a, masks((3, 4, 5), 1))
    check(lambda xp, a, m: a[m], a, masks((3,), 2))
    check(lambda xp, a, m: a[m], a, masks((3, 4), 3))
    check(lambda xp, a, m: a[:, m], a, masks((4,), 4))
    check(lambda xp, a, m: a[m], a, numpy.zeros((3, 4, 5), bool))
    check(lambda xp, a: a[a > 0] if dtype != "complex64" else a[a.real > 0], a)
    check(lambda xp, a, m: a[m], a, masks((4, 5), 5))  # wrong shape: IndexError
    check(lambda xp, a: a[True], a)
    check(lambda xp, a: a[False], a)


@pytest.mark.parametrize("dtype", ["int16", "float64", "bool"])
def test_boolean_mask_write(dtype):
    def scalar(xp, a, m):
        a[m] = 1
        return a

    def array(xp, a, m):
        a[m] = xp.arange(int(m.sum()))
        return a

    def broadcast_row(xp, a, m):
        a[m] = xp.asarray([9, 8, 7, 6, 5])
        return a

    def computed_mask(xp, a, m):
        a[a == a.flat[0]] = 0
        return a

    def wrong_count(xp, a, m):
        a[m] = xp.arange(int(m.sum()) + 1)
        return a

    a = sample(dtype, (3, 4, 5))
    for f in (scalar, array, computed_mask, wrong_count):
        check(f, a, masks((3, 4, 5), 1))
    check(broadcast_row, a, masks((3, 4), 2))


@pytest.mark.parametrize("index", ADVANCED, ids=ids)
def test_advanced_read_and_write(index):
    check(lambda xp, a: a[index], sample("int32", (3, 4, 5)))

    def write(xp, a):
        a[index] = -5
        return a

    check(write, sample("int32", (3, 4, 5)))


def test_advanced_indexing_returns_copy():
    def f(xp, a):
        c = a[[0, 1]]
        c[...] = 0
        return a, c

    check(f, sample("float32", (3, 4)))


@pytest.mark.parametrize("index", [0, 5, -6, 6, -7, S(1, None, 2), [1, 4]], ids=ids)
def test_flat_and_item_style_access(index):
    check(lambda xp, a: a.flat[index], sample("int64", (2, 3)))
    check(lambda xp, a: a.ravel()[index], sample("int64", (2, 3)))
