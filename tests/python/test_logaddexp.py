"""logaddexp, a native ufunc (one row of src/numeric/elementwise/ufuncs.def and one functor of
binary_functors.h), against NumPy: values bit for bit (NumPy's npy_logaddexp steps over the
same libm calls; float16 in float32, rounded once), the result dtype of every input dtype,
NaN and infinities, NumPy's TypeError where it has no loop, and the ufunc's keywords and
methods."""
import numpy
import pytest

import tessera.numpy as tnp
from parity import ALL_DTYPES, check, sample

FLOATS = ["float16", "float32", "float64"]
inf, nan = numpy.inf, numpy.nan


def same_bits(fn, *args):
    result = check(fn, *args)
    if result is not None:
        actual, expected = (numpy.asarray(r) for r in result)
        assert actual.tobytes() == expected.tobytes(), (actual, expected)
    return result


def values(dtype, seed):
    """Ordinary values, both orders of size, equal pairs, and every special value."""
    rng = numpy.random.default_rng(seed)
    x = rng.normal(0, 30, 200)
    x[::7] = 0.0
    head = [0.0, -0.0, inf, -inf, nan, 1.0, inf, -inf, nan, 3.0, -700.0, 700.0, 1e-30, 88.0, -88.0, 5.0]
    x[:len(head)] = head if seed == 0 else [0.0, 0.0, inf, inf, 1.0, -inf, -inf, nan, nan, 3.0, -700.0, 700.0,
                                            -1e-30, 88.5, -87.0, 5.0]
    with numpy.errstate(over="ignore"):
        return x.astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_values_bitwise(dtype):
    x, y = values(dtype, 0), values(dtype, 1)
    same_bits(lambda xp, a, b: xp.logaddexp(a, b), x, y)
    same_bits(lambda xp, a, b: xp.logaddexp(b, a), x, y)
    same_bits(lambda xp, a: xp.logaddexp(a, a), x)  # equal arguments: x + log(2)
    same_bits(lambda xp, a: xp.logaddexp(a, 2.5), x)  # a Python float keeps the dtype
    same_bits(lambda xp, a: xp.logaddexp(-inf, a), x)
    same_bits(lambda xp, a, b: xp.logaddexp(a[:, None][:20], b[None, :30]), x, y)  # broadcast


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("other", ALL_DTYPES[::3])
def test_result_dtype_and_type_errors(dtype, other):
    """NumPy's loops (e, f, d): integers and bools find the first float they cast to safely;
    complex numbers have no loop (TypeError)."""
    a, b = sample(dtype, (9,), "any", seed=1), sample(other, (9,), "any", seed=2)
    with numpy.errstate(all="ignore"):
        check(lambda xp, x, y: xp.logaddexp(x, y), a, b, rtol=1e-6 if "float16" not in (dtype, other) else None)


def test_scalars_and_keywords():
    x, y = values("float64", 0), values("float64", 1)
    same_bits(lambda xp: xp.logaddexp(1.0, 2.0))
    same_bits(lambda xp, a, b: xp.logaddexp(a, b, dtype="float32"), x, y)
    same_bits(lambda xp, a, b: xp.logaddexp(a, b, out=xp.zeros(200, "float32"), casting="unsafe"), x, y)
    check(lambda xp, a, b: xp.logaddexp(a, b, out=xp.zeros(200, "int64")), x, y)  # same_kind refuses
    check(lambda xp, a, b: xp.logaddexp(a, b, dtype="int64"), x, y)  # no integer loop
    check(lambda xp, a: xp.logaddexp(a, "1"), x)
    assert tnp.logaddexp.nin == 2 and tnp.logaddexp.identity == -inf and repr(tnp.logaddexp) == "<ufunc 'logaddexp'>"


def test_in_expressions_and_methods():
    x, y = values("float64", 0)[16:], values("float64", 1)[16:]
    same_bits(lambda xp, a, b: xp.logaddexp(a * 2.0 + 1.0, b) - a / 3.0, x, y)  # inside a fused chain
    same_bits(lambda xp, a, b: xp.logaddexp.outer(a[:10], b[:12]), x, y)
    check(lambda xp, a: xp.logaddexp.reduce(a), x)
    check(lambda xp, a: xp.logaddexp.accumulate(a[:20]), x)

    def at(xp, a, b):
        a = xp.array(a)
        xp.logaddexp.at(a, [0, 3, 3, 5], b[:4])
        return a
    same_bits(at, x, y)
