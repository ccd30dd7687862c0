"""Tensor contractions: einsum (string and interleaved forms, implicit and explicit output,
ellipses, diagonals, summed indices, every `optimize`, dtype=, casting=, out=, order=),
einsum_path, tensordot, kron, and dot/inner/outer/vdot of N-D arrays match NumPy in values,
dtypes, shapes and exception types, over dtypes, 0-d and empty operands and strided views.

tessera adds in another order than NumPy (its contractions are BLAS products and pairwise
sums along a path), so float64 results are compared with rtol 1e-12 (and float32 with 1e-5);
the small-integer data of the dtype sweeps make every product and sum exact, and integer
results are compared exactly (they wrap as NumPy's do, whatever the order)."""

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tessera.numpy as np
from parity import ALL_DTYPES, check, ids, sample

pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively

RTOL = 1e-12  # float64: the order of the additions differs from NumPy's

OPTIMIZE = [False, True, "greedy", "optimal"]

# (subscripts, operand shapes)
CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl,lm->mi", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 2), (3, 2, 4, 2), (3, 4), (2, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 5)]),
    ("abcd,cdef->abef", [(2, 3, 4, 2), (4, 2, 3, 2)]),
    ("ijk,jil->kl", [(3, 4, 2), (4, 3, 5)]),
    ("i,i", [(7,), (7,)]),
    ("i,i->i", [(7,), (7,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("j,ij->i", [(4,), (3, 4)]),
    ("ij,i->j", [(3, 4), (3,)]),
    ("ij,kl->", [(2, 3), (4, 5)]),
    ("ij,kl->ik", [(2, 3), (4, 5)]),
    ("ij->", [(3, 4)]),
    ("ij->i", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ijk->kj", [(2, 3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ii->", [(4, 4)]),
    ("iii->i", [(3, 3, 3)]),
    ("iij->ji", [(3, 3, 2)]),
    ("iji->j", [(3, 2, 3)]),
    ("ijij->ij", [(2, 3, 2, 3)]),
    ("ii,jj->ij", [(3, 3), (2, 2)]),
    ("ii,ij->j", [(3, 3), (3, 4)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    ("ij,ji->", [(3, 4), (4, 3)]),
    ("ij,ji->i", [(3, 4), (4, 3)]),
    ("...", [(2, 3)]),
    ("...->", [(2, 3)]),
    ("i...->...", [(3, 2, 4)]),
    ("...i->...", [(2, 4, 3)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (3, 4, 5)]),
    ("...ij,...jk", [(2, 3, 4), (2, 4, 5)]),
    ("ij...,jk...->ik...", [(3, 4, 2), (4, 5, 2)]),
    ("...,...", [(3, 2), (2,)]),
    ("...,...->...", [(3, 1), (1, 4)]),
    ("i...,i...->...", [(3, 2), (3, 2)]),
    ("i,...->i...", [(3,), (2, 2)]),
    ("ij,jk", [(2, 1), (3, 4)]),  # a length-1 label broadcast against another operand's
    ("ij,jk->ik", [(2, 3), (1, 4)]),
    ("ij,ij->ij", [(1, 3), (4, 1)]),
    ("bij,bjk->bik", [(1, 3, 4), (2, 4, 5)]),
    (",", [(), ()]),
    ("", [()]),
    ("->", [()]),
    (",i->i", [(), (4,)]),
    ("i,->i", [(4,), ()]),
    ("i,i", [(0,), (0,)]),
    ("ij,jk->ik", [(3, 0), (0, 4)]),
    ("ij,jk->ik", [(0, 3), (3, 4)]),
    ("ij->i", [(0, 3)]),
    ("ii->i", [(0, 0)]),
    ("ij,jk,kl->il", [(2, 3), (3, 0), (0, 5)]),
    ("Ab,bC->AC", [(2, 3), (3, 2)]),
    (" ij , jk -> ik ", [(3, 4), (4, 5)]),
]


def float_data(shape, seed):
    return numpy.random.default_rng(seed).normal(size=shape)


def operands(shapes, dtype=None):
    if dtype is None:
        return [float_data(s, n) for n, s in enumerate(shapes)]
    return [sample(dtype, s, "pm", seed=n) for n, s in enumerate(shapes)]


@pytest.mark.parametrize("optimize", OPTIMIZE, ids=ids)
@pytest.mark.parametrize("subscripts,shapes", CASES, ids=ids)
def test_einsum_subscripts(subscripts, shapes, optimize):
    check(lambda xp, *ops: xp.einsum(subscripts, *ops, optimize=optimize), *operands(shapes), rtol=RTOL)


DTYPE_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("i,i", [(9,), (9,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->j", [(3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("...i,...i->...", [(2, 3), (3,)]),
]


@pytest.mark.parametrize("optimize", [False, True], ids=ids)
@pytest.mark.parametrize("subscripts,shapes", DTYPE_CASES, ids=ids)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_einsum_dtypes(dtype, subscripts, shapes, optimize):
    """Integer einsum stays integer, bool stays bool (or of ands), float16 stays float16."""
    check(lambda xp, *ops: xp.einsum(subscripts, *ops, optimize=optimize), *operands(shapes, dtype))


def test_einsum_integer_wraps():
    """int8 products and sums wrap around as NumPy's do."""
    a = numpy.full((3, 60), 7, numpy.int8)
    check(lambda xp, a: xp.einsum("ij,kj->ik", a, a), a)
    check(lambda xp, a: xp.einsum("ij->i", a), a)


@pytest.mark.parametrize("dtypes", [("int8", "float32"), ("int64", "float64"), ("float32", "complex64"),
                                    ("bool", "int16"), ("uint8", "int8"), ("float16", "float32")], ids=ids)
def test_einsum_mixed_dtypes(dtypes):
    a, b = (sample(d, s, "pm", seed=n) for n, (d, s) in enumerate(zip(dtypes, [(3, 4), (4, 2)])))
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b), a, b)
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b, optimize=True), a, b)


VIEWS = [
    lambda a, b: (a[::2, 1:], b[1:, :]),
    lambda a, b: (a.T, b.T),
    lambda a, b: (a[::-1, ::2], b[::-2, :]),
    lambda a, b: (a[:, None, :][:, 0, :], b[..., ::-1]),
]


@pytest.mark.parametrize("view", range(len(VIEWS)))
@pytest.mark.parametrize("subscripts", ["ij,kl->il", "ij,jl->il", "ij,ij->i", "ii,kl->k"])
def test_einsum_strided_views(view, subscripts):
    def fn(xp, a, b):
        x, y = VIEWS[view](a, b)
        if subscripts == "ij,jl->il" and x.shape[1] != y.shape[0]:
            y = y[:x.shape[1]] if y.shape[0] > x.shape[1] else y
        if subscripts == "ij,ij->i":
            y = x[::-1]
        if subscripts == "ii,kl->k":
            x = x[:min(x.shape), :min(x.shape)]
        return xp.einsum(subscripts, x, y)
    check(fn, float_data((6, 7), 0), float_data((7, 6), 1), rtol=RTOL)


@st.composite
def contractions(draw):
    """(subscripts, shapes): 1 to 4 operands over the letters a-e with lengths 0 to 3 (a
    letter may have length 1 in some operands), repeated letters, implicit or explicit output."""
    sizes = {c: draw(st.integers(0, 3)) for c in "abcde"}
    terms = [draw(st.text("abcde", min_size=0, max_size=4)) for _ in range(draw(st.integers(1, 4)))]
    shapes = [tuple(sizes[c] if draw(st.integers(0, 4)) else min(1, sizes[c]) for c in term) for term in terms]
    subscripts = ",".join(terms)
    if draw(st.booleans()):
        letters = sorted(set(subscripts) - {","})
        subscripts += "->" + "".join(draw(st.permutations(letters))[:draw(st.integers(0, len(letters)))])
    return subscripts, shapes


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=contractions(), optimize=st.sampled_from([False, True, "optimal"]),
       dtype=st.sampled_from([None] + ALL_DTYPES))
def test_einsum_random_contractions(case, optimize, dtype):
    subscripts, shapes = case
    check(lambda xp, *ops: xp.einsum(subscripts, *ops, optimize=optimize), *operands(shapes, dtype), rtol=RTOL)


INTERLEAVED = [
    ((0, 1), (1, 2), (0, 2)),
    ((0, 1), (1, 2), None),
    ((0, 1), (1, 2), ()),
    ((0, 0), None, (0,)),
    ((0, 0), None, None),
    ((Ellipsis, 0, 1), (Ellipsis, 1, 2), (Ellipsis, 0, 2)),
    ((Ellipsis, 0, 1), (1, 2), None),
    ((51, 26), (26, 0), (0, 51)),
    ((0, 1), (0, 1), (1, 0)),
]


@pytest.mark.parametrize("optimize", [False, True], ids=ids)
@pytest.mark.parametrize("first,second,output", INTERLEAVED, ids=ids)
def test_einsum_interleaved(first, second, output, optimize):
    shapes = {0: 3, 1: 4, 2: 5, 26: 2, 51: 3}

    def shape(sub, batch):
        return (batch if s is Ellipsis else shapes[s] for s in sub)

    a = float_data((2, *shape(first, 2))[first[0] is not Ellipsis:], 0)
    args = [a, list(first)]
    if second is not None:
        args += [float_data((2, *shape(second, 2))[second[0] is not Ellipsis:], 1), list(second)]
    if output is not None:
        args.append(list(output))

    def fn(xp, *arrays):
        it = iter(arrays)
        return xp.einsum(*[next(it) if isinstance(x, numpy.ndarray) else x for x in args], optimize=optimize)
    check(fn, *[x for x in args if isinstance(x, numpy.ndarray)], rtol=RTOL)


PATHS = [
    ["einsum_path", (0, 1), (0, 1)],
    ["einsum_path", (1, 2), (0, 1)],
    ["einsum_path", (0, 2), (0, 1)],
    ["einsum_path", (0, 1, 2)],
    ["einsum_path", (2,), (0, 1), (0, 1)],
    ["einsum_path", (0, 1)],  # incomplete: RuntimeError
    ("greedy", 10),
    ("optimal", 1000),
    "bogus",
    [(0, 1), (0, 1)],
    3,
]


@pytest.mark.parametrize("path", PATHS, ids=ids)
def test_einsum_explicit_path(path):
    ops = operands([(2, 3), (3, 4), (4, 5)])
    check(lambda xp, *ops: xp.einsum("ij,jk,kl->il", *ops, optimize=path), *ops, rtol=RTOL)
    check(lambda xp, *ops: xp.einsum_path("ij,jk,kl->il", *ops, optimize=path), *ops)


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"], ids=ids)
@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 2), (3, 2, 4, 2), (3, 4), (2, 2)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("ii->i", [(3, 3)]),
    ("i,i", [(4,), (4,)]),
    ("ij,ij,ij->", [(40, 30), (40, 30), (40, 30)]),
    ("ab,bc,cd,de,ef->af", [(2, 30), (30, 3), (3, 40), (40, 2), (2, 5)]),
], ids=ids)
def test_einsum_path(subscripts, shapes, optimize):
    """The path and NumPy's report of it (both depend on the shapes only)."""
    ops = operands(shapes)
    check(lambda xp, *ops: xp.einsum_path(subscripts, *ops, optimize=optimize), *ops)
    check(lambda xp, *ops: xp.einsum(subscripts, *ops, optimize=optimize), *ops, rtol=RTOL)


def test_einsum_path_interleaved():
    ops = operands([(2, 3), (3, 4), (4, 5)])
    check(lambda xp, a, b, c: xp.einsum_path(a, [0, 1], b, [1, 2], c, [2, 3], [0, 3]), *ops)


@pytest.mark.parametrize("kwargs", [
    {"dtype": "float32", "casting": "same_kind"},
    {"dtype": "float32"},  # a float64 operand cannot be cast 'safe'ly: TypeError
    {"dtype": "int32", "casting": "unsafe"},
    {"dtype": "complex128"},
    {"dtype": "float64", "casting": "no"},
    {"dtype": "float32", "casting": "no"},
    {"casting": "equiv"},
    {"casting": "bogus"},
    {"order": "C"},
    {"order": "F"},
    {"order": "X"},
    {"foo": 1},
], ids=ids)
@pytest.mark.parametrize("optimize", [False, True], ids=ids)
def test_einsum_dtype_casting(kwargs, optimize):
    """dtype= and casting= as NumPy's einsum documents them (casting 'safe' by default).
    NumPy's optimized path runs a contraction of two operands as matmul or multiply, whose own
    default casting is 'same_kind', so there it lets float64 into float32 without casting=;
    tessera keeps einsum's rule under every `optimize`, and is compared with NumPy's einsum
    without optimize."""
    a, b = float_data((3, 4), 0) * 4, float_data((4, 2), 1) * 4
    check(lambda xp, a, b: xp.einsum("ij,jk->ik", a, b, optimize=optimize if xp is np else False, **kwargs),
          a, b, rtol=1e-5)
    check(lambda xp, a: xp.einsum("ij->i", a, optimize=optimize, **kwargs), a, rtol=1e-5)


def test_einsum_casting_mixed_inputs():
    a, b = float_data((3, 4), 0), float_data((4, 2), 1).astype(numpy.float32)
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b, casting="no"), a, b)
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b, casting="equiv"), a, b)
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b, casting="safe"), a, b, rtol=1e-6)


@pytest.mark.parametrize("optimize", [False, True], ids=ids)
@pytest.mark.parametrize("out,kwargs", [
    (("float64", (3, 2)), {}),
    (("float32", (3, 2)), {}),  # float64 result into float32 under 'safe': TypeError
    (("float32", (3, 2)), {"casting": "same_kind"}),
    (("int64", (3, 2)), {"casting": "unsafe"}),
    (("complex128", (3, 2)), {}),
    (("float64", (2, 3)), {}),  # wrong shape: ValueError
    (("float64", (3, 2, 1)), {}),
    (("float64", (3, 2)), {"dtype": "float32", "casting": "same_kind"}),
    ("list", {}),  # not an array: TypeError
], ids=ids)
def test_einsum_out(out, kwargs, optimize):
    """out= (cast under `casting`): compared with NumPy's einsum without optimize, whose
    optimized path uses matmul's 'same_kind' default (see test_einsum_dtype_casting)."""
    a, b = float_data((3, 4), 0) * 4, float_data((4, 2), 1) * 4

    def fn(xp, a, b):
        target = [[0.0] * 2] * 3 if out == "list" else xp.zeros(out[1], out[0])
        result = xp.einsum("ij,jk->ik", a, b, out=target, optimize=optimize if xp is np else False, **kwargs)
        assert result is target
        return target
    check(fn, a, b, rtol=1e-5)


def test_einsum_out_scalar_and_view():
    a = float_data((4, 4), 0)

    def scalar(xp, a):
        target = xp.zeros(())
        assert xp.einsum("ij,ij->", a, a, out=target) is target
        return target

    def strided(xp, a):
        target = xp.zeros((4, 8))
        xp.einsum("ii->i", a, out=target[1, ::2])
        xp.einsum("ij->ji", a, out=target[:, 4:])
        return target
    check(scalar, a, rtol=RTOL)
    check(strided, a)


@pytest.mark.parametrize("subscripts,index", [("ii->i", 2), ("ij->ji", (1, 2)), ("ijk->kij", (0, 1, 2)),
                                              ("iij->ji", (1, 2)), ("ij", (0, 1))], ids=ids)
def test_einsum_single_operand_view(subscripts, index):
    """A single operand with nothing summed gives a writeable view, as in NumPy."""
    shape = [4] * subscripts.split("->")[0].count("i") + [3] * ("j" in subscripts) + [2] * ("k" in subscripts)
    a = numpy.arange(numpy.prod(shape), dtype=float).reshape(shape)

    def fn(xp, a):
        v = xp.einsum(subscripts, a)
        v[index] = -1.0
        return a, v
    check(fn, a)


ERRORS = [
    ("ij,jk", [(2, 3), (2, 4)]),  # shape mismatch
    ("ij,jk->ik", [(2, 3), (4, 4)]),
    ("ii->i", [(2, 3)]),  # unequal diagonal
    ("ii->i", [(1, 3)]),
    ("ii,i->i", [(1, 3), (3,)]),
    ("ij->iji", [(2, 3)]),
    ("ij->k", [(2, 3)]),
    ("i$", [(3,)]),
    ("i.i", [(3,)]),
    ("i....", [(3,)]),
    ("i->->", [(3,)]),
    ("i-", [(3,)]),
    ("i>", [(3,)]),
    ("ij", [(3,)]),
    ("i", [()]),
    ("i", [(2, 3)]),
    ("i,i", [(3,)]),
    ("i,i,i", [(3,), (3,)]),
    ("...i->i", [(2, 3)]),
    ("i...->", [(3, 2)]),
    ("i...", [()]),
    ("...i,...i", [(2, 3), (4, 3)]),
]


@pytest.mark.parametrize("optimize", [False, True], ids=ids)
@pytest.mark.parametrize("subscripts,shapes", ERRORS, ids=ids)
def test_einsum_errors(subscripts, shapes, optimize):
    check(lambda xp, *ops: xp.einsum(subscripts, *ops, optimize=optimize), *operands(shapes))


@pytest.mark.parametrize("args", [
    [[-1]], [[52]], [[1.5]], [["a"]], [[0], [0, 0]], [[Ellipsis, Ellipsis]], [[0, 0]], [[26, 26], [26]],
], ids=ids)
def test_einsum_interleaved_errors(args):
    a = float_data((2, 2), 0)
    check(lambda xp, a: xp.einsum(a, *args), a)


def test_einsum_no_operands():
    check(lambda xp: xp.einsum("i"))
    check(lambda xp: xp.einsum())
    check(lambda xp, a: xp.einsum(a), float_data((3,), 0))
    check(lambda xp, a: xp.einsum(a, [0], a), float_data((3,), 0))
    check(lambda xp, a: xp.einsum(a, "i"), float_data((3,), 0))


def test_einsum_python_operands():
    check(lambda xp: xp.einsum("i,i", [1, 2, 3], [4, 5, 6]))
    check(lambda xp: xp.einsum(",", 3, 4.5))
    check(lambda xp: xp.einsum("i,->i", [1.0, 2.0], 3))
    check(lambda xp: xp.einsum([[1, 2], [3, 4]], [0, 1], [1, 0]))


def test_numpy_einsum_dispatches_natively():
    """numpy.einsum and numpy.einsum_path given tessera arrays run tessera's."""
    a, b = float_data((3, 4), 0), float_data((4, 5), 1)
    got = numpy.einsum("ij,jk", np.array(a), np.array(b))
    assert isinstance(got, np.ndarray)
    numpy.testing.assert_allclose(numpy.asarray(got), a @ b, rtol=RTOL)
    assert numpy.einsum_path("ij,jk", np.array(a), np.array(b)) == numpy.einsum_path("ij,jk", a, b)


TENSORDOT = [
    ((3, 4, 5), (4, 5, 2), 2),
    ((3, 4, 5), (5, 2), 1),
    ((3, 4), (5, 2), 0),
    ((3, 4), (4, 3), 2),
    ((3,), (3,), 1),
    ((), (3,), 0),
    ((3, 4, 5), (5, 4, 2), ([1, 2], [1, 0])),
    ((3, 4, 5), (5, 4, 2), ((2, 1), (0, 1))),
    ((3, 4, 5), (2, 3), (0, 1)),
    ((3, 4, 5), (2, 3), ([0], [1])),
    ((3, 4, 5), (5, 4, 2), ([-1, -2], [0, 1])),
    ((3, 4, 5), (5, 4, 2), ([], [])),
    ((3, 0, 5), (0, 5, 2), 2),
    ((3, 4), (4, 0), 1),
    ((3, 4), (4, 2), -1),
    ((3, 4), (5, 2), 1),  # shape mismatch
    ((3, 4), (4, 2), ([1], [0, 1])),
    ((3, 4), (4, 4), ([1, 1], [0, 1])),  # duplicate axes
    ((3, 4), (4, 4), ([1, -1], [0, 1])),
    ((3, 4), (4, 2), ([5], [0])),  # out of range: IndexError
    ((3, 4), (4, 2), 3),
]


@pytest.mark.parametrize("a_shape,b_shape,axes", TENSORDOT, ids=ids)
def test_tensordot(a_shape, b_shape, axes):
    check(lambda xp, a, b: xp.tensordot(a, b, axes), float_data(a_shape, 0), float_data(b_shape, 1), rtol=RTOL)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tensordot_dtypes(dtype):
    a, b = sample(dtype, (3, 4, 2), "pm", 0), sample(dtype, (2, 4, 5), "pm", 1)
    check(lambda xp, a, b: xp.tensordot(a, b, ([1, 2], [1, 0])), a, b)
    check(lambda xp, a, b: xp.tensordot(a, b), a[:2].transpose(2, 0, 1), b)


def test_tensordot_views():
    a, b = float_data((6, 5, 4), 0), float_data((4, 5, 3), 1)
    check(lambda xp, a, b: xp.tensordot(a[::2, ::-1], b[:, ::-1].T, ([1, 2], [1, 2])), a, b, rtol=RTOL)


KRON = [
    ((2, 3), (4, 5)),
    ((3,), (4,)),
    ((2, 3), (4,)),
    ((4,), (2, 3)),
    ((2, 1, 3), (4, 5)),
    ((), (3, 2)),
    ((3, 2), ()),
    ((), ()),
    ((0, 3), (2, 2)),
    ((2, 3), (0,)),
]


@pytest.mark.parametrize("a_shape,b_shape", KRON, ids=ids)
def test_kron(a_shape, b_shape):
    check(lambda xp, a, b: xp.kron(a, b), float_data(a_shape, 0), float_data(b_shape, 1))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_kron_dtypes(dtype):
    a, b = sample(dtype, (2, 3), "pm", 0), sample(dtype, (3, 2), "pm", 1)
    check(lambda xp, a, b: xp.kron(a, b), a, b)
    check(lambda xp, a, b: xp.kron(a[::-1], b.T), a, b)
    check(lambda xp, a: xp.kron(a, 3), a)


def test_kron_python_and_mixed():
    check(lambda xp: xp.kron([1, 2], [[1.5], [2.0]]))
    check(lambda xp, a, b: xp.kron(a, b), sample("int8", (2, 2), "pm"), sample("float32", (2,), "pm"))


PRODUCTS = [
    ("dot", (2, 3, 4), (5, 4, 2)),
    ("dot", (3, 4), (4,)),
    ("dot", (4,), (2, 4, 3)),
    ("dot", (), (2, 3)),
    ("inner", (2, 3, 4), (5, 4)),
    ("inner", (4,), (2, 3, 4)),
    ("inner", (), (2, 3)),
    ("outer", (2, 3), (4, 1, 2)),
    ("vdot", (2, 3, 4), (4, 6)),
    ("dot", (2, 3), (4, 2)),  # shape mismatch
    ("inner", (2, 3), (2, 4)),
    ("vdot", (2, 3), (5,)),
]


@pytest.mark.parametrize("name,a_shape,b_shape", PRODUCTS, ids=ids)
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex128"])
def test_nd_products(name, a_shape, b_shape, dtype):
    """dot, inner, outer and vdot of N-D arrays (all native)."""
    a, b = sample(dtype, a_shape, "pm", 0), sample(dtype, b_shape, "pm", 1)
    check(lambda xp, a, b: getattr(xp, name)(a, b), a, b)


@pytest.mark.parametrize("axes", [2, 1, 0, ([0, 1], [1, 0]), (1, 0)], ids=ids)
def test_linalg_tensordot(axes):
    """numpy.linalg.tensordot: the array API's spelling (axes keyword-only)."""
    a, b = float_data((3, 4), 0), float_data((4, 3), 1)
    check(lambda xp, a, b: xp.linalg.tensordot(a, b, axes=axes), a, b, rtol=RTOL)
    check(lambda xp, a, b: xp.linalg.tensordot(a, b, axes), a, b)  # TypeError: axes is keyword-only
