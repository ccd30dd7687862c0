"""SpMV whose x follows the image of per-block column ranges (cached on the matrix):
bitwise the product of the whole-vector path, SciPy's values, and a summary that is
recomputed when the matrix's index arrays are written or replaced."""
import numpy
import pytest

scipy_sparse = pytest.importorskip("scipy.sparse")

import tessera.numpy as tnp  # noqa: E402
import tessera.sparse as tsparse  # noqa: E402
from tessera import _tessera  # noqa: E402
from parity import assert_same  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_fallback")


def same(t, expected):
    assert_same(numpy.asarray(t), expected)


def poisson(n):
    one = scipy_sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    return scipy_sparse.csr_array(scipy_sparse.kronsum(one, one, format="csr"))


def banded(rows, cols, dtype):
    rng = numpy.random.default_rng(rows)
    dense = numpy.zeros((rows, cols))
    for r in range(rows):
        c0 = min(cols - 1, r * cols // max(1, rows))
        for c in range(max(0, c0 - 3), min(cols, c0 + 4)):
            if rng.random() < 0.7:
                dense[r, c] = rng.random() + 1
    dense[rows // 3: rows // 2] = 0  # empty rows, whole empty blocks
    return scipy_sparse.csr_array(dense.astype(dtype))


def whole_vector(t, x):
    return _tessera._csr_matvec(t.indptr, t.indices, t.data, x)


def reference_ranges(s, block):
    rows = s.shape[0]
    out = []
    for b in range(-(-rows // block)):
        cols = s.indices[s.indptr[b * block]:s.indptr[min(rows, (b + 1) * block)]]
        out.append((cols.min(), cols.max() + 1) if cols.size else (0, 0))
    return numpy.array(out, dtype=numpy.int64).reshape(-1, 2)


MATRICES = {
    "poisson": lambda dtype: poisson(40).astype(dtype),
    "banded": lambda dtype: banded(300, 250, dtype),
    "wide": lambda dtype: banded(50, 3000, dtype),
    "random": lambda dtype: scipy_sparse.random_array((500, 400), density=0.02, format="csr", dtype=dtype,
                                                      rng=numpy.random.default_rng(1)),
}


@pytest.mark.parametrize("name", sorted(MATRICES))
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int64"])
def test_spmv_by_ranges_matches_whole_vector_and_scipy(name, dtype):
    s = MATRICES[name](dtype)
    t = tsparse.from_scipy(s)
    xs = (numpy.arange(s.shape[1]) % 7 + 1).astype(dtype)
    x = tnp.asarray(xs)
    y = t @ x
    assert numpy.array_equal(numpy.asarray(y), numpy.asarray(whole_vector(t, x)))
    same(y, s @ xs)


def test_ranges_are_each_blocks_column_range():
    s = banded(300, 250, "float64")
    t = tsparse.from_scipy(s)
    for block in (1, 7, 64, 300, 1000):
        same(_tessera._csr_column_ranges(t.indptr, t.indices, block), reference_ranges(s, block))


def test_spmv_non_contiguous_x():
    s = poisson(20)
    t = tsparse.from_scipy(s)
    xs = numpy.linspace(0, 1, 2 * s.shape[1])
    y = t @ tnp.asarray(xs)[::2]
    same(y, s @ xs[::2])


def test_spmv_empty_and_single_row():
    for s in (scipy_sparse.csr_array((0, 5)), scipy_sparse.csr_array((4, 5)),
              scipy_sparse.csr_array(numpy.array([[0.0, 2.0, 0.0, 3.0]]))):
        t = tsparse.from_scipy(s)
        xs = numpy.arange(s.shape[1], dtype=numpy.float64)
        same(t @ tnp.asarray(xs), s @ xs)


def test_summary_is_cached_while_the_matrix_is_unchanged():
    t = tsparse.from_scipy(poisson(10))
    first = t._column_ranges()
    t @ tnp.ones(t.shape[1])
    assert t._column_ranges()[0] is first[0]


def test_indices_written_in_place_invalidate_the_summary():
    s = banded(300, 250, "float64")
    t = tsparse.from_scipy(s)
    xs = numpy.linspace(1, 2, s.shape[1])
    x = tnp.asarray(xs)
    same(t @ x, s @ xs)
    before, block = t._column_ranges()
    # A stored value of the first row moves to the last column: far outside its block's range.
    t.indices[0] = s.shape[1] - 1
    s2 = s.copy()
    s2.indices[0] = s.shape[1] - 1
    after, _ = t._column_ranges()
    assert after is not before
    same(after, reference_ranges(s2, block))
    same(t @ x, s2 @ xs)


def test_indptr_and_indices_replaced_invalidate_the_summary():
    s = banded(300, 250, "float64")
    t = tsparse.from_scipy(s)
    xs = numpy.linspace(1, 2, s.shape[1])
    x = tnp.asarray(xs)
    same(t @ x, s @ xs)
    other = scipy_sparse.csr_array(s[::-1])  # the rows in reverse order
    t.indptr, t.indices, t.data = (tnp.asarray(other.indptr), tnp.asarray(other.indices), tnp.asarray(other.data))
    same(t @ x, other @ xs)
    same(t._column_ranges()[0], reference_ranges(other, t._column_ranges()[1]))
