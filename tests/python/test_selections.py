"""Boolean-mask reads `x[m]` (mask of x's shape) wait to be compacted: arithmetic on them and
assigning them back through the same mask (`x[m] = x[m] * 2`, `z[~m] += 1`) run as element-wise
work with no wait, and anything else compacts them. Either way the values, dtypes, shapes and
errors must be NumPy's, and a selection keeps the values it had when the program made it,
whatever the program writes afterwards."""
import numpy
import pytest

import tessera.numpy as np

N = 10_007


def data(m):
    rng = numpy.random.default_rng(11)
    x, y = rng.standard_normal(N), rng.standard_normal(N)
    return m.array(x), m.array(y), m.array(x > 0.3)


def updates(m, x, y, mask):
    z = x.copy()
    z[mask] = x[mask] * 2
    z[~mask] += 1
    z[mask] -= y[mask]
    w = y.copy()
    w[mask] = x[mask] + y[mask] * 3 - 1
    w[~mask] = 2 - w[~mask]
    u = x.copy()
    u[mask] = u[mask]                    # a selection of the array it is written to
    s = x[100:5000]                      # through a view
    gt = s > 1
    s[gt] = s[gt] + 2
    s[~gt] = s[~gt] - 2
    return [z, w, u, x]


def test_updates_through_masks_match_numpy():
    want = updates(numpy, *data(numpy))
    got = updates(np, *data(np))
    for g, w in zip(got, want):
        assert numpy.array_equal(numpy.asarray(g), w)


def test_a_selection_keeps_its_values_when_the_array_or_mask_changes():
    for m in (numpy, np):
        x, y, mask = data(m)
        t = x[mask]
        u = x[mask] * 2
        x[:] = -1.0             # an operation writes what both read
        v = y[mask]
        mask[:10] = ~mask[:10]  # the mask changes
        x[mask] = 0.0
        y[mask] += 1
        if m is numpy:
            want = [t, u, v, x, y]
        else:
            got = [t, u, v, x, y]
    for g, w in zip(got, want):
        g = numpy.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert numpy.array_equal(g, w)


def test_a_selection_is_an_ordinary_array_to_everything_else():
    x0, y0, m0 = data(numpy)
    x, y, m = data(np)
    t = x[m]
    assert t.shape == x0[m0].shape and len(t) == len(x0[m0]) and t.dtype == numpy.float64
    numpy.testing.assert_allclose(float(t.sum()), x0[m0].sum(), rtol=1e-12)
    assert numpy.array_equal(numpy.asarray(np.sqrt(np.abs(x[m]))), numpy.sqrt(numpy.abs(x0[m0])))
    assert numpy.array_equal(numpy.asarray(x[m] / 2), x0[m0] / 2)
    assert numpy.array_equal(numpy.asarray((x[m] + 1)[3:9]), (x0[m0] + 1)[3:9])
    assert repr(x[m][:3]) == repr(np.array(x0[m0][:3]))
    # a selection through one mask assigned through another: NumPy's sizes rule
    with pytest.raises(ValueError):
        x0[m0] = y0[~m0] * 2
    with pytest.raises(ValueError):
        x[m] = y[~m] * 2


def test_in_place_on_a_selection_keeps_numpy_casting_rules():
    i0 = numpy.arange(20)
    i = np.array(i0)
    m0 = i0 % 3 == 0
    m = np.array(m0)
    t0, t = i0[m0], i[m]
    with pytest.raises(TypeError):  # NumPy's UFuncTypeError is a TypeError
        t0 += 1.5
    with pytest.raises(TypeError):
        t += 1.5
    t0 += 2
    t += 2
    assert numpy.array_equal(numpy.asarray(t), t0) and numpy.asarray(t).dtype == t0.dtype
    i0[m0] = i0[m0] * 2.7  # float values into an int array: cast as NumPy does
    i[m] = i[m] * 2.7
    assert numpy.array_equal(numpy.asarray(i), i0)


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex128"])
def test_dtypes(dtype):
    rng = numpy.random.default_rng(3)
    a0 = (rng.standard_normal(999) * 10).astype(dtype)
    m0 = rng.standard_normal(999) > 0
    a, m = np.array(a0), np.array(m0)
    if dtype != "bool":
        a0[m0] = a0[m0] * 2 + 1
        a[m] = a[m] * 2 + 1
    a0[~m0] = a0[~m0]
    a[~m] = a[~m]
    assert numpy.array_equal(numpy.asarray(a), a0)
    assert numpy.asarray(a[m]).dtype == a0[m0].dtype


def test_dropping_the_array_a_selection_reads_frees_it():
    """`t = x[m]; del x`: the next operation compacts t, so x's memory goes as in NumPy."""
    import tessera
    tessera.fence()
    base = tessera._tessera.memory_usage()[0]
    x = np.arange(1_000_000, dtype=np.float64)
    m = np.array(numpy.arange(1_000_000) % 100 == 0)
    t = x[m]
    del x
    np.zeros(10)  # any operation
    tessera.fence()
    held = tessera._tessera.memory_usage()[0] - base
    assert held < 1_000_000 + 8 * 10_000 + 4096 * 4, held  # the mask, t and small blocks: not x's 8 MB
    assert numpy.array_equal(numpy.asarray(t), numpy.arange(0, 1_000_000, 100, dtype=numpy.float64))


def test_a_selection_compacted_through_another_handle_still_has_its_dtype():
    """A function given `x[m]` may compact its own handle of the selection; the program's
    handle then reads the compacted array (it once read the moved-out values and crashed)."""
    x = np.arange(10.0)
    s = x[x > 3]
    edges = np.array([1.0, 5.0])
    first = np.searchsorted(edges, s)  # compacts the selection through the function's handle
    assert s.dtype == numpy.float64
    second = np.searchsorted(edges, s)
    want = numpy.searchsorted([1.0, 5.0], numpy.arange(4.0, 10.0))
    assert numpy.array_equal(numpy.asarray(first), want) and numpy.array_equal(numpy.asarray(second), want)
