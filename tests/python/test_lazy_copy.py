"""Copy-on-write stores: `tessera._tessera._lazy_copy(a)` is a copy of `a` that shares a's memory
— no second allocation in the pool — until either of them, or a view of either, is written;
the one written then takes fresh memory with a copy of the values and the other keeps its own.
Values are checked against NumPy copies; memory through the SYSMEM pool's use
(`_tessera.memory_usage()`), read after a fence. Runs on one rank and under mpirun (each
rank holds its part of an array: the numbers are per rank).
"""
import numpy
import pytest

import tessera
import tessera.numpy as tnp
from tessera import _tessera

lazy_copy = _tessera._lazy_copy

N = 1 << 20  # 8 MiB of float64: far above what unrelated temporaries take
BYTES = 8 * N
SLACK = 4096
RANKS = _tessera._rank_count()


def used():
    tessera.fence()
    return _tessera.memory_usage()[0]


def host(a):
    return numpy.array(numpy.asarray(a), copy=True)


def randn(seed=0):
    tnp.random.seed(seed)
    return tnp.random.randn(N)


def test_the_acceptance_case_makes_no_second_copy_until_a_write():
    # pandas 3: `sr = pd.Series(a1)` copies lazily, `a2 = np.asarray(sr)` is a read-only view.
    a1 = randn()
    expect = host(a1)
    before = used()
    sr = lazy_copy(a1)
    a2 = sr.view()
    a2.flags.writeable = False
    assert used() - before < SLACK, "the copy shares a1's memory"
    assert sr.flags.writeable and sr.flags.c_contiguous and not a2.flags.writeable
    assert numpy.array_equal(host(sr), expect) and numpy.array_equal(host(a2), expect)
    assert used() - before < SLACK, "reading them allocates nothing"
    a1[0] = 5.0  # a host write: a1 takes fresh memory, sr and a2 keep the values
    assert float(a1[0]) == 5.0
    assert numpy.array_equal(host(sr), expect) and numpy.array_equal(host(a2), expect)
    grown = used() - before
    assert grown > BYTES // (2 * RANKS), "a1 took fresh memory"
    sr[1] = 7.0  # sr is alone with its memory now: a2, its view, sees the write; a1 does not
    assert float(a2[1]) == 7.0 and float(a1[1]) == expect[1]
    assert used() - before == grown


def test_writing_the_copy_leaves_the_source():
    a = randn(1)
    expect = host(a)
    before = used()
    b = lazy_copy(a)
    b += 1  # an in-place ufunc on the copy
    assert numpy.array_equal(host(b), expect + 1)
    assert numpy.array_equal(host(a), expect)
    assert used() - before > 0
    tnp.add(a, 2, out=a)
    assert numpy.array_equal(host(a), expect + 2)
    assert numpy.array_equal(host(b), expect + 1)


def test_writes_through_slices_of_either_side():
    a = tnp.arange(1000, dtype=tnp.float64)
    ref = numpy.arange(1000, dtype=numpy.float64)
    b = lazy_copy(a)
    a[10:20] = -1.0
    ref_a = ref.copy()
    ref_a[10:20] = -1.0
    assert numpy.array_equal(host(a), ref_a) and numpy.array_equal(host(b), ref)
    c = lazy_copy(b)  # a copy of a copy
    v = c[::3]
    v *= 2
    ref_c = ref.copy()
    ref_c[::3] *= 2
    assert numpy.array_equal(host(c), ref_c)
    assert numpy.array_equal(host(b), ref) and numpy.array_equal(host(a), ref_a)
    b[-1] = 42.0
    assert float(b[-1]) == 42.0 and float(c[-1]) == ref_c[-1] and float(a[-1]) == ref_a[-1]


def test_host_writes_of_either_side():
    a = tnp.arange(12, dtype=tnp.int64).reshape(3, 4)
    b = lazy_copy(a)
    a[0, 0] = 1
    b[2, 3] = -5
    assert host(a).tolist() == [[1, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert host(b).tolist() == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, -5]]


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint16", "float32", "complex128"])
def test_dtypes(dtype):
    ref = (numpy.arange(200) % 7).astype(dtype)
    a = tnp.asarray(ref)
    b = lazy_copy(a)
    assert b.dtype == ref.dtype and b.shape == ref.shape
    a[...] = a[0]
    assert numpy.array_equal(host(b), ref)
    assert numpy.array_equal(host(a), numpy.full_like(ref, ref[0]))


def test_a_copy_dropped_before_any_write_costs_nothing():
    a = randn(2)
    expect = host(a)
    before = used()
    b = lazy_copy(a)
    tessera.fence()
    del b
    a += 1
    assert numpy.array_equal(host(a), expect + 1)
    assert used() - before < SLACK


def test_the_memory_stays_with_the_last_user():
    a = randn(3)
    expect = host(a)
    before = used()
    b = lazy_copy(a)
    del a
    assert used() - before < SLACK
    assert numpy.array_equal(host(b), expect)
    b *= 2
    assert numpy.array_equal(host(b), expect * 2)
    assert used() - before < SLACK, "b, alone with the memory, wrote it in place"
    del b
    assert used() - before < -BYTES // (2 * RANKS), "the memory went with b"


def test_views_that_cannot_share_are_copied():
    m = tnp.arange(24, dtype=tnp.float64).reshape(4, 6)
    t = lazy_copy(m.T)
    s = lazy_copy(m[:, 1::2])
    m[...] = 0
    assert host(t).tolist() == numpy.arange(24, dtype=numpy.float64).reshape(4, 6).T.tolist()
    assert t.flags.c_contiguous and s.flags.c_contiguous
    assert host(s).tolist() == numpy.arange(24, dtype=numpy.float64).reshape(4, 6)[:, 1::2].tolist()


def test_memory_handed_out_is_copied_at_once():
    a = tnp.arange(100, dtype=tnp.float64)
    exported = numpy.from_dlpack(a)  # a's address is known outside: it cannot be shared
    b = lazy_copy(a)
    tessera.fence()  # (writes through exported memory are not ordered with pending operations)
    exported[0] = -3.0  # a write tessera does not see: b must not share the memory
    assert float(b[0]) == 0.0
    assert float(a[0]) == -3.0


def test_a_read_only_source_gives_a_writeable_copy():
    a = tnp.arange(10, dtype=tnp.float64)
    ro = a.view()
    ro.flags.writeable = False
    b = lazy_copy(ro)
    assert b.flags.writeable
    b[0] = 9
    assert float(a[0]) == 0.0 and float(b[0]) == 9.0


def test_rejects_what_is_not_a_tessera_array():
    with pytest.raises(TypeError):
        lazy_copy([1, 2, 3])
