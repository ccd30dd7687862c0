"""Assignments that overwrite a box of an array from shifted views of itself
(`p[1:-1, 1:-1] = f(p[...])`) are computed into fresh storage with the frame carried across
(storage renaming). The values must be NumPy's, and every other handle on the array — views,
exported buffers — must see them."""
import numpy
import pytest

import tessera.numpy as np


def stencil(m, p):
    p[1:-1, 1:-1] = 0.25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])


def start(shape=(300, 200)):
    return numpy.random.default_rng(3).standard_normal(shape)


def test_repeated_sweeps_match_numpy_bitwise():
    ref = start()
    t = np.array(ref)
    for _ in range(7):
        stencil(numpy, ref)
        stencil(np, t)
    assert numpy.array_equal(numpy.asarray(t), ref)


def test_views_taken_before_see_the_new_values():
    ref = start()
    t = np.array(ref)
    row, inner, col = t[5], t[1:-1, 1:-1], t[:, 0]
    stencil(numpy, ref)
    stencil(np, t)
    assert numpy.array_equal(numpy.asarray(row), ref[5])
    assert numpy.array_equal(numpy.asarray(inner), ref[1:-1, 1:-1])
    assert numpy.array_equal(numpy.asarray(col), ref[:, 0])
    # Writes through an old view still reach the array after the renaming.
    row[:] = 7.0
    ref[5] = 7.0
    assert numpy.array_equal(numpy.asarray(t), ref)


def test_copy_taken_before_keeps_the_old_values():
    ref = start()
    t = np.array(ref)
    old = t.copy()
    stencil(np, t)
    assert numpy.array_equal(numpy.asarray(old), ref)
    stencil(numpy, ref)
    assert numpy.array_equal(numpy.asarray(t), ref)


def test_exported_memory_stays_the_arrays():
    ref = start()
    t = np.array(ref)
    shared = numpy.from_dlpack(t)  # NumPy's view of the array's own memory
    stencil(numpy, ref)
    stencil(np, t)
    float(t[0, 0])  # the exported view shows the memory as it is: wait for the sweep first
    assert numpy.array_equal(shared, ref)
    shared[0, 0] = -1.0
    assert float(t[0, 0]) == -1.0


@pytest.mark.parametrize("case", ["transposed", "row_shift", "whole", "3d", "float32", "int_box"])
def test_other_overlapping_boxes(case):
    ref = start((40, 30, 6)) if case == "3d" else start((64, 48))
    if case == "float32":
        ref = ref.astype(numpy.float32)
    if case == "int_box":
        ref = (ref * 100).astype(numpy.int64)
    t = np.array(ref)
    for m, a in ((numpy, ref), (np, t)):
        if case == "transposed":
            a.T[1:-1, 2:] = a.T[:-2, :-2] * 2 + 1
        elif case == "row_shift":
            a[1:] = a[:-1] + a[1:]
        elif case == "whole":
            a[:] = a[::-1] * 3
        elif case == "3d":
            a[1:-1, 1:-1, 1:] = a[2:, :-2, :-1] - a[:-2, 2:, 1:]
        else:
            a[2:-3, 1:-1] = a[4:-1, 2:] + a[:-5, :-2]
    assert t.dtype == ref.dtype
    assert numpy.array_equal(numpy.asarray(t), ref)


def test_array_never_written_before():
    ref = numpy.zeros((50, 40))
    t = np.empty((50, 40))
    t[:] = 0.0
    t[1:-1, 1:-1] = t[2:, 1:-1] + 1.0
    ref[1:-1, 1:-1] = ref[2:, 1:-1] + 1.0
    assert numpy.array_equal(numpy.asarray(t), ref)
