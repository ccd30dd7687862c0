"""numpy.linalg's factorizations and solvers (LAPACK), and the Array API functions of
numpy.linalg: parity with NumPy for values, dtypes, shapes, stacks, keyword options and
errors. Factorizations unique only up to signs or phases are compared through what is
unique: reconstructions, singular values, sorted eigenvalues, orthonormality."""


import numpy
import pytest

import tessera.numpy as tnp
from parity import check, ids

FLOATS = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10}
LinAlgError = numpy.linalg.LinAlgError


pytestmark = pytest.mark.usefixtures("no_fallback")  # every function tested here is native


def matrices(dtype, shape, seed=0, shift=True):
    """Random matrices (..., M, N) of `dtype`; square ones are made well-conditioned."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind in "iub":
        return rng.integers(-3, 4, shape).astype(dt)
    a = rng.standard_normal(shape)
    if dt.kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if shift and len(shape) >= 2 and shape[-1] == shape[-2] and shape[-1] > 0:
        a = a + shape[-1] * numpy.eye(shape[-1])
    return a.astype(dt)


def hermitian(dtype, shape, seed=0):
    a = matrices(dtype, shape, seed)
    return (a + numpy.conj(numpy.swapaxes(a, -1, -2))) / 2


def spd(dtype, shape, seed=0):
    a = matrices(dtype, shape, seed, shift=False)
    n = shape[-1]
    return (a @ numpy.conj(numpy.swapaxes(a, -1, -2)) + n * numpy.eye(n)).astype(dtype)


def host(x):
    return numpy.asarray(x)


def tol(dtype):
    return TOL.get(numpy.dtype(dtype).name, 1e-10)


def close(actual, expected, dtype, scale=1.0):
    actual = host(actual)
    assert actual.dtype == numpy.asarray(expected).dtype, (actual.dtype, numpy.asarray(expected).dtype)
    assert actual.shape == numpy.shape(expected)
    t = tol(dtype) * scale
    numpy.testing.assert_allclose(actual, expected, rtol=t, atol=t)


def conjT(x):
    return numpy.conj(numpy.swapaxes(x, -1, -2))


# --- solve and inv -------------------------------------------------------------------------

SOLVE_SHAPES = [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 4, 4), (2, 4, 1)), ((2, 4, 4), (4,)),
                ((4, 1, 3, 3), (2, 3, 2)), ((0, 0), (0,)), ((2, 0, 0), (2, 0, 3)), ((1, 1), (1, 5))]


@pytest.mark.parametrize("shapes", SOLVE_SHAPES, ids=ids)
@pytest.mark.parametrize("dtype", FLOATS)
def test_solve(dtype, shapes):
    a, b = matrices(dtype, shapes[0]), matrices(dtype, shapes[1], seed=1)
    x = tnp.linalg.solve(tnp.array(a), tnp.array(b))
    close(x, numpy.linalg.solve(a, b), dtype)


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("int64", "float32"), ("int32", "int32"),
                                    ("bool", "float32"), ("float32", "complex64"), ("int8", "complex128")],
                         ids=ids)
def test_solve_result_dtype(dtypes):
    a = matrices("float64", (3, 3)).astype(dtypes[0]) if dtypes[0] != "bool" else numpy.eye(3, dtype=bool)
    b = matrices(dtypes[1], (3, 2), seed=1)
    check(lambda xp, a, b: xp.linalg.solve(a, b), a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (3, 1, 2, 2), (0, 0), (5, 0, 0), (1, 1)], ids=ids)
@pytest.mark.parametrize("dtype", FLOATS + ["int64"])
def test_inv(dtype, shape):
    a = matrices(dtype, shape)
    if numpy.dtype(dtype).kind == "i":
        a = a + 10 * numpy.eye(shape[-1], dtype=dtype)
    expected = numpy.linalg.inv(a)
    close(tnp.linalg.inv(tnp.array(a)), expected, expected.dtype)


def test_inv_of_views_and_batched_equals_one_by_one():
    a = matrices("float64", (12, 5, 5))
    t = tnp.array(a)
    close(tnp.linalg.inv(t[::2].swapaxes(-1, -2)), numpy.linalg.inv(a[::2].swapaxes(-1, -2)), "float64")
    whole = host(tnp.linalg.inv(t))
    for i in range(12):  # the stack's tiling never changes a matrix's bits
        assert numpy.array_equal(whole[i], host(tnp.linalg.inv(t[i])))


def test_large_stack_runs_tiled():
    a = matrices("float64", (300, 6, 6), seed=3)
    b = matrices("float64", (300, 6, 2), seed=4)
    close(tnp.linalg.solve(tnp.array(a), tnp.array(b)), numpy.linalg.solve(a, b), "float64")
    close(tnp.linalg.det(tnp.array(a)), numpy.linalg.det(a), "float64")
    w = host(tnp.linalg.eigvalsh(tnp.array(hermitian("float64", (300, 6, 6)))))
    close(w, numpy.linalg.eigvalsh(hermitian("float64", (300, 6, 6))), "float64")


# --- determinants --------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (2, 1, 3, 3), (0, 0), (3, 0, 0), (1, 1)], ids=ids)
@pytest.mark.parametrize("dtype", FLOATS + ["int32", "bool"])
def test_det_and_slogdet(dtype, shape):
    a = matrices(dtype, shape)
    check(lambda xp, a: xp.linalg.det(a), a, rtol=1e-4, atol=1e-6)
    sign, logdet = tnp.linalg.slogdet(tnp.array(a))
    expected = numpy.linalg.slogdet(a)
    close(sign, expected.sign, dtype)
    close(logdet, expected.logabsdet, dtype)
    result = tnp.linalg.slogdet(tnp.array(a))
    assert type(result).__name__ == "SlogdetResult" and result.logabsdet is not None


def test_det_of_singular_matrices():
    a = numpy.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[2.0, 0.0], [0.0, 3.0]]])
    check(lambda xp, a: xp.linalg.det(a), a)
    sign, logdet = tnp.linalg.slogdet(tnp.array(a))
    numpy.testing.assert_array_equal(host(sign), numpy.linalg.slogdet(a).sign)
    numpy.testing.assert_array_equal(host(logdet), numpy.linalg.slogdet(a).logabsdet)


# --- cholesky ------------------------------------------------------------------------------

@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("shape", [(4, 4), (3, 2, 2), (0, 0), (2, 3, 3)], ids=ids)
@pytest.mark.parametrize("dtype", FLOATS)
def test_cholesky(dtype, shape, upper):
    a = spd(dtype, shape)
    close(tnp.linalg.cholesky(tnp.array(a), upper=upper), numpy.linalg.cholesky(a, upper=upper), dtype)


def test_cholesky_not_positive_definite():
    a = numpy.stack([spd("float64", (3, 3)), -numpy.eye(3)])
    with pytest.raises(LinAlgError, match="Matrix is not positive definite"):
        tnp.linalg.cholesky(tnp.array(a))
    with pytest.raises(LinAlgError, match="Matrix is not positive definite"):
        numpy.linalg.cholesky(a)


# --- qr ------------------------------------------------------------------------------------

QR_SHAPES = [(4, 4), (5, 3), (3, 5), (2, 4, 3), (2, 3, 4), (2, 1, 3, 3), (0, 3), (3, 0), (1, 1)]


@pytest.mark.parametrize("mode", ["reduced", "complete", "r", "raw"])
@pytest.mark.parametrize("shape", QR_SHAPES, ids=ids)
@pytest.mark.parametrize("dtype", FLOATS)
def test_qr(dtype, shape, mode):
    a = matrices(dtype, shape, shift=False)
    expected = numpy.linalg.qr(a, mode=mode)
    result = tnp.linalg.qr(tnp.array(a), mode=mode)
    if mode == "r":
        assert host(result).shape == expected.shape and host(result).dtype == expected.dtype
        close(numpy.abs(host(result)), numpy.abs(expected), dtype, 10)  # rows unique up to sign
        assert numpy.allclose(numpy.tril(host(result), -1), 0)
        return
    assert type(result) is type(expected)
    for r, e in zip(result, expected):
        assert host(r).shape == e.shape and host(r).dtype == e.dtype
    if mode == "raw":
        close(host(result[1]), expected[1], dtype, 10)
        close(host(result[0]), expected[0], dtype, 10)
        return
    q, r = host(result.Q), host(result.R)
    close(q @ r, a, dtype, 10)
    k = q.shape[-1]
    close(conjT(q) @ q, numpy.broadcast_to(numpy.eye(k, dtype=dtype), q.shape[:-2] + (k, k)), dtype, 10)
    assert numpy.allclose(numpy.tril(r, -1), 0)


def test_qr_bad_mode():
    with pytest.raises(ValueError, match="Unrecognized mode 'bad'"):
        tnp.linalg.qr(tnp.ones((2, 2)), mode="bad")


# --- svd -----------------------------------------------------------------------------------

SVD_SHAPES = [(4, 4), (5, 3), (3, 5), (2, 4, 3), (3, 2, 2, 5), (0, 3), (3, 0), (1, 1)]


@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("shape", SVD_SHAPES, ids=ids)
@pytest.mark.parametrize("dtype", FLOATS)
def test_svd(dtype, shape, full_matrices):
    a = matrices(dtype, shape, shift=False)
    expected = numpy.linalg.svd(a, full_matrices=full_matrices)
    result = tnp.linalg.svd(tnp.array(a), full_matrices=full_matrices)
    assert type(result).__name__ == "SVDResult"
    u, s, vh = (host(x) for x in result)
    for x, e in zip((u, s, vh), expected):
        assert x.shape == e.shape and x.dtype == e.dtype
    close(s, expected.S, dtype, 10)
    k = s.shape[-1]
    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype, 10)
    close(conjT(u) @ u, numpy.broadcast_to(numpy.eye(u.shape[-1], dtype=dtype), u.shape[:-2] + (u.shape[-1],) * 2),
          dtype, 10)
    close(vh @ conjT(vh), numpy.broadcast_to(numpy.eye(vh.shape[-2], dtype=dtype),
                                             vh.shape[:-2] + (vh.shape[-2],) * 2), dtype, 10)


@pytest.mark.parametrize("shape", SVD_SHAPES, ids=ids)
@pytest.mark.parametrize("dtype", FLOATS + ["int64"])
def test_svd_values_only_and_svdvals(dtype, shape):
    a = matrices(dtype, shape, shift=False)
    expected = numpy.linalg.svd(a, compute_uv=False)
    close(tnp.linalg.svd(tnp.array(a), compute_uv=False), expected, expected.dtype, 10)
    close(tnp.linalg.svdvals(tnp.array(a)), numpy.linalg.svdvals(a), expected.dtype, 10)


@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (0, 0)], ids=ids)
@pytest.mark.parametrize("dtype", FLOATS)
def test_svd_hermitian(dtype, shape):
    a = hermitian(dtype, shape)
    a = a - 2 * numpy.eye(shape[-1], dtype=dtype) if shape[-1] else a  # eigenvalues of both signs
    expected = numpy.linalg.svd(a, hermitian=True)
    u, s, vh = (host(x) for x in tnp.linalg.svd(tnp.array(a), hermitian=True))
    for x, e in zip((u, s, vh), expected):
        assert x.shape == e.shape and x.dtype == e.dtype
    close(s, expected.S, dtype, 10)
    close((u * s[..., None, :]) @ vh, a, dtype, 10)
    close(tnp.linalg.svd(tnp.array(a), compute_uv=False, hermitian=True),
          numpy.linalg.svd(a, compute_uv=False, hermitian=True), dtype, 10)


# --- eigenvalues ---------------------------------------------------------------------------

def sort_complex(w):
    return numpy.sort_complex(numpy.asarray(w).astype(complex))


@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (2, 1, 5, 5), (0, 0), (1, 1)], ids=ids)
@pytest.mark.parametrize("dtype", FLOATS + ["int64"])
def test_eig(dtype, shape):
    a = matrices(dtype, shape, shift=False)
    expected = numpy.linalg.eig(a)
    result = tnp.linalg.eig(tnp.array(a))
    assert type(result).__name__ == "EigResult"
    w, v = host(result.eigenvalues), host(result.eigenvectors)
    assert w.dtype == expected.eigenvalues.dtype and v.dtype == expected.eigenvectors.dtype
    assert w.shape == expected.eigenvalues.shape and v.shape == expected.eigenvectors.shape
    t = 100 * tol(dtype)
    for idx in numpy.ndindex(shape[:-2]):
        numpy.testing.assert_allclose(sort_complex(w[idx]), sort_complex(expected.eigenvalues[idx]), rtol=t, atol=t)
    numpy.testing.assert_allclose(a @ v, v * w[..., None, :], rtol=t, atol=t)
    ev = host(tnp.linalg.eigvals(tnp.array(a)))
    assert ev.dtype == numpy.linalg.eigvals(a).dtype
    numpy.testing.assert_allclose(ev, w, rtol=t, atol=t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_real_or_complex_result(dtype):
    rotation = numpy.array([[0.0, -1.0], [1.0, 0.0]], dtype)  # eigenvalues ±i
    symmetric = numpy.array([[2.0, 1.0], [1.0, 2.0]], dtype)  # eigenvalues 1, 3
    for a in (rotation, symmetric, numpy.stack([rotation, symmetric])):
        for fn in (lambda xp, a: xp.linalg.eig(a).eigenvalues, lambda xp, a: xp.linalg.eigvals(a)):
            result, expected = host(fn(tnp, tnp.array(a))), fn(numpy, a)
            assert result.dtype == expected.dtype
            for idx in numpy.ndindex(a.shape[:-2]):
                numpy.testing.assert_allclose(sort_complex(result[idx]), sort_complex(expected[idx]), atol=1e-6)


@pytest.mark.parametrize("UPLO", ["L", "U", "l", "u"])
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (0, 0), (1, 1)], ids=ids)
@pytest.mark.parametrize("dtype", FLOATS + ["int32"])
def test_eigh_and_eigvalsh(dtype, shape, UPLO):
    a = matrices(dtype, shape)  # not Hermitian: only the UPLO triangle is read
    expected = numpy.linalg.eigh(a, UPLO=UPLO)
    result = tnp.linalg.eigh(tnp.array(a), UPLO=UPLO)
    assert type(result).__name__ == "EighResult"
    w, v = host(result.eigenvalues), host(result.eigenvectors)
    close(w, expected.eigenvalues, expected.eigenvalues.dtype, 10)
    assert v.dtype == expected.eigenvectors.dtype and v.shape == expected.eigenvectors.shape
    # The matrix LAPACK sees: the triangle, mirrored, with the diagonal's real part.
    part = numpy.tril(a, -1) if UPLO in "Ll" else numpy.triu(a, 1)
    diag = numpy.real(numpy.diagonal(a, axis1=-2, axis2=-1))[..., None] * numpy.eye(shape[-1])
    herm = (part + conjT(part) + diag).astype(a.dtype)
    close(herm @ v, v * w[..., None, :], expected.eigenvectors.dtype, 100)
    close(tnp.linalg.eigvalsh(tnp.array(a), UPLO=UPLO), numpy.linalg.eigvalsh(a, UPLO=UPLO),
          expected.eigenvalues.dtype, 10)


def test_eigh_bad_uplo():
    check(lambda xp, a: xp.linalg.eigh(a, UPLO="X"), numpy.eye(2))
    check(lambda xp, a: xp.linalg.eigvalsh(a, UPLO="X"), numpy.eye(2))


def test_eig_of_non_finite_matrix():
    a = numpy.array([[1.0, numpy.nan], [0.0, 1.0]])
    for fn in ("eig", "eigvals"):
        with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
            getattr(tnp.linalg, fn)(tnp.array(a))


# --- least squares, pseudo-inverse, rank, condition ----------------------------------------

LSTSQ_SHAPES = [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3,)), ((4, 4), (4, 3)), ((5, 3), (5, 0)),
                ((0, 3), (0, 2)), ((3, 0), (3,))]


@pytest.mark.parametrize("shapes", LSTSQ_SHAPES, ids=ids)
@pytest.mark.parametrize("dtype", FLOATS)
def test_lstsq(dtype, shapes):
    a, b = matrices(dtype, shapes[0], shift=False), matrices(dtype, shapes[1], seed=1)
    expected = numpy.linalg.lstsq(a, b)
    x, res, rank, s = tnp.linalg.lstsq(tnp.array(a), tnp.array(b))
    close(x, expected[0], dtype, 10)
    close(res, expected[1], dtype, 10)
    assert rank == expected[2] and type(rank) is type(expected[2])
    close(s, expected[3], dtype, 10)


def rounding_tolerance(cond):
    """The tolerance for a float64 result of a problem with condition number `cond`: two
    correct LAPACK builds (NumPy's OpenBLAS and the system's, with different kernels on
    different CPUs) give results that differ by about cond * eps relative, so 4 * eps * cond,
    and never less than parity's float64 tolerance."""
    return max(1e-12, 4 * numpy.finfo(numpy.float64).eps * cond)


def test_lstsq_rank_deficient_and_rcond():
    a = numpy.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0 + 1e-9]])
    b = numpy.array([1.0, 2.0, 3.0])
    s = numpy.linalg.svd(a, compute_uv=False)
    eps = numpy.finfo(numpy.float64).eps
    for rcond in (None, 1e-6, -1, 0.5):
        # The columns are parallel to 1e-10: with both singular values kept (rcond None and
        # -1) the problem's condition number is about 1e10 and the solution is rounding noise
        # to about 1e-6; with the small one dropped (rank 1), it is 1 and the solution exact
        # to a few eps. The tolerance is that of the singular values lstsq keeps.
        cutoff = {None: eps * max(a.shape), -1: eps}.get(rcond, rcond) * s[0]
        tol = rounding_tolerance(s[0] / s[s > cutoff][-1])
        check(lambda xp, a, b: xp.linalg.lstsq(a, b, rcond=rcond), a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("kwargs", [{}, {"rcond": 0.3}, {"rtol": None}, {"rtol": 0.3}, {"hermitian": True},
                                    {"rcond": [0.01, 0.5]}], ids=ids)
@pytest.mark.parametrize("dtype", FLOATS)
def test_pinv(dtype, kwargs):
    a = matrices(dtype, (2, 4, 4), shift=False)
    if kwargs.get("hermitian"):
        a = hermitian(dtype, (2, 4, 4))
    if "rcond" in kwargs and isinstance(kwargs["rcond"], list):
        kwargs = {"rcond": numpy.array(kwargs["rcond"])}
    close(tnp.linalg.pinv(tnp.array(a), **kwargs), numpy.linalg.pinv(a, **kwargs), dtype, 100)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (0, 3), (2, 0, 0)], ids=ids)
def test_pinv_shapes(shape):
    a = matrices("float64", shape, shift=False)
    close(tnp.linalg.pinv(tnp.array(a)), numpy.linalg.pinv(a), "float64", 100)


def test_pinv_rcond_and_rtol_together():
    check(lambda xp, a: xp.linalg.pinv(a, rcond=0.1, rtol=0.1), numpy.eye(2))


@pytest.mark.parametrize("kwargs", [{}, {"tol": 0.5}, {"rtol": 0.2}, {"hermitian": True}, {"tol": 1, "rtol": 1}],
                         ids=ids)
def test_matrix_rank(kwargs):
    a = numpy.array([[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 1.0]], numpy.eye(3), numpy.zeros((3, 3))])
    if kwargs.get("hermitian"):
        a = a + numpy.swapaxes(a, -1, -2)
    check(lambda xp, a: xp.linalg.matrix_rank(a, **kwargs), a)
    check(lambda xp, a: xp.linalg.matrix_rank(a[0], **kwargs), a)


def test_matrix_rank_of_vectors():
    for v in ([0.0, 0.0], [0.0, 1.0], 3.0, 0):
        result, expected = tnp.linalg.matrix_rank(tnp.array(v)), numpy.linalg.matrix_rank(numpy.array(v))
        assert result == expected and type(result) is int


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, numpy.inf, -numpy.inf, "fro", "nuc"], ids=ids)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
def test_cond(dtype, p):
    a = matrices(dtype, (3, 4, 4), shift=False)
    if numpy.dtype(dtype).kind == "i":
        a = a + 5 * numpy.eye(4, dtype=dtype)
    check(lambda xp, a: xp.linalg.cond(a, p), a, rtol=1e-3 if "32" in dtype else 1e-8)
    check(lambda xp, a: xp.linalg.cond(a[0], p), a, rtol=1e-3 if "32" in dtype else 1e-8)


def assert_same_condition(actual, expected):
    """Condition numbers equal to within what rounding allows: a computed condition number is
    off by about itself times eps relative (the smallest singular value, or the inverse, is off
    by eps times the largest), so where that reaches 1 (cond >~ 1/(4 eps)) both only have to
    say "numerically singular": at least 1/(4 eps), or inf. NaN where NumPy has NaN."""
    actual, expected = numpy.asarray(actual), numpy.asarray(expected)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    singular = 1 / (4 * numpy.finfo(expected.dtype).eps)
    huge = expected >= singular
    assert numpy.all(actual[huge] >= singular), (actual, expected)
    for x, want in zip(actual[~huge].ravel(), expected[~huge].ravel()):
        tol = rounding_tolerance(want) if numpy.isfinite(want) else 0
        numpy.testing.assert_allclose(x, want, rtol=tol, atol=0, equal_nan=True)


@pytest.mark.parametrize("p", [None, 1, numpy.inf, "fro"], ids=ids)
def test_cond_of_singular_and_nan_matrices(p):
    # A singular matrix has an infinite condition number, or a huge one by rounding whose
    # value depends on the LAPACK build (1e16 or 1e17): compared as "numerically singular".
    # A NaN matrix gives NaN by norms, and LinAlgError by singular values.
    a = numpy.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]], [[numpy.nan, 0.0], [0.0, 1.0]]])
    for stack in (a, a[:2]):
        try:
            expected = numpy.linalg.cond(stack, p)
        except LinAlgError:
            with pytest.raises(LinAlgError):
                host(tnp.linalg.cond(tnp.array(stack), p))
            continue
        assert_same_condition(host(tnp.linalg.cond(tnp.array(stack), p)), expected)
    assert host(tnp.linalg.cond(tnp.array(a[0]), p)) > 1e15
    check(lambda xp, a: xp.linalg.cond(a, p), numpy.zeros((0, 0)))  # LinAlgError


# --- products ------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 3, 4, 5, 13])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
def test_matrix_power(dtype, n):
    a = matrices(dtype, (2, 3, 3)) if n >= 0 or dtype != "int64" else matrices("float64", (2, 3, 3))
    if numpy.dtype(a.dtype).kind in "fc":
        a = a / 4
    check(lambda xp, a: xp.linalg.matrix_power(a, n), a, rtol=1e-4 if "32" in dtype else 1e-9)
    check(lambda xp, a: xp.linalg.matrix_power(a[0], n), a, rtol=1e-4 if "32" in dtype else 1e-9)


def test_matrix_power_errors():
    check(lambda xp, a: xp.linalg.matrix_power(a, 2.0), numpy.eye(2))  # TypeError
    check(lambda xp, a: xp.linalg.matrix_power(a, 2), numpy.ones((2, 3)))  # LinAlgError
    check(lambda xp, a: xp.linalg.matrix_power(a, 2), numpy.ones(3))  # LinAlgError
    check(lambda xp, a: xp.linalg.matrix_power(a, -1), numpy.zeros((2, 2)))  # singular


CHAINS = [[(3, 4), (4, 5), (5, 2)], [(10, 2), (2, 8), (8, 3)], [(4,), (4, 6), (6, 2), (2, 5)],
          [(3, 4), (4, 5), (5, 2), (2,)], [(4,), (4, 3), (3,)], [(2, 9), (9, 2), (2, 9), (9, 3), (3, 7)],
          [(2, 3), (3, 2)], [(2,)], [(2, 3), (3, 4, 1), (1, 2)]]


@pytest.mark.parametrize("shapes", CHAINS, ids=ids)
def test_multi_dot(shapes):
    arrays = [matrices("float64", s, seed=i) for i, s in enumerate(shapes)]
    check(lambda xp, *arrays: xp.linalg.multi_dot(list(arrays)), *arrays)


def test_multi_dot_out():
    arrays = [matrices("float64", s, seed=i) for i, s in enumerate([(3, 4), (4, 5), (5, 2)])]

    def with_out(xp, a, b, c, out):
        assert xp.linalg.multi_dot([a, b, c], out=out) is out
        return out

    check(with_out, *arrays, numpy.zeros((3, 2)))


@pytest.mark.parametrize("dtypes", [("float64", "float64"), ("int32", "int64"), ("complex128", "complex128"),
                                    ("float32", "complex64"), ("bool", "bool")], ids=ids)
@pytest.mark.parametrize("shapes,axis", [(((3,), (3,)), -1), (((2, 3), (3,)), -1), (((4, 1, 3), (2, 3)), -1),
                                         (((3, 2), (3, 2)), 0), (((3,), (4,)), -1), (((2, 3), (2, 3)), 2)],
                         ids=ids)
def test_vecdot(dtypes, shapes, axis):
    a, b = matrices(dtypes[0], shapes[0]), matrices(dtypes[1], shapes[1], seed=1)
    check(lambda xp, a, b: xp.linalg.vecdot(a, b, axis=axis), a, b)
    check(lambda xp, a, b: xp.vecdot(a, b, axis=axis), a, b)


@pytest.mark.parametrize("shapes", [((2, 3), (3,)), ((4, 2, 3), (3,)), ((2, 3), (5, 3)), ((2, 3), (2,)),
                                    ((3,), (3,))], ids=ids)
@pytest.mark.parametrize("dtype", ["float64", "complex128", "int64", "float32"])
def test_matvec_and_vecmat(dtype, shapes):
    a, b = matrices(dtype, shapes[0]), matrices(dtype, shapes[1], seed=1)
    check(lambda xp, a, b: xp.matvec(a, b), a, b, rtol=1e-5)
    check(lambda xp, a, b: xp.vecmat(b, xp.matrix_transpose(a) if a.ndim > 1 else a), a, b, rtol=1e-5)


@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (2, 3)), ((4, 1, 3), (2, 3)), ((3,), (2,)),
                                    ((3, 2), (3, 2))], ids=ids)
@pytest.mark.parametrize("dtype", ["int64", "float64", "complex128", "float32"])
def test_cross(dtype, shapes):
    a, b = matrices(dtype, shapes[0]), matrices(dtype, shapes[1], seed=1)
    check(lambda xp, a, b: xp.linalg.cross(a, b), a, b)
    check(lambda xp, a, b: xp.linalg.cross(a, b, axis=0), a, b)


def test_outer():
    a, b = matrices("float64", (3,)), matrices("int32", (4,), seed=1)
    check(lambda xp, a, b: xp.linalg.outer(a, b), a, b)
    check(lambda xp, a, b: xp.linalg.outer(a.reshape(1, 3), b), a, b)  # ValueError


@pytest.mark.parametrize("offset", [0, 1, -1, 2, -3, 5])
@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (5, 3), (2, 3, 4), (0, 2)], ids=ids)
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128", "bool"])
def test_trace_and_diagonal(dtype, shape, offset):
    a = matrices(dtype, shape)
    check(lambda xp, a: xp.linalg.diagonal(a, offset=offset), a)
    check(lambda xp, a: xp.linalg.trace(a, offset=offset), a)
    check(lambda xp, a: xp.linalg.trace(a, offset=offset, dtype="float64"), a)
    check(lambda xp, a: xp.linalg.diagonal(a.swapaxes(-1, -2)[..., ::-1, :], offset=offset), a)


def test_diagonal_is_a_read_only_view():
    a = numpy.arange(9.0).reshape(3, 3)
    check(lambda xp, a: xp.linalg.diagonal(a).flags.writeable, a)
    d = tnp.linalg.diagonal(tnp.array(a))
    with pytest.raises(ValueError):
        d[0] = 1
    check(lambda xp, a: xp.linalg.trace(a[0]), a)  # ValueError: not a matrix


def test_matrix_transpose():
    a = matrices("float64", (2, 3, 4))
    check(lambda xp, a: xp.linalg.matrix_transpose(a), a)
    check(lambda xp, a: xp.linalg.matrix_transpose(a[0, 0]), a)  # ValueError


# --- norms ---------------------------------------------------------------------------------

@pytest.mark.parametrize("ord", [2, 1, numpy.inf, -numpy.inf, 0, 3, None], ids=ids)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), (2, 0), (1,)], ids=ids)
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm(axis, keepdims, ord):
    a = matrices("float64", (2, 3, 4))
    kwargs = {"axis": axis, "keepdims": keepdims} | ({} if ord is None else {"ord": ord})
    check(lambda xp, a: xp.linalg.vector_norm(a, **kwargs), a)
    check(lambda xp, a: xp.linalg.vector_norm(a.astype("complex64"), **kwargs), a, rtol=1e-5)


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf, 3], ids=ids)
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(keepdims, ord):
    a = matrices("float64", (2, 3, 4))
    check(lambda xp, a: xp.linalg.matrix_norm(a, keepdims=keepdims, ord=ord), a)
    check(lambda xp, a: xp.linalg.matrix_norm(a[0].astype("int32"), ord=ord), a)


# --- tensors -------------------------------------------------------------------------------

def test_tensorsolve_and_tensorinv():
    a = matrices("float64", (6, 6)).reshape(2, 3, 6)
    b = matrices("float64", (2, 3), seed=1)
    check(lambda xp, a, b: xp.linalg.tensorsolve(a, b), a, b)
    a4 = matrices("float64", (6, 6)).reshape(2, 3, 3, 2)
    check(lambda xp, a, b: xp.linalg.tensorsolve(a, b, axes=(0, 3)), a4, matrices("float64", (3, 3), seed=2))
    check(lambda xp, a, b: xp.linalg.tensorsolve(a, b), a4, matrices("float64", (3,), seed=2))  # LinAlgError
    check(lambda xp, a: xp.linalg.tensorinv(a, ind=2), a4)
    check(lambda xp, a: xp.linalg.tensorinv(a, ind=1), matrices("float64", (6, 6)).reshape(6, 2, 3))
    check(lambda xp, a: xp.linalg.tensorinv(a, ind=0), a4)  # ValueError


# --- errors --------------------------------------------------------------------------------

NEEDS_SQUARE = {
    "solve": lambda xp, a: xp.linalg.solve(a, xp.ones(a.shape[-2:-1] or (1,))),
    "inv": lambda xp, a: xp.linalg.inv(a), "det": lambda xp, a: xp.linalg.det(a),
    "slogdet": lambda xp, a: xp.linalg.slogdet(a), "cholesky": lambda xp, a: xp.linalg.cholesky(a),
    "eig": lambda xp, a: xp.linalg.eig(a), "eigvals": lambda xp, a: xp.linalg.eigvals(a),
    "eigh": lambda xp, a: xp.linalg.eigh(a), "eigvalsh": lambda xp, a: xp.linalg.eigvalsh(a),
    "svd_hermitian": lambda xp, a: xp.linalg.svd(a, hermitian=True),
}
NEEDS_2D = {"qr": lambda xp, a: xp.linalg.qr(a), "svd": lambda xp, a: xp.linalg.svd(a),
            "svdvals": lambda xp, a: xp.linalg.svdvals(a), "pinv": lambda xp, a: xp.linalg.pinv(a)}


@pytest.mark.parametrize("name", list(NEEDS_SQUARE) + list(NEEDS_2D))
@pytest.mark.parametrize("shape", [(3,), (), (2, 3), (4, 2, 3)], ids=ids)
def test_shape_errors(name, shape):
    fn = {**NEEDS_SQUARE, **NEEDS_2D}[name]
    a = numpy.ones(shape)
    expected_error = None
    try:
        fn(numpy, a)
    except Exception as exc:  # noqa: BLE001
        expected_error = exc
    if expected_error is None:
        return  # NumPy accepts it (qr/svd of non-square matrices); the parity tests above cover it
    with pytest.raises(type(expected_error), match=str(expected_error)[:40].replace("(", r"\(").replace(")", r"\)")):
        fn(tnp, tnp.array(a))


def test_float16_is_unsupported():
    for name in ("inv", "det", "svdvals", "eigvalsh"):
        check(lambda xp, a: getattr(xp.linalg, name)(a), numpy.eye(2, dtype="float16"))


@pytest.mark.parametrize("shape", [(3, 3), (4, 3, 3)], ids=ids)
def test_singular_matrix_raises_at_the_call_and_nothing_is_lost(shape):
    before = tnp.arange(6.0) * 2
    pending = before + 1  # issued before the error; still computed afterwards
    a = numpy.broadcast_to(numpy.eye(3), shape).copy()
    a[..., -1, :] = a[..., 0, :]  # every (or the one) matrix singular
    if len(shape) == 3:
        a[:2] = numpy.eye(3)  # only some matrices of the stack singular
    for fn in (lambda xp, a: xp.linalg.inv(a), lambda xp, a: xp.linalg.solve(a, xp.ones(3))):
        with pytest.raises(LinAlgError, match="^Singular matrix"):
            fn(tnp, tnp.array(a))
        with pytest.raises(LinAlgError, match="^Singular matrix"):
            fn(numpy, a)
    numpy.testing.assert_array_equal(host(pending), numpy.arange(6.0) * 2 + 1)
    close(tnp.linalg.inv(tnp.eye(3) * 2), numpy.eye(3) / 2, "float64")  # the runtime goes on


def test_solve_shape_mismatches():
    a = matrices("float64", (2, 3, 3))
    check(lambda xp, a, b: xp.linalg.solve(a, b), a, numpy.ones(4))
    check(lambda xp, a, b: xp.linalg.solve(a, b), a, numpy.ones((4, 2)))
    check(lambda xp, a, b: xp.linalg.solve(a, b), a, numpy.ones((3, 3, 2)))
    check(lambda xp, a, b: xp.linalg.solve(a, b), a, numpy.float64(2.0))


def test_lstsq_errors():
    check(lambda xp, a, b: xp.linalg.lstsq(a, b), numpy.ones((3, 2)), numpy.ones(4))
    check(lambda xp, a, b: xp.linalg.lstsq(a, b), numpy.ones((2, 3, 2)), numpy.ones((2, 3)))
    check(lambda xp, a, b: xp.linalg.lstsq(a, b), numpy.ones(3), numpy.ones(3))


def test_cross_errors():
    check(lambda xp, a, b: xp.linalg.cross(a, b), numpy.ones(2), numpy.ones(3))
    check(lambda xp, a, b: xp.linalg.cross(a, b), numpy.ones((3, 2)), numpy.ones((3, 2)))


def test_multi_dot_errors():
    check(lambda xp, a: xp.linalg.multi_dot([a]), numpy.ones((2, 2)))
    check(lambda xp, a: xp.linalg.multi_dot([a, a, a[None]]), numpy.ones((2, 2)))
    check(lambda xp, a: xp.linalg.multi_dot([a, a.T, a]), numpy.ones((2, 3)))


def test_vecdot_errors():
    check(lambda xp, a, b: xp.linalg.vecdot(a, b), numpy.ones(3), numpy.ones(4))
    check(lambda xp, a, b: xp.linalg.vecdot(a, b), numpy.float64(1.0), numpy.ones(4))
    check(lambda xp, a, b: xp.matvec(a, b), numpy.ones((2, 3)), numpy.ones(2))
    check(lambda xp, a, b: xp.vecmat(a, b), numpy.ones(3), numpy.ones((2, 3)))
