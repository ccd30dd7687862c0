"""Elementwise ufuncs: every dtype, shapes and broadcasting, out=, non-contiguous inputs.

Operators (+, +=, reflected, Python scalar operands) are in test_operators.py.  Where NumPy
rejects a dtype/ufunc pair, `check` asserts that tessera raises the same TypeError.
"""

import numpy
import pytest

from parity import ALL_DTYPES, check, ids, sample, tnp

# ufunc name -> kind of input data (see parity.sample) that keeps it in its domain.
UNARY = {
    "sqrt": "positive", "exp": "any", "log": "positive", "log1p": "positive",
    "expm1": "any", "sin": "any", "cos": "any", "tan": "any", "arcsin": "unit",
    "arccos": "unit", "arctan": "any", "sinh": "any", "cosh": "any", "tanh": "any",
    "arcsinh": "any", "arccosh": "ge1", "arctanh": "unit", "abs": "any", "absolute": "any",
    "sign": "any", "floor": "any", "ceil": "any", "rint": "any", "trunc": "any",
    "negative": "any", "positive": "any", "isnan": "any", "isinf": "any", "isfinite": "any",
    "square": "any", "reciprocal": "nonzero", "conj": "any", "conjugate": "any",
    "real": "any", "imag": "any", "angle": "any", "logical_not": "any", "invert": "any",
}

# ufunc name -> kind of the second operand ("shift": small non-negative integers).
BINARY = {
    "add": "any", "subtract": "any", "multiply": "any", "true_divide": "any",
    "divide": "any", "floor_divide": "any", "mod": "any", "remainder": "any", "fmod": "any",
    "power": "shift", "maximum": "any", "minimum": "any", "fmax": "any", "fmin": "any",
    "hypot": "any", "arctan2": "any", "logical_and": "any", "logical_or": "any",
    "logical_xor": "any", "bitwise_and": "any", "bitwise_or": "any", "bitwise_xor": "any",
    "left_shift": "shift", "right_shift": "shift", "equal": "any", "not_equal": "any",
    "less": "any", "less_equal": "any", "greater": "any", "greater_equal": "any",
}

SHAPES = [(), (0,), (7,), (3, 4), (2, 3, 4)]
# (shape of first operand, shape of second operand) pairs that broadcast.
BROADCAST = [(s, s) for s in SHAPES] + [
    ((1, 5), (4, 1)), ((3, 4), (4,)), ((), (3, 4)), ((2, 3, 4), (3, 1)), ((0, 3), (1, 3)),
    ((5,), (0, 1)),
]
# Shapes NumPy refuses to broadcast: tessera must raise the same ValueError.
MISMATCHED = [((3,), (4,)), ((2, 3), (3, 2)), ((0,), (2,))]


def unary(name):
    return lambda xp, a: getattr(xp, name)(a)


def binary(name):
    return lambda xp, a, b: getattr(xp, name)(a, b)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_dtypes(name, dtype):
    check(unary(name), sample(dtype, (3, 4), UNARY[name]))


@pytest.mark.parametrize("shape", SHAPES + [(1, 5), (4, 1)], ids=ids)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_shapes(name, dtype, shape):
    check(unary(name), sample(dtype, shape, UNARY[name]))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_binary_dtypes(name, dtype):
    check(binary(name), sample(dtype, (3, 4)), sample(dtype, (3, 4), BINARY[name], seed=1))


@pytest.mark.parametrize("shapes", BROADCAST + MISMATCHED, ids=ids)
@pytest.mark.parametrize("dtype", ["bool", "int64", "float32", "complex128"])
@pytest.mark.parametrize("name", ["add", "multiply", "true_divide", "floor_divide", "power",
                                  "maximum", "arctan2", "bitwise_xor", "less_equal"])
def test_binary_broadcasting(name, dtype, shapes):
    a, b = sample(dtype, shapes[0]), sample(dtype, shapes[1], BINARY[name], seed=1)
    check(binary(name), a, b)
    check(binary(name), b, a)


MIXED = ["bool", "int8", "uint8", "int16", "uint32", "int64", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]


@pytest.mark.parametrize("right", MIXED)
@pytest.mark.parametrize("left", MIXED)
@pytest.mark.parametrize("name", ["add", "subtract", "true_divide", "floor_divide", "power",
                                  "maximum", "fmin", "equal", "bitwise_or", "arctan2"])
def test_binary_mixed_dtypes(name, left, right):
    check(binary(name), sample(left, (2, 3)), sample(right, (2, 3), BINARY[name], seed=1))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "uint64"])
@pytest.mark.parametrize("name", ["floor_divide", "remainder", "mod", "fmod", "true_divide"])
def test_integer_division_by_zero(name, dtype):
    # NumPy defines x // 0 == 0 and x % 0 == 0 for integers (warning silenced by errstate).
    a = sample(dtype, (6,))
    check(binary(name), a, sample(dtype, (6,)) * 0)
    check(lambda xp, a: getattr(xp, name)(a, 0), a)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_integer_floor_semantics_with_negatives(dtype):
    # Python-style floor division and modulo (sign of the divisor), C-style fmod.
    a, b = sample(dtype, (4, 5), "any"), sample(dtype, (4, 5), "nonzero", seed=2)
    for name in ["floor_divide", "remainder", "fmod"]:
        check(binary(name), a, b)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex128"])
def test_special_values(dtype):
    values = numpy.array([0.0, -0.0, 1.0, -1.0, numpy.inf, -numpy.inf, numpy.nan], dtype=dtype)
    a, b = numpy.meshgrid(values, values)
    for name in ["add", "subtract", "multiply", "true_divide", "power", "maximum", "minimum",
                 "fmax", "fmin", "hypot", "arctan2", "floor_divide", "remainder", "fmod"]:
        check(binary(name), a, b)
    for name in ["sqrt", "exp", "log", "sign", "floor", "isnan", "isinf", "isfinite",
                 "reciprocal", "tanh", "arctan", "abs", "rint", "square"]:
        check(unary(name), values)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_integer_power_edge_cases(dtype):
    # Negative integer exponents are a ValueError in NumPy, even for a single element.
    a = sample(dtype, (5,))
    check(lambda xp, a: xp.power(a, -1), a)
    check(lambda xp, a: xp.power(a, 0), a)
    check(lambda xp: xp.power(xp.array([2, 3], dtype=dtype), xp.array([1, -2], dtype=dtype)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_power_fractional_and_negative_exponents(dtype):
    check(binary("power"), sample(dtype, (3, 4), "positive"), sample(dtype, (3, 4), seed=3))
    check(binary("power"), sample(dtype, (3, 4)), sample(dtype, (3, 4), seed=4))


CLIP = [(1, 3), (-1.5, 2.5), (None, 2), (-2, None), (3, 1), (True, 2)]


@pytest.mark.parametrize("bounds", CLIP, ids=ids)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float64"])
def test_clip_scalar_bounds(dtype, bounds):
    check(lambda xp, a: xp.clip(a, *bounds), sample(dtype, (3, 4)))
    check(lambda xp, a: a.clip(*bounds), sample(dtype, (3, 4)))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_clip_array_bounds_and_out(dtype):
    a, lo, hi = sample(dtype, (3, 4)), sample(dtype, (4,), seed=1), sample(dtype, (3, 1), seed=2)
    check(lambda xp, a, lo, hi: xp.clip(a, lo, hi), a, lo, hi)
    check(lambda xp, a, lo: xp.clip(a, lo, None), a, lo)

    def into_out(xp, a, lo, hi, out):
        assert xp.clip(a, lo, hi, out=out) is out
        return out

    check(into_out, a, lo, hi, sample(dtype, (3, 4)) * 0)


# (ufunc, first dtype, second dtype, out dtype, extra keyword arguments).  NumPy allows
# some (same_kind or safe casts into out), rejects others with a casting TypeError.
OUT_CASES = [
    ("add", "int32", "int32", "int32", {}),
    ("add", "int32", "int32", "float64", {}),
    ("add", "int32", "int32", "int8", {}),
    ("add", "float64", "float64", "float32", {}),
    ("add", "float64", "float64", "int64", {}),
    ("add", "float64", "float64", "int64", {"casting": "unsafe"}),
    ("multiply", "int8", "int8", "int16", {}),
    ("multiply", "complex128", "complex128", "float64", {}),
    ("true_divide", "int64", "int64", "float32", {}),
    ("true_divide", "int64", "int64", "int64", {}),
    ("less", "float32", "float32", "int8", {}),
    ("less", "float32", "float32", "bool", {}),
    ("maximum", "uint8", "uint8", "uint64", {}),
    ("subtract", "float32", "float32", "float32", {"dtype": "float64"}),
    ("add", "int16", "float32", "float32", {"casting": "same_kind"}),
    ("add", "float64", "float64", "float32", {"casting": "safe"}),
]


@pytest.mark.parametrize("name,left,right,out_dtype,kwargs", OUT_CASES, ids=ids)
def test_out(name, left, right, out_dtype, kwargs):
    def f(xp, a, b, out):
        result = getattr(xp, name)(a, b, out=out, **kwargs)
        assert result is out
        return out

    check(f, sample(left, (3, 4)), sample(right, (3, 4), "nonzero", seed=1),
          sample(out_dtype, (3, 4), seed=2))


def test_out_forms():
    a, b = sample("float64", (3, 4)), sample("float64", (3, 4), seed=1)
    out = sample("float64", (3, 4), seed=2)

    def as_tuple(xp, a, b, out):
        assert xp.add(a, b, out=(out,)) is out
        return out

    def aliasing_input(xp, a, b):
        assert xp.multiply(a, b, out=a) is a
        return a

    def unary_out(xp, a, out):
        assert xp.sqrt(a, out=out) is out
        return out

    check(as_tuple, a, b, out)
    check(aliasing_input, a, b)
    check(unary_out, abs(a), out)
    check(lambda xp, a, b, out: xp.add(a, b, out=out), a, b, out[:2])  # wrong shape
    check(lambda xp, a, b, out: xp.add(a, b, out=out), a[0], b[0], out)  # would broadcast


def test_out_noncontiguous():
    a, b = sample("int32", (3, 4)), sample("int32", (3, 4), seed=1)

    def into_strided(xp, a, b, out):
        xp.add(a, b, out=out[::2, ::-1])
        return out

    def into_transpose(xp, a, b, out):
        xp.subtract(a.T, b.T, out=out.T)
        return out

    check(into_strided, a[:3:2], b[:3:2], sample("int32", (6, 4), seed=2))
    check(into_transpose, a, b, sample("int32", (3, 4), seed=3))


VIEWS = {
    "step": lambda a: a[::2],
    "negative_step": lambda a: a[::-1, ::-2],
    "transpose": lambda a: a.T,
    "column": lambda a: a[:, 1],
    "inner_offset": lambda a: a[1:3, 2:5],
}


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128"])
def test_noncontiguous_inputs(view, dtype):
    cut = VIEWS[view]
    a, b = sample(dtype, (4, 6)), sample(dtype, (4, 6), "nonzero", seed=1)
    for name in ["negative", "sqrt", "square", "sign", "exp", "isfinite"]:
        check(lambda xp, a: getattr(xp, name)(cut(a)), a)
    for name in ["add", "multiply", "true_divide", "maximum", "equal"]:
        check(lambda xp, a, b: getattr(xp, name)(cut(a), cut(b)), a, b)
        check(lambda xp, a, b: getattr(xp, name)(cut(a), cut(b.copy())), a, b)
    check(lambda xp, a, b: xp.add(a[::2, ::-1], b.T[::-3, 1:3].T), a, b)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int8"])
def test_real_imag_conj_of_views(dtype):
    a = sample(dtype, (4, 6))
    check(lambda xp, a: (xp.real(a[::2]), xp.imag(a[:, ::-1]), xp.conj(a.T)), a)
    check(lambda xp, a: (a.real, a.imag, a.conj()), a)


def test_complex_multiply_and_divide_at_infinities_zeros_and_nan_as_numpy():
    # NumPy's own formulas (Smith's division, dividing by |0| for a zero divisor; no C Annex G
    # rescue of infinities), for arrays and for a scalar divisor such as -0.0.
    import itertools
    values = [0.0, -0.0, 1.0, -2.5, numpy.inf, -numpy.inf, numpy.nan]
    z = numpy.array([complex(a, b) for a, b in itertools.product(values, values)])
    a, b = numpy.repeat(z, len(z)), numpy.tile(z, len(z))
    with numpy.errstate(all="ignore"):
        for dtype in (numpy.complex64, numpy.complex128):
            x, y = a.astype(dtype), b.astype(dtype)
            for op, name in ((numpy.multiply, "multiply"), (numpy.true_divide, "divide")):
                for other in (y, -0.0, numpy.complex128(-0.0), 2.0):
                    want = op(x, other)
                    got = numpy.asarray(getattr(tnp, name)(tnp.asarray(x),
                                                           tnp.asarray(other) if isinstance(other, numpy.ndarray) else other))
                    same = (got == want) | (numpy.isnan(got) & numpy.isnan(want))
                    same &= (numpy.signbit(got.real) == numpy.signbit(want.real)) | numpy.isnan(want.real)
                    assert same.all(), (dtype, name, x[~same][:3], want[~same][:3], got[~same][:3])
