"""In-place changes and aliasing, against NumPy bit for bit.

Each case changes an array in place (a method, a function that writes its argument, an
`out=` argument, a write through a view NumPy returns). It runs on NumPy and on tessera over
the same data, on the whole array and on views of a larger one (reversed, strided), on 0-d
and empty arrays where the case applies; afterwards the whole base array must be equal bit
for bit, results must agree, and where NumPy raises tessera raises the same type — with the
base array left as NumPy leaves it. Most of these functions run through tessera's NumPy
fallback, which must copy the changes back (before, they were silently lost).
"""

import warnings

import numpy
import pytest
from hypothesis import given, settings, strategies as st

from parity import SELFCHECK, public_exception_type, tnp

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# Layouts: (base length, view of the base). The case sees the view; the base is compared.
LAYOUTS = {
    "whole": (8, lambda b: b),
    "reversed": (12, lambda b: b[10:2:-1]),
    "strided": (17, lambda b: b[1::2]),
    "reversed_strided": (17, lambda b: b[::-2][:8]),
}
LAYOUTS_2D = {
    "whole": ((4, 4), lambda b: b),
    "transposed": ((4, 4), lambda b: b.T),
    "corner_of_larger": ((6, 7), lambda b: b[1:5, 2:6]),
    "reversed_strided": ((9, 6), lambda b: b[::-2, 1:5]),
}


def _base(xp, shape, dtype):
    n = int(numpy.prod(shape))
    values = (numpy.arange(n) * 7 % 11 - 3).astype(dtype).reshape(shape)  # distinct-ish, unsorted
    return xp.asarray(values.copy())


def _np(x):
    return numpy.asarray(x) if not SELFCHECK else x


def _same_bits(expected, actual, what):
    actual = _np(actual)
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert numpy.array_equal(actual.reshape(-1).view(numpy.uint8), expected.reshape(-1).view(numpy.uint8)), (
        f"{what}: tessera {actual!r} != numpy {expected!r}")


def _compare_results(expected, actual):
    if expected is None:
        assert actual is None, f"NumPy returned None, tessera {actual!r}"
    elif isinstance(expected, numpy.ndarray):
        _same_bits(expected, actual, "result")
    elif isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for e, a in zip(expected, actual):
            _compare_results(e, a)
    else:
        assert numpy.asarray(actual).tolist() == numpy.asarray(expected).tolist()


def run_case(case, shape, view, dtype):
    """Runs `case(xp, view_of_base)` on both modules; compares base arrays and results."""
    outcomes = []
    for xp in (numpy, tnp):
        base = _base(xp, shape, dtype)
        target = view(base)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = case(xp, target)
            outcomes.append((base, ("ok", result)))
        except Exception as exc:  # noqa: BLE001  compared below
            outcomes.append((base, ("raised", exc)))
    (np_base, (np_kind, np_value)), (t_base, (t_kind, t_value)) = outcomes
    if np_kind == "raised":
        assert t_kind == "raised", f"NumPy raised {np_value!r}; tessera returned {t_value!r}"
        assert public_exception_type(t_value) is public_exception_type(np_value), (
            f"NumPy raised {np_value!r}; tessera raised {t_value!r}")
        for text in ("std::", "nanobind", "incompatible function arguments"):
            assert text not in str(t_value)
    else:
        assert t_kind == "ok", f"tessera raised {t_value!r}; NumPy returned {np_value!r}"
        if not (isinstance(np_value, numpy.ndarray) and np_value.base is np_base):
            _compare_results(np_value, t_value)
    _same_bits(np_base, t_base, "base array after the call")


def _idx(*values):
    return numpy.array(values, dtype=numpy.intp)


# name -> case(xp, a) on a 1-D array of length 8 (dtype from the parametrisation).
CASES_1D = {
    "ndarray.sort": lambda xp, a: a.sort(),
    "ndarray.sort_stable_descending_view": lambda xp, a: a[::-1].sort(kind="stable"),
    "ndarray.partition": lambda xp, a: a.partition(3),
    "ndarray.put": lambda xp, a: a.put(_idx(0, 2, -1), [1, 2, 3]),
    "ndarray.put_clip": lambda xp, a: a.put(_idx(0, 99), [4, 5], mode="clip"),
    "ndarray.fill": lambda xp, a: a.fill(5),
    "ndarray.byteswap_inplace": lambda xp, a: a.byteswap(inplace=True) is a,
    "ndarray.byteswap_copy": lambda xp, a: a.byteswap(),
    "ndarray.setitem_slice": lambda xp, a: a.__setitem__(slice(1, 4), 9),
    "ndarray.iadd": lambda xp, a: a.__iadd__(1),
    "ndarray.view_write": lambda xp, a: a.view().__setitem__(0, 42),
    "ndarray.view_same_itemsize_write": lambda xp, a: a.view(
        {1: "u1", 2: "u2", 4: "u4", 8: "u8"}[a.itemsize]).__setitem__(1, 3),
    "ndarray.flat_set": lambda xp, a: setattr(a, "flat", [1, 2, 3]),
    "ndarray.flat_item_set": lambda xp, a: a.flat.__setitem__(2, 6),
    "ndarray.resize": lambda xp, a: a.resize(10, refcheck=False),
    "ndarray.shape_set": lambda xp, a: setattr(a, "shape", (2, 4)),
    "ndarray.dtype_set_same_itemsize": lambda xp, a: (setattr(a, "dtype", {4: "u4", 8: "u8"}[a.itemsize]),
                                                      a.__setitem__(0, 7)),
    "put": lambda xp, a: xp.put(a, _idx(1, -1), [5, 6]),
    "put_wrap": lambda xp, a: xp.put(a, _idx(9, -10), [7, 8], mode="wrap"),
    "place": lambda xp, a: xp.place(a, a > 1, [10, 20]),
    "put_along_axis": lambda xp, a: xp.put_along_axis(a, _idx(0, 3), 9, axis=0),
    "copyto": lambda xp, a: xp.copyto(a, numpy.arange(8).astype(a.dtype)),
    "copyto_where": lambda xp, a: xp.copyto(a, 5, where=numpy.arange(8) % 3 == 0),
    "copyto_where_array": lambda xp, a: xp.copyto(a, xp.asarray(numpy.arange(8).astype(a.dtype)),
                                                  where=a > 0),
    "copyto_bad_cast": lambda xp, a: xp.copyto(a, numpy.full(8, 1.5)),
    "putmask": lambda xp, a: xp.putmask(a, a < 2, 0),
    "cumsum_out_self": lambda xp, a: xp.cumsum(a, out=a) is a,
    "cumprod_out_self": lambda xp, a: xp.cumprod(a, out=a) is a,
    "around_out_self": lambda xp, a: xp.around(a, out=a) is a,
    "take_out": lambda xp, a: xp.take(a[:4].copy(), _idx(3, 0, 2, 1), out=a[4:]) is not None,
    "add_out_view": lambda xp, a: xp.add(a[:4], 1, out=a[4:]) is not None,
    "flip_write": lambda xp, a: xp.flip(a).__setitem__(0, 100),
    "readonly_setitem": lambda xp, a: (a.setflags(write=False), a.__setitem__(0, 1)),
    "readonly_iadd": lambda xp, a: (a.setflags(write=False), a.__iadd__(1)),
    "readonly_sort": lambda xp, a: (a.setflags(write=False), a.sort()),
    "readonly_fill": lambda xp, a: (a.setflags(write=False), a.fill(0)),
    "readonly_view_setitem": lambda xp, a: (a.setflags(write=False), a[1:].__setitem__(0, 1)),
    "readonly_view_make_writeable": lambda xp, a: (a.setflags(write=False), a[1:].setflags(write=True)),
    "readonly_then_writeable": lambda xp, a: (a.setflags(write=False), a.setflags(write=True),
                                              a.__setitem__(0, 1)),
    "flags_writeable_false": lambda xp, a: (setattr(a.flags, "writeable", False), a.__setitem__(0, 1)),
    "readonly_copyto": lambda xp, a: (a.setflags(write=False), xp.copyto(a, 0)),
    "readonly_put": lambda xp, a: (a.setflags(write=False), xp.put(a, _idx(0), [1])),
    "readonly_out": lambda xp, a: (a.setflags(write=False), xp.add(a, 1, out=a)),
    "broadcast_to_write": lambda xp, a: xp.broadcast_to(a, (2, 8)).__setitem__((0, 0), 1),
}
FLOAT_ONLY = {
    "nan_to_num_copy_false": lambda xp, a: (a.__setitem__(1, numpy.nan), xp.nan_to_num(a, copy=False))[1],
    "nan_to_num_copy_true": lambda xp, a: (a.__setitem__(1, numpy.nan), xp.nan_to_num(a, copy=True))[1],
    "sqrt_out_self": lambda xp, a: xp.sqrt(xp.abs(a), out=a) is a,
    "setitem_none_is_nan": lambda xp, a: a.__setitem__(2, None),
}
INT_ONLY = {
    "setitem_none": lambda xp, a: a.__setitem__(2, None),
}


@pytest.mark.parametrize("dtype", ["float64", "int32"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", sorted({**CASES_1D, **FLOAT_ONLY, **INT_ONLY}))
def test_in_place_1d(case, layout, dtype):
    fn = CASES_1D.get(case) or (FLOAT_ONLY if dtype == "float64" else INT_ONLY).get(case)
    if fn is None:
        pytest.skip(f"{case} applies to {'int' if dtype == 'float64' else 'float'} arrays only")
    length, view = LAYOUTS[layout]
    run_case(fn, (length,), view, dtype)


CASES_2D = {
    "fill_diagonal": lambda xp, m: xp.fill_diagonal(m, 0),
    "fill_diagonal_wrap": lambda xp, m: xp.fill_diagonal(m, [7, 8], wrap=True),
    "einsum_diagonal_write": lambda xp, m: xp.einsum("ii->i", m).__setitem__(1, -1),
    "diagonal_write": lambda xp, m: m.diagonal().__setitem__(0, -1),
    "flip_rows_write": lambda xp, m: xp.flipud(m).__setitem__((0, 1), 50),
    "rot90_write": lambda xp, m: xp.rot90(m).__setitem__((1, 2), 60),
    "sort_axis0": lambda xp, m: m.sort(axis=0),
    "sort_rows_view": lambda xp, m: m[1:3].sort(axis=1),
    "put_along_axis": lambda xp, m: xp.put_along_axis(m, numpy.array([[0], [1], [2], [3]]), 5, axis=1),
    "cumsum_axis_out": lambda xp, m: xp.cumsum(m, axis=1, out=m) is m,
    "copyto_where_rows": lambda xp, m: xp.copyto(m, 1, where=numpy.array([True, False, True, False])),
    "shape_set_view": lambda xp, m: setattr(m, "shape", (16,)),
    "transpose_setitem": lambda xp, m: m.T.__setitem__((0, slice(None)), 3),
    "matrix_transpose_attribute_write": lambda xp, m: m.mT.__setitem__((0, 1), -1),
    "ctypes_pointer_write": lambda xp, m: __import__("ctypes").cast(
        m.ctypes.data, __import__("ctypes").POINTER(__import__("ctypes").c_double))[0] == m[0, 0]
        if m.flags.c_contiguous else None,
    "sum_out_0d": lambda xp, m: xp.sum(m, out=m[0, 0]) is not None,
}


@pytest.mark.parametrize("layout", LAYOUTS_2D)
@pytest.mark.parametrize("case", sorted(CASES_2D))
def test_in_place_2d(case, layout):
    shape, view = LAYOUTS_2D[layout]
    run_case(CASES_2D[case], shape, view, "float64")


# a.real / a.imag of complex arrays are views: writes through them reach the array.
CASES_COMPLEX = {
    "real_setitem": lambda xp, z: z.real.__setitem__(slice(None), 0),
    "imag_setitem": lambda xp, z: z.imag.__setitem__(1, 9),
    "real_iadd": lambda xp, z: z.real.__iadd__(1),
    "imag_from_real": lambda xp, z: z.imag.__setitem__(Ellipsis, z.real * 2),
    "real_property_set": lambda xp, z: setattr(z, "real", 7),
    "imag_property_set": lambda xp, z: setattr(z, "imag", z.real),
    "real_sort": lambda xp, z: (z.imag.__setitem__(Ellipsis, -z.real), z.imag.sort())[1],
    "imag_masked": lambda xp, z: z.imag.__setitem__(z.real > 0, 3),
    "ufunc_out_imag": lambda xp, z: xp.add(z.real, 1, out=z.imag) is not None,
    "np_real_write": lambda xp, z: xp.real(z).__setitem__(0, 5),
    "real_view_after_write": lambda xp, z: (z.__iadd__(1j), z.real.copy())[1],
}
CASES_REAL_PARTS = {
    "imag_of_real_is_read_only": lambda xp, a: a.imag.__setitem__(0, 1),
    "imag_set_on_real": lambda xp, a: setattr(a, "imag", 1),
    "real_of_real_is_a_view": lambda xp, a: a.real.__setitem__(0, 5),
}


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", sorted(CASES_COMPLEX))
def test_complex_parts_are_views(case, layout, dtype):
    length, view = LAYOUTS[layout]
    run_case(CASES_COMPLEX[case], (length,), view, dtype)


@pytest.mark.parametrize("case", sorted(CASES_REAL_PARTS))
def test_parts_of_real_arrays(case):
    run_case(CASES_REAL_PARTS[case], (8,), lambda b: b, "float64")


CASES_0D = {
    "fill": lambda xp, a: a.fill(3),
    "setitem_ellipsis": lambda xp, a: a.__setitem__(Ellipsis, 4),
    "setitem_empty_tuple": lambda xp, a: a.__setitem__((), 5),
    "view_write": lambda xp, a: a.view().__setitem__((), 6),
    "copyto": lambda xp, a: xp.copyto(a, 7),
    "iadd": lambda xp, a: a.__iadd__(2),
    "sort": lambda xp, a: a.sort(),
    "readonly_fill": lambda xp, a: (a.setflags(write=False), a.fill(0)),
    "nan_to_num": lambda xp, a: xp.nan_to_num(a, copy=False),
}


@pytest.mark.parametrize("case", sorted(CASES_0D))
def test_in_place_0d(case):
    run_case(CASES_0D[case], (), lambda b: b, "float64")


CASES_EMPTY = {
    "sort": lambda xp, a: a.sort(),
    "fill": lambda xp, a: a.fill(1),
    "put_nothing": lambda xp, a: xp.put(a, _idx(), []),
    "put_into_empty": lambda xp, a: xp.put(a, _idx(0), [1]),
    "place": lambda xp, a: xp.place(a, a > 0, [1]),
    "cumsum_out": lambda xp, a: xp.cumsum(a, out=a) is a,
    "copyto_where": lambda xp, a: xp.copyto(a, 1, where=a > 0),
    "view": lambda xp, a: a.view().shape,
    "flat_set": lambda xp, a: setattr(a, "flat", [1, 2]),
}


@pytest.mark.parametrize("case", sorted(CASES_EMPTY))
def test_in_place_empty(case):
    run_case(CASES_EMPTY[case], (0,), lambda b: b, "float64")


def test_view_shares_storage_both_ways():
    a = tnp.arange(6.0)
    v = a.view()
    v[0] = 99
    a[5] = -1
    assert a.tolist() == [99, 1, 2, 3, 4, -1]
    assert v.tolist() == [99, 1, 2, 3, 4, -1]
    assert v.flags.owndata is False and a.flags.owndata is True


def test_view_dtype_of_other_itemsize_is_a_read_only_copy():
    a = tnp.arange(4.0)
    v = a.view(numpy.int32)
    assert v.shape == (8,) and v.dtype == numpy.int32
    assert numpy.array_equal(numpy.asarray(v), numpy.arange(4.0).view(numpy.int32))
    assert not v.flags.writeable  # writes could not reach `a`: they fail instead of being lost
    with pytest.raises(ValueError, match="read-only"):
        v[0] = 1


def test_view_as_numpy_type_is_refused_clearly():
    with pytest.raises(TypeError, match="from_dlpack"):
        tnp.arange(3).view(numpy.ndarray)


def test_flags_object_matches_numpy():
    for make in (lambda xp: xp.arange(12.0).reshape(3, 4), lambda xp: xp.arange(12.0).reshape(3, 4).T,
                 lambda xp: xp.arange(12.0).reshape(3, 4)[:, ::2]):
        n, t = make(numpy), make(tnp)
        for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY"):
            assert t.flags[key] == n.flags[key], key
        assert (t.flags.c_contiguous, t.flags.f_contiguous, t.flags.owndata, t.flags.writeable) == (
            n.flags.c_contiguous, n.flags.f_contiguous, n.flags.owndata, n.flags.writeable)
        assert repr(t.flags) == repr(n.flags)
    with pytest.raises(KeyError):
        tnp.arange(3).flags["BOGUS"]


def test_shape_setter_refuses_when_a_copy_is_needed():
    for xp in (numpy, tnp):
        m = xp.arange(12.0).reshape(3, 4).T
        with pytest.raises(AttributeError, match="Incompatible shape"):
            m.shape = (12,)
        with pytest.raises(ValueError):
            m.shape = (5,)


def test_fallback_view_result_is_a_view_of_the_argument():
    m = tnp.arange(16.0).reshape(4, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # require falls back to NumPy
        rows = tnp.require(m[::2], requirements=["W"])  # NumPy returns its argument: a strided view
    assert rows.flags.writeable
    rows[:] = 0
    assert numpy.array_equal(numpy.asarray(m)[::2], numpy.zeros((2, 4)))
    assert numpy.array_equal(numpy.asarray(m)[1::2], numpy.arange(16.0).reshape(4, 4)[1::2])


def test_fallback_returns_the_out_object_itself():
    v = tnp.arange(5.0)
    w = tnp.zeros(5)
    assert tnp.cumsum(v, out=w) is w
    assert w.tolist() == [0, 1, 3, 6, 10]


def test_fallback_warning_says_copy_in_and_copy_back():
    import tessera

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from tessera.numpy import _fallback

        _fallback._warned.discard("numpy.asmatrix")
        tnp.asmatrix(tnp.arange(4.0))
    messages = [str(w.message) for w in caught if issubclass(w.category, tessera.FallbackWarning)]
    assert messages and "copies" in messages[0] and "copied back" in messages[0]
    assert "tessera.FallbackWarning" in messages[0]


def test_memmap_writes_reach_the_file(tmp_path):
    path = tmp_path / "a.npy"
    numpy.save(path, numpy.arange(5.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = tnp.load(path, mmap_mode="r+")
    m[0] = 42
    m.flush()
    del m
    assert numpy.load(path)[0] == 42


# Fuzz: random sequences of in-place operations on random views of one base array.
_SLICES = st.tuples(st.integers(-12, 12), st.integers(-12, 12), st.sampled_from([1, 2, 3, -1, -2]))
_OPS = st.sampled_from(["setitem", "iadd", "sort", "fill", "put", "copyto_where", "cumsum_out", "flip_write",
                        "view_write", "place", "imul_view"])


def _apply(xp, base, op, sl, value):
    v = base[slice(*sl)]
    if op == "setitem":
        v[...] = value
    elif op == "iadd":
        v += value
    elif op == "sort":
        v.sort()
    elif op == "fill":
        v.fill(value)
    elif op == "put":
        if v.size:
            xp.put(v, numpy.array([0, v.size - 1]), [value, -value])
    elif op == "copyto_where":
        xp.copyto(v, value, where=numpy.arange(v.size) % 2 == 0)
    elif op == "cumsum_out":
        xp.cumsum(v, out=v)
    elif op == "flip_write":
        if v.size:
            xp.flip(v)[0] = value
    elif op == "view_write":
        if v.size:
            v.view()[-1] = value
    elif op == "place":
        xp.place(v, v > value, [value])
    elif op == "imul_view":
        v[::2] *= 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_OPS, _SLICES, st.integers(-5, 5)), min_size=1, max_size=8))
def test_fuzz_in_place_sequences_on_views(steps):
    n = numpy.arange(12, dtype=numpy.int64) * 5 % 13
    t = tnp.asarray(n.copy())
    for op, sl, value in steps:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _apply(numpy, n, op, sl, value)
            _apply(tnp, t, op, sl, value)
        assert numpy.asarray(t).tolist() == n.tolist(), (op, sl, value)


@pytest.mark.skipif(SELFCHECK, reason="exercises tessera's fallback machinery itself")
@pytest.mark.parametrize("layout", LAYOUTS)
def test_unlisted_in_place_change_is_found_and_copied_back(layout):
    """A function nobody listed as writing its argument: NumPy raises on the read-only copy,
    the fallback runs it again on writable copies and copies back what changed."""
    from tessera.numpy._fallback import fallback_call

    def doubles_into(src, dst):
        dst[...] = src * 2
        return "done"

    length, view = LAYOUTS[layout]
    for shape, make in (((length,), view), ((), lambda b: b)):
        n_base = numpy.arange(float(numpy.prod(shape))).reshape(shape)
        t_base = tnp.asarray(n_base.copy())
        src = tnp.asarray(numpy.full(make(n_base).shape, 3.0))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert fallback_call("tests.doubles_into", doubles_into, (src, make(t_base)), {}) == "done"
        doubles_into(numpy.full(make(n_base).shape, 3.0), make(n_base))
        _same_bits(n_base, t_base, "base array after the call")
        assert numpy.asarray(src).tolist() == numpy.full(make(n_base).shape, 3.0).tolist()  # only dst changed


@pytest.mark.skipif(SELFCHECK, reason="exercises tessera's fallback machinery itself")
def test_unlisted_in_place_random_function_is_refused_by_name():
    from tessera.numpy._fallback import fallback_call

    def draws_into(x):
        x[0] = numpy.random.random()

    a = tnp.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(NotImplementedError, match="numpy.random.draws_into"):
            fallback_call("numpy.random.draws_into", draws_into, (a,), {})
    assert numpy.asarray(a).tolist() == [0.0, 0.0, 0.0]


@pytest.mark.skipif(SELFCHECK, reason="checks where tessera's pointer points")
def test_ctypes_pointer_writes_reach_the_array():
    import ctypes

    t = tnp.arange(4.0)
    pointer = t.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    pointer[1] = 42.0
    assert numpy.asarray(t).tolist() == [0.0, 42.0, 2.0, 3.0]
    assert t.data.tolist() == [0.0, 42.0, 2.0, 3.0]


def test_part_of_each_element_written_after_a_fused_result():
    # a.imag is a view in a smaller item size: on several ranks, the rank writing it must
    # first hold the real parts it keeps (small arrays put each element on its own rank).
    for n in (2, 3, 5):
        p = tnp.linspace(1.0, 2.0, n) * 1.0
        z = (p * 1.0).astype(complex)
        z.imag[...] = 7.0
        w = (p * 2.0).astype(complex)
        w.real[...] = tnp.arange(n) * 1.0
        assert numpy.array_equal(numpy.asarray(z), numpy.linspace(1.0, 2.0, n) + 7j)
        assert numpy.array_equal(numpy.asarray(w), numpy.arange(n) * 1.0)
