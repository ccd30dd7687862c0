"""Matrix-vector products: NumPy's values (to rounding), one summation order whichever way
the matrix is read, and symmetric matrices read half (src/numeric/linalg/symmetric_matvec.h).

A square float matrix of at least 16 MB (any of at least 512 rows in test mode) whose second
product finds it symmetric is read half from then on; its products keep the bits of the
ordinary ones, so every comparison below between products is exact."""

import numpy
import pytest

import tessera.numpy as np
from parity import output_under, same_output_under

BIG = 1500  # float64 rows: 18 MB, above the threshold outside test mode too


def spd(n, dtype=numpy.float64, seed=0):
    """A symmetric matrix (exactly: built as B + B.T) and a vector."""
    rng = numpy.random.default_rng(seed)
    b = rng.standard_normal((n, n)).astype(dtype)
    return b + b.T, rng.standard_normal(n).astype(dtype)


def close(got, a, x):
    """`got` is a · x to the rounding error of a sum of |a||x| terms."""
    want = a.astype(numpy.float64) @ x.astype(numpy.float64)
    eps = numpy.finfo(a.dtype).eps
    bound = 4 * a.shape[1] * eps * (numpy.abs(a) @ numpy.abs(x)).astype(numpy.float64) + numpy.finfo(a.dtype).tiny
    assert got.dtype == a.dtype and got.shape == want.shape
    assert numpy.all(numpy.abs(got.astype(numpy.float64) - want) <= bound)


def same_bits(p, q):
    assert p.dtype == q.dtype and p.shape == q.shape
    assert p.tobytes() == q.tobytes()


SHAPES = [(2, 1), (3, 5), (7, 257), (300, 513), (513, 300), (600, 600), (1, 40)]


def matrix_and_vector(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    return rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape[1]).astype(dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_products_match_numpy(shape, dtype):
    a, x = matrix_and_vector(shape, dtype, 1)
    ta, tx = np.array(a), np.array(x)
    close(numpy.asarray(ta.dot(tx)), a, x)
    close(numpy.asarray(ta @ tx), a, x)
    close(numpy.asarray(np.matmul(ta, tx)), a, x)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_every_layout_gives_the_same_bits(shape, dtype):
    """By rows, by columns (a transposed copy's transpose), with x strided: one order."""
    a, x = matrix_and_vector(shape, dtype, 2)
    by_rows = numpy.asarray(np.array(a) @ np.array(x))
    by_columns = numpy.asarray(np.array(numpy.ascontiguousarray(a.T)).T @ np.array(x))
    strided = numpy.asarray(np.array(a) @ np.array(numpy.repeat(x, 3))[::3])
    same_bits(by_rows, by_columns)
    same_bits(by_rows, strided)


def test_batched_matrix_times_vector():
    rng = numpy.random.default_rng(3)
    a = rng.standard_normal((3, 70, 300))
    x = rng.standard_normal(300)
    got = numpy.asarray(np.matmul(np.array(a), np.array(x)))
    for i in range(3):
        close(got[i], a[i], x)


@pytest.mark.parametrize("n, dtype", [(BIG, numpy.float64), (2100, numpy.float32), (BIG + 7, numpy.float64)])
def test_symmetric_products_keep_the_bits_of_the_first(n, dtype):
    """The first two products read the whole matrix; later ones (after the check) half."""
    a, x = spd(n, dtype)
    ta, tx = np.array(a), np.array(x)
    products = [numpy.asarray(ta.dot(tx)) for _ in range(5)]
    close(products[0], a, x)
    for p in products[1:]:
        same_bits(p, products[0])
    # Another vector, and the product written into `out`.
    y = numpy.random.default_rng(9).standard_normal(n).astype(dtype)
    out = np.empty(n, dtype=dtype)
    np.dot(ta, np.array(y), out=out)
    close(numpy.asarray(out), a, y)
    same_bits(numpy.asarray(out), numpy.asarray(np.array(a).dot(np.array(y))))
    written = np.empty(n, dtype=dtype)  # matmul writes its result into `out` itself
    np.matmul(ta, np.array(y), out=written)
    same_bits(numpy.asarray(written), numpy.asarray(out))


def test_a_write_ends_the_half_reads():
    a, x = spd(BIG)
    ta, tx = np.array(a), np.array(x)
    for _ in range(4):
        first = numpy.asarray(ta @ tx)
    ta[3, 5] += 1.0  # no longer symmetric
    a[3, 5] += 1.0
    products = [numpy.asarray(ta @ tx) for _ in range(4)]  # the second checks, and finds a difference
    close(products[0], a, x)
    for got in products[1:]:
        same_bits(got, products[0])
    assert got[3] != first[3]
    ta[5, 3] += 1.0  # symmetric again: checked again
    a[5, 3] += 1.0
    ref = numpy.asarray(np.array(a) @ tx)
    for _ in range(4):
        same_bits(numpy.asarray(ta @ tx), ref)


def test_a_write_through_exported_memory_is_seen():
    """Memory handed out (DLPack) can change without an operation: never read half."""
    a, x = spd(BIG)
    ta, tx = np.array(a), np.array(x)
    exported = numpy.from_dlpack(ta)
    for _ in range(4):
        numpy.asarray(ta @ tx)
    exported[0, 7] += 3.0
    a[0, 7] += 3.0
    close(numpy.asarray(ta @ tx), a, x)


def test_views_and_other_matrices_are_not_taken_for_the_matrix():
    a, x = spd(BIG)
    ta, tx = np.array(a), np.array(x)
    for _ in range(4):
        numpy.asarray(ta @ tx)
    part = ta[:1000, :1000]  # a view: symmetric too, but not the whole storage
    close(numpy.asarray(part @ tx[:1000]), a[:1000, :1000], x[:1000])
    upper = np.triu(ta)  # another matrix
    for _ in range(3):
        close(numpy.asarray(upper @ tx), numpy.triu(a), x)


def test_special_values_keep_the_bits():
    """NaN, infinities and signed zeros: half reads multiply and add what full reads do."""
    a, x = spd(BIG)
    a[10, :] = 0.0
    a[:, 10] = -0.0
    a[20, 30] = a[30, 20] = numpy.inf
    a[40, 50] = a[50, 40] = numpy.nan
    x[60] = -0.0
    ta, tx = np.array(a), np.array(x)
    products = [numpy.asarray(ta @ tx) for _ in range(5)]
    for p in products[1:]:
        same_bits(p, products[0])
    want = a @ x
    assert numpy.array_equal(numpy.isnan(products[0]), numpy.isnan(want))
    finite = numpy.isfinite(want)
    numpy.testing.assert_allclose(products[0][finite], want[finite], rtol=1e-9, atol=1e-9)


def profiled(tmp_path, lines):
    """The names of the operations a program of `lines` ran (its profile), and what it printed."""
    logdir = tmp_path / "trace"
    code = "\n".join(["import numpy, tessera.numpy as np", "from test_matvec import spd, BIG", *lines])
    printed = output_under(f"--cpus=2 --profile --logdir {logdir}", code)
    fields = [line.split("\t") for line in (logdir / "tessera_0.prof").read_text().splitlines()]
    return [f[2] for f in fields if f[0] == "op"], printed


def test_the_profile_shows_half_reads(tmp_path):
    names, printed = profiled(tmp_path, [
        "a, x = spd(BIG)",
        "ta, tx = np.array(a), np.array(x)",
        "for _ in range(6):",
        "    y = numpy.asarray(ta @ tx)",
        "print(float(y.sum()))",
    ])
    # The first product reads the matrix whole, the second checks it as it multiplies, the
    # other four read half; the last five add their block sums.
    assert names.count("matmul") == 1, names
    assert names.count("matmul (symmetry check)") == 1, names
    assert names.count("matmul (symmetric)") == 4, names
    assert names.count("matmul (block sums)") == 5, names
    a, x = spd(BIG)
    assert abs(float(printed) - float((a @ x).sum())) <= 1e-9 * float(numpy.abs(a).sum())


def test_a_matrix_rewritten_after_each_check_is_no_longer_checked(tmp_path):
    """Two products per version of a matrix (a shift, say): each check would be wasted."""
    names, printed = profiled(tmp_path, [
        "a, x = spd(BIG)",
        "ta, tx = np.array(a), np.array(x)",
        "total = 0.0",
        "for shift in range(6):",
        "    ta[0, 0] += 1.0",
        "    total += float((ta @ tx).sum()) + float((ta @ tx).sum())",
        "print(total)",
    ])
    assert names.count("matmul (symmetry check)") == 2, names
    assert "matmul (symmetric)" not in names
    a, x = spd(BIG)
    want = 0.0
    for shift in range(6):
        a[0, 0] += 1.0
        want += 2 * float((a @ x).sum())
    assert abs(float(printed) - want) <= 1e-9 * float(numpy.abs(a).sum())


DIGEST = "\n".join([
    "import os; os.environ['TESSERA_TEST'] = '1'",  # half reads from 512 rows
    "import hashlib, numpy, tessera.numpy as np",
    "from test_matvec import spd",
    "digest = hashlib.sha1()",
    "for n, dtype in [(600, numpy.float64), (1030, numpy.float32)]:",
    "    a, x = spd(n, dtype)",
    "    ta, tx = np.array(a), np.array(x)",
    "    for _ in range(5):",
    "        digest.update(numpy.asarray(ta @ tx).tobytes())",
    "print(digest.hexdigest())",
])


def test_cpus_and_tilings_agree_bitwise():
    same_output_under(DIGEST, ["--cpus=2", "--cpus=1", "--cpus=2 --min-cpu-chunk=2", "--cpus=2 --window-size=1"])
