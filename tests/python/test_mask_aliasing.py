"""Mask writes whose mask or values share memory with the array written."""

import numpy

import tessera.numpy as tnp


def test_mask_is_the_array_itself():
    ref = numpy.array([True, False, True, True, False] * 1000)
    got = tnp.asarray(ref)
    ref[ref] = False
    got[got] = False
    numpy.testing.assert_array_equal(numpy.asarray(got), ref)


def test_values_are_a_view_of_the_array():
    ref = numpy.arange(20_000, dtype=numpy.float32)
    got = tnp.asarray(ref)
    m = ref % 3 == 0
    tm = tnp.asarray(m)
    n = int(m.sum())
    # tessera reads all values before writing, as if they were copied first; NumPy's own
    # result for overlapping memory here depends on the order of its inner loop.
    ref[m] = ref[:n][::-1].copy()
    got[tm] = got[:n][::-1]
    numpy.testing.assert_array_equal(numpy.asarray(got), ref)


def test_putmask_cycles_values_from_the_array():
    ref = numpy.arange(1000, dtype=numpy.int64)
    got = tnp.asarray(ref)
    numpy.putmask(ref, ref % 7 == 1, ref[:13])
    tnp.putmask(got, got % 7 == 1, got[:13])
    numpy.testing.assert_array_equal(numpy.asarray(got), ref)
