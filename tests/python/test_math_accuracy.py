"""Vector math: every transcendental function on float32 and float64 within 4 ulp of the
exact value over wide random ranges, with the exact special values (NaN, ±inf, ±0,
overflow, underflow, domain errors); dtypes and shapes NumPy's; power's scalar-exponent
shortcuts bit for bit NumPy's; and the same bits whatever the tiling (one worker against two
in test mode).

The reference is not NumPy's float32/float64 loops: they depend on the CPU NumPy dispatches
to (with AVX-512, NumPy 2.4's float32 exp2 flushes results below 2**-149 to zero, and its
float64 functions are SVML's, a few ulp from glibc's), so a comparison with them would pass on
one machine and fail on another. Each function is evaluated instead in long double (x87's
64-bit significand; glibc's long double functions are within a few units of its last place,
1/2048 of a double's ulp) and rounded once to the dtype: within 0.51 ulp of the exact value on
every CPU, and the special values C99's, which NumPy follows.
"""

import math
import os
import subprocess
import sys
import warnings

import numpy
import pytest

from parity import tnp

MAX_ULP = 4
FLOATS = ["float32", "float64"]

# ufunc -> (low, high) of a uniform draw inside the function's interesting range.
UNARY = {
    "exp": (-100, 100), "exp2": (-160, 160), "expm1": (-60, 60), "log": (0, 1e4), "log2": (0, 1e4),
    "log10": (0, 1e4), "log1p": (-1, 1e4), "sin": (-1e4, 1e4), "cos": (-1e4, 1e4), "tan": (-1e4, 1e4),
    "arcsin": (-1, 1), "arccos": (-1, 1), "arctan": (-1e3, 1e3), "sinh": (-90, 90), "cosh": (-90, 90),
    "tanh": (-20, 20), "arcsinh": (-1e4, 1e4), "arccosh": (1, 1e4), "arctanh": (-1, 1), "cbrt": (-1e4, 1e4),
}
BINARY = ["arctan2", "hypot", "power"]
N = 30_000


def ulp_distance(a, b):
    """Units in the last place between same-dtype float arrays (NaN against NaN counts 0)."""
    a, b = numpy.asarray(a), numpy.asarray(b)
    assert a.dtype == b.dtype
    bits = numpy.int64 if a.dtype == numpy.float64 else numpy.int32
    ordered = []
    for x in (a, b):
        i = x.view(bits).astype(numpy.int64)
        # Negative floats count down from -0 (= +0): the integers are then ordered like the floats.
        i = numpy.where(i < 0, numpy.int64(numpy.iinfo(bits).min) - i, i)
        ordered.append(i.astype(numpy.uint64) + numpy.uint64(2**63))  # no overflow in the difference
    d = numpy.maximum(*ordered) - numpy.minimum(*ordered)
    d[numpy.isnan(a) & numpy.isnan(b)] = 0
    return d


def exact(fn, *args):
    """fn(numpy, *args) evaluated in long double and rounded once to the arguments' dtype: the
    correctly rounded value to within 1/2048 ulp, the same on every CPU."""
    assert numpy.finfo(numpy.longdouble).nmant >= 63, "the reference needs x87's 80-bit long double"
    with numpy.errstate(all="ignore"):
        return numpy.asarray(fn(numpy, *[a.astype(numpy.longdouble) for a in args])).astype(args[0].dtype)


def specials(dtype):
    """NaN, infinities, signed zeros, subnormals, the largest values, and the edges of domains
    and of overflow, each with its neighbours (computed by Python's math, not by NumPy's
    loops, so the inputs are the same on every CPU)."""
    t = numpy.dtype(dtype).type
    fi = numpy.finfo(dtype)
    big, tiny, least = float(fi.max), float(fi.smallest_normal), float(fi.smallest_subnormal)
    edges = [0.0, 1.0, -1.0, 0.5, 2.0, numpy.pi / 2, numpy.pi, 1e22,
             math.log(big), math.log2(big), math.asinh(big), math.log(tiny), math.log(least),
             math.log2(least), 1024.0, 128.0, 1e154, 1.8e19, 1e300, 1e38]
    values = [numpy.nan, numpy.inf, -numpy.inf, fi.max, fi.smallest_subnormal, fi.smallest_normal,
              fi.smallest_normal - fi.smallest_subnormal, fi.smallest_normal / 3]
    for e in edges:
        if abs(e) > float(fi.max):
            continue
        v = t(e)
        values += [v, numpy.nextafter(v, t(numpy.inf)), numpy.nextafter(v, t(-numpy.inf))]
    values = numpy.array(values, dtype=dtype)
    return numpy.concatenate([values, -values])


def draw(dtype, lo, hi, seed):
    """Specials, a uniform draw in [lo, hi], and magnitudes log-uniform over the whole dtype."""
    rng = numpy.random.default_rng(seed)
    fi = numpy.finfo(dtype)
    exponents = rng.uniform(math.log2(float(fi.smallest_subnormal)), math.log2(float(fi.max)) - 1e-9, N)
    # exp2 in long double: NumPy's float64 exp2 differs between CPUs in the last bit.
    wide = rng.choice([-1.0, 1.0], N) * numpy.exp2(exponents.astype(numpy.longdouble)).astype(numpy.float64)
    near = rng.uniform(lo, hi, N) * (1 - 1e-7)  # float32 rounding must not leave the range
    return numpy.concatenate([specials(dtype), near.astype(dtype), wide.astype(dtype)])


def numpy_and_tessera(fn, *args):
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = fn(numpy, *args)
        actual = numpy.asarray(fn(tnp, *[tnp.array(a) for a in args]))
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    return actual, expected


def tessera_and_exact(fn, *args):
    """tessera's result (NumPy's dtype and shape) and the exact one."""
    actual, numpys = numpy_and_tessera(fn, *args)
    return actual, exact(fn, *args).astype(numpys.dtype)


def assert_close(actual, expected, inputs, max_ulp=MAX_ULP):
    """Within max_ulp of the reference, with NaN, infinities and the sign of zero exactly its."""
    def where(mask):
        i = numpy.nonzero(mask)[0][:5]
        return [(tuple(float(x[k]) for x in inputs), float(actual[k]), float(expected[k])) for k in i]

    nan = numpy.isnan(actual) != numpy.isnan(expected)
    assert not nan.any(), f"NaN differs at (inputs, tessera, exact): {where(nan)}"
    inf = (numpy.isinf(actual) != numpy.isinf(expected)) | (numpy.isinf(expected) & (actual != expected))
    assert not inf.any(), f"infinity differs at {where(inf)}"
    zero = (expected == 0) & ((actual != 0) | (numpy.signbit(actual) != numpy.signbit(expected)))
    assert not zero.any(), f"zero differs at {where(zero)}"
    d = ulp_distance(actual, expected)
    assert d.max() <= max_ulp, f"{int(d.max())} ulp at {where(d == d.max())}"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", UNARY)
def test_unary_within_4_ulp(name, dtype):
    x = draw(dtype, *UNARY[name], seed=len(name))
    actual, expected = tessera_and_exact(lambda xp, a: getattr(xp, name)(a), x)
    assert_close(actual, expected, [x])


def binary_inputs(name, dtype):
    s = specials(dtype)
    a, b = (g.ravel() for g in numpy.meshgrid(s, s))
    rng = numpy.random.default_rng(7)
    x = draw(dtype, 0, 1e4, seed=1)
    y = draw(dtype, -1e4, 1e4, seed=2)
    if name == "power":
        # Bases of every magnitude against exponents that keep many results finite, and
        # negative bases against integral exponents.
        base = numpy.abs(x)
        expo = rng.uniform(-40, 40, base.size)
        expo[::3] = numpy.round(expo[::3])
        neg = -numpy.abs(rng.uniform(0, 50, N))
        x = numpy.concatenate([base, neg]).astype(dtype)
        y = numpy.concatenate([expo, numpy.round(rng.uniform(-30, 30, N))]).astype(dtype)
    return numpy.concatenate([a, x]), numpy.concatenate([b, y])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", BINARY)
def test_binary_within_4_ulp(name, dtype):
    a, b = binary_inputs(name, dtype)
    actual, expected = tessera_and_exact(lambda xp, x, y: getattr(xp, name)(x, y), a, b)
    assert_close(actual, expected, [a, b])


def same_bits(actual, expected):
    bits = {4: numpy.uint32, 8: numpy.uint64, 2: numpy.uint16}[actual.dtype.itemsize]
    same = actual.view(bits) == expected.view(bits)
    return numpy.all(same | (numpy.isnan(actual) & numpy.isnan(expected)))


POWER_EXPONENTS = [2, 2.0, 0.5, -1, -1.0, 1, 1.0, 0, 0.0]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("exponent", POWER_EXPONENTS, ids=repr)
@pytest.mark.parametrize("form", ["operator", "ufunc", "0-d", "numpy scalar", "1-element"])
def test_power_scalar_exponent_bitwise(form, exponent, dtype):
    x = draw(dtype, -1e3, 1e3, seed=3)
    make = {
        "operator": lambda xp, a: a ** exponent,
        "ufunc": lambda xp, a: xp.power(a, exponent),
        "0-d": lambda xp, a: xp.power(a, xp.array(exponent, dtype=dtype)),
        "numpy scalar": lambda xp, a: xp.power(a, numpy.dtype(dtype).type(exponent)),
        "1-element": lambda xp, a: xp.power(a, xp.array([exponent], dtype=dtype)),
    }[form]
    actual, expected = numpy_and_tessera(make, x)
    assert same_bits(actual, expected), [(float(v), float(p), float(q)) for v, p, q in
                                         zip(x, actual, expected) if not same_bits(numpy.array([p]), numpy.array([q]))][:5]


@pytest.mark.parametrize("dtype", FLOATS)
def test_power_cube_within_1_ulp(dtype):
    # Within 1 ulp of the exact cube (NumPy's pow is up to 4 ulp from it with AVX-512's SVML).
    x = draw(dtype, -1e3, 1e3, seed=4)
    for exponent in (3, 3.0):
        actual, expected = tessera_and_exact(lambda xp, a: a ** exponent, x)
        assert_close(actual, expected, [x], max_ulp=1)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16", "uint64"])
@pytest.mark.parametrize("exponent", [0, 1, 2, 3, 5])
def test_integer_power_exact(dtype, exponent):
    x = numpy.random.default_rng(5).integers(-50, 50, 1000).astype(dtype)
    actual, expected = numpy_and_tessera(lambda xp, a: a ** exponent, x)
    numpy.testing.assert_array_equal(actual, expected)


# Every vectorised function, alone and fused, on lengths and offsets that put an element
# in a vector's body on one tiling and in a block's last, partial vector on another.
TILING_PROGRAM = r"""
import sys, warnings
import numpy
import tessera.numpy as np
warnings.simplefilter("ignore")
out = {}
for dtype in ("float32", "float64"):
    rng = numpy.random.default_rng(11)
    x0 = (rng.standard_normal(10_007) * 3).astype(dtype)
    y0 = (rng.uniform(0.1, 4, 10_007)).astype(dtype)
    x, y = np.array(x0)[3:], np.array(y0)[:-3]
    for name in %(unary)r:
        arg = y if name in ("log", "log2", "log10", "log1p", "arccosh") else x
        if name in ("arcsin", "arccos", "arctanh"):
            arg = np.tanh(x)
        out[f"{name}_{dtype}"] = getattr(np, name)(arg)
    for name in ("arctan2", "hypot", "power", "add", "multiply", "true_divide", "maximum"):
        out[f"{name}_{dtype}"] = getattr(np, name)(y, x)
    out[f"fused_{dtype}"] = np.exp(x) * y + np.sin(x) / y ** 2 - np.sqrt(y) ** 0.5 + x ** 3
    out[f"cast_{dtype}"] = (x * 1000).astype("int32").astype("float64")
numpy.savez(sys.argv[1], **{k: numpy.asarray(v) for k, v in out.items()})
"""


def run_tiling_program(path, config, test_mode):
    from tessera import _tessera  # the instruction set this run tests (.ci/test.sh reruns each)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["TESSERA_CONFIG"] = f"{config} --simd={_tessera._simd()}"
    if test_mode:
        env["TESSERA_TEST"] = "1"
    program = TILING_PROGRAM % {"unary": list(UNARY) + ["sqrt", "square", "reciprocal", "negative", "absolute"]}
    r = subprocess.run([sys.executable, "-c", program, str(path)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return numpy.load(path)


def test_results_do_not_depend_on_tiling(tmp_path):
    one = run_tiling_program(tmp_path / "one.npz", "--cpus=1", test_mode=False)
    two = run_tiling_program(tmp_path / "two.npz", "--cpus=2", test_mode=True)
    assert sorted(one.files) == sorted(two.files)
    differ = [k for k in one.files if not same_bits(one[k], two[k])]
    assert not differ, f"results differ between tilings: {differ}"


# exp and log compute most arguments inline and the rest (exp beyond ±700 in float64 and ±87
# in float32, log of zero, subnormals, negatives, infinities, NaN) by another function; an
# element's bits must not depend on which of its neighbours in a vector take the other path.
EDGE_NEIGHBOURS = {
    "exp": [numpy.nan, numpy.inf, -numpy.inf, 705.0, -720.0, 88.5, -100.0, 1e300],
    "log": [numpy.nan, numpy.inf, 0.0, -0.0, -1.0, 1e-310, 1e-40, 1e300],
}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["exp", "log"])
def test_exp_log_lane_independent_of_neighbours(name, dtype):
    rng = numpy.random.default_rng(13)
    x = rng.uniform(-60, 60, 4096) if name == "exp" else numpy.exp(rng.uniform(-60, 60, 4096))
    x = x.astype(dtype)
    with numpy.errstate(all="ignore"):
        edges = numpy.array(EDGE_NEIGHBOURS[name], dtype=dtype)
    mixed = x.copy()
    mixed[1::3] = numpy.resize(edges, mixed[1::3].size)  # every vector holds some of them
    keep = numpy.ones(x.size, bool)
    keep[1::3] = False
    alone, _ = numpy_and_tessera(lambda xp, a: getattr(xp, name)(a), x)
    among, expected = tessera_and_exact(lambda xp, a: getattr(xp, name)(a), mixed)
    assert same_bits(alone[keep], among[keep])
    assert_close(among, expected, [mixed])


@pytest.mark.parametrize("dtype", FLOATS)
def test_exp_at_the_inline_bounds(dtype):
    t = numpy.dtype(dtype).type
    bound = 700.0 if dtype == "float64" else 87.0
    x = []
    for b in (bound, -bound, float(numpy.log(numpy.finfo(dtype).max)), -bound - 50):
        v = t(b)
        x += [v, numpy.nextafter(v, t(numpy.inf)), numpy.nextafter(v, t(-numpy.inf))]
    x = numpy.array(x * 8, dtype=dtype)
    actual, expected = tessera_and_exact(lambda xp, a: xp.exp(a), x)
    assert_close(actual, expected, [x])
