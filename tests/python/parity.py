"""Shared machinery of the NumPy parity suite.

`check(fn, *args)` runs `fn(numpy, *args)` and `fn(tnp, *args)` and asserts the two agree in
value, dtype and shape, or that both raise the same public exception type. `tnp` is
`tessera.numpy`, or plain `numpy` when TESSERA_PARITY_SELFCHECK=1 (validates the suite).
"""

import os
import warnings

import numpy
import pytest

SELFCHECK = os.environ.get("TESSERA_PARITY_SELFCHECK") == "1"

if SELFCHECK:
    tnp = numpy
else:
    import tessera.numpy as tnp  # noqa: F401  (the module under test)

BOOL = ["bool"]
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
INTEGER = SIGNED + UNSIGNED
FLOAT = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
ALL_DTYPES = BOOL + INTEGER + FLOAT + COMPLEX

# (rtol, atol) per floating component type.  float16 is a storage type: NumPy computes in
# float32 and rounds, so one or two ulps of difference are allowed.
TOLERANCE = {
    numpy.dtype("float16"): (4e-3, 1e-3),
    numpy.dtype("float32"): (1e-5, 1e-6),
    numpy.dtype("float64"): (1e-12, 1e-13),
}

# Public exception classes a NumPy error may be reported as; private NumPy subclasses
# (e.g. _UFuncNoLoopError) are mapped onto the nearest of these or a builtin.
_PUBLIC_NUMPY_ERRORS = (numpy.exceptions.AxisError, numpy.linalg.LinAlgError)


def public_exception_type(exc):
    """The most specific builtin or public NumPy class of `exc`."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins" or cls in _PUBLIC_NUMPY_ERRORS:
            return cls
    return Exception


# kind -> (lowest integer, highest integer + 1, float scale): integer dtypes draw from
# [lo, hi), floats from the same integers times scale (a multiple of 1/4).
_KINDS = {
    "any": (-4, 5, 0.75), "nonzero": (1, 5, 0.75), "positive": (1, 13, 0.25),
    "nonneg": (0, 13, 0.25), "unit": (-3, 4, 0.25), "ge1": (4, 13, 0.25), "shift": (0, 4, 1.0),
}


def sample(dtype, shape, kind="any", seed=0):
    """Deterministic test data whose results are exact or well-conditioned.

    kind: "any" (small values of both signs), "nonzero", "positive", "nonneg" (real part
    >= 0: conversions to unsigned are well defined), "unit" (|x| < 1),
    "ge1" (x >= 1), "shift" (0..3, for shift counts and integer exponents), "pm" (+-1, +-2:
    products stay exact, and overflow, if any, does not depend on the order).
    Floats are multiples of 1/4, so sums are exact in any order.
    """
    dtype = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    n = int(numpy.prod(shape, dtype=numpy.int64))
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if kind == "pm":
        signs = rng.choice([1] if dtype.kind == "u" else [-1, 1], n)
        return (signs * rng.choice([1, 1, 1, 2], n)).astype(dtype).reshape(shape)
    lo, hi, scale = _KINDS[kind]
    if dtype.kind == "u":
        lo = max(lo, 0)
    if dtype.kind in "iu":
        values = rng.integers(lo, hi, n)
        if kind == "nonzero":
            values *= rng.choice([-1, 1] if dtype.kind == "i" else [1], n)
        return values.astype(dtype).reshape(shape)
    real = rng.integers(lo, hi, n) * scale
    if kind == "nonzero":
        real *= rng.choice([-1, 1], n)
    if dtype.kind == "c":
        imag = rng.integers(1, 4, n) * 0.25 * rng.choice([-1, 1], n)
        real = real + 1j * imag
    return real.astype(dtype).reshape(shape)


def _to_module(xp, value):
    """A private copy of `value` in module `xp`; non-array values are passed through."""
    if isinstance(value, numpy.ndarray):
        return xp.array(value, copy=True)
    return value


def _materialize(value):
    """Force a (possibly deferred) result into NumPy / Python objects for comparison."""
    if isinstance(value, (list, tuple)):
        return type(value)(_materialize(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, numpy.dtype)):
        return value
    if isinstance(value, numpy.generic):
        return value
    if hasattr(value, "__array__"):
        return numpy.asarray(value)
    return value


def _run(xp, fn, args):
    converted = [_to_module(xp, a) for a in args]
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _materialize(fn(xp, *converted))


def check(fn, *args, rtol=None, atol=None, values=True):
    """Assert fn(numpy, *args) and fn(tnp, *args) agree; returns (actual, expected).

    NumPy ndarray arguments are copied into each module's array type before the call, so
    `fn` receives numpy arrays on one side and tessera arrays on the other.  If NumPy
    raises, tessera must raise the same public exception type (and None is returned).
    values=False compares only dtype and shape (for `empty`).
    """
    try:
        expected = _run(numpy, fn, args)
    except (AssertionError, NameError):
        raise  # a bug in the test itself, not NumPy behaviour to mirror
    except Exception as exc:  # noqa: BLE001 - any NumPy error must be mirrored
        with pytest.raises(public_exception_type(exc)):
            _run(tnp, fn, args)
        return None
    actual = _run(tnp, fn, args)
    assert_same(actual, expected, rtol=rtol, atol=atol, values=values)
    return actual, expected


def _run_statement(xp, source, make_env, names):
    """(exception or None, result, the arrays `names` of the environment afterwards) of
    `source`, an expression or statements (whose result is `r`), run with make_env(xp)."""
    env = make_env(xp)
    result, error = None, None
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            try:
                code = compile(source, "<case>", "eval")
            except SyntaxError:
                exec(compile(source, "<case>", "exec"), env)
                result = env.get("r")
            else:
                result = eval(code, env)
            result = _materialize(result)  # a deferred error surfaces here, still in the statement
        except Exception as exc:  # noqa: BLE001 - NumPy's error is the reference
            error = exc
        arrays = tuple(numpy.asarray(env[name]) for name in names)
    return error, result, arrays


def check_statement(source, make_env, names=(), leaks=(), casting_message=False):
    """Runs `source` on NumPy and on tessera.numpy: the same exception class (NumPy's ufunc
    casting errors: the same class, and message with `casting_message`; no message holding a
    word of `leaks`), or the same result; and the arrays `names` equal afterwards (nothing
    lost by an error)."""
    from tessera import numpy as tnp

    expected_error, expected, expected_arrays = _run_statement(numpy, source, make_env, names)
    error, actual, arrays = _run_statement(tnp, source, make_env, names)
    if expected_error is not None:
        assert error is not None, f"no exception; NumPy raised {expected_error!r}"
        if isinstance(expected_error, numpy._core._exceptions._UFuncCastingError):
            assert type(error) is type(expected_error), f"{type(error)} != {type(expected_error)}: {error}"
            assert not casting_message or str(error) == str(expected_error)
        else:
            assert isinstance(error, public_exception_type(expected_error)), (
                f"{type(error).__name__}: {error} (NumPy: {expected_error!r})")
        assert not any(s in str(error) for s in leaks), str(error)
    else:
        assert error is None, f"raised {error!r}"
        if expected is None:
            assert actual is None
        else:
            assert_same(actual, expected)
    for name, got, want in zip(names, arrays, expected_arrays):
        assert_same(got, want, where=f"array {name} afterwards")
    return actual


def assert_same(actual, expected, rtol=None, atol=None, values=True, where="result"):
    """Recursive comparison of results already materialised by `_materialize`."""
    if isinstance(expected, (list, tuple)):
        assert type(actual) is type(expected), f"{where}: {type(actual)} != {type(expected)}"
        assert len(actual) == len(expected), f"{where}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, rtol, atol, values, f"{where}[{i}]")
        return
    if isinstance(expected, (numpy.ndarray, numpy.generic)):
        assert isinstance(actual, (numpy.ndarray, numpy.generic)), (
            f"{where}: expected an array or NumPy scalar, got {type(actual)}")
        actual = numpy.asarray(actual)
        expected = numpy.asarray(expected)
        assert actual.dtype == expected.dtype, f"{where}: dtype {actual.dtype} != {expected.dtype}"
        assert actual.shape == expected.shape, f"{where}: shape {actual.shape} != {expected.shape}"
        if values:
            assert_values(actual, expected, rtol, atol, where)
        return
    assert type(actual) is type(expected), f"{where}: {type(actual)} != {type(expected)}"
    if isinstance(expected, (float, complex)):
        assert_values(numpy.asarray(actual), numpy.asarray(expected), rtol, atol, where)
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def assert_values(actual, expected, rtol=None, atol=None, where="result"):
    """Exact for integers and bools; dtype-tolerant allclose (nan positions equal) otherwise."""
    if expected.dtype.kind in "fc":
        component = numpy.empty(0, expected.dtype).real.dtype
        default_rtol, default_atol = TOLERANCE[component]
        numpy.testing.assert_allclose(
            actual, expected, equal_nan=True, err_msg=where,
            rtol=default_rtol if rtol is None else rtol,
            atol=default_atol if atol is None else atol)
    else:
        numpy.testing.assert_array_equal(actual, expected, err_msg=where, strict=True)


def ids(value):
    """Readable pytest id of one parameter value (tuples, slices, dtypes...): `ids=ids`."""
    if isinstance(value, str):
        return value
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    return repr(value).replace(" ", "")


def output_under(config, code):
    """What `python -c code` prints (stripped) in a fresh interpreter with TESSERA_CONFIG=config
    and this folder importable, outside test mode: to compare results across cpus and tilings."""
    import subprocess
    import sys

    env = dict(os.environ, TESSERA_CONFIG=config, PYTHONPATH=os.path.dirname(os.path.abspath(__file__)))
    env.pop("TESSERA_TEST", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def same_output_under(code, configs):
    """Asserts that `code` prints under each TESSERA_CONFIG of `configs` what it prints under
    the first (each run in a fresh interpreter, as output_under runs it)."""
    want = output_under(configs[0], code)
    for config in configs[1:]:
        assert output_under(config, code) == want, config
