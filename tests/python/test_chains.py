"""A fused expression computes chains of + - * / and unary functions (each step reading the
previous result once) in registers, strip by strip, instead of one pass over a buffer per
operation. Every step is still the operation NumPy does on the same operands in the same
order (a where step picks between the running value and its operand lane by lane), so
results must be NumPy's bit for bit: operand order of - and /, scalars on either
side, float32, special values, strided and broadcast operands, lengths that end mid-strip,
and intermediate values that are read twice (which end a chain). The math functions (exp,
log, ...) are tessera's own vector functions: inside a chain they give the bits they give
on their own."""
import numpy
import pytest

import tessera.numpy as np

LENGTHS = [1, 7, 31, 32, 33, 1000, 4099, 100_003]


def operands(m, n, dtype, seed=5):
    rng = numpy.random.default_rng(seed)
    return [m.array(rng.standard_normal(n).astype(dtype)) for _ in range(4)]


def sum_scaled(m, a, b, c, d):
    return 0.25 * (a + b + c + d)


def swapped(m, a, b, c, d):
    return 2.0 - (3.0 / (a - b * c)) * d


def mixed(m, a, b, c, d):
    return ((a * b - c) / (d + 1.5) + a) * (c - 0.5) - b


def right_nested(m, a, b, c, d):
    return a - (b - (c - (d - 1.0)))


def shared_intermediate(m, a, b, c, d):
    t = a + b          # read twice below: ends a chain
    return (t * c + d) - t * 2.0


def float32_scalar(m, a, b, c, d):
    return (a * m.float32(0.3) + b) / m.float32(7) - c * d


def exact_unary(m, a, b, c, d):
    return m.sqrt(m.abs(a * 3.0 - b)) * c - (-(d + 1.0))


def unary_first(m, a, b, c, d):
    return -m.abs(a) / (m.sqrt(m.abs(b)) + 1.0) * c + d


def where_complement(m, a, b, c, d):
    t = a * 0.5 + b    # read twice: the chain 1 - t continues through the where
    return m.where(c > 0, 1.0 - t, t) * 2.0 + d


def where_false_side(m, a, b, c, d):
    return m.where(a > b, c, d * 2.0 - 1.0) + 1.0


def where_scalar_choice(m, a, b, c, d):
    return m.where(a > 0.3, 2.0, b * 3.0 - c) * d


def where_scalar_condition(m, a, b, c, d):
    return m.where(True, a * 2.0 - b, c) + m.where(False, d, b / 3.0 + c)


PROGRAMS = [sum_scaled, swapped, mixed, right_nested, shared_intermediate, float32_scalar, exact_unary,
            unary_first, where_complement, where_false_side, where_scalar_choice, where_scalar_condition]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n", LENGTHS)
def test_chains_match_numpy_bitwise(program, dtype, n):
    want = program(numpy, *operands(numpy, n, dtype))
    got = numpy.asarray(program(np, *operands(np, n, dtype)))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def test_special_values_propagate_as_numpy():
    vals = numpy.array([0.0, -0.0, 1.0, -1.0, numpy.inf, -numpy.inf, numpy.nan, 1e-310, 1e308, -3.5])
    a = numpy.tile(vals, 11)
    b = numpy.roll(a, 3)
    c = numpy.roll(a, 7)
    with numpy.errstate(all="ignore"):
        want = (a / b - c) * b + a
        got = numpy.asarray((np.array(a) / np.array(b) - np.array(c)) * np.array(b) + np.array(a))
    assert numpy.array_equal(got, want, equal_nan=True)
    assert numpy.array_equal(numpy.signbit(got), numpy.signbit(want))


def test_strided_and_broadcast_operands():
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((300, 401))
    row = rng.standard_normal(401)
    col = rng.standard_normal((300, 1))
    for m in (numpy, np):
        X, R, C = (m.array(v) for v in (x, row, col))
        r = ((X[:, ::2] + R[::2]) * C - X[::-1, ::2]) / (C + 2.0)
        if m is numpy:
            want = r
        else:
            got = numpy.asarray(r)
    assert got.tobytes() == want.tobytes()


def test_chain_written_into_its_input():
    ref = numpy.random.default_rng(2).standard_normal(50_001)
    t = np.array(ref)
    ref[:] = (ref * 3.0 - 1.0) / 7.0 + ref
    t[:] = (t * 3.0 - 1.0) / 7.0 + t
    assert numpy.asarray(t).tobytes() == ref.tobytes()


def test_chain_read_by_a_reduction():
    a, b, c, d = operands(numpy, 123_457, numpy.float64)
    ta, tb, tc, td = (np.array(v) for v in (a, b, c, d))
    want = numpy.sum((a - b * c + d) ** 2)
    got = float(np.sum((ta - tb * tc + td) ** 2))
    assert numpy.isclose(got, want, rtol=1e-12, atol=0)


def exp_between(m, a, b, c, d):
    return m.exp(a * 0.5 - b) * c + d


def log_and_exp(m, a, b, c, d):
    return m.log(m.abs(a) + 0.25) * b - m.exp(-(c * c)) / (d * d + 1.0)


@pytest.mark.parametrize("program", [exp_between, log_and_exp], ids=lambda p: p.__name__)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n", LENGTHS)
def test_math_in_chains_gives_its_own_bits(program, dtype, n):
    """exp and log inside a chain give the bits of the same function over a stored array:
    `steps` materialises each operation before the next one reads it."""
    ops = operands(np, n, dtype)
    fused = numpy.asarray(program(np, *ops))

    class Stepwise:
        def __getattr__(self, name):
            f = getattr(np, name)
            return lambda *args: np.array(numpy.asarray(f(*args)))
    steps = numpy.asarray(program(Stepwise(), *(Materialised(o) for o in ops)))
    assert fused.dtype == steps.dtype == dtype
    assert fused.tobytes() == steps.tobytes()
    want = program(numpy, *operands(numpy, n, dtype))
    # Near NumPy's too (the last + or - may cancel: the bound is on the operands' scale).
    eps = numpy.finfo(dtype).eps
    numpy.testing.assert_allclose(fused, want, rtol=8 * eps, atol=16 * eps * float(numpy.abs(want).max()))


class Materialised:
    """An operand whose every arithmetic result is computed and stored on its own."""

    def __init__(self, a):
        self.a = a

    @staticmethod
    def _wrap(v):
        return Materialised(np.array(numpy.asarray(v)))

    def _v(self, o):
        return o.a if isinstance(o, Materialised) else o

    def __add__(self, o): return self._wrap(self.a + self._v(o))
    def __radd__(self, o): return self._wrap(self._v(o) + self.a)
    def __sub__(self, o): return self._wrap(self.a - self._v(o))
    def __rsub__(self, o): return self._wrap(self._v(o) - self.a)
    def __mul__(self, o): return self._wrap(self.a * self._v(o))
    def __rmul__(self, o): return self._wrap(self._v(o) * self.a)
    def __truediv__(self, o): return self._wrap(self.a / self._v(o))
    def __rtruediv__(self, o): return self._wrap(self._v(o) / self.a)
    def __neg__(self): return self._wrap(-self.a)

    def __array__(self, dtype=None, copy=None):
        return numpy.asarray(self.a, dtype=dtype)


def test_unary_steps_on_special_values():
    vals = numpy.array([0.0, -0.0, 1.0, -1.0, numpy.inf, -numpy.inf, numpy.nan, 1e-310, 1e308, -3.5, 709.0, 710.0])
    a = numpy.tile(vals, 9)
    b = numpy.roll(a, 5)
    with numpy.errstate(all="ignore"):
        want = numpy.sqrt(-(a * 2.0 - b)) + numpy.abs(-a) * 0.5
        got = numpy.asarray(np.sqrt(-(np.array(a) * 2.0 - np.array(b))) + np.abs(-np.array(a)) * 0.5)
        assert numpy.array_equal(got, want, equal_nan=True)
        # Signed zeros and infinities keep NumPy's sign. A NaN's sign is not compared: which
        # NaN an x86 add of two NaNs returns depends on how the compiler ordered its operands.
        number = ~numpy.isnan(want)
        assert numpy.array_equal(numpy.signbit(got[number]), numpy.signbit(want[number]))
        e = numpy.asarray(np.exp(np.array(a) * 1.0 + 0.0) * 1.0 - 0.0)
        alone = numpy.asarray(np.exp(np.array(a)))
    assert numpy.array_equal(e, alone, equal_nan=True)


def test_unary_step_on_a_broadcast_start():
    x = numpy.random.default_rng(3).standard_normal(10_001)
    half = numpy.array(0.5)
    want = numpy.sqrt(half * 3.0) * x + 1.0
    got = numpy.asarray(np.sqrt(np.array(half) * 3.0) * np.array(x) + 1.0)
    assert got.tobytes() == want.tobytes()
    e = numpy.asarray(np.exp(np.array(half) * 3.0) * np.array(x) + 1.0)
    assert numpy.array_equal(e, float(numpy.asarray(np.exp(np.array(1.5)))) * x + 1.0)
