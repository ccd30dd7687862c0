"""Runtime behaviour seen from Python: errors of deferred work surface at the next sync
point as NumPy's exception and leave the runtime usable; memory returns to the pool when
the last reference goes; results do not depend on the number of tiles."""

import numpy
import pytest

import tessera
import tessera.numpy as tnp
from tessera import OutputArray, task


@task()
def no_value(y: OutputArray) -> None:
    raise ValueError("no value for this tile")


def test_deferred_error_raises_at_sync_and_runtime_recovers():
    big = tnp.empty(300_000)
    no_value(big)  # deferred: the points run on the workers
    with pytest.raises(ValueError, match="no value for this tile"):
        float(big.sum())
    ok = tnp.arange(300_000) + 1
    assert float(ok.sum()) == float(numpy.arange(300_000).sum() + 300_000)


def test_error_of_small_operation_surfaces_by_next_sync():
    # Small operations run at the call when nothing is pending (so the error is NumPy's, at
    # the call); in test mode everything is deferred and the error comes at the sync point.
    with pytest.raises(ValueError, match="no value for this tile"):
        c = tnp.empty(3)
        no_value(c)
        c.tolist()
    assert tnp.arange(3).tolist() == [0, 1, 2]


def test_data_dependent_errors_raise_at_the_statement():
    # An integer power's exponents are read before it is issued (tests/python/test_statement_errors.py).
    big = tnp.arange(300_000)
    with pytest.raises(ValueError, match="negative integer powers"):
        big ** (big - 5)  # negative exponents for the first elements


def test_storage_returns_to_pool_when_last_reference_goes():
    tessera.fence()
    before = tessera._tessera.memory_usage()[0]
    a = tnp.ones((1000, 1000))
    b = a * 2
    assert float(b[3, 3]) == 2.0 and float(a[3, 3]) == 1.0  # both computed (a read, not only b)
    during = tessera._tessera.memory_usage()[0]
    assert during - before >= 2 * 8_000_000 - 4096
    del a, b
    tessera.fence()
    assert tessera._tessera.memory_usage()[0] - before < 4096  # both 8 MB arrays are back


def test_views_keep_storage_alive():
    tessera.fence()
    before = tessera._tessera.memory_usage()[0]
    a = tnp.arange(1_000_000, dtype=tnp.float64)
    v = a[10:20]
    del a
    tessera.fence()
    assert tessera._tessera.memory_usage()[0] - before >= 8_000_000 - 4096
    assert v.tolist() == list(map(float, range(10, 20)))
    del v
    tessera.fence()
    assert tessera._tessera.memory_usage()[0] - before < 4096  # both 8 MB arrays are back


def test_overlapping_assignment_is_sequential():
    ref = numpy.arange(200_000, dtype=numpy.float64)
    a = tnp.arange(200_000, dtype=tnp.float64)
    for k in range(5):
        ref[1:] = ref[:-1] * 0.5 + 1
        a[1:] = a[:-1] * 0.5 + 1
        ref[:-3] += ref[3:]
        a[:-3] += a[3:]
    numpy.testing.assert_array_equal(numpy.asarray(a), ref)
