"""Functions composed from tessera's native operations (_shapes, _nanfuncs, _mathfuncs) match
NumPy 2: values (bit for bit where the arithmetic is NumPy's), dtypes, shapes, the exception
type and message, and NumPy's RuntimeWarnings. None of them falls back."""
import warnings

import numpy
import pytest

import tessera
import tessera.numpy as np
from tessera.numpy import _fallback

nan, inf = numpy.nan, numpy.inf
# Floating-point error warnings are NumPy's errstate machinery, which tessera does not have.
_FP_WARNINGS = ("invalid value", "divide by zero", "overflow", "underflow")


pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively


def _tessera_args(args):
    return [np.array(a) if isinstance(a, numpy.ndarray) else
            [np.array(x) if isinstance(x, numpy.ndarray) else x for x in a] if isinstance(a, list) else a
            for a in args]


def _run(fn, xp, args):
    """(result, exception, RuntimeWarning messages) of fn(xp, *args)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("error", tessera.FallbackWarning)
        try:
            result, error = fn(xp, *args), None
        except tessera.FallbackWarning:
            raise
        except Exception as exc:  # noqa: BLE001  NumPy's errors are mirrored
            result, error = None, exc
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)
                and not str(w.message).startswith(_FP_WARNINGS)]
    return result, error, messages


def _compare(got, want, exact, rtol, where="result"):
    if isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, exact, rtol, f"{where}[{i}]")
        return
    if want is None or (isinstance(want, (bool, int, float, complex)) and not isinstance(want, numpy.generic)):
        assert got == want, where
        return
    if isinstance(want, numpy.generic):  # tessera gives 0-d arrays where NumPy gives scalars
        assert isinstance(got, (np.ndarray, numpy.generic)) and numpy.ndim(got) == 0, f"{where}: {type(got)}"
    else:
        assert isinstance(got, np.ndarray), f"{where}: {type(got)}"
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (where, got.dtype, want.dtype, got.shape, want.shape)
    if exact or want.dtype.kind not in "fc":
        numpy.testing.assert_array_equal(got, want, strict=True, err_msg=where)
    else:
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg=where)


def same(fn, *args, exact=True, rtol=1e-15):
    """fn(numpy, *args) and fn(tessera.numpy, *tessera copies) agree: the results, or the
    exception type and message, and the RuntimeWarnings."""
    want, want_error, want_warnings = _run(fn, numpy, args)
    got, got_error, got_warnings = _run(fn, np, _tessera_args(args))
    if want_error is not None:
        assert type(got_error) is type(want_error), (got_error, want_error)
        assert str(got_error) == str(want_error)
    else:
        assert got_error is None, got_error
        _compare(got, want, exact, rtol)
    assert got_warnings == want_warnings
    return got


def rand(shape, dtype=numpy.float64, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind == "b":
        return rng.random(shape) < 0.5
    if numpy.dtype(dtype).kind in "iu":
        return rng.integers(0, 9, shape).astype(dtype)
    values = rng.uniform(-4, 4, shape)
    if numpy.dtype(dtype).kind == "c":
        values = values + 1j * rng.uniform(-4, 4, shape)
    return values.astype(dtype)


def with_nans(shape, dtype=numpy.float64, seed=0):
    a = rand(shape, dtype, seed)
    a[numpy.random.default_rng(seed + 1).random(shape) < 0.3] = nan
    return a


M = rand((4, 5))
CUBE = rand((3, 4, 5), numpy.int32)
V = rand((6,), numpy.int64)

SHAPE_CASES = {
    "flip": [(lambda xp, a: xp.flip(a), M), (lambda xp, a: xp.flip(a, 1), M), (lambda xp, a: xp.flip(a, (0, -1)), CUBE),
             (lambda xp, a: xp.flip(a), numpy.array(3.0)), (lambda xp, a: xp.flip(a, 3), CUBE),
             (lambda xp, a: xp.flip(a, (1, 1)), CUBE), (lambda xp, a: xp.flip(a, 0), numpy.zeros((0, 2)))],
    "fliplr": [(lambda xp, a: xp.fliplr(a), M), (lambda xp, a: xp.fliplr(a), CUBE), (lambda xp, a: xp.fliplr(a), V)],
    "flipud": [(lambda xp, a: xp.flipud(a), M), (lambda xp, a: xp.flipud(a), V),
               (lambda xp, a: xp.flipud(a), numpy.array(1))],
    "rot90": [(lambda xp, a, k: xp.rot90(a, k), M, k) for k in (-3, -1, 0, 1, 2, 3, 5)]
             + [(lambda xp, a: xp.rot90(a, 1, (2, 0)), CUBE), (lambda xp, a: xp.rot90(a, 3, (-1, 1)), CUBE),
                (lambda xp, a: xp.rot90(a, 1, (0, 0)), M), (lambda xp, a: xp.rot90(a, 1, (0, 2)), M),
                (lambda xp, a: xp.rot90(a, 1, (0, 1, 2)), CUBE), (lambda xp, a: xp.rot90(a, 1, (0, -2)), M)],
    "roll": [(lambda xp, a, s, ax: xp.roll(a, s, ax), CUBE, s, ax)
             for s, ax in [(2, None), (-7, None), (1, 0), (-1, -1), (13, 2), ((1, 2), (0, 2)), ((1, -1), 1),
                           (2, (0, 1)), (0, 1), (3, (1, 1)), ((1, 2, 3), (0, 1)), (1, 3)]]
            + [(lambda xp, a: xp.roll(a, 1), numpy.zeros((0, 3))), (lambda xp, a: xp.roll(a, 4), numpy.array(5))],
    "tile": [(lambda xp, a, r: xp.tile(a, r), a, r)
             for a, r in [(V, 2), (V, (2, 3)), (M, 2), (M, (1, 1)), (M, (2, 1, 3)), (CUBE, (2, 2)), (V, 0),
                          (numpy.array(7.5), (2, 2)), (numpy.zeros((0, 2)), 3), (M, ()), (V, -1)]]
            + [(lambda xp: xp.tile([1, 2], 2),)],
    "repeat": [(lambda xp, a, r, ax: xp.repeat(a, r, ax), a, r, ax)
               for a, r, ax in [(M, 2, None), (M, 3, 1), (M, 0, 0), (CUBE, 2, -1), (M, [1, 0, 2, 3], 0),
                                (M, numpy.array([2, 2, 0, 1, 1]), 1), (V, [3], None), (numpy.array(4), 3, None),
                                (M, [1, 2], 0), (M, -1, 0), (M, [1, -1, 1, 1], 0), (M, 2, 2), (M, 1.5, 0),
                                (numpy.zeros((0, 3)), [], 0), (CUBE, [0, 0, 0], 0),
                                (M, numpy.array([True, False, True, True]), 0),
                                (V, numpy.uint64(2), None), (V, numpy.array(2.0), None), (M, 2.7, 1)]],
    "tri": [(lambda xp, *args: xp.tri(*args), *args)
            for args in [(3,), (3, 5), (4, 2, -1), (3, 3, 5), (0,), (3, None, 1, int), (2, 4, -3, bool)]],
    "tril/triu": [(lambda xp, a, k, name: getattr(xp, name)(a, k), a, k, name)
                  for name in ("tril", "triu") for a, k in [(M, 0), (M, 2), (M, -1), (CUBE, 1), (V, 0),
                                                            (rand((3, 3), numpy.bool_), 0), (numpy.zeros((0, 4)), 1)]],
    "diagonal": [(lambda xp, a, *args: xp.diagonal(a, *args), a, *args)
                 for a, *args in [(M,), (M, 1), (M, -2), (M, 9), (M, -9), (CUBE, 0, 1, 2), (CUBE, 1, -1, 0),
                                  (CUBE, 0, 0, 0), (V,), (M, 0, 0, 2), (numpy.zeros((0, 3)),)]],
    "trace": [(lambda xp, a, *args, **kw: xp.trace(a, *args, **kw), a, *args)
              for a, *args in [(M,), (M, 1), (M, -3), (CUBE, 0, 2, 1), (CUBE, 0, 0, 2, numpy.float32), (V,),
                               (rand((3, 3), numpy.uint8),), (rand((3, 3), numpy.bool_),)]],
    "diag": [(lambda xp, a, k: xp.diag(a, k), a, k)
             for a, k in [(V, 0), (V, 2), (V, -3), (M, 0), (M, 1), (M, -2), (numpy.zeros(0), 1), (CUBE, 0),
                          (rand((3,), numpy.complex128), 1), (numpy.array(1.0), 0)]],
    "diagflat": [(lambda xp, a, k: xp.diagflat(a, k), a, k) for a, k in [(M, 0), (V, -1), (numpy.array([[1, 2]]), 2)]]
                + [(lambda xp: xp.diagflat([1, 2, 3], 1),)],
    "meshgrid": [(lambda xp, *xi, **kw: xp.meshgrid(*xi, **kw), *xi)
                 for xi in [(V,), (V, M[0]), (V, M[0], CUBE[0, 0])]]
                + [(lambda xp, a, b, c: xp.meshgrid(a, b, c, indexing="ij", sparse=True), V, M[0], CUBE[0, 0]),
                   (lambda xp, a, b: xp.meshgrid(a, b, indexing="ij", copy=False), V, M),
                   (lambda xp, a, b: xp.meshgrid(a, b, sparse=True), V, M[0]),
                   (lambda xp, a: xp.meshgrid(a, indexing="yx"), V), (lambda xp: xp.meshgrid(),)],
    "indices": [(lambda xp, *args, **kw: xp.indices(*args), *args)
                for args in [((2, 3),), ((3,),), ((2, 0, 4),), ((), ), ((2, 3), numpy.int8)]]
               + [(lambda xp: xp.indices((2, 3, 4), sparse=True),), (lambda xp: xp.indices((2, 3), float, True),)],
    "append": [(lambda xp, a, b, *ax: xp.append(a, b, *ax), a, b, *ax)
               for a, b, *ax in [(M, V), (M, M, 0), (M, M[:, :2], 1), (V, 3.5), (M, V, 0), (M, M, 2)]],
    "split": [(lambda xp, a, s, ax, name: getattr(xp, name)(a, s, ax), a, s, ax, name)
              for name in ("split", "array_split")
              for a, s, ax in [(V, 3, 0), (V, 4, 0), (M, [1, 3], 1), (M, [3, 1, 9], 0), (CUBE, 2, -1),
                               (CUBE, 5, 2), (V, 0, 0), (V, [], 0), (numpy.zeros((0, 2)), 2, 0)]],
    "h/v/dsplit": [(lambda xp, a, s, name: getattr(xp, name)(a, s), a, s, name)
                   for name in ("hsplit", "vsplit", "dsplit")
                   for a, s in [(V, 2), (M, [1]), (CUBE, [2, 3]), (numpy.array(1.0), 1), (M, 3)]],
    "unstack": [(lambda xp, a, ax: xp.unstack(a, axis=ax), a, ax) for a, ax in [(M, 0), (CUBE, -1), (V, 0),
                                                                               (numpy.array(2), 0), (M, 2)]],
    "resize": [(lambda xp, a, s: xp.resize(a, s), a, s)
               for a, s in [(V, (3, 5)), (M, 7), (M, (0, 3)), (numpy.zeros(0), (2, 2)), (M, (2, -1)), (V, ())]],
    "vander": [(lambda xp, a, *args: xp.vander(a, *args), a, *args)
               for a, *args in [(V,), (V, 3), (V, 0), (V, 1, True), (rand((5,)), None, True),
                                (rand((4,), numpy.float32), 6), (rand((3,), numpy.complex128),), (M,),
                                (rand((5,), numpy.bool_),), (rand((5,), numpy.uint8), 4)]],
    "trim_zeros": [(lambda xp, a, *args: xp.trim_zeros(a, *args), a, *args)
                   for a, *args in [(numpy.array([0, 0, 1, 2, 0, 3, 0]),), (numpy.array([0, 0, 1, 0]), "f"),
                                    (numpy.array([0, 1, 0, 0]), "B"), (numpy.zeros(4),), (numpy.zeros(0),),
                                    (numpy.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]]),),
                                    (numpy.array([[0, 0, 0], [0, 1, 2], [0, 0, 0]]), "fb", 0),
                                    (numpy.array([[0, 0, 0], [0, 1, 2], [0, 0, 0]]), "b", (-1,)),
                                    (numpy.array([[0, 0], [0, 0]]), "fb", 1), (V, "x"), (V, "fb", ()),
                                    ([0, 4, 0, 5, 0],), ((0, 0, 2),)]],
    "flatnonzero/argwhere": [(lambda xp, a, name: getattr(xp, name)(a), a, name)
                             for name in ("flatnonzero", "argwhere")
                             for a in [V - 4, M > 0, CUBE, numpy.array(0), numpy.array(2.0), numpy.zeros((0, 3))]],
}


def _choices(cases):
    return [pytest.param(case[0], case[1:], id=f"{name}-{i}") for name, items in cases.items()
            for i, case in enumerate(items)]


@pytest.mark.parametrize("fn,args", _choices(SHAPE_CASES))
def test_shapes_match_numpy(fn, args):
    complex_args = any(isinstance(a, numpy.ndarray) and a.dtype.kind == "c" for a in args)
    same(fn, *args, exact=not complex_args)  # complex products may differ in the last bit


@pytest.mark.parametrize("name,args", [("flip", (1,)), ("fliplr", ()), ("flipud", ()), ("rot90", ()),
                                       ("diagonal", (1,)), ("split", (2,)), ("array_split", (3,)),
                                       ("unstack", ())])
def test_views_share_memory(name, args):
    a = np.array(rand((4, 6)))
    result = getattr(np, name)(a, *args)
    views = result if isinstance(result, (list, tuple)) else [result]
    expected = getattr(numpy, name)(numpy.asarray(a), *args)
    expected = expected if isinstance(expected, (list, tuple)) else [expected]
    for view, want in zip(views, expected):
        assert view.flags.writeable == want.flags.writeable
        assert view.base is not None
    a[...] = -1.0
    assert all(numpy.all(numpy.asarray(v) == -1.0) for v in views)
    if name == "diagonal":
        with pytest.raises(ValueError):
            views[0][0] = 1.0


@pytest.mark.parametrize("shape,val,wrap", [((4, 4), 5.0, False), ((5, 3), [1, 2], False), ((7, 3), [1, 2], True),
                                            ((3, 6), numpy.arange(9), False), ((3, 3, 3), -1, False),
                                            ((2, 2), numpy.array([[7]]), True), ((1, 1), 3, False)])
def test_fill_diagonal_in_place(shape, val, wrap):
    want = rand(shape)
    got = np.array(want)
    assert np.fill_diagonal(got, np.array(val) if isinstance(val, numpy.ndarray) else val, wrap) is None
    numpy.fill_diagonal(want, val, wrap)
    _compare(got, want, True, 0)


def test_fill_diagonal_of_a_view_and_errors():
    for shape, view in [((4, 6), (slice(None), slice(None, None, 2))), ((9, 3), (slice(None, None, -1),)),
                        ((3, 8, 3), (slice(None), slice(None, None, 3), slice(None)))]:
        for wrap in (False, True):
            base = np.zeros(shape)
            np.fill_diagonal(base[view], numpy.array([1.0, 2.0]), wrap=wrap)
            want = numpy.zeros(shape)
            numpy.fill_diagonal(want[view], numpy.array([1.0, 2.0]), wrap=wrap)
            _compare(base, want, True, 0)
    same(lambda xp, a: xp.fill_diagonal(a, 1), V)
    same(lambda xp, a: xp.fill_diagonal(a, 1), CUBE[:, :3, :3].copy())
    same(lambda xp, a: xp.fill_diagonal(a, 1), numpy.zeros((3, 4, 3)))
    same(lambda xp, a: (a.setflags(write=False), xp.fill_diagonal(a, 1)), numpy.zeros((3, 3)))


def test_select_choose_extract():
    x = rand((3, 4))
    same(lambda xp, a: xp.select([a < -1, a > 1], [a * 2, 7]), x)
    same(lambda xp, a: xp.select([a < -1, a > 1], [1, 2], default=-1.5), x)
    same(lambda xp, a: xp.select([a < -1], [numpy.int8(3)], numpy.uint8(5)), x)
    same(lambda xp, a: xp.select([a[0] < 0, a > 1], [a[0], 2]), x)
    same(lambda xp, a: xp.select([a < 0, True], [1, 2]), x)
    same(lambda xp, a: xp.select([a < 0], [1, 2]), x)
    same(lambda xp, a: xp.select([], []), x)
    same(lambda xp, a: xp.select([a], [1]), x)
    same(lambda xp, a: xp.select([a < 0], ["a"]), x)
    idx = numpy.array([[0, 1, 2, 0], [2, 2, 1, 0], [1, 0, 0, 2]])
    for mode in ("raise", "wrap", "clip"):
        same(lambda xp, i, a: xp.choose(i, [a, -a, a * 2], mode=mode), idx, x)
        same(lambda xp, i, a: xp.choose(i - 1, [a[0], 5, a], mode=mode), idx, x)
    same(lambda xp, i, a: xp.choose(i, a), idx[0], rand((3, 4), numpy.int32))
    same(lambda xp, i, a: xp.choose(i, [a, 1, 300]), idx, rand((3, 4), numpy.int8))  # Python ints stay weak
    same(lambda xp, i, a: xp.choose(i, [a]), numpy.zeros((2, 4), int), x[0])
    same(lambda xp, i, a: xp.choose(i, [a, a]), idx.astype(float), x)
    same(lambda xp, i, a: xp.choose(i, []), idx, x)
    out = np.zeros((3, 4))
    assert np.choose(np.array(idx), [np.array(x), 1, 2], out=out) is out
    _compare(out, numpy.choose(idx, [x, 1, 2]), True, 0)
    same(lambda xp, c, a: xp.extract(c, a), x > 0, x)
    same(lambda xp, c, a: xp.extract(c, a), (x > 0).astype(int), x)
    same(lambda xp, c, a: xp.extract(c, a), numpy.zeros((0, 2)), numpy.zeros((2, 0)))


FALLBACKS = {
    "repeat": (lambda xp, a: xp.repeat(a, [[1, 2]], 0), M),
    "repeat ": (lambda xp, a: xp.repeat(a, [0, 0, 0, 0, 0, 9000]), V),
    "choose": (lambda xp, i, a: xp.choose(i, [a, a], mode="w"), numpy.array([0, 1]), V[:2]),
    "choose ": (lambda xp, i, a: xp.choose(i, [a, a], mode="bad"), numpy.array([0, 1]), V[:2]),
    "extract": (lambda xp, c, a: xp.extract(c, a), numpy.array([1, 0, 1]), V),
    "extract ": (lambda xp, c, a: xp.extract(c, a), numpy.array([1, 0, 1, 0, 0, 0, 1]), V),
    "select": (lambda xp, a: xp.select([a > 2], ["x"], "y"), V),
    "round": (lambda xp, a: xp.round(a, 1, out=xp.zeros(4, complex)), rand((4,), numpy.complex128)),
    "round ": (lambda xp, a: xp.round(a), rand((4,), numpy.bool_)),
    "nan_to_num": (lambda xp, a: xp.nan_to_num(numpy.array(a), copy=False), numpy.array([nan, inf, 1.0])),
}


@pytest.mark.fallback  # checks a fallback on purpose
@pytest.mark.parametrize("name", FALLBACKS)
def test_explicit_fallbacks(name):
    """Cases tessera does not compose run NumPy's implementation, with the FallbackWarning."""
    fn, *args = FALLBACKS[name]
    want, want_error, _ = _run(fn, numpy, args)
    _fallback._warned.discard("numpy." + name.strip())  # the warning comes once per function
    with pytest.warns(tessera.FallbackWarning):
        warnings.simplefilter("always", tessera.FallbackWarning)
        try:
            got = fn(np, *_tessera_args(args))
        except Exception as exc:  # noqa: BLE001
            assert type(exc) is type(want_error) and str(exc) == str(want_error)
            return
    assert want_error is None
    got = numpy.asarray(got)  # tessera holds no strings: NumPy's array comes back
    assert got.dtype == want.dtype and numpy.array_equal(got, want)


def test_spaces():
    for args, kwargs in [((0, 3), {}), ((1, 2, 5), {"base": 2.0}), ((0, 3, 4), {"endpoint": False, "dtype": int}),
                         ((numpy.array([0, 1]), 3, 4), {"axis": 1}), ((0, 2, 3), {"base": numpy.array([2.0, 3.0])}),
                         ((0, numpy.array([1.0, 2.0]), 3), {"base": numpy.array([[2.0], [3.0]]), "axis": -1}),
                         ((0, 2, 0), {}), ((2, 0, 1), {"dtype": numpy.float32})]:
        same(lambda xp: xp.logspace(*_tessera_args(args) if xp is np else args, **kwargs), exact=False, rtol=1e-14)
    for args, kwargs in [((1, 1000, 4), {}), ((-1, -1000, 4), {}), ((1, 256, 9), {"endpoint": False}),
                         ((1j, 1000j, 4), {}), ((1, 16, 5), {"dtype": int}), ((1, 10, 1), {}), ((1, 10, 0), {}),
                         ((numpy.array([1.0, 2.0]), numpy.array([10.0, 20.0]), 3), {"axis": 1}),
                         ((0, 10, 3), {}), ((1, numpy.array([0.0, 4.0]), 3), {})]:
        same(lambda xp: xp.geomspace(*_tessera_args(args) if xp is np else args, **kwargs), exact=False, rtol=1e-14)
    same(lambda xp: xp.broadcast_shapes((2, 1), (3,), ()))
    same(lambda xp: xp.broadcast_shapes((2,), (3,)))


NAN_DTYPES = [numpy.float64, numpy.float32, numpy.float16, numpy.int32, numpy.bool_, numpy.complex128]
NAN_AXES = [None, 0, 1, -1, (0, 1)]


def _nan_data(dtype):
    a = with_nans((6, 7), dtype) if numpy.dtype(dtype).kind in "fc" else rand((6, 7), dtype)
    if numpy.dtype(dtype).kind in "fc":
        a[2] = nan  # an all-NaN row
    return a


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmin", "nanmax", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", NAN_DTYPES)
@pytest.mark.parametrize("axis", NAN_AXES)
def test_nan_reductions(name, dtype, axis):
    a = _nan_data(dtype)
    if name == "nanprod":
        a = numpy.where(numpy.abs(a) > 2, a / 2, a).astype(dtype) if a.dtype.kind in "fc" else a % 2 + (a.dtype != bool)
    exact = name in ("nanmin", "nanmax") or a.dtype.kind not in "fc"
    rtol = 4e-3 if dtype == numpy.float16 else 1e-5 if dtype == numpy.float32 else 1e-12
    same(lambda xp, x: getattr(xp, name)(x, axis=axis), a, exact=exact, rtol=rtol)
    same(lambda xp, x: getattr(xp, name)(x, axis=axis, keepdims=True), a, exact=exact, rtol=rtol)


def test_nan_reduction_keywords():
    a = _nan_data(numpy.float64)
    b = _nan_data(numpy.float32)
    where = rand((6, 7), numpy.bool_, seed=3)
    close = {"exact": False, "rtol": 1e-12}
    same(lambda xp, x: xp.nansum(x, axis=1, dtype=numpy.float32, initial=2.0), a, exact=False, rtol=1e-6)
    same(lambda xp, x, w: xp.nansum(x, axis=0, where=w), a, where, **close)
    same(lambda xp, x, w: xp.nanprod(x, where=w, keepdims=True), a / 4, where, **close)
    same(lambda xp, x: xp.nanmax(x, axis=1, initial=1.0), a)
    same(lambda xp, x: xp.nanmin(x, axis=1, initial=nan), a)
    same(lambda xp, x, w: xp.nanmax(x, axis=0, where=w, initial=-10), a, where)
    same(lambda xp, x, w: xp.nanmin(x, axis=1, where=w), a, where)
    same(lambda xp, x: xp.nanmax(x), numpy.zeros((0, 3)))
    same(lambda xp, x: xp.nanmin(x, axis=0), numpy.zeros((0, 3)))
    same(lambda xp, x: xp.nanmin(x, axis=1), numpy.zeros((0, 3)))
    same(lambda xp, x: xp.nanmax(x), numpy.array(nan))
    same(lambda xp, x: xp.nanmin(x), numpy.array([inf, nan, -inf]))
    same(lambda xp, x: xp.nanmean(x, axis=1, dtype=numpy.float64), b, **close)
    same(lambda xp, x: xp.nanmean(x, dtype=int), a)
    same(lambda xp, x, w: xp.nanmean(x, axis=1, where=w), a, where, **close)
    same(lambda xp, x: xp.nanmean(x), numpy.zeros(0))
    same(lambda xp, x: xp.nanmean(x, axis=0), numpy.zeros((0, 2)))
    same(lambda xp, x: xp.nanvar(x, axis=0, ddof=1), a, **close)
    same(lambda xp, x: xp.nanvar(x, axis=1, correction=2), a, **close)
    same(lambda xp, x: xp.nanvar(x, ddof=1, correction=1), a)
    same(lambda xp, x: xp.nanvar(x, axis=1, ddof=6), a, **close)
    same(lambda xp, x: xp.nanvar(x, axis=0, dtype=numpy.float64), b, **close)
    same(lambda xp, x: xp.nanvar(x, dtype=numpy.int64), a)
    same(lambda xp, x, w: xp.nanvar(x, axis=1, where=w), a, where, **close)
    same(lambda xp, x: xp.nanstd(x, axis=1, ddof=1, keepdims=True), a, **close)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the all-NaN row
        mean = numpy.nanmean(a, axis=1, keepdims=True)
    same(lambda xp, x, m: xp.nanvar(x, axis=1, mean=m), a, mean, **close)
    same(lambda xp, x: xp.nanstd(x, axis=(0, 1)), numpy.zeros((0, 3)))
    same(lambda xp, x: xp.nanvar(x), numpy.arange(5))


@pytest.mark.parametrize("name", ["nanmax", "nanmin", "nansum", "nanmean", "nanvar", "nanstd"])
def test_nan_reduction_out(name):
    a = _nan_data(numpy.float64)
    want = getattr(numpy, name)(a, axis=0, out=numpy.zeros(7, numpy.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = np.zeros(7, np.float32)
        assert getattr(np, name)(np.array(a), axis=0, out=out) is out
    numpy.testing.assert_allclose(numpy.asarray(out), want, rtol=1e-6)
    if name in ("nanmean", "nanvar", "nanstd"):
        same(lambda xp, x, o: getattr(xp, name)(x, out=o), a, numpy.zeros((), int))


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
@pytest.mark.parametrize("dtype", NAN_DTYPES)
def test_nan_arg_reductions(name, dtype):
    a = _nan_data(dtype)
    for axis in (None, 0, 1, -1):
        same(lambda xp, x: getattr(xp, name)(x, axis=axis), a)
        same(lambda xp, x: getattr(xp, name)(x, axis=axis, keepdims=True), a)
        same(lambda xp, x: getattr(xp, name)(x[[0, 1, 3, 4]], axis=axis), a)
    same(lambda xp, x: getattr(xp, name)(x), numpy.zeros(0))
    same(lambda xp, x: getattr(xp, name)(x, axis=2), a)
    out = np.zeros(7, np.int64)
    assert getattr(np, name)(np.array(rand((2, 7), dtype)), axis=0, out=out) is out


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int16, numpy.uint8, numpy.bool_, numpy.complex64])
def test_ptp(dtype):
    a = rand((5, 6), dtype)
    for axis in (None, 0, -1, (0, 1)):
        same(lambda xp, x: xp.ptp(x, axis=axis), a)
        same(lambda xp, x: xp.ptp(x, axis=axis, keepdims=True), a)
    same(lambda xp, x: xp.ptp(x), numpy.zeros(0))
    same(lambda xp, x: xp.ptp(x), numpy.array([1.0, nan]))
    out = np.zeros(6, dtype)
    if dtype != numpy.bool_:
        assert np.ptp(np.array(a), axis=0, out=out) is out


def test_average():
    a = rand((4, 5))
    ints = rand((4, 5), numpy.int32)
    w = rand((4, 5), numpy.uint8, seed=1) + 1
    close = {"exact": False, "rtol": 1e-14}
    for x in (a, ints):
        same(lambda xp, x: xp.average(x), x, **close)
        same(lambda xp, x: xp.average(x, axis=1, returned=True), x, **close)
        same(lambda xp, x: xp.average(x, axis=(0, 1), keepdims=True, returned=True), x, **close)
        same(lambda xp, x, w: xp.average(x, weights=w), x, w, **close)
        same(lambda xp, x, w: xp.average(x, axis=0, weights=w[:, 0], returned=True), x, w, **close)
        same(lambda xp, x, w: xp.average(x, axis=-1, weights=w[0], keepdims=True, returned=True), x, w, **close)
        same(lambda xp, x, w: xp.average(x, axis=(1, 0), weights=w.T, returned=True), x, w, **close)
    same(lambda xp, x, w: xp.average(x, weights=w.astype(numpy.float32)), a.astype(numpy.float32), w, **close)
    same(lambda xp, x, w: xp.average(x, weights=w[0]), a, w)
    same(lambda xp, x, w: xp.average(x, axis=0, weights=w[0]), a, w)
    same(lambda xp, x, w: xp.average(x, axis=1, weights=w[0] * 0), a, w)
    same(lambda xp, x: xp.average(x, axis=2), a)
    same(lambda xp, x: xp.average(x, axis=(0, 0)), a)
    same(lambda xp, x: xp.average(x, axis=0), numpy.zeros((3, 0)))
    same(lambda xp, x: xp.average(x, axis=1, returned=True), numpy.zeros((3, 0)))


def test_ndarray_methods():
    a = rand((4, 5))
    same(lambda xp, x: x.round(2), a)
    same(lambda xp, x: x.repeat([1, 2, 0, 1, 3], axis=1), a)
    same(lambda xp, x: x.diagonal(1), a)
    same(lambda xp, x: x.trace(-1, dtype=numpy.float32), a)
    same(lambda xp, i, x: i.choose([x[0], x[1]]), numpy.array([1, 0, 1, 1, 0]), a)
    assert not hasattr(np.array(a), "ptp")  # removed in NumPy 2


FLOATS = [numpy.float64, numpy.float32, numpy.float16]


@pytest.mark.parametrize("dtype", FLOATS + [numpy.int64, numpy.int8, numpy.uint16])
@pytest.mark.parametrize("decimals", [-2, -1, 0, 1, 3])
def test_round(dtype, decimals):
    a = (rand((50,), numpy.float64) * 300).astype(dtype) if numpy.dtype(dtype).kind == "f" else \
        numpy.random.default_rng(2).integers(-120 if numpy.dtype(dtype).kind == "i" else 0, 120, 50).astype(dtype)
    if a.dtype.kind == "f":
        a[:4] = [2.5, -0.5, nan, -inf]
    same(lambda xp, x: xp.round(x, decimals), a)
    same(lambda xp, x: xp.around(x, decimals=decimals), a)
    out = np.zeros(50, np.float64)
    assert np.round(np.array(a), decimals, out=out) is out
    with numpy.errstate(over="ignore"):
        want = numpy.round(a, decimals, out=numpy.zeros(50))
    _compare(out, want, True, 0)
    same(lambda xp, x: xp.round(x, decimals, out=xp.zeros(50, numpy.int32)), a)


@pytest.mark.parametrize("decimals", [-1, 0, 2])
def test_round_complex(decimals):
    a = rand((30,), numpy.complex128) * 50
    a[:3] = [complex(2.5, -0.5), complex(nan, 1.25), complex(inf, -inf)]
    same(lambda xp, x: xp.round(x, decimals), a)
    same(lambda xp, x: xp.round(x, decimals), a.astype(numpy.complex64))
    same(lambda xp, x: x.round(decimals), a[0])


def test_round_returns_integers_themselves():
    a = np.arange(5)
    assert np.round(a) is a and np.around(a, 2) is a
    same(lambda xp, x: xp.round(x), numpy.array(2.5))
    same(lambda xp: xp.round([0.5, 1.5, 2.567], 1))


UFUNC_ARGS = [(numpy.float64, numpy.float64), (numpy.float32, numpy.float32), (numpy.float16, numpy.float16),
              (numpy.float32, numpy.float64), (numpy.int32, numpy.int32), (numpy.int8, numpy.uint8),
              (numpy.bool_, numpy.bool_), (numpy.float32, float), (numpy.int64, int), (numpy.complex128, numpy.float64)]


def _operand(dtype, seed):
    if dtype in (int, float):
        return dtype(2)
    a = rand((40,), dtype, seed)
    if numpy.dtype(dtype).kind == "f":
        a[:8] = [0.0, -0.0, inf, -inf, nan, 0.0, inf, 3.0] if seed == 0 else [0.0, 2.0, inf, inf, 1.0, nan, -inf, 3.0]
    return a


def _pair_id(dtypes):
    return "-".join(d.__name__ if d in (int, float) else str(numpy.dtype(d)) for d in dtypes)


@pytest.mark.parametrize("name", ["heaviside", "logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtypes", UFUNC_ARGS, ids=_pair_id)
def test_binary_ufuncs(name, dtypes):
    x, y = _operand(dtypes[0], 0), _operand(dtypes[1], 1)
    exact = name == "heaviside"
    rtol = 2e-3 if numpy.float16 in dtypes else 1e-6 if numpy.float32 in dtypes else 1e-14
    same(lambda xp, a, b: getattr(xp, name)(a, b), x, y, exact=exact, rtol=rtol)
    same(lambda xp, a: getattr(xp, name)(a, 0.5), x, exact=exact, rtol=rtol)


@pytest.mark.parametrize("dtype", FLOATS + [numpy.int8, numpy.int16, numpy.int64, numpy.uint8, numpy.bool_,
                                            numpy.complex64])
def test_fabs(dtype):
    a = _operand(dtype, 0)
    same(lambda xp, x: xp.fabs(x), a)
    same(lambda xp, x: xp.fabs(x[:3]), a)


def test_ufunc_interface():
    x, y = _operand(numpy.float64, 0), _operand(numpy.float64, 1)
    w = rand((40,), numpy.bool_)
    assert isinstance(np.fabs, np.ufunc) and np.logaddexp.nin == 2 and repr(np.heaviside) == "<ufunc 'heaviside'>"
    same(lambda xp, a, b: xp.heaviside(a, b, dtype=numpy.float32), x, y)
    same(lambda xp, a, b: xp.heaviside(a, b, dtype=numpy.int64), x, y)
    same(lambda xp, a: xp.fabs(a, out=xp.zeros(40, numpy.float32)), x)
    same(lambda xp, a: xp.fabs(a, out=xp.zeros(40, numpy.int32)), x)
    same(lambda xp, a: xp.fabs(a, out=xp.zeros(40, numpy.int32), casting="unsafe"), x)
    same(lambda xp, a, b, m: xp.logaddexp(a, b, out=xp.ones(40), where=m), x, y, w, exact=False)
    out = np.zeros(40)
    assert np.heaviside(np.array(x), 1.0, out) is out
    same(lambda xp, a, b: xp.heaviside(a, b), x, y[:3])
    tessera_arg = np.array(x)
    assert isinstance(numpy.fabs(tessera_arg), np.ndarray)  # __array_ufunc__ finds the native one
    same(lambda xp, a: xp.heaviside(a[:, None], a[None, :5]), x)
    same(lambda xp: xp.logaddexp(1.0, 2.0), exact=False)


@pytest.mark.parametrize("dtype", FLOATS + [numpy.complex128, numpy.complex64])
def test_nan_to_num(dtype):
    a = rand((20,), dtype)
    a[:5] = [nan, inf, -inf, -0.0, 1.0]
    if a.dtype.kind == "c":
        a[5:9] = [complex(1, nan), complex(inf, -inf), complex(nan, inf), complex(-inf, 2)]
    same(lambda xp, x: xp.nan_to_num(x), a)
    same(lambda xp, x: xp.nan_to_num(x, nan=-1, posinf=1e300, neginf=5), a)
    same(lambda xp, x: xp.nan_to_num(x[0]), a)
    for copy in (True, False):
        t = np.array(a)
        r = np.nan_to_num(t, copy=copy, nan=7.0)
        assert (r is t) == (not copy)
        assert numpy.array_equal(numpy.asarray(t), a if copy else numpy.nan_to_num(a, nan=7.0), equal_nan=True)
    same(lambda xp, x: xp.nan_to_num(x), rand((4,), numpy.int16))
    same(lambda xp: xp.nan_to_num([nan, 1.0]))
    ints = np.arange(3)
    assert np.nan_to_num(ints, copy=False) is ints and np.nan_to_num(ints) is not ints


@pytest.mark.parametrize("dtype", FLOATS + [numpy.int32, numpy.uint8, numpy.bool_])
def test_sinc(dtype):
    a = rand((30,), dtype)
    a[:3] = 0
    if a.dtype.kind == "f":
        a[3:6] = [inf, nan, 0.5]
    rtol = 2e-3 if dtype == numpy.float16 else 1e-6 if dtype == numpy.float32 else 1e-14
    same(lambda xp, x: xp.sinc(x), a, exact=False, rtol=rtol)


@pytest.mark.parametrize("dtype", FLOATS + [numpy.int32, numpy.bool_, numpy.complex128])
def test_infinity_and_complex_tests(dtype):
    a = _operand(dtype, 0)
    for name in ("isneginf", "isposinf", "isreal", "iscomplex"):
        same(lambda xp, x: getattr(xp, name)(x), a)
        same(lambda xp, x: getattr(xp, name)(x[0]), a)
    out = np.ones(40, bool)
    if dtype != numpy.complex128:
        assert np.isposinf(np.array(a), out) is out
    same(lambda xp, x: xp.real_if_close(x), a)
    same(lambda xp, x: xp.real_if_close(x + 1e-15j), a)
    same(lambda xp, x: xp.real_if_close(x + 1e-10j, tol=1e-9), a)
    same(lambda xp, x: xp.real_if_close(x + 1e-10j, tol=1e-11), a)
