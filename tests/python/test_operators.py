"""Python operators on arrays: binary, reflected, in-place, unary, and operands that are
Python scalars (NEP 50 weak promotion), NumPy scalars, lists or plain NumPy arrays.

The ufunc spelling of the same operations is in test_elementwise.py.
"""

import operator

import numpy
import pytest

from parity import ALL_DTYPES, check, ids, sample

OPERATORS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "<<": operator.lshift,
    ">>": operator.rshift, "&": operator.and_, "|": operator.or_, "^": operator.xor,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "!=": operator.ne, "divmod": divmod,
}
INPLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow,
    "<<=": operator.ilshift, ">>=": operator.irshift, "&=": operator.iand,
    "|=": operator.ior, "^=": operator.ixor,
}
UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert, "abs": abs}
# Second operands of these are exponents or shift counts: small and non-negative.
SMALL_RIGHT = {"**", "<<", ">>", "**=", "<<=", ">>="}

SCALARS = [3, -2, 0, 300, -(2**40), 2**64, 2.5, -0.75, 1e300, 1 + 2j, True, False,
           numpy.float32(1.5), numpy.int64(3), numpy.uint8(2), numpy.float16(-0.5),
           numpy.complex64(1j), numpy.bool_(True)]
SCALAR_DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32",
                 "float64", "complex64"]


def right_kind(op):
    return "shift" if op in SMALL_RIGHT else "any"


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", OPERATORS)
def test_binary_operator(op, dtype):
    check(lambda xp, a, b: OPERATORS[op](a, b),
          sample(dtype, (3, 4)), sample(dtype, (3, 4), right_kind(op), seed=1))


@pytest.mark.parametrize("shapes", [((), ()), ((0,), (0,)), ((7,), ()), ((1, 5), (4, 1)),
                                    ((2, 3, 4), (4,)), ((3,), (4,))], ids=ids)
@pytest.mark.parametrize("dtype", ["int64", "float64"])
@pytest.mark.parametrize("op", OPERATORS)
def test_binary_operator_broadcasting(op, dtype, shapes):
    a, b = sample(dtype, shapes[0]), sample(dtype, shapes[1], right_kind(op), seed=1)
    check(lambda xp, a, b: OPERATORS[op](a, b), a, b)


@pytest.mark.parametrize("scalar", SCALARS, ids=ids)
@pytest.mark.parametrize("dtype", SCALAR_DTYPES)
@pytest.mark.parametrize("op", OPERATORS)
def test_scalar_operand_both_sides(op, dtype, scalar):
    # Result dtypes follow NEP 50: Python scalars are weak, NumPy scalars are not; a Python
    # int that does not fit the array's integer dtype is an OverflowError for arithmetic.
    a = sample(dtype, (3, 4), right_kind(op))
    check(lambda xp, a: OPERATORS[op](a, scalar), a)
    check(lambda xp, a: OPERATORS[op](scalar, a), a)


@pytest.mark.parametrize("op", ["+", "*", "-", "<", "==", "&"])
def test_list_and_numpy_operands(op):
    a = sample("int32", (3, 4))
    check(lambda xp, a: OPERATORS[op](a, [1, 2, 3, 4]), a)
    check(lambda xp, a: OPERATORS[op]([[1], [0], [2]], a), a)
    # A module array combined with a plain NumPy array, on either side.
    plain = sample("int16", (4,), seed=5)
    check(lambda xp, a: numpy.asarray(OPERATORS[op](a, plain)), a)
    check(lambda xp, a: numpy.asarray(OPERATORS[op](plain, a)), a)


@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4)], ids=ids)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", UNARY)
def test_unary_operator(op, dtype, shape):
    check(lambda xp, a: UNARY[op](a), sample(dtype, shape))


def test_unary_operator_on_views():
    a = sample("int32", (4, 6))
    for op in UNARY.values():
        check(lambda xp, a: op(a[::-2, 1::3]), a)
        check(lambda xp, a: op(a.T), a)


def inplace(op):
    def f(xp, a, b):
        target = a
        a = INPLACE[op](a, b)
        assert a is target, "in-place operator must return the same array"
        return a

    return f


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", INPLACE)
def test_inplace_same_dtype(op, dtype):
    check(inplace(op), sample(dtype, (3, 4)), sample(dtype, (3, 4), right_kind(op), seed=1))


INPLACE_MIXED = ["bool", "int8", "uint8", "int64", "float32", "float64", "complex128"]


@pytest.mark.parametrize("value", INPLACE_MIXED)
@pytest.mark.parametrize("target", INPLACE_MIXED)
@pytest.mark.parametrize("op", ["+=", "*=", "/=", "//=", "**=", "|=", "<<="])
def test_inplace_mixed_dtypes(op, target, value):
    # Casting of the result back into `target` follows 'same_kind': int += float raises.
    check(inplace(op), sample(target, (3, 4)), sample(value, (4,), right_kind(op), seed=1))


@pytest.mark.parametrize("scalar", [3, -1, 300, 2.5, 1j, True, numpy.float64(2)], ids=ids)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float16", "float32",
                                   "complex64"])
@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "//=", "**=", "&="])
def test_inplace_scalar(op, dtype, scalar):
    check(lambda xp, a: inplace(op)(xp, a, scalar), sample(dtype, (3, 4), "nonzero"))


def test_inplace_broadcasting_and_shape_errors():
    a, row, col = sample("float64", (3, 4)), sample("float64", (4,), seed=1), sample(
        "float64", (3, 1), seed=2)
    check(inplace("+="), a, row)
    check(inplace("*="), a, col)
    check(inplace("-="), row, a)  # result would need shape (3, 4): ValueError
    check(inplace("+="), a, sample("float64", (4, 3)))


def test_inplace_through_views_changes_base():
    a = sample("int32", (4, 6))

    def strided(xp, a):
        view = a[::2, ::-3]
        view += 10
        return a

    def transposed(xp, a):
        view = a.T
        view *= -1
        return a

    def slice_expression(xp, a):
        a[1:3, 2:] -= a[:2, :4]
        return a

    def overlapping(xp, a):
        a[1:] += a[:-1]  # NumPy buffers overlapping operands: results as if copied first
        return a

    for f in (strided, transposed, slice_expression, overlapping):
        check(f, a)


@pytest.mark.parametrize("dtype", ["int8", "uint32", "float32", "complex128"])
def test_chained_expression(dtype):
    # A whole expression, as user programs write them.
    check(lambda xp, a, b: (a * 2 + b) / (abs(b) + 1) - a ** 2 >= b,
          sample(dtype, (3, 4)), sample(dtype, (3, 4), seed=1))
    check(lambda xp, a, b: -(a - b) * (a + b) // 3, sample(dtype, (3, 4)),
          sample(dtype, (3, 4), seed=1))
