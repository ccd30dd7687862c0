"""One memory with tessera.numpy, pandas 3's copy-on-write semantics: `sr = pd.Series(a1)` shares
a1's memory until either is written (no second allocation in the pool), `np.asarray(sr)` is the
column itself, read-only; after a write to a1 or to sr every object holds what pandas' holds.
Memory is read from the pool (`_tessera.memory_usage()`, per rank under mpirun)."""
import numpy
import pandas
import pytest

import tessera
import tessera.numpy as tnp
import tessera.pandas as tpd
from tessera import _tessera

N = 1 << 20  # 8 MiB of float64
BYTES = 8 * N
SLACK = 64 * 1024
RANKS = _tessera._rank_count()


def used():
    tessera.fence()
    return _tessera.memory_usage()[0]


def both(seed):
    """(tessera's a1, NumPy's a1): the same values."""
    tnp.random.seed(seed)
    a1 = tnp.random.randn(N)
    return a1, numpy.array(numpy.asarray(a1), copy=True)


def same(t, p):
    numpy.testing.assert_array_equal(numpy.asarray(t), numpy.asarray(p))


@pytest.mark.usefixtures("no_fallback")
def test_series_of_an_array_allocates_no_second_copy_and_asarray_is_a_read_only_view():
    a1, h1 = both(1)
    base = used()
    sr = tpd.Series(a1)
    a2 = tnp.asarray(sr)
    psr = pandas.Series(h1)
    pa2 = numpy.asarray(psr)
    assert used() - base <= SLACK  # the Series and the view share a1's memory
    same(sr.to_pandas(), psr)
    same(a2, pa2)
    assert a2.flags.writeable == pa2.flags.writeable is False
    assert isinstance(a2, type(a1)) and a2.shape == (N,)


@pytest.mark.usefixtures("no_fallback")
def test_a_write_to_the_array_is_not_seen_by_the_series():
    a1, h1 = both(2)
    sr, psr = tpd.Series(a1), pandas.Series(h1)
    a2, pa2 = tnp.asarray(sr), numpy.asarray(psr)
    base = used()
    a1[0] = 5.0
    h1[0] = 5.0
    a1[10:20] += 1.0
    h1[10:20] += 1.0
    same(a1, h1)
    same(sr.to_pandas(), psr)
    same(a2, pa2)
    grown = used() - base
    assert BYTES // RANKS - SLACK <= grown <= BYTES + SLACK  # one copy now: the written side's


@pytest.mark.usefixtures("no_fallback")
def test_a_write_to_the_series_is_not_seen_by_the_array():
    a1, h1 = both(3)
    sr, psr = tpd.Series(a1), pandas.Series(h1)
    a2, pa2 = tnp.asarray(sr), numpy.asarray(psr)
    sr[0] = 7.0
    psr[0] = 7.0
    sr[sr > 1.5] = 0.0
    psr[psr > 1.5] = 0.0
    same(a1, h1)
    same(sr.to_pandas(), psr)
    same(a2, pa2)  # a view of the Series' values, in pandas as here
    assert numpy.asarray(a1)[0] != 7.0


def test_assignments_pandas_would_upcast_or_refuse_are_pandas_own():
    s = tpd.Series(tnp.arange(5))
    p = pandas.Series(numpy.arange(5))
    for key, value in [(2, 9), (1, -3)]:
        s[key] = value
        p[key] = value
    same(s.to_pandas(), p)
    for bad in (2.5, "x"):
        errors = []
        for obj in (s, p):
            try:
                obj[0] = bad
            except Exception as exc:  # pandas 3 refuses to upcast: the same error here
                errors.append(type(exc))
        assert len(errors) in (0, 2) and len(set(errors)) <= 1, errors
    same(s.to_pandas(), p)
