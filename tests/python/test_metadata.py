"""NumPy's functions about arrays rather than their values (dtype queries, memory overlap,
printing, frompyfunc) on tessera arrays, and NumPy's own functions re-exported unchanged:
the same answers as NumPy, without the fallback."""

import numpy
import pytest

from parity import ALL_DTYPES, SELFCHECK, check, sample, tnp

pytestmark = pytest.mark.usefixtures("no_fallback")

VIEWS = {
    "whole": lambda a: a,
    "row": lambda a: a[1],
    "column": lambda a: a[:, 2],
    "strided": lambda a: a[::2, 1::2],
    "transposed": lambda a: a.T,
    "reversed": lambda a: a[::-1],
    "empty": lambda a: a[2:2],
    "scalar": lambda a: a[1, 1],
}


@pytest.mark.parametrize("first", VIEWS)
@pytest.mark.parametrize("second", VIEWS)
@pytest.mark.parametrize("func", ["shares_memory", "may_share_memory"])
def test_memory_overlap_of_views_of_one_array(first, second, func):
    def run(xp):
        a = xp.asarray(numpy.arange(24.0).reshape(4, 6))
        return getattr(xp, func)(VIEWS[first](a), VIEWS[second](a))

    assert run(tnp) == run(numpy)


@pytest.mark.parametrize("func", ["shares_memory", "may_share_memory"])
def test_separate_arrays_and_copies_share_nothing(func):
    a = tnp.arange(10)
    b = tnp.arange(10)
    assert getattr(tnp, func)(a, b) is False
    assert getattr(tnp, func)(a, a.copy()) is False
    assert getattr(tnp, func)(a, a) is True
    assert getattr(tnp, func)(a, numpy.arange(10)) is False
    n = numpy.arange(10)
    assert getattr(tnp, func)(n, n[3:]) is True  # NumPy arrays: NumPy's answer


def test_complex_parts_share_memory_as_in_numpy():
    for xp in (numpy, tnp):
        c = xp.asarray(numpy.arange(6).astype(numpy.complex128))
        assert xp.shares_memory(c.real, c) and xp.shares_memory(c.imag, c)
        assert not xp.shares_memory(c.real, c.imag)


def test_shares_memory_max_work_and_errors():
    check(lambda xp: xp.shares_memory(xp.asarray(numpy.arange(9)), xp.asarray(numpy.arange(9))[::2], max_work=-1))
    check(lambda xp: xp.may_share_memory(xp.asarray(numpy.arange(9))[::2], xp.asarray(numpy.arange(9))[1::2]))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dtype_queries(dtype):
    a = sample(dtype, (3, 2))
    check(lambda xp, a: xp.iscomplexobj(a), a)
    check(lambda xp, a: xp.isrealobj(a), a)
    check(lambda xp, a: xp.isfortran(a), a)
    check(lambda xp, a: xp.isfortran(a.T), a)
    check(lambda xp, a: xp.isfortran(a[:, :1].T), a)
    check(lambda xp, a: xp.min_scalar_type(a), a)
    check(lambda xp, a: xp.min_scalar_type(a[1, 1]), a)
    check(lambda xp, a: xp.min_scalar_type(xp.asarray(a)[0, 0].reshape(())), a)
    check(lambda xp, a: str(xp.common_type(a, numpy.float32(1))), a)  # TypeError for bool, as NumPy
    for to in ("int16", "float32", "complex128"):
        for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
            check(lambda xp, a: xp.can_cast(a, to, casting), a)
    check(lambda xp, a: xp.can_cast(a, "float64", "bogus"), a)  # ValueError


def test_common_type_and_min_scalar_type_values():
    for values in ([300], [-1], [1.5], [1e300], [2 + 1j], [True], [70000]):
        check(lambda xp: xp.min_scalar_type(xp.asarray(numpy.asarray(values[0]))))
    check(lambda xp: xp.common_type(xp.asarray(numpy.arange(3)), xp.asarray(numpy.ones(2, numpy.float32))))
    check(lambda xp: xp.common_type(xp.asarray(numpy.ones(2, numpy.float16)), xp.asarray(numpy.ones(2, numpy.complex64))))
    check(lambda xp: xp.common_type())
    check(lambda xp: xp.iscomplexobj(1j))
    check(lambda xp: xp.isrealobj([1, 2]))


@pytest.mark.parametrize("view", ["whole", "strided", "transposed", "scalar", "empty"])
@pytest.mark.parametrize("dtype", ["float64", "int8", "complex64", "bool"])
def test_printing_functions(view, dtype):
    base = sample(dtype, (4, 6))
    check(lambda xp, a: xp.array2string(VIEWS[view](a)), base)
    check(lambda xp, a: xp.array2string(VIEWS[view](a), precision=2, separator=";", suppress_small=True), base)
    check(lambda xp, a: xp.array_repr(VIEWS[view](a)), base)
    check(lambda xp, a: xp.array_str(VIEWS[view](a), max_line_width=20), base)


def test_printing_follows_print_options_like_repr():
    a = tnp.asarray(numpy.linspace(0, 1, 7))
    with tnp.printoptions(precision=2):
        assert tnp.array_repr(a) == numpy.array_repr(numpy.linspace(0, 1, 7)) == repr(a)
    assert tnp.array_str(a) == str(numpy.linspace(0, 1, 7))


def test_frompyfunc_calls_the_function_per_element():
    calls = []

    def f(x, y):
        calls.append(1)
        return x * 10 + y

    for xp in (numpy, tnp):
        calls.clear()
        u = xp.frompyfunc(f, 2, 1)
        assert (u.nin, u.nout, u.nargs) == (2, 1, 3)
        got = u(xp.asarray(numpy.arange(6).reshape(2, 3)), xp.asarray(numpy.array([1, 2, 3])))
        assert isinstance(got, numpy.ndarray) and got.dtype == object and got.shape == (2, 3)
        assert got.tolist() == [[1, 12, 23], [31, 42, 53]] and len(calls) == 6
    check(lambda xp: xp.frompyfunc(lambda x, y: x + y, 2, 1, identity=0).reduce(xp.asarray(numpy.arange(5))))
    check(lambda xp: xp.frompyfunc(lambda x, y: x + y, 2, 1).accumulate(xp.asarray(numpy.arange(5))).astype(int))
    check(lambda xp: xp.frompyfunc(lambda x, y: x * y, 2, 1).outer(xp.asarray(numpy.arange(3)),
                                                                   xp.asarray(numpy.arange(2))).astype(int))


@pytest.mark.skipif(SELFCHECK, reason="checks that tessera re-exports NumPy's objects")
@pytest.mark.parametrize("name", ["base_repr", "binary_repr", "typename", "isscalar", "iterable", "isdtype",
                                  "mintypecode", "info", "show_runtime", "get_include", "getbufsize", "setbufsize",
                                  "geterrcall", "seterrcall", "get_printoptions", "set_printoptions", "printoptions",
                                  "format_float_positional", "format_float_scientific", "datetime_data"])
def test_numpys_own_functions_are_numpys(name):
    assert getattr(tnp, name) is getattr(numpy, name)


def test_numpys_own_functions_on_tessera_arrays():
    a = tnp.arange(4)
    assert tnp.isscalar(a) is False and tnp.isscalar(a.sum().item()) is True
    assert tnp.iterable(a) is True and tnp.iterable(3) is False
    assert tnp.isdtype(a.dtype, "integral") and not tnp.isdtype(a.dtype, "real floating")
    assert tnp.typename(a.dtype.char) == numpy.typename(numpy.arange(4).dtype.char)
    assert tnp.base_repr(255, 16) == "FF" and tnp.binary_repr(-3, width=4) == "1101"
    assert tnp.mintypecode(["d", "f"]) == "d"
    check(lambda xp: xp.base_repr(-7, 3, padding=2))
    check(lambda xp: xp.binary_repr(5, width=2))
    check(lambda xp: xp.isdtype(numpy.float32, "bogus"))  # ValueError
    check(lambda xp: xp.format_float_positional(xp.float32(0.1), precision=3))
    check(lambda xp: xp.format_float_scientific(xp.float64(12345.678), unique=False, precision=4))
    check(lambda xp: xp.datetime_data(numpy.dtype("datetime64[5ms]")))
    check(lambda xp: xp.datetime_data(numpy.dtype("float64")))  # TypeError


def test_isfortran_of_non_arrays_is_numpys():
    check(lambda xp: xp.isfortran(numpy.asfortranarray(numpy.ones((2, 3)))))


def test_device_and_to_device():
    for xp in (numpy, tnp):
        a = xp.arange(3)
        assert a.device == "cpu" and a.to_device("cpu") is a
    check(lambda xp: xp.arange(3).to_device("gpu"))  # ValueError
    check(lambda xp: xp.arange(3).to_device(None))  # TypeError
    check(lambda xp: xp.arange(3).to_device("cpu", stream=1))  # ValueError
