"""numpy.linalg.solve and cholesky of one matrix large enough to be factored as tasks on
256 × 256 tiles (512 rows or more; the sizes here leave a partial last tile): parity with
NumPy for values, dtypes and shapes over the dtypes, non-contiguous inputs, which triangle
cholesky reads, NumPy's errors, and the same bits on one cpu as on two."""

import numpy
import pytest

import tessera.numpy as tnp
from parity import check, output_under

pytestmark = pytest.mark.usefixtures("no_fallback")  # solve and cholesky are native

N = 600  # tiles of 256, 256 and 88 rows
FLOATS = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10}
LinAlgError = numpy.linalg.LinAlgError


def general(dtype, n=N, seed=0):
    """A well-conditioned n × n matrix (its diagonal dominates)."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind in "iu":
        return (rng.integers(-3, 4, (n, n)) + 4 * n * numpy.eye(n, dtype=int)).astype(dt)
    a = rng.standard_normal((n, n))
    if dt.kind == "c":
        a = a + 1j * rng.standard_normal((n, n))
    return (a + n * numpy.eye(n)).astype(dt)


def spd(dtype, n=N, seed=0):
    """A Hermitian positive definite n × n matrix."""
    a = general(dtype, n, seed)
    return ((a @ a.conj().T) / n + n * numpy.eye(n)).astype(dtype)


def rhs(dtype, shape, seed=1):
    rng = numpy.random.default_rng(seed)
    b = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        b = b + 1j * rng.standard_normal(shape)
    return b.astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("k", [None, 1, 5])
def test_solve(dtype, k):
    b = rhs(dtype, (N,) if k is None else (N, k))
    check(lambda xp, a, b: xp.linalg.solve(a, b), general(dtype), b, rtol=TOL[dtype], atol=0)


@pytest.mark.parametrize("n", [512, 513, 700])
def test_solve_sizes(n):
    """The smallest tiled size, a last tile of one row, and one of 188 rows."""
    check(lambda xp, a, b: xp.linalg.solve(a, b), general("float64", n), rhs("float64", (n, 3)), rtol=1e-10, atol=0)


def test_solve_views_and_integers():
    a, b = general("float64", 640), rhs("float64", (640, 6))
    check(lambda xp, a, b: xp.linalg.solve(a.T, b[:, ::2]), a, b, rtol=1e-10, atol=0)
    check(lambda xp, a, b: xp.linalg.solve(a[::-1], b[::-1, 1]), a, b, rtol=1e-10, atol=0)
    check(lambda xp, a, b: xp.linalg.solve(a, b), general("int64", 600), rhs("float32", (600, 2)), rtol=1e-10, atol=0)
    check(lambda xp, a, b: xp.linalg.solve(a, b), a, numpy.zeros((640, 0)))


def test_solve_many_right_hand_sides():
    """More right-hand sides than one column block of the triangular solves."""
    check(lambda xp, a, b: xp.linalg.solve(a, b), general("float64", 520), rhs("float64", (520, 300)),
          rtol=1e-10, atol=0)


def test_solve_pivots_rows():
    """A matrix whose largest entries lie off the diagonal, in other tiles: the pivots
    swap rows between tiles, and the result is still NumPy's."""
    n = 600
    a = general("float64", n) / n
    a = a[numpy.random.default_rng(3).permutation(n)]
    check(lambda xp, a, b: xp.linalg.solve(a, b), a, rhs("float64", (n, 4)), rtol=1e-10, atol=0)


def singular(case):
    a = general("float64")
    if case == "ones":
        return numpy.ones_like(a)
    what, i = case.split()
    i = int(i)
    if what == "row":
        a[i] = 0
    elif what == "column":
        a[:, i] = 0
    else:  # the first row again as row i
        a[i] = a[0]
    return a


@pytest.mark.parametrize("case", ["row 5", "row 300", "column 599", "column 260", "equal 599", "ones"])
def test_solve_singular(case):
    """An exact zero pivot in the first, a middle or the last panel (where NumPy finds one:
    with equal rows elsewhere rounding leaves a tiny pivot, for NumPy and for tiles alike)."""
    a = singular(case)
    with pytest.raises(LinAlgError, match="Singular matrix"):
        numpy.linalg.solve(a, numpy.ones(N))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        tnp.linalg.solve(tnp.asarray(a), tnp.ones(N))


def test_solve_zero_column_then_usable():
    a = general("complex128")
    a[:, 450] = 0
    check(lambda xp, a: xp.linalg.solve(a, xp.ones((N, 2), dtype=a.dtype)), a)
    check(lambda xp, a: xp.linalg.solve(a, xp.ones(N)), general("complex128"), rtol=1e-10, atol=0)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dtype, upper):
    check(lambda xp, a: xp.linalg.cholesky(a, upper=upper), spd(dtype), rtol=TOL[dtype], atol=0)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reads_one_triangle(upper):
    """Only the lower (upper) triangle is read, as NumPy reads it: the other holds noise."""
    a = spd("complex128", 530)
    noise = rhs("complex128", a.shape, seed=5)
    a = numpy.where(numpy.tri(530, k=-1, dtype=bool).T if not upper else numpy.tri(530, k=-1, dtype=bool), noise, a)
    check(lambda xp, a: xp.linalg.cholesky(a, upper=upper), a, rtol=1e-10, atol=0)


def test_cholesky_views_and_integers():
    a = spd("float64", 700)
    check(lambda xp, a: xp.linalg.cholesky(a[::-1, ::-1]), a, rtol=1e-10, atol=0)
    check(lambda xp, a: xp.linalg.cholesky(a.T, upper=True), a, rtol=1e-10, atol=0)
    i = numpy.arange(520)
    ints = (1000 * numpy.eye(520, dtype=numpy.int64) + (i[:, None] + i[None, :]) % 3).astype(numpy.int32)
    check(lambda xp, a: xp.linalg.cholesky(a), ints, rtol=1e-10, atol=0)


@pytest.mark.parametrize("pivot", [3, 300, 599])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_not_positive_definite(pivot, upper):
    """A negative pivot in the first, a middle or the last tile."""
    a = spd("float64")
    a[pivot, pivot] = -1.0
    with pytest.raises(LinAlgError, match="Matrix is not positive definite"):
        numpy.linalg.cholesky(a, upper=upper)
    with pytest.raises(LinAlgError, match="Matrix is not positive definite"):
        tnp.linalg.cholesky(tnp.asarray(a), upper=upper)
    check(lambda xp, a: xp.linalg.cholesky(a), spd("float64", 520), rtol=1e-10, atol=0)  # still usable


def test_bits_do_not_depend_on_cpus():
    code = """
import hashlib, numpy
import tessera.numpy as tnp
from test_linalg_by_tiles import general, spd, rhs
out = []
for dtype in ("float64", "complex128"):
    x = tnp.linalg.solve(tnp.asarray(general(dtype, 900)), tnp.asarray(rhs(dtype, (900, 3))))
    out.append(numpy.asarray(x).tobytes())
    for upper in (False, True):
        out.append(numpy.asarray(tnp.linalg.cholesky(tnp.asarray(spd(dtype, 900)), upper=upper)).tobytes())
print(hashlib.sha256(b"".join(out)).hexdigest())
"""
    one = output_under("--cpus=1", code)
    assert len(one) == 64
    assert output_under("--cpus=2", code) == one
    assert output_under("--cpus=3 --test", code) == one
