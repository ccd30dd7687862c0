"""tessera.sparse against scipy.sparse: formats, construction, conversions, arithmetic,
products and tessera.sparse.linalg, compared by values, formats, dtypes, shapes and
exception types. Random matrices are made by tessera and given to SciPy through to_scipy."""
import warnings

import numpy
import pytest

scipy_sparse = pytest.importorskip("scipy.sparse")
import scipy.sparse.linalg as scipy_linalg  # noqa: E402

import tessera.numpy as tnp  # noqa: E402
import tessera.sparse as tsparse  # noqa: E402
import tessera.sparse.linalg as tlinalg  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_fallback")

DTYPES = ["float64", "float32", "complex128", "int64"]


def host(a):
    return numpy.asarray(a)


def same(t, s, rtol=1e-12, atol=0.0):
    """t (tessera sparse or array) and s (SciPy sparse or NumPy) agree in format, shape,
    dtype and values."""
    if scipy_sparse.issparse(s):
        assert tsparse.issparse(t), type(t)
        assert t.format == s.format
        assert t.shape == s.shape
        assert t.dtype == s.dtype, (t.dtype, s.dtype)
        assert isinstance(s, scipy_sparse.spmatrix) == (not t._is_array)
        numpy.testing.assert_allclose(host(t.toarray()), s.toarray(), rtol=rtol, atol=atol)
    else:
        s = numpy.asarray(s)
        got = host(t)
        assert got.shape == s.shape, (got.shape, s.shape)
        assert got.dtype == s.dtype, (got.dtype, s.dtype)
        numpy.testing.assert_allclose(got, s, rtol=rtol, atol=atol)


def sample(m, n, density=0.3, dtype="float64", seed=0, fmt="csr"):
    """A tessera random matrix and its SciPy copy."""
    t = tsparse.random_array((m, n), density=density, format=fmt, dtype=dtype, rng=seed)
    return t, t.to_scipy()


def poisson(n):
    T = tsparse.diags_array([-tnp.ones(n - 1), 2 * tnp.ones(n), -tnp.ones(n - 1)], offsets=[-1, 0, 1])
    I = tsparse.eye_array(n)
    return (tsparse.kron(I, T) + tsparse.kron(T, I)).tocsr()


# construction and conversion

@pytest.mark.parametrize("dtype", DTYPES)
def test_from_data_indices_indptr(dtype):
    data = numpy.array([1, 2, 3, 4, 5], dtype=dtype)
    indices = numpy.array([2, 0, 1, 2, 0])
    indptr = numpy.array([0, 1, 3, 3, 5])
    s = scipy_sparse.csr_array((data, indices, indptr), shape=(4, 3))
    t = tsparse.csr_array((tnp.asarray(data), tnp.asarray(indices), tnp.asarray(indptr)), shape=(4, 3))
    same(t, s)
    assert t.nnz == s.nnz
    assert t.indices.dtype == s.indices.dtype
    same(t.indptr, s.indptr)


def test_from_coordinates_sums_duplicates():
    row, col = numpy.array([0, 2, 0, 1, 2, 0]), numpy.array([1, 2, 1, 0, 2, 3])
    data = numpy.array([1.5, 2.0, -0.5, 4.0, 1.0, 3.0])
    s = scipy_sparse.csr_array((data, (row, col)), shape=(3, 4))
    t = tsparse.csr_array((tnp.asarray(data), (tnp.asarray(row), tnp.asarray(col))), shape=(3, 4))
    same(t, s)
    assert t.nnz == s.nnz
    same(t.indices, s.indices)
    c = tsparse.coo_array((data, (row, col)), shape=(3, 4))
    same(c, scipy_sparse.coo_array((data, (row, col)), shape=(3, 4)))
    assert c.nnz == 6


@pytest.mark.parametrize("dtype", DTYPES + ["bool"])
def test_from_dense(dtype):
    d = numpy.array([[0, 1, 0], [2, 0, 3], [0, 0, 0], [4, 5, 0]], dtype=dtype)
    for src in (d, tnp.asarray(d)):
        same(tsparse.csr_array(src), scipy_sparse.csr_array(d))
        same(tsparse.csr_matrix(src), scipy_sparse.csr_matrix(d))
        same(tsparse.csc_array(src), scipy_sparse.csc_array(d))
        same(tsparse.coo_array(src), scipy_sparse.coo_array(d))


def test_from_non_contiguous_dense():
    d = numpy.arange(24.0).reshape(4, 6) % 3
    same(tsparse.csr_array(tnp.asarray(d)[:, ::2]), scipy_sparse.csr_array(d[:, ::2]))
    same(tsparse.csr_array(tnp.asarray(d).T), scipy_sparse.csr_array(d.T))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_from_scipy_round_trip(fmt):
    s = scipy_sparse.random_array((7, 5), density=0.4, format=fmt, rng=3)
    t = tsparse.from_scipy(s)
    same(t, s)
    back = t.to_scipy()
    assert back.format == fmt
    numpy.testing.assert_array_equal(back.toarray(), s.toarray())
    m = scipy_sparse.csr_matrix(s)
    same(tsparse.from_scipy(m), m)


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 4), (3, 4)])
def test_empty(shape):
    s = scipy_sparse.csr_array(shape)
    t = tsparse.csr_array(shape)
    same(t, s)
    same(t.toarray(), s.toarray())
    assert t.nnz == 0
    same(t @ tnp.ones(shape[1]), s @ numpy.ones(shape[1]))
    same(t.T, s.T)


def test_conversions():
    t, s = sample(6, 5, seed=4)
    for fmt in ("csr", "csc", "coo", "dia"):
        same(t.asformat(fmt), s.asformat(fmt))
    same(t.tocoo().tocsr(), s.tocoo().tocsr())
    same(t.tocsc().tocsr(), s.tocsc().tocsr())
    same(t.todense(), s.todense())
    same(t.T, s.T)
    same(t.transpose(), s.transpose())
    same(t.T.T, s.T.T)
    assert t.T.format == "csc"


@pytest.mark.parametrize("dtype", ["float32", "int32", "complex64"])
def test_copy_and_astype(dtype):
    t, s = sample(5, 5, seed=5)
    c = t.copy()
    c.data *= 2
    same(t, s)
    same(t.astype(dtype), s.astype(dtype))
    with pytest.raises(TypeError):
        t.astype("int32", casting="safe")
    with pytest.raises(TypeError):
        s.astype("int32", casting="safe")


def test_sort_indices_sum_duplicates_eliminate_zeros():
    data = numpy.array([3.0, 1.0, 0.0, 2.0, 5.0, -5.0])
    indices = numpy.array([2, 0, 1, 1, 0, 0])
    indptr = numpy.array([0, 3, 6])
    s = scipy_sparse.csr_array((data, indices, indptr), shape=(2, 3))
    t = tsparse.csr_array((tnp.asarray(data), tnp.asarray(indices), tnp.asarray(indptr)), shape=(2, 3))
    assert t.has_sorted_indices == s.has_sorted_indices
    t.sort_indices()
    s.sort_indices()
    assert t.has_sorted_indices and s.has_sorted_indices
    same(t.indices, s.indices)
    t.sum_duplicates()
    s.sum_duplicates()
    same(t, s)
    same(t.indptr, s.indptr)
    t.eliminate_zeros()
    s.eliminate_zeros()
    assert t.nnz == s.nnz
    same(t.indptr, s.indptr)
    same(t.data, s.data)


def test_bad_construction():
    for args, kwargs in [(((numpy.ones(2), numpy.asarray([0, 1]), numpy.asarray([0, 2])),), {"shape": (2, 3)}),
                         (((-1, 3),), {}),
                         (((numpy.ones(3), numpy.asarray([0, 1]), numpy.asarray([0, 1, 2])),), {"shape": (2, 3)})]:
        with pytest.raises(ValueError):
            scipy_sparse.csr_array(*args, **kwargs)
        targs = tuple(tuple(tnp.asarray(a) for a in x) if isinstance(x[0], numpy.ndarray) else x for x in args)
        with pytest.raises(ValueError):
            tsparse.csr_array(*targs, **kwargs)


def test_out_of_range_indices():
    # tessera checks the column indices when it is given them (its kernels index with them);
    # SciPy checks them in check_format(full_check=True)
    args = (numpy.ones(2), numpy.asarray([0, 5]), numpy.asarray([0, 1, 2]))
    with pytest.raises(ValueError):
        scipy_sparse.csr_array(args, shape=(2, 3)).check_format(full_check=True)
    with pytest.raises(ValueError):
        tsparse.csr_array(tuple(tnp.asarray(a) for a in args), shape=(2, 3))


# Bad arrays, shapes and arguments: each case is one statement run with `sp` bound to
# scipy.sparse and to tessera.sparse (`np` to numpy and to tessera.numpy, `A` to the 3 x 4
# matrix M in the case's format); the same exception type and message, or the same result
# (`r`, or the last expression). A pair gives SciPy's statement second: SciPy checks the
# index values only in check_format(full_check=True) (and otherwise crashes or computes
# garbage); tessera checks them on construction, with check_format's messages.
M = numpy.array([[1.0, 0, 2, 0], [0, 0, 3, 4], [5, 0, 0, 6]])
F = "np.ones(2)"
CSR = "sp.csr_array(({}, {}, {}), shape={})"


def deferred(data, indices, indptr, shape, fmt="csr"):
    tessera = f"sp.{fmt}_array(({data}, {indices}, {indptr}), shape={shape})"
    return tessera, tessera + ".check_format()"


BAD_ARRAYS = [
    # compressed formats: SciPy's constructor checks, in its order
    CSR.format(F, "[0, 1]", "[0, 1, 3]", (2, 2)),  # indptr past nnz
    CSR.format(F, "[0, 1]", "[1, 1, 2]", (2, 2)),  # indptr not starting at 0
    CSR.format(F, "[0, 1]", "[0, 1, 2, 2]", (2, 2)),  # indptr of the wrong length
    CSR.format(F, "[0, 1]", "[0, 2]", (2, 2)),
    CSR.format("np.ones(3)", "[0, 1]", "[0, 1, 2]", (2, 2)),  # data and indices of different lengths
    CSR.format(F, "[0, 1]", "[[0, 1, 2]]", (2, 2)),  # 2-D indptr
    CSR.format("np.ones((1, 2))", "[0, 1]", "[0, 1, 2]", (2, 2)),
    CSR.format(F, "[[0, 1]]", "[0, 1, 2]", (2, 2)),
    CSR.format("[]", "[]", "[]", (0, 2)),
    CSR.format("[]", "[]", "[]", None),  # nothing to infer the shape from
    CSR.format(F, "[0, 1]", "[0, 1, 2]", (-2, 2)),
    CSR.format(F, "[0, 1]", "[0, 1, 2]", (2.5, 2)),
    CSR.format(F, "[0, 1]", "[0, 1, 2]", (2, 2, 1)),
    # a dtype scipy.sparse does not store: SciPy's error at its first operation, tessera's on construction
    (CSR.format("['a', 'b']", "[0, 1]", "[0, 1, 2]", (2, 2)), CSR.format("['a', 'b']", "[0, 1]", "[0, 1, 2]", (2, 2)) + ".tocoo()"),
    # ... and those of check_format(full_check=True)
    deferred(F, "[0, 5]", "[0, 1, 2]", (2, 2)),  # a column index out of range
    deferred(F, "[0, -1]", "[0, 1, 2]", (2, 2)),  # a negative one
    deferred("np.ones(3)", "[0, 1, 0]", "[0, 2, 1, 3]", (3, 2)),  # indptr not monotone
    deferred(F, "[0, 1]", "[0, -1, 2]", (2, 2)),
    deferred("np.ones(3)", "[0, 1, 7]", "[0, 1, 2]", (2, 2)),  # out of range only past indptr[-1]: pruned
    deferred(F, "[0, 5]", "[0, 1, 2]", (2, 2), "csc"),
    deferred("np.ones(3)", "[0, 1, 0]", "[0, 2, 1, 3]", (2, 3), "csc"),
    CSR.format(F, "[0, 1]", "[0, 1, 3]", (2, 2)).replace("csr", "csc"),
    CSR.format(F, "[0, 1]", "[1, 1, 2]", (2, 2)).replace("csr", "csc"),
    # values SciPy reads: float indices truncated, the shape inferred, values past indptr[-1] dropped
    "r = " + CSR.format(F, "[0., 1.5]", "[0., 1., 2.]", (2, 2)),
    "r = " + CSR.format(F, "[0, 3]", "[0, 1, 2]", None),
    "r = " + CSR.format("np.arange(1., 4.)", "[0, 1, 1]", "[0, 1, 2]", (2, 2)),
    "r = " + CSR.format(F, "[0, 1]", "[0, 1, 2]", (2, 5)).replace("csr", "csc"),
    "r = " + CSR.format("np.arange(1., 4.)", "[0, 1, 1]", "[0, 1, 2]", (2, 2)) + "; r = r.indices",
    "sp.csr_array((1, 2, 3, 4))", "sp.csc_array((1, 2, 3, 4))", "sp.csr_array(np.ones((2, 2, 2)))",
    "sp.csc_array(np.ones(3))", "sp.dia_array(np.ones(3))", "sp.csr_array(np.ones((2, 2)), shape=(3, 3))",
    "r = sp.csr_array(np.ones((2, 2)), shape=(2, 5))", "sp.coo_array(np.ones((2, 2)), shape=(3, 3))",
    # COO
    "sp.coo_array((np.ones(2), ([0, 5], [0, 1])), shape=(2, 2))",
    "sp.coo_array((np.ones(2), ([0, 1], [0, 5])), shape=(2, 2))",
    "sp.coo_array((np.ones(2), ([0, -1], [0, 1])), shape=(2, 2))",
    "sp.coo_array((np.ones(2), ([0, 1], [-1, 1])), shape=(2, 2))",
    "sp.coo_array((np.ones(3), ([0, 1], [0, 1])), shape=(2, 2))",
    "sp.coo_array((np.ones(2), ([0, 1, 1], [0, 1])), shape=(2, 2))",
    "sp.coo_array(([], ([], [])))", "sp.coo_array((np.ones(1), ([-1], [0])))",
    "sp.coo_array((np.ones((1, 2)), ([0, 1], [0, 1])), shape=(2, 2))",
    "sp.coo_array((np.ones(2), ([[0, 1]], [0, 1])), shape=(2, 2))",
    "sp.coo_array((['a', 'b'], ([0, 1], [0, 1])), shape=(2, 2))",
    "sp.coo_array((np.ones(2), ([0, 1], [0, 1], [0, 1])), shape=(2, 2))",
    "sp.coo_array((np.ones(2), ([0, 1], [0, 1])), shape=(-2, 2))",
    "sp.coo_array((np.ones(2), ([0, 1], [0, 1])), shape=(2.5, 2))",
    "sp.coo_array((np.ones(2), ([0, 1], [0, 1])), shape=(2, 2, 2))",
    "sp.coo_array((np.ones(2), ([0, 1], [0, 1])), shape=(1, 1))",
    "r = sp.coo_array((np.ones(2), ([0., 1.5], [0, 1])), shape=(2, 2))",
    "sp.csr_array((np.ones(1), ([0], [3])), shape=(1, 1))", "r = sp.csr_array(([1.], [[0], [0]]), shape=(1, 1))",
    "sp.csr_array([[1, None]])",
    # DIA
    "sp.dia_array((np.ones((2, 3)), [0, 0]), shape=(3, 3))",  # duplicate offsets
    "sp.dia_array((np.ones((2, 3)), [[0, 1]]), shape=(3, 3))", "sp.dia_array((np.ones((2, 3, 1)), [0, 1]), shape=(3, 3))",
    "sp.dia_array((np.ones((2, 3)), [0, 1, 2]), shape=(3, 3))", "sp.dia_array((np.ones((2, 3)), [0, 1]))",
    "sp.dia_array((np.ones((1, 3)), 'a'), shape=(3, 3))", "sp.dia_array((np.ones((1, 3)), [0]), shape=(-3, 3))",
    "r = sp.dia_array((np.ones(3), [0]), shape=(3, 3))", "r = sp.dia_array((np.ones((2, 3)), [0, 1.5]), shape=(3, 3))",
    "r = sp.dia_array((np.ones((1, 3)), 0), shape=(3, 3))", "r = sp.dia_array((np.arange(5.)[None], [0]), shape=(3, 3))",
    "r = sp.dia_array((np.ones((2, 3)), [0, 5]), shape=(3, 3))",
]

FORMATS = ["csr", "csc", "coo", "dia"]
METHODS = [
    "r = A.reshape((6, 2))", "r = A.reshape(6, 2)", "r = A.reshape((2, -1))", "r = A.reshape((12, 1), order='F')",
    "A.reshape((5, 2))", "A.reshape((5, -1))", "A.reshape((-1, -1))", "A.reshape((6, 2), order='X')",
    "A.reshape((3, 'a'))", "r = A.reshape((3, 4))",
    "A.resize((2, 5)); r = A", "A.resize(4, 4); r = A", "A.resize((0, 0)); r = A", "A.resize((-1, 2))",
    "A.setdiag([7., 8.]); r = A", "A.setdiag(9.); r = A", "A.setdiag([1., 2., 3., 4., 5.]); r = A",
    "A.setdiag(5., k=-2); r = A", "A.setdiag([5., 6.], k=2); r = A", "A.setdiag(1., k=4)", "A.setdiag(1., k=-3)",
    "A.setdiag('x')", "A.setdiag(0.); r = A.toarray()",
    "r = A.argmax()", "r = A.argmin()", "r = A.argmax(axis=0)", "r = A.argmin(axis=1)", "A.argmax(axis=2)",
    "r = A.count_nonzero()", "r = A.count_nonzero(axis=0)", "r = A.count_nonzero(axis=-1)", "A.count_nonzero(axis=2)",
    "r = A.nonzero()", "A.sum(axis=2)", "A.sum(axis=-3)", "A.mean(axis=2)", "A.max(axis=2)", "A.astype(str)",
    "A.asformat('xyz')", "A.toarray(order='X')", "A.multiply(np.ones((2, 2)))", "A.transpose(axes=(0, 1))",
    "A[5, 0]", "A[0, 9]", "A[5]",
    "A[0, 1] = 7.; r = A", "A[1, 2] = 0.; r = A.toarray()", "A[-1, -1] = 2.; r = A", "A[0] = 3.; r = A",
    "A[:, 1] = np.arange(3.); r = A", "A[[0, 2], [1, 3]] = [8., 9.]; r = A", "A[1:, ::2] = 4.; r = A",
    "A[5, 0] = 1.", "A[0, 1.5] = 1.", "A['x']",
    "A / 0", "r = A / 3", "r = A.astype(np.float32) / 3", "r = A.astype(np.int32) / 2", "r = A / np.float64(0)",
    "r = A.sum(axis=(0, 1))", "r = A.mean(axis=(1, 0))", "r = A.max(axis=(0, 1))", "r = A.sum(axis=(1,))",
    "A.sum(axis=(0, 0))", "r = A == A.T", "r = A != A.T", "A < A.T",
    "sp.csr_array(A, shape=(2, 2))", "r = sp.csr_array(A, shape=(3, 6))", "sp.csr_array(A, dtype=str)",
    "sp.csr_array(np.ones((2, 2)), dtype='U3')",
]
CONSTRUCTION = [
    "sp.eye(3, k=5)", "sp.eye_array(3, k=-4)", "r = sp.eye_array(3, k=3)", "r = sp.eye_array(3, 2, k=-3)",
    "sp.diags([1, 2], [0, 0])", "sp.diags_array([[1, 2], [3, 4]], offsets=[1, 1])",
    "r = sp.diags_array([1, 2, 3], offsets=0, shape=(2, 2))", "r = sp.diags_array([1, 2, 3], dtype=None)",
    "r = sp.diags_array([np.ones(2, np.float32)], offsets=[0])", "r = sp.diags([np.arange(3)], [1])",
]
# Two writes to one place: the last wins, as NumPy and SciPy's compressed formats (its COO keeps the first).
METHODS_COMPRESSED = ["A[[0, 0], [1, 1]] = [1., 2.]; r = A"]


def _sparse_env(xp, sparse):
    return {"np": xp, "sp": sparse}


def _host(r):
    if isinstance(r, tuple):
        return tuple(_host(x) for x in r)
    if isinstance(r, tnp.ndarray):
        return numpy.asarray(r)
    return r


def _same_result(t, s):
    if isinstance(s, tuple):
        assert isinstance(t, tuple) and len(t) == len(s)
        for a, b in zip(t, s):
            _same_result(a, b)
    elif scipy_sparse.issparse(s):
        same(t, s)
    elif isinstance(s, numpy.ndarray):
        got = numpy.asarray(t)
        assert got.shape == s.shape and got.dtype.kind == s.dtype.kind, (got, s)
        numpy.testing.assert_array_equal(got, s)
    else:
        assert t == s, (t, s)


def _outcome(source, xp, sparse, setup=""):
    env = _sparse_env(xp, sparse)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(setup + source, "<case>", "exec"), env)
    except Exception as exc:  # noqa: BLE001 - compared below
        return exc
    return env.get("r")


# SciPy's messages not worth matching: its n-D shapes, a placeholder in one, its shape texts.
LOOSE_MESSAGES = ("scipy.sparse does not support dtype", "shape must have length", "'newshape'",
                  "inconsistent shapes")


def check_sparse_case(source, setup=""):
    tessera_source, scipy_source = (source, source) if isinstance(source, str) else source
    expected = _outcome(scipy_source, numpy, scipy_sparse, setup)
    got = _outcome(tessera_source, tnp, tsparse, setup)
    if isinstance(expected, (AttributeError, NotImplementedError)) or (
            isinstance(expected, TypeError) and "item assignment" in str(expected)):
        pytest.skip(f"scipy.sparse lacks this for the format ({expected}); tessera's goes through CSR")
    if isinstance(expected, Exception):
        assert isinstance(got, Exception), f"no error (SciPy: {expected!r})"
        assert isinstance(got, type(expected)), (got, expected)
        if isinstance(expected, ValueError) and not any(s in str(expected) for s in LOOSE_MESSAGES):
            assert str(got) == str(expected)
        return
    if isinstance(got, Exception) and "does not support dtype <U" in str(got):
        pytest.skip("SciPy converts this DIA array to strings; tessera holds no strings")
    assert not isinstance(got, Exception), f"{got!r} (SciPy: {expected!r})"
    _same_result(_host(got), expected)


@pytest.mark.parametrize("source", BAD_ARRAYS, ids=str)
def test_bad_arrays_raise_as_scipy(source):
    check_sparse_case(source)


# Arrays changed after construction: tessera checks them again before its kernels index with
# them (SciPy computes garbage or crashes; its check_format, or its COO constructor, names the
# fault, and is the reference).
_CSR = "A = sp.csr_array(np.asarray([[1., 0, 2], [0, 3, 0]])); "
_COO = "A = sp.coo_array(np.asarray([[1., 0, 2], [0, 3, 0]])); "
_REBUILT = "; sp.coo_array((A.data, (A.row, A.col)), shape=A.shape)"
CHANGED = [(_CSR + f"{change}; A @ np.ones(3)", _CSR + f"{change}; A.check_format()") for change in (
    "A.indices[1] = 99", "A.indices[0] = -1", "A.indptr[1] = 7", "A.indptr[1] = -1", "A.indices = np.asarray([0, 5, 1])",
    "A.data = np.ones(2)", "A.indptr = np.asarray([0, 2])")] + [
    (_CSR + "A.data *= 2; r = A", _CSR + "A.data *= 2; r = A"),
    (_CSR + "A.indices = [0, 2, 1]; r = A.toarray()", _CSR + "A.indices = np.asarray([0, 2, 1]); r = A.toarray()"),
    (_CSR.replace("csr", "csc") + "A.indices[0] = 5; A @ np.ones(3)",
     _CSR.replace("csr", "csc") + "A.indices[0] = 5; A.check_format()"),
] + [(_COO + f"{change}; A.toarray()", _COO + change + _REBUILT) for change in (
    "A.row[0] = 9", "A.col[1] = -1", "A.data = np.ones(2)", "A.col = np.asarray([0, 2, 7])")]


@pytest.mark.parametrize("source", CHANGED, ids=lambda c: c[0])
def test_arrays_changed_after_construction_are_checked_again(source):
    check_sparse_case(source)


@pytest.mark.parametrize("source", CONSTRUCTION)
def test_construction_functions_as_scipy(source):
    check_sparse_case(source)


@pytest.mark.parametrize("fmt,source", [(f, m) for m in METHODS for f in FORMATS] +
                         [(f, m) for m in METHODS_COMPRESSED for f in ("csr", "csc")])
def test_methods_as_scipy(source, fmt):
    check_sparse_case(source, setup=f"A = sp.{fmt}_array(np.asarray({M.tolist()}))\n")


# products

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("xdtype", ["float64", "complex128", "int64"])
def test_spmv(dtype, xdtype):
    t, s = sample(40, 30, density=0.2, dtype=dtype, seed=6)
    x = numpy.arange(30).astype(xdtype) - 7
    same(t @ tnp.asarray(x), s @ x)
    same(t.dot(tnp.asarray(x)), s.dot(x))
    same(tsparse.csr_matrix(t) * tnp.asarray(x), scipy_sparse.csr_matrix(s) * x)


def test_spmv_rows_summed_in_order():
    # cancellation exposes the order of the sums: every row must match SciPy exactly
    t, s = sample(300, 300, density=0.05, seed=7)
    x = numpy.linspace(-1e8, 1e8, 300)
    numpy.testing.assert_array_equal(host(t @ tnp.asarray(x)), s @ x)


def test_spmv_views_and_matrices():
    t, s = sample(50, 40, density=0.2, seed=8)
    x = numpy.arange(80.0) / 3
    same(t @ tnp.asarray(x)[::2], s @ x[::2])
    X = numpy.arange(120.0).reshape(40, 3) - 50
    same(t @ tnp.asarray(X), s @ X)
    same(t @ tnp.asarray(X.T.copy()).T, s @ X)
    same(t.T @ tnp.ones(50), s.T @ numpy.ones(50))
    same(tnp.ones(50) @ t, numpy.ones(50) @ s)


def test_spmv_errors():
    t, s = sample(5, 4, seed=9)
    for x in (numpy.ones(5), numpy.ones((3, 2))):
        with pytest.raises(ValueError):
            s @ x
        with pytest.raises(ValueError):
            t @ tnp.asarray(x)
    with pytest.raises(ValueError):
        t @ 2
    with pytest.raises(ValueError):
        s @ 2


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_spgemm(dtype):
    a, sa = sample(20, 15, density=0.2, dtype=dtype, seed=10)
    b, sb = sample(15, 12, density=0.3, dtype=dtype, seed=11)
    same(a @ b, sa @ sb, rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError):
        a @ a
    with pytest.raises(ValueError):
        sa @ sa


# arithmetic and reductions

def test_arithmetic():
    a, sa = sample(8, 6, seed=12)
    b, sb = sample(8, 6, seed=13)
    same(a + b, sa + sb)
    same(a - b, sa - sb)
    same(a - a, sa - sa)
    same(2.5 * a, 2.5 * sa)
    same(a * 3, sa * 3)
    same(a / 4, sa / 4)
    same(-a, -sa)
    same(abs(-a), abs(-sa))
    same(a.multiply(b), sa.multiply(sb))
    same(a * b, sa * sb)
    same(a.power(2), sa.power(2))
    same(a.T + b.T, sa.T + sb.T)
    same(a.multiply(tnp.arange(6.0)), sa.multiply(numpy.arange(6.0)))
    same(a + tnp.ones((8, 6)), sa + numpy.ones((8, 6)))
    with pytest.raises(ValueError):
        a + tsparse.csr_array((3, 3))
    with pytest.raises(ValueError):
        sa + scipy_sparse.csr_array((3, 3))
    with pytest.raises(NotImplementedError):
        a + 1
    with pytest.raises(NotImplementedError):
        sa + 1


@pytest.mark.parametrize("op", ["lt", "gt", "le", "ge", "ne", "eq"])
def test_comparisons(op):
    import operator
    import warnings

    fn = getattr(operator, op)
    a, sa = sample(6, 5, seed=30)
    b, sb = sample(6, 5, seed=31)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scipy_sparse.SparseEfficiencyWarning)
        same(fn(a, b), fn(sa, sb))
        for scalar in (0.5, 0.0, -1.0):
            same(fn(a, scalar), fn(sa, scalar))
    if op in ("eq", "ne"):  # SciPy: arrays of other shapes are simply not equal
        assert fn(a, tsparse.csr_array((2, 2))) == fn(sa, scipy_sparse.csr_array((2, 2)))
    else:
        with pytest.raises(ValueError):
            fn(sa, scipy_sparse.csr_array((2, 2)))
        with pytest.raises(ValueError):
            fn(a, tsparse.csr_array((2, 2)))


@pytest.mark.parametrize("name", ["sin", "tanh", "floor", "ceil", "expm1", "log1p", "sqrt", "sign", "rad2deg"])
def test_zero_preserving_functions(name):
    a, sa = sample(6, 5, seed=32)
    same(getattr(a, name)(), getattr(sa, name)())


def test_maximum_minimum():
    a, sa = sample(6, 5, seed=33)
    b, sb = sample(6, 5, seed=34)
    same(a.maximum(b), sa.maximum(sb))
    same(a.minimum(0.5), sa.minimum(0.5))
    same((-a).maximum(-0.25), (-sa).maximum(-0.25))


def test_matrix_semantics():
    a, sa = sample(5, 5, seed=14)
    ma, msa = tsparse.csr_matrix(a), scipy_sparse.csr_matrix(sa)
    same(ma * ma, msa * msa)
    same(ma ** 3, msa ** 3)


@pytest.mark.parametrize("dtype", ["float64", "int64", "float32"])
def test_reductions(dtype):
    t, _ = sample(9, 7, density=0.3, seed=15)
    t = (t * 10).astype(dtype)
    t = t - 3 * t.multiply(tnp.arange(7.0) % 2).astype(dtype)  # some negative values
    s = t.to_scipy()
    assert t.sum() == pytest.approx(s.sum())
    for axis in (0, 1, -1):
        same(t.sum(axis=axis), s.sum(axis=axis), rtol=1e-6)
        # SciPy gives a 1-D COO array; tessera has no 1-D sparse arrays and gives a dense one
        same(t.max(axis=axis), s.max(axis=axis).toarray())
        same(t.min(axis=axis), s.min(axis=axis).toarray())
        same(t.mean(axis=axis), s.mean(axis=axis), rtol=1e-6)
    assert float(t.max()) == s.max()
    assert float(t.min()) == s.min()
    assert float(t.mean()) == pytest.approx(float(s.mean()))
    for k in (0, 1, -2, 6, -8):
        same(t.diagonal(k), s.diagonal(k))
    with pytest.raises(ValueError):
        tsparse.csr_array((0, 3)).max()
    with pytest.raises(ValueError):
        scipy_sparse.csr_array((0, 3)).max()


def test_element_reads_and_row_slices():
    t, s = sample(6, 5, seed=16)
    for i in range(-6, 6):
        for j in range(-5, 5):
            assert t[i, j] == s[i, j]
    for bad in ((6, 0), (0, -6)):
        with pytest.raises(IndexError):
            t[bad]
        with pytest.raises(IndexError):
            s[bad]
    numpy.testing.assert_array_equal(host(t[1:4].toarray()), s[1:4].toarray())
    numpy.testing.assert_array_equal(host(t[2:].toarray()), s[2:].toarray())


KEYS = [
    (slice(None), slice(1, 4)), (slice(1, 5), slice(0, 5, 2)), (slice(None, None, -2), slice(None)),
    ([4, 0, 0, -1], slice(None)), (slice(2, 6), [3, -1, 3]), ([1, 2], [0, 4]), (2, slice(1, 4)),
    (slice(None), 3), (numpy.array([True, False, True, False, False, True]), slice(None)),
    (slice(None), numpy.array([False, True, True, False, True])), (numpy.array([[5], [1]]), [4, 0, 2]),
    (slice(3, 3), [0]), ([], slice(None)),
]


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("key", KEYS, ids=[str(i) for i in range(len(KEYS))])
def test_slices_index_arrays_and_masks_read_as_scipy(fmt, key):
    t, s = sample(6, 5, density=0.5, seed=21, fmt=fmt)
    for a, b in ((t, s), (tsparse.csr_matrix(t), scipy_sparse.csr_matrix(s))):
        got, want = a[key], b[key]
        want = want.toarray() if hasattr(want, "toarray") else numpy.asarray(want)
        got = host(got.toarray()) if hasattr(got, "toarray") else host(got)
        # A single row or column stays 2-D here (SciPy's sparse arrays make it 1-D).
        numpy.testing.assert_array_equal(got.reshape(want.shape), want)
        assert got.dtype == want.dtype


def test_element_pairs_broadcast_and_duplicates_add():
    data, row, col = [1.0, 2.0, 4.0], [0, 0, 2], [1, 1, 3]
    t = tsparse.csr_array((tnp.asarray(data), (tnp.asarray(row), tnp.asarray(col))), shape=(3, 4))
    s = scipy_sparse.csr_array((numpy.array(data), (numpy.array(row), numpy.array(col))), shape=(3, 4))
    rows, cols = numpy.array([[0], [2]]), numpy.array([1, 3, 0])
    got, want = t[rows, cols], s[rows, cols]  # a 2-D selection is sparse again
    assert got.format == want.format == "csr"
    numpy.testing.assert_array_equal(host(got.toarray()), want.toarray())
    numpy.testing.assert_array_equal(host(t[[0, 2, 1], [1, 3, 1]]), s[[0, 2, 1], [1, 3, 1]])
    assert t[0, 1] == s[0, 1] == 3.0


@pytest.mark.parametrize("key", [([7], slice(None)), (slice(None), [0, 5]), ([-7], 0),
                                 (numpy.array([True, False]), slice(None)),
                                 ([0, 1], [0, 1, 2])])
def test_bad_index_arrays_raise_indexerror_as_scipy(key):
    t, s = sample(6, 5, seed=22)
    with pytest.raises(IndexError):
        t[key]
    with pytest.raises(IndexError):
        s[key]


def test_getrow_getcol_are_row_and_column_slices():
    t, s = sample(6, 5, seed=23)
    m, ms = tsparse.csr_matrix(t), scipy_sparse.csr_matrix(s)
    numpy.testing.assert_array_equal(host(m.getcol(2).toarray()), ms.getcol(2).toarray())
    numpy.testing.assert_array_equal(host(m.getrow(-1).toarray()), ms.getrow(-1).toarray())
    assert m.getcol(2).shape == (6, 1)


# construction functions

@pytest.mark.parametrize("fmt", [None, "csr", "csc", "coo", "dia"])
def test_eye_identity_diags(fmt):
    same(tsparse.eye(4, 5, k=1, format=fmt), scipy_sparse.eye(4, 5, k=1, format=fmt))
    same(tsparse.eye_array(5, k=-2, dtype="int32", format=fmt), scipy_sparse.eye_array(5, k=-2, dtype="int32", format=fmt))
    same(tsparse.identity(3, format=fmt), scipy_sparse.identity(3, format=fmt))
    d = [numpy.arange(1.0, 5.0), numpy.arange(1.0, 4.0)]
    same(tsparse.diags_array([tnp.asarray(x) for x in d], offsets=[0, -1], format=fmt),
         scipy_sparse.diags_array(d, offsets=[0, -1], format=fmt))
    same(tsparse.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(5, 5), format=fmt),
         scipy_sparse.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(5, 5), format=fmt))
    data = numpy.arange(12.0).reshape(3, 4) + 1
    same(tsparse.spdiags(tnp.asarray(data), [0, -1, 2], 4, 4, format=fmt),
         scipy_sparse.spdiags(data, [0, -1, 2], 4, 4, format=fmt))
    with pytest.raises(ValueError):
        tsparse.diags_array([tnp.ones(2), tnp.ones(2)], offsets=[0])
    with pytest.raises(ValueError):
        scipy_sparse.diags_array([numpy.ones(2), numpy.ones(2)], offsets=[0])


@pytest.mark.parametrize("density", [0.0, 0.01, 0.3, 0.9, 1.0])
def test_random_structure(density):
    m, n = 60, 50
    t = tsparse.random_array((m, n), density=density, format="csr", rng=42)
    s = scipy_sparse.random_array((m, n), density=density, format="csr", rng=42)
    assert t.shape == s.shape and t.dtype == s.dtype and t.format == "csr"
    assert t.nnz == s.nnz == round(density * m * n)
    assert t.has_canonical_format
    if t.nnz:
        v = host(t.data)
        assert v.min() >= 0.0 and v.max() < 1.0
    again = tsparse.random_array((m, n), density=density, format="csr", rng=42)
    numpy.testing.assert_array_equal(host(again.toarray()), host(t.toarray()))
    other = tsparse.random(m, n, density=0.5, format="coo", rng=1)
    assert other.format == "coo" and not other._is_array
    with pytest.raises(ValueError):
        tsparse.random_array((3, 3), density=1.5)
    with pytest.raises(ValueError):
        scipy_sparse.random_array((3, 3), density=1.5)


def test_random_statistics():
    t = tsparse.random_array((400, 300), density=0.05, format="csr", dtype="float64", rng=7)
    v = host(t.data)
    assert abs(v.mean() - 0.5) < 0.03
    rows = numpy.diff(host(t.indptr))
    assert abs(rows.mean() - 15) < 1e-9  # 0.05 * 300 on average: exact by the count
    assert rows.std() < 8


def test_stacking_and_triangles():
    a, sa = sample(4, 3, seed=20)
    b, sb = sample(4, 2, seed=21)
    c, sc = sample(2, 3, seed=22)
    same(tsparse.hstack([a, b], format="csr"), scipy_sparse.hstack([sa, sb], format="csr"))
    same(tsparse.vstack([a, c], format="csr"), scipy_sparse.vstack([sa, sc], format="csr"))
    same(tsparse.block_diag([a, b, c], format="csr"), scipy_sparse.block_diag([sa, sb, sc], format="csr"))
    same(tsparse.kron(a, c, format="csr"), scipy_sparse.kron(sa, sc, format="csr"))
    same(tsparse.tril(a, format="csr"), scipy_sparse.tril(sa, format="csr"))
    same(tsparse.triu(a, k=1, format="csr"), scipy_sparse.triu(sa, k=1, format="csr"))
    with pytest.raises(ValueError):
        tsparse.hstack([a, c])
    with pytest.raises(ValueError):
        scipy_sparse.hstack([sa, sc])


def test_dia():
    data = numpy.arange(12.0).reshape(3, 4) + 1
    s = scipy_sparse.dia_array((data, [0, -1, 1]), shape=(4, 4))
    t = tsparse.dia_array((tnp.asarray(data), tnp.asarray([0, -1, 1])), shape=(4, 4))
    same(t, s)
    assert t.nnz == s.nnz
    same(t.tocsr(), s.tocsr())
    same(t @ tnp.ones(4), s @ numpy.ones(4))


def test_save_load_npz_and_matrix_market(tmp_path):
    t, s = sample(7, 6, seed=23)
    for obj in (t, tsparse.csc_array(t), t.tocoo(), tsparse.csr_matrix(t)):
        path = tmp_path / f"{obj.format}.npz"
        tsparse.save_npz(path, obj)
        back = tsparse.load_npz(path)
        assert back.format == obj.format and back._is_array == obj._is_array
        numpy.testing.assert_array_equal(host(back.toarray()), host(obj.toarray()))
        scipy_back = scipy_sparse.load_npz(path)
        numpy.testing.assert_array_equal(scipy_back.toarray(), host(obj.toarray()))
    scipy_sparse.save_npz(tmp_path / "scipy.npz", s)
    numpy.testing.assert_array_equal(host(tsparse.load_npz(tmp_path / "scipy.npz").toarray()), s.toarray())
    import scipy.io

    tsparse.mmwrite(tmp_path / "a.mtx", t)
    numpy.testing.assert_array_equal(scipy.io.mmread(tmp_path / "a.mtx").toarray(), s.toarray())
    scipy.io.mmwrite(tmp_path / "b.mtx", s, symmetry="general")
    numpy.testing.assert_array_equal(host(tsparse.mmread(tmp_path / "b.mtx").toarray()), s.toarray())


# linalg

def test_norm():
    t, s = sample(9, 8, seed=24)
    for ord in (None, "fro", 1, -1, numpy.inf, -numpy.inf):
        assert float(tlinalg.norm(t, ord)) == pytest.approx(scipy_linalg.norm(s, ord), rel=1e-12)
    for axis in (0, 1):
        for ord in (None, 1, numpy.inf):
            same(tlinalg.norm(t, ord, axis=axis), scipy_linalg.norm(s, ord, axis=axis), rtol=1e-12)
    with pytest.raises(TypeError):
        tlinalg.norm(tnp.ones((2, 2)))
    with pytest.raises(TypeError):
        scipy_linalg.norm(numpy.ones((2, 2)))


def test_cg_on_poisson():
    t = poisson(12)
    s = t.to_scipy()
    b = numpy.linspace(0.0, 1.0, t.shape[0])
    seen = []
    x, info = tlinalg.cg(t, tnp.asarray(b), rtol=1e-10, callback=lambda xk: seen.append(1))
    sx, sinfo = scipy_linalg.cg(s, b, rtol=1e-10)
    assert info == sinfo == 0
    numpy.testing.assert_allclose(host(x), sx, rtol=1e-8, atol=1e-10)
    assert len(seen) > 5
    x, info = tlinalg.cg(t, tnp.asarray(b), rtol=1e-10, maxiter=3)
    assert info == 3
    with pytest.raises(ValueError):
        tlinalg.cg(t, tnp.ones(5))
    with pytest.raises(ValueError):
        scipy_linalg.cg(s, numpy.ones(5))


@pytest.mark.parametrize("which", ["LM", "SA", "LA"])
def test_eigsh_on_poisson(which):
    t = poisson(10)
    s = t.to_scipy()
    vals, vecs = tlinalg.eigsh(t, k=4, which=which)
    svals = scipy_linalg.eigsh(s, k=4, which=which, return_eigenvectors=False)
    numpy.testing.assert_allclose(numpy.sort(host(vals)), numpy.sort(svals), rtol=1e-9)
    V = host(vecs)
    A = s.toarray()
    numpy.testing.assert_allclose(A @ V, V * host(vals), atol=1e-7)
    with pytest.raises(ValueError):
        tlinalg.eigsh(t, k=100, which="XX")


@pytest.mark.parametrize("solver", ["gmres", "bicgstab", "minres"])
def test_krylov_solvers(solver):
    t = poisson(8) + 0.5 * tsparse.eye_array(64, k=1)
    if solver == "minres":
        t = poisson(8) - 3.0 * tsparse.eye_array(64)  # symmetric indefinite
    s = t.to_scipy()
    b = numpy.cos(numpy.arange(64.0))
    x, info = getattr(tlinalg, solver)(t, tnp.asarray(b), rtol=1e-10)
    sx, sinfo = getattr(scipy_linalg, solver)(s, b, rtol=1e-10)
    assert info == sinfo == 0
    numpy.testing.assert_allclose(host(x), sx, rtol=1e-6, atol=1e-8)
    assert numpy.linalg.norm(s @ host(x) - b) <= 1e-9 * numpy.linalg.norm(b) * 10


def test_spsolve_and_linear_operators():
    t = poisson(6) + 0.25 * tsparse.eye_array(36, k=2)
    s = t.to_scipy()
    b = numpy.arange(36.0)
    numpy.testing.assert_allclose(host(tlinalg.spsolve(t, tnp.asarray(b))), scipy_linalg.spsolve(s.tocsc(), b),
                                  rtol=1e-9)
    op = tlinalg.aslinearoperator(t)
    sop = scipy_linalg.aslinearoperator(s)
    assert op.shape == sop.shape and op.dtype == sop.dtype
    same(op.matvec(tnp.asarray(b)), sop.matvec(b))
    same(op @ tnp.asarray(b), sop @ b)
    p = poisson(6)
    custom = tlinalg.LinearOperator((36, 36), matvec=lambda v: p @ v, dtype="float64")
    x, info = tlinalg.cg(custom, tnp.asarray(b), rtol=1e-10)
    assert info == 0
    numpy.testing.assert_allclose(p.to_scipy() @ host(x), b, rtol=1e-8, atol=1e-8)
    with pytest.raises(ValueError):
        op.matvec(tnp.ones(3))
    with pytest.raises(ValueError):
        sop.matvec(numpy.ones(3))


# the talk's program

def program(sparse_random, eye, np, n, iters, A, x):
    """The power iteration of examples/python/power_iteration.py from a given A and x."""
    A = 0.5 * (A + A.T) + n * eye(n)
    for _ in range(iters):
        x = A @ x
        x /= np.linalg.norm(x)
    return np.dot(x.T, A @ x)


def test_power_iteration_matches_scipy():
    n, iters = 300, 25
    A = tsparse.random(n, n, format="csr", rng=99)
    x = tnp.random.default_rng(5).random(n)
    got = program(tsparse.random, tsparse.eye, tnp, n, iters, A, x)
    want = program(scipy_sparse.random, scipy_sparse.eye, numpy, n, iters, A.to_scipy(), host(x))
    assert float(got) == pytest.approx(float(want), rel=1e-10)


def test_power_iteration_example():
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "power_iteration.py"
    spec = importlib.util.spec_from_file_location("power_iteration", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = float(module.program(tnp, tsparse, 200, 10))
    assert 200.0 <= result <= 200.0 + 200.0 * 0.01 * 200 * 2
