"""A fused expression computes chains of + - * / (each step reading the previous result once)
in registers, strip by strip, instead of one pass over a buffer per operation. Every step is
still the operation NumPy does on the same operands in the same order, so results must be
NumPy's bit for bit: operand order of - and /, scalars on either side, float32, special
values, strided and broadcast operands, lengths that end mid-strip, and intermediate values
that are read twice (which end a chain)."""
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


PROGRAMS = [sum_scaled, swapped, mixed, right_nested, shared_intermediate, float32_scalar]


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
