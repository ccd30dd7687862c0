"""Errors that depend on the data raise at the statement NumPy raises at, and lose nothing.

tessera defers work, so an error found while a task runs could only surface at a later
sync point, after the program moved on, and the array being written would be left
half-computed. Each case runs a set-up and one statement with `np` bound to numpy and to
tessera.numpy: NumPy and tessera raise the same exception type *at the statement* (the
arrays are read afterwards without an error), and every array of the set-up then holds
NumPy's values (those it had before, where NumPy writes nothing).

The arrays are large (N elements) so that, outside test mode, the operations are not run at
once on the program thread (the small-array fast path) but deferred to the workers.
"""

import warnings

import numpy
import pytest

from parity import INTEGER, public_exception_type, tnp

N = 300_000

POWER = [
    # the integer power loop refuses a negative exponent
    ("i = np.arange(N)", "i **= -1"),
    ("i = np.arange(N)", "r = i ** -1"),
    ("i = np.arange(N)", "r = np.power(i, np.int64(-1))"),
    ("i = np.arange(N)", "np.power(i, -1 - i, out=i)"),
    ("i = np.arange(N); e = np.ones(N, dtype=np.int64); e[N // 2] = -1", "np.power(i, e, out=i)"),
    ("i = np.arange(N); e = np.ones(N, dtype=np.int64); e[N - 1] = -1", "i **= e"),
    ("i = np.arange(N)", "r = 2 ** -i"),
    ("i = np.arange(N)", "r = np.power(2, -i)"),
    ("i = np.arange(N, dtype=np.int8)", "i **= -1"),
    ("i = np.arange(N, dtype=np.int16)", "r = i ** np.full(N, -1, dtype=np.int16)"),
    ("i = np.arange(N, dtype=np.int32)", "r = i ** np.full(N, -2, dtype=np.int64)"),
    ("i = np.arange(N, dtype=np.uint8)", "r = i ** np.full(N, -1, dtype=np.int8)"),  # int16 loop
    ("i = np.arange(N, dtype=np.uint8)", "r = i ** np.int8(-1)"),
    ("b = np.ones(N, dtype=bool)", "r = b ** -1"),
    ("i = np.arange(N)", "r = np.power(i, np.full(N, 255), dtype=np.int8)"),  # 255 is -1 as int8
    ("i = np.arange(N)", "r = np.power(i, np.full(N, -1.0), dtype=np.int64, casting='unsafe')"),
    ("i = np.arange(N).reshape(-1, 2)", "r = np.power(i, np.array([[1, -1]]))"),
    ("i = np.arange(N)", "r = np.power(np.array(2), np.array(-1))"),
    # the ufunc methods: the rows folded into a segment's first are exponents
    ("i = np.arange(N)", "r = np.power.reduce(-i)"),
    ("i = np.arange(N).reshape(-1, 2)", "r = np.power.reduce(1 - i, axis=1)"),
    ("i = np.arange(N)", "r = np.power.reduce(i, initial=-1)"),
    ("i = np.arange(N)", "r = np.power.accumulate(-i)"),
    ("i = np.arange(N)", "r = np.power.reduceat(np.where(i == 7, -1, 1), [0, 5])"),
    ("i = np.arange(N)", "r = np.power.reduceat(np.where(i == 7, -1, 1), [9, 0])"),
    ("i = np.arange(N)", "r = np.power.reduceat(np.where(i == 7, -1, 1), [0, 5, 2, 9])"),
    ("i = np.arange(N)", "np.power.at(i, [0, 1], -1)"),
    ("i = np.arange(N)", "np.power.at(i, [0, 1], np.array([1, -1]))"),
    # no error: NumPy computes these
    ("i = np.arange(N)", "r = np.power.reduce(np.where(i == 0, -1, 1))"),  # the first row is no exponent
    ("i = np.arange(N)", "r = np.power.reduceat(np.where(i == 7, -1, 1), [0, 7])"),
    ("i = np.arange(N)", "r = np.power.reduceat(np.where(i == 7, -1, 1), [0, 7, 7, 8])"),
    ("i = np.arange(N)", "np.power.at(i, [], -1)"),
    ("i = np.arange(N)", "i **= 2"),
    ("i = np.arange(N)", "r = np.power(np.zeros((0, 3), dtype=np.int64), np.array([-1, 1, 1]))"),
    ("i = np.arange(N)", "r = np.power(i[:0], -1)"),
    ("i = np.arange(N)", "r = i ** -1.0"),
    ("i = np.arange(N)", "r = np.power(i, -1, dtype=np.float64)"),
    ("i = np.arange(N, dtype=np.uint64)", "r = i ** np.full(N, -1)"),  # float64 loop
    ("i = np.arange(N, dtype=np.int8)", "r = i ** np.full(N, 255, dtype=np.uint8)"),  # int16 loop
    ("i = np.arange(N)", "r = np.arange(N) // 0"),  # a warning in NumPy, not an error
]

STORES = [
    # a Python number stored into an integer array is converted as int() does
    ("t = np.arange(N)", "t[0] = np.nan"),
    ("t = np.arange(N)", "t[0] = np.inf"),
    ("t = np.arange(N)", "t[1:3] = np.inf"),
    ("t = np.arange(N)", "t[1:] = np.nan"),
    ("t = np.arange(N)", "t[...] = -np.inf"),
    ("t = np.arange(N)", "t.fill(np.nan)"),
    ("t = np.arange(N)", "t.fill(np.inf)"),
    ("t = np.arange(N)", "np.put(t, [0], np.nan)"),
    ("t = np.arange(N)", "np.put(t, [0, 5], [1, np.nan])"),
    ("t = np.arange(N)", "t[t > 5] = np.nan"),
    ("t = np.arange(N)", "t[[0, 2]] = np.nan"),
    ("t = np.arange(N)", "t[1:3] = [np.nan, 1.0]"),
    ("t = np.arange(N)", "t[[0, 2]] = [np.inf, 1.0]"),
    ("t = np.arange(N)", "np.putmask(t, t > 2, np.nan)"),
    ("t = np.arange(N)", "np.place(t, t > 2, [np.nan])"),
    ("t = np.arange(N)", "np.put_along_axis(t, np.array([0]), np.nan, 0)"),
    ("t = np.arange(N)", "t[0] = 1e30"),
    ("t = np.arange(N)", "t[:] = 2 ** 63"),
    ("t = np.arange(N)", "t[0] = 1 + 1j"),
    ("t = np.arange(N, dtype=np.uint8)", "t[:] = np.nan"),
    ("t = np.arange(N, dtype=np.uint64)", "t[0] = -1.0"),
    ("t = np.arange(N, dtype=np.int8)", "t[0] = 300"),
    ("t = np.arange(N, dtype=np.int8)", "t[0:2] = [300, 1]"),
    ("t = np.arange(N, dtype=np.int8)", "t[:] = 300.0"),
    ("t = np.arange(N, dtype=np.int8)", "t[t > 1] = 300"),
    ("t = np.arange(N, dtype=np.int8)", "t.fill(-129)"),
    ("t = np.arange(N, dtype=np.int8)", "np.put(t, [0], 300)"),
    ("t = np.arange(N, dtype=np.uint16)", "t[0] = -1"),
    # a NumPy scalar is converted so into a signed array through a basic index ...
    ("t = np.arange(N)", "t[1:3] = np.float64(np.nan)"),
    ("t = np.arange(N, dtype=np.int8)", "t[0] = np.int64(300)"),
    ("t = np.arange(N, dtype=np.int8)", "t[:] = np.float32(300)"),
    ("t = np.arange(N, dtype=np.int32)", "t.fill(np.float64(np.inf))"),
    # ... and cast otherwise, as are arrays (NumPy warns, tessera does not)
    ("t = np.arange(N)", "t[[0, 2]] = np.float64(np.nan)"),
    ("t = np.arange(N, dtype=np.int8)", "t[t > 1] = np.int64(300)"),
    ("t = np.arange(N, dtype=np.uint8)", "t[0] = np.int64(-1)"),
    ("t = np.arange(N)", "np.putmask(t, t > 2, np.float64(np.nan))"),
    ("t = np.arange(N)", "t[1:3] = np.array([np.nan, 1.0])"),
    ("t = np.arange(N)", "np.copyto(t, np.full(N, np.nan), casting='unsafe')"),
    ("t = np.arange(N)", "np.put(t, [0], np.array([np.nan]))"),
    ("t = np.arange(N, dtype=np.int8)", "t[0:2] = np.array([300, 1])"),
    # fine values
    ("t = np.arange(N)", "t[0] = 1.5"),
    ("t = np.arange(N, dtype=np.int8)", "t[0] = 127.9"),
    ("t = np.arange(N, dtype=np.uint64)", "t[0] = 1e19"),
    ("t = np.arange(N, dtype=np.uint8)", "t[0] = -0.5"),
    ("t = np.ones(N, dtype=bool)", "t[0] = np.nan"),
    ("t = np.arange(N, dtype=np.float32)", "t[0] = np.nan"),
]

INDICES = [
    # bounds are checked before anything is written
    ("t = np.arange(N)", "r = np.take(t, [0, N])"),
    ("t = np.arange(N)", "np.put(t, [N, 0], 7)"),  # NumPy writes the indices before a bad one
    ("t = np.arange(N)", "np.put(t, [-N - 1, 0], 7)"),
    ("t = np.arange(N)", "t[[0, N]] = 7"),
    ("t = np.arange(N)", "t[np.array([1, 2, N])] += 7"),
    ("t = np.arange(N)", "r = t[[N]]"),
    ("t = np.arange(N).reshape(-1, 3)", "t[[0, 1], [0, 3]] = 7"),
    ("t = np.arange(N)", "np.add.at(t, [0, N], 1)"),
    ("t = np.arange(N)", "np.put_along_axis(t, np.array([0, N]), 7, 0)"),
]


OTHER = [
    # NumPy's monotonicity check of digitize's bins: NaN compares false, so it breaks no order
    ("x = np.arange(N) * 0.5", "r = np.digitize(x, np.array([1.0, np.nan]))"),
    ("x = np.arange(N) * 0.5", "r = np.digitize(x, np.array([np.nan, 1.0]), right=True)"),
    ("x = np.arange(N) * 0.5", "r = np.digitize(x, np.array([3.0, 3.0, 2.0, 1.0]))"),
    ("x = np.arange(N) * 0.5", "r = np.digitize(x, np.array([1.0, 3.0, 2.0]))"),
    ("x = np.arange(N) * 0.5", "r = np.digitize(x, np.array([2.0, 1.0, 3.0]))"),
]


def _run(np, setup, statement):
    """Runs `setup` then `statement`; the statement's exception (or None) and the set-up's
    arrays read back as NumPy arrays afterwards."""
    names = {"np": np, "N": N}
    exec(setup, names)
    arrays = [k for k, v in names.items() if isinstance(v, (numpy.ndarray, tnp.ndarray))]
    error = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(statement, names)
        except Exception as e:  # noqa: BLE001 (compared with NumPy's below)
            error = e
    # The reads must not raise: an error belongs to the statement.
    return error, {k: numpy.asarray(names[k]) for k in arrays + (["r"] if "r" in names else [])}


def _check(setup, statement):
    want_error, want = _run(numpy, setup, statement)
    got_error, got = _run(tnp, setup, statement)
    if want_error is None:
        assert got_error is None, f"NumPy raises nothing, tessera raises {got_error!r}"
    else:
        assert got_error is not None, f"NumPy raises {want_error!r} at the statement, tessera nothing"
        assert public_exception_type(got_error) is public_exception_type(want_error), (want_error, got_error)
    for name, value in want.items():
        assert got[name].dtype == value.dtype, name
        if value.dtype.kind in "fc":  # the power loops of NumPy and tessera may differ in the last bit
            numpy.testing.assert_allclose(got[name], value, rtol=1e-15, err_msg=name)
        else:
            numpy.testing.assert_array_equal(got[name], value, err_msg=name)


@pytest.mark.parametrize("setup, statement", POWER, ids=[s for _, s in POWER])
def test_integer_power(setup, statement):
    _check(setup, statement)


@pytest.mark.parametrize("setup, statement", STORES, ids=[s for _, s in STORES])
def test_store_into_integers(setup, statement):
    _check(setup, statement)


@pytest.mark.parametrize("setup, statement", INDICES, ids=[s for _, s in INDICES])
def test_index_out_of_bounds(setup, statement):
    _check(setup, statement)


@pytest.mark.parametrize("setup, statement", OTHER, ids=[s for _, s in OTHER])
def test_other_data_dependent_errors(setup, statement):
    _check(setup, statement)


def test_power_error_leaves_the_runtime_usable():
    i = tnp.arange(N)
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        i **= -1
    i += 1
    assert int(i.sum()) == N * (N + 1) // 2
    assert int((i ** 2)[-1]) == N * N


@pytest.mark.parametrize("dtype", INTEGER)
@pytest.mark.parametrize("statement", ["i **= -1", "i **= np.int8(-1)", "i **= np.full(N, -1, dtype=np.int8)",
                                       "r = i ** -i", "i[1:3] = np.nan", "i[[1, 2]] = np.inf", "i.fill(np.nan)",
                                       "i[0] = 2 ** 64", "i[0] = -1", "i[0] = np.float64(-1e30)"])
def test_every_integer_dtype(dtype, statement):
    _check(f"i = (np.arange(N) % 100).astype(np.{dtype})", statement)


SPECIAL = [numpy.nan, numpy.inf, -numpy.inf, 1e30, -1e30, 300.7, -129.5, 2.0 ** 63, 2.0 ** 64, 1.5e19, -1.0]


# uint32 is left out: NumPy's own result for NaN, infinities and values beyond 2**32 depends
# on the array's length there (its scalar and vector loops differ).
@pytest.mark.parametrize("dtype", [d for d in INTEGER if d != "uint32"] + ["bool"])
@pytest.mark.parametrize("n", [len(SPECIAL), N])
def test_unsafe_casts_of_special_floats_give_numpys_values(dtype, n):
    # No error (NumPy warns): the values an array cast makes of NaN, infinities and floats
    # out of range, through astype and through an assignment into an integer array.
    values = numpy.resize(numpy.array(SPECIAL), n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = values.astype(dtype)
    numpy.testing.assert_array_equal(numpy.asarray(tnp.asarray(values).astype(dtype)), want)
    target = tnp.zeros(n, dtype=dtype)
    target[...] = tnp.asarray(values)
    numpy.testing.assert_array_equal(numpy.asarray(target), want)
