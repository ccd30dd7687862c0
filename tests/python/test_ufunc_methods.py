"""NumPy parity of the ufunc methods reduce, accumulate and reduceat for the binary ufuncs
tessera folds natively (bitwise, logical_xor, fmax/fmin, gcd/lcm, subtract, divide, power,
maximum/minimum.accumulate, every ufunc with a native reduce in reduceat): values bitwise
NumPy's, dtypes, shapes and exception types, over dtypes, axes, empty inputs and views."""
import numpy
import pytest

import tessera.numpy as tnp
from parity import assert_values, check, output_under, sample

pytestmark = pytest.mark.usefixtures("no_fallback")

INTS = ["int8", "uint8", "int16", "int32", "int64", "uint64"]
FLOATS = ["float16", "float32", "float64"]
BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor"]


def bitwise(fn, *args, exact=True):
    """check(), then the values bit for bit (floats included: NumPy's order of operations).
    exact=False: within parity's tolerance, for tessera's element-wise loops that are not
    NumPy's to the last bit (float power, complex division)."""
    result = check(fn, *args)
    if result is not None and exact:
        actual, expected = result
        actual, expected = numpy.asarray(actual), numpy.asarray(expected)
        assert actual.tobytes() == expected.tobytes(), (actual, expected)
    return result


def power_fold(a, axis, where=True, initial=None, keepdims=False):
    """power.reduce as NumPy defines it, ((x0 ** x1) ** x2) ..., each power rounded to the
    dtype, with every power evaluated in long double (glibc's powl, within a few units of its
    64-bit significand) and rounded once: the exact fold to 1/2048 ulp per step, on every CPU.
    It replaces NumPy's result as the reference because NumPy 2.4 with AVX-512 folds a
    contiguous axis wrongly (power.reduce([2., 3., 2.]) is 4.0 there, 64.0 elsewhere)."""
    long = numpy.longdouble
    assert numpy.finfo(long).nmant >= 63, "the reference needs x87's 80-bit long double"
    x = numpy.moveaxis(a, axis, -1)
    mask = numpy.moveaxis(numpy.broadcast_to(where, a.shape), axis, -1)
    acc = x[..., 0].astype(long) if initial is None else numpy.full(x.shape[:-1], initial, long)
    for i in range(0 if initial is not None else 1, x.shape[-1]):
        step = (acc ** x[..., i].astype(long)).astype(a.dtype).astype(long)
        acc = numpy.where(mask[..., i], step, acc)
    return numpy.expand_dims(acc.astype(a.dtype), axis) if keepdims else acc.astype(a.dtype)


def close_to_exact(fn, reference, *args):
    """check() for dtype, shape and exceptions; the values within parity's tolerance of the
    exact `reference`, not of NumPy's (for functions NumPy computes wrongly on some CPUs)."""
    result = check(fn, *args, values=False)
    if result is not None:
        actual, expected = (numpy.asarray(r) for r in result)
        assert_values(actual, numpy.asarray(reference).astype(expected.dtype))


def data(dtype, shape, kind="any", seed=0):
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "f":  # values whose folds round (not multiples of 1/4): order shows
        return rng.standard_normal(shape).astype(dtype)
    return sample(dtype, shape, kind, seed)


@pytest.mark.parametrize("name", BITWISE + ["logical_xor", "gcd", "lcm"])
@pytest.mark.parametrize("dtype", INTS + ["bool"])
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 2)])
def test_reduce_integer_folds(name, dtype, axis):
    if name in ("gcd", "lcm") and dtype == "bool":
        pytest.skip("NumPy has no bool loop for gcd/lcm (its TypeError is checked elsewhere)")
    a = sample(dtype, (3, 4, 5), "nonzero" if name == "lcm" else "any")
    bitwise(lambda xp, x: getattr(xp, name).reduce(x, axis=axis), a)
    bitwise(lambda xp, x: getattr(xp, name).reduce(x, axis=axis, keepdims=True), a)


@pytest.mark.parametrize("name", ["fmax", "fmin", "subtract", "divide", "power"])
@pytest.mark.parametrize("dtype", FLOATS + ["complex128"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_reduce_float_folds(name, dtype, axis):
    if name in ("fmax", "fmin") and dtype == "complex128":
        a = data(dtype, (3, 4, 5)) + 1j * data(dtype, (3, 4, 5), seed=1)
    else:
        a = data(dtype, (3, 4, 5)) if name != "power" else numpy.abs(data(dtype, (3, 4, 5))) + 0.5
    if name in ("fmax", "fmin"):
        a = a.copy()
        a.flat[::7] = numpy.nan
    if name == "power":  # complex128 too: abs() made a float64
        return close_to_exact(lambda xp, x: xp.power.reduce(x, axis=axis), power_fold(a, axis), a)
    exact = not (name == "divide" and dtype == "complex128")
    bitwise(lambda xp, x: getattr(xp, name).reduce(x, axis=axis), a, exact=exact)


@pytest.mark.parametrize("name", ["subtract", "divide", "power", "fmax", "fmin", "bitwise_xor", "logical_xor",
                                  "gcd"])
@pytest.mark.parametrize("axis", [0, 1])
def test_reduce_where_and_initial(name, axis):
    """where= skips elements; a non-reorderable fold starts from `initial` in NumPy's order
    (bitwise: ((initial - x0) - x1) ..., not initial - (x0 - x1 ...))."""
    if name in ("bitwise_xor", "gcd"):
        a, start = sample("int64", (5, 6), "any"), 3
    elif name == "logical_xor":
        a, start = sample("bool", (5, 6)), True
    else:
        a, start = numpy.abs(data("float64", (5, 6))) + 0.5, 1.25
        a.flat[::5] = numpy.nan if name in ("fmax", "fmin") else a.flat[::5]
    mask = data("float64", (5, 6), seed=3) > 0
    if name == "power":
        close_to_exact(lambda xp, x, m: xp.power.reduce(x, axis=axis, where=m, initial=start),
                       power_fold(a, axis, mask, start), a, mask)
        close_to_exact(lambda xp, x, m: xp.power.reduce(x, axis=axis, where=m[0], initial=start, keepdims=True),
                       power_fold(a, axis, mask[0], start, keepdims=True), a, mask)  # where broadcasts
        close_to_exact(lambda xp, x: xp.power.reduce(x, axis=axis, initial=start), power_fold(a, axis, initial=start), a)
        close_to_exact(lambda xp, x: xp.power.reduce(x[::-1, ::2], axis=axis, initial=start),
                       power_fold(a[::-1, ::2], axis, initial=start), a)  # a view
        return
    bitwise(lambda xp, x, m: getattr(xp, name).reduce(x, axis=axis, where=m, initial=start), a, mask)
    bitwise(lambda xp, x, m: getattr(xp, name).reduce(x, axis=axis, where=m[0], initial=start, keepdims=True), a,
            mask)  # where broadcasts
    bitwise(lambda xp, x: getattr(xp, name).reduce(x, axis=axis, initial=start), a)
    bitwise(lambda xp, x: getattr(xp, name).reduce(x[::-1, ::2], axis=axis, initial=start), a)  # a view


def test_reduce_where_without_an_identity_needs_initial():
    a = data("float64", (3, 4))
    check(lambda xp, x: xp.subtract.reduce(x, axis=0, where=x > 0), a)  # ValueError as NumPy
    check(lambda xp, x: xp.fmax.reduce(x, axis=0, where=x > 0), a)
    check(lambda xp, x: xp.subtract.reduce(x, axis=None, where=x > 0, initial=1.0), a)  # not reorderable
    bitwise(lambda xp, x: xp.bitwise_or.reduce(x.astype(int), axis=1, where=x > 0), a)  # the identity, 0


def test_numpy_out_arrays_receive_the_result():
    a = data("float64", (3, 4))
    for call in (lambda xp, x, o: xp.subtract.reduce(x, axis=1, out=o, where=x > 0, initial=0.0),
                 lambda xp, x, o: xp.sum(x, axis=1, out=o), lambda xp, x, o: x.max(axis=1, out=o),
                 lambda xp, x, o: xp.cumsum(x[0, :3], out=o), lambda xp, x, o: xp.sqrt(xp.abs(x[:, 0]), out=o),
                 lambda xp, x, o: xp.clip(x[:, 1], -0.1, 0.1, out=o),
                 lambda xp, x, o: xp.matmul(x[:, :3], x[0, :3], out=o)):
        want_out, got_out = numpy.zeros(3), numpy.zeros(3)
        want = call(numpy, a, want_out)
        got = call(tnp, tnp.asarray(a), got_out)
        assert got is got_out and want is want_out
        numpy.testing.assert_allclose(got_out, want_out, rtol=1e-13)
    read_only = numpy.zeros(3)
    read_only.flags.writeable = False
    with pytest.raises(ValueError):
        numpy.sum(a, axis=1, out=read_only)
    with pytest.raises(ValueError):
        tnp.sum(tnp.asarray(a), axis=1, out=read_only)


@pytest.mark.parametrize("name", ["subtract", "power", "bitwise_or"])
def test_reduce_integer_order(name):
    a = sample("int64", (6, 7), "shift")
    bitwise(lambda xp, x: getattr(xp, name).reduce(x, axis=0), a)
    bitwise(lambda xp, x: getattr(xp, name).reduce(x[::-2, 1::2], axis=1), a)  # a view


def test_reduce_options_and_errors():
    a = sample("int32", (4, 5))
    bitwise(lambda xp, x: xp.bitwise_or.reduce(x, axis=1, initial=64), a)
    bitwise(lambda xp, x: xp.bitwise_xor.reduce(x, axis=0, dtype=xp.int64), a)
    bitwise(lambda xp, x: xp.logical_xor.reduce(x, axis=None), a)
    bitwise(lambda xp, x: xp.bitwise_and.reduce(x[:, :0], axis=1), a)  # empty: the identity
    bitwise(lambda xp, x: xp.bitwise_and.reduce(x[:0], axis=0), a)
    bitwise(lambda xp, x: xp.gcd.reduce(-x, axis=0), a)
    bitwise(lambda xp, x: xp.fmax.reduce(x.astype(float)[:0], axis=0), a)  # ValueError: no identity
    bitwise(lambda xp, x: xp.subtract.reduce(x, axis=(0, 1)), a)  # ValueError: not reorderable
    bitwise(lambda xp, x: xp.subtract.reduce(x, axis=2), a)  # AxisError
    bitwise(lambda xp, x: xp.gcd.reduce(x.astype(float), axis=0), a)  # TypeError: no float loop
    bitwise(lambda xp, x: xp.bitwise_or.reduce(xp.asarray(5), axis=None), a)  # 0-d

    def with_out(xp, x):
        out = xp.zeros(5, dtype=xp.int32)
        assert xp.bitwise_or.reduce(x, axis=0, out=out) is out
        return out
    bitwise(with_out, a)


@pytest.mark.parametrize("name", BITWISE + ["maximum", "minimum", "logical_xor", "gcd"])
@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_accumulate_integers(name, dtype, axis):
    bitwise(lambda xp, x: getattr(xp, name).accumulate(x, axis=axis), sample(dtype, (3, 4, 5)))


@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin", "subtract", "divide"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis", [0, 1])
def test_accumulate_floats(name, dtype, axis):
    a = data(dtype, (9, 6))
    a.flat[::5] = numpy.nan
    bitwise(lambda xp, x: getattr(xp, name).accumulate(x, axis=axis), a)
    bitwise(lambda xp, x: getattr(xp, name).accumulate(x.T[::2], axis=axis), a)  # a view


def test_accumulate_options():
    a = sample("int32", (4, 5))
    bitwise(lambda xp, x: xp.bitwise_or.accumulate(x, axis=1, dtype=xp.int64), a)
    bitwise(lambda xp, x: xp.maximum.accumulate(x[:0], axis=0), a)
    bitwise(lambda xp, x: xp.maximum.accumulate(x[:, :0], axis=0), a)
    bitwise(lambda xp, x: xp.maximum.accumulate(x, axis=3), a)  # AxisError

    def with_out(xp, x):
        out = xp.zeros((4, 5), dtype=xp.int32)
        assert xp.minimum.accumulate(x, axis=0, out=out) is out
        return out
    bitwise(with_out, a)


REDUCEAT = ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or"] + BITWISE + \
    ["logical_xor", "fmax", "fmin", "subtract", "divide"]
INDICES = [[0, 3, 3, 5, 1, 7], [0], [6, 2], [4, 4, 4], [0, 1, 2, 3, 4, 5, 6, 7]]


@pytest.mark.parametrize("name", REDUCEAT)
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "bool"] + FLOATS + ["complex64"])
@pytest.mark.parametrize("indices", INDICES, ids=str)
def test_reduceat(name, dtype, indices):
    a = data(dtype, (8, 3))
    if dtype == "complex64":
        a = (a + 1j * data("float32", (8, 3), seed=1)).astype(dtype)
    exact = not (name == "divide" and dtype == "complex64")
    bitwise(lambda xp, x: getattr(xp, name).reduceat(x, indices), a, exact=exact)
    bitwise(lambda xp, x: getattr(xp, name).reduceat(x, indices[:2], axis=0), a, exact=exact)


@pytest.mark.parametrize("dtype", FLOATS + ["complex128", "int32"])
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_reduceat_long_segments_pairwise(dtype, axis):
    """add over segments longer than 8 and 128 elements: NumPy's a[s] + pairwise(rest)."""
    shape = [3, 4, 5]
    shape[axis] = 600
    a = data(dtype, tuple(shape))
    if dtype == "complex128":
        a = a + 1j * data("float64", tuple(shape), seed=2)
    indices = [0, 9, 10, 150, 599, 300]
    bitwise(lambda xp, x: xp.add.reduceat(x, indices, axis=axis), a)
    bitwise(lambda xp, x: xp.multiply.reduceat(x, indices, axis=axis), a)


def test_reduceat_views_dtype_out_and_errors():
    a = data("float32", (10, 6))
    bitwise(lambda xp, x: xp.add.reduceat(x[::-2, 1::2], [0, 2], axis=0), a)
    bitwise(lambda xp, x: xp.add.reduceat(x.T, [0, 2, 8], axis=1), a)
    bitwise(lambda xp, x: xp.add.reduceat(x, [0, 4], dtype=xp.float64), a)
    bitwise(lambda xp, x: xp.add.reduceat(x.astype(xp.int8), [0, 4]), a)  # small ints widen, as sum
    bitwise(lambda xp, x: xp.add.reduceat(x, xp.asarray([1, 5]), axis=1), a)
    bitwise(lambda xp, x: xp.add.reduceat(x, numpy.array([], dtype=numpy.intp), axis=1), a)
    bitwise(lambda xp, x: xp.add.reduceat(x[:0], [0], axis=0), a)  # IndexError
    bitwise(lambda xp, x: xp.add.reduceat(x, [0, 10]), a)  # IndexError
    bitwise(lambda xp, x: xp.add.reduceat(x, [-1]), a)  # IndexError: no wrapping
    bitwise(lambda xp, x: xp.add.reduceat(x, [0], axis=2), a)  # AxisError
    bitwise(lambda xp, x: xp.add.reduceat(x, [[0, 1]]), a)  # ValueError: 1-d indices

    def with_out(xp, x):
        out = xp.zeros((2, 6), dtype=xp.float32)
        assert xp.maximum.reduceat(x, [0, 5], out=out) is out
        return out
    bitwise(with_out, a)


def test_results_do_not_depend_on_cpus():
    code = """
import tessera.numpy as np
a = np.asarray(__import__("numpy").random.default_rng(3).standard_normal((3000, 700)))
idx = list(range(0, 3000, 97)) + [5, 2999]
r = np.add.reduceat(a, idx, axis=0)
s = np.subtract.accumulate(a, axis=1)
b = np.bitwise_xor.reduce((a * 1000).astype(np.int64), axis=0)
f = np.fmax.reduce(a, axis=1)
print(float(np.sum(r * 1.0001 ** np.arange(r.size).reshape(r.shape))).hex(), float(np.sum(s[:, -1])).hex(),
      int(np.sum(b)), float(np.sum(f)).hex())
"""
    outputs = {output_under(config, code) for config in ("--cpus=1", "--cpus=2", "--cpus=2 --min-cpu-chunk=1000")}
    assert len(outputs) == 1, outputs


def at(name, indices, values=None):
    """A function applying name.at in place and returning the target."""
    def run(xp, x):
        if values is None:
            getattr(xp, name).at(x, indices)
        else:
            getattr(xp, name).at(x, indices, xp.asarray(values) if isinstance(values, numpy.ndarray) else values)
        return x
    return run


@pytest.mark.parametrize("name", ["negative", "absolute", "square", "sqrt", "exp", "floor", "isnan", "invert",
                                  "reciprocal", "sign"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32", "float64"])
def test_at_unary(name, dtype):
    if name == "invert" and numpy.dtype(dtype).kind == "f":
        pytest.skip("NumPy has no float loop for invert (its TypeError falls back)")
    if name == "reciprocal" and numpy.dtype(dtype).kind in "iu":
        pytest.skip("tessera.numpy.reciprocal of an integer 0 is 0, NumPy's INT_MIN (the element-wise loop)")
    a = data(dtype, (7,), "nonzero")
    exact = name != "exp"  # tessera's exp is within parity's tolerance of NumPy's, not bitwise
    bitwise(at(name, [0, 2, 2, 5, 2]), a, exact=exact)  # repeated indices: applied once per index
    bitwise(at(name, numpy.array([[1, -1], [3, 3]])), a, exact=exact)


def test_at_unary_multi_dimensional():
    a = data("float64", (4, 5))
    bitwise(at("negative", (numpy.array([0, 0, 3]), numpy.array([1, 1, 4]))), a)
    bitwise(at("sqrt", (slice(None), [0, 0])), numpy.abs(a))
    bitwise(at("negative", [9]), a)  # IndexError


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum", "power", "fmax"])
@pytest.mark.parametrize("dtype,values", [("int64", 1.5), ("int32", numpy.array([0.5, -2.25, 7.75, 1.0])),
                                          ("uint8", 2.5), ("float32", numpy.array([1e-9, 0.3, 2.0, 1e30])),
                                          ("float16", numpy.array([0.1, 2.0, 3.0, 4.0])), ("int8", numpy.array([300, 2, -1, 5]))])
def test_at_binary_wider_loop(name, dtype, values):
    """The ufunc's loop is wider than the target: computed in it, cast back unsafely per index."""
    a = data(dtype, (6,), "pm")
    bitwise(at(name, [0, 1, 1, 4], values), a, exact=name != "power")


def test_at_binary_other_ufuncs():
    a = sample("int32", (6,), "nonzero")
    bitwise(at("gcd", [0, 1, 1], 6), a)
    bitwise(at("left_shift", [2, 2], 1), a)
    bitwise(at("arctan2", [0, 3], 0.5), a.astype(float))
    bitwise(at("add", [0, 1], numpy.array([1.5, 2.5, 3.5])), a.astype(float))  # ValueError: shapes
