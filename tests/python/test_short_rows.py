"""Element-wise expressions over 2-D and 3-D views whose rows are short (a stencil over a few
hundred columns) are evaluated as one span running through the few elements between rows,
whose results are dropped; the outputs are written row by row. The values must be NumPy's bit
for bit whatever the views' offsets, the output's layout, broadcasting, casts, the row length
against the vector width, or the tiling."""
import numpy
import pytest

import tessera.numpy as np
from parity import same_output_under


def start(shape, dtype=numpy.float64, seed=3):
    a = numpy.random.default_rng(seed).standard_normal(shape) * 10
    return a.astype(dtype)


def stencil(a, b):  # inputs a row apart, all with the array's row stride; a fresh result
    return (a[1:-1, 2:] + a[1:-1, :-2]) * 0.3 + (a[2:, 1:-1] - a[:-2, 1:-1]) / 1.5 - 0.1 * b[1:-1, 1:-1]


def into_view(a, b):  # the result written into a view of another array
    out = b * 0.0
    out[1:-1, 1:-1] = a[1:-1, 2:] * a[1:-1, :-2] - b[1:-1, 1:-1]
    return out


def in_place(a, b):  # the output is the same view as an input
    a = a.copy()
    a[1:-1, 1:-1] += b[1:-1, 1:-1] * 2
    return a


def row_broadcast(a, b):  # an input with row stride 0: no span
    return a[1:-1, 1:-1] * b[0, 1:-1] + 1.0


def column_broadcast(a, b):  # an input with column stride 0: no span
    return a[1:-1, 1:-1] - b[1:-1, :1]


def scalar_and_zero_d(a, b):
    return (a[1:-1, 1:-1] + b[3, 3]) * numpy.float64(0.5) + np.float64(2.0)


def other_row_stride(a, b):  # inputs of different row strides: no span
    return a[1:-1, 1:-1] + b[1:-1, 1:-1].copy()


def casts(a, b):  # float32 and int32 inputs promoted to float64, and a float32 result
    r = a[1:-1, 1:-1].astype(numpy.float32) * b[1:-1, 1:-1].astype(numpy.int32)
    return r.astype(numpy.float32) + a[1:-1, 1:-1].astype(numpy.float32)


def strided_output(a, b):  # the output's inner stride is 2
    out = numpy.zeros if isinstance(a, numpy.ndarray) else np.zeros
    o = out((a.shape[0] - 2, 2 * (a.shape[1] - 2)))
    o[:, ::2] = a[1:-1, 1:-1] - b[1:-1, 1:-1]
    return o


def ends_of_storage(a, b):  # views touching the first and the last element of the array
    return a[:-1, 1:] * b[1:, :-1] + a[1:, 1:]


def kept_intermediate(a, b):  # an intermediate the program also keeps: a second output
    t = a[1:-1, 1:-1] * 3.0
    u = t + b[1:-1, 1:-1]
    return t, u


def comparison_and_where(a, b):
    m = a[1:-1, 1:-1] > b[1:-1, 1:-1]
    w = (numpy if isinstance(a, numpy.ndarray) else np).where(m, a[1:-1, 2:], b[1:-1, :-2])
    return m, w


def three_d(a, b):
    a3, b3 = a.reshape(a.shape[0] // 4, 4, -1), b.reshape(b.shape[0] // 4, 4, -1)
    return a3[1:-1, 1:-1, 1:-1] * b3[1:-1, 1:-1, 2:] - a3[1:-1, :-2, 1:-1]


PROGRAMS = [stencil, into_view, in_place, row_broadcast, column_broadcast, scalar_and_zero_d,
            other_row_stride, casts, strided_output, ends_of_storage, kept_intermediate,
            comparison_and_where, three_d]
# rows of a few elements up to a little under the evaluator's block of 1024; row lengths that
# are and are not multiples of the vector width
SHAPES = [(400, 6), (300, 37), (300, 300), (64, 1023), (120, 1026)]


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_matches_numpy_bitwise(program, shape):
    a, b = start(shape), start(shape, seed=4)
    want = as_tuple(program(a, b))
    got = as_tuple(program(np.array(a), np.array(b)))
    for g, w in zip(got, want):
        g = numpy.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert numpy.array_equal(g, w)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int64, numpy.complex128])
def test_other_dtypes(dtype):
    a, b = start((300, 37), dtype), start((300, 37), dtype, seed=4)
    for program in (stencil, into_view, in_place, ends_of_storage):
        want = program(a, b)
        got = numpy.asarray(program(np.array(a), np.array(b)))
        assert got.dtype == want.dtype
        assert numpy.array_equal(got, want), program.__name__


DIGEST = "\n".join([
    "import hashlib, numpy, tessera.numpy as np",
    "from test_short_rows import PROGRAMS, SHAPES, start, as_tuple",
    "digest = hashlib.sha1()",
    "for shape in SHAPES:",
    "    a, b = np.array(start(shape)), np.array(start(shape, seed=4))",
    "    for program in PROGRAMS:",
    "        for r in as_tuple(program(a, b)):",
    "            digest.update(numpy.asarray(r).tobytes())",
    "print(digest.hexdigest())",
])


def test_tilings_and_cpus_agree_bitwise():
    same_output_under(DIGEST, ["--cpus=2", "--cpus=1",
                               "--cpus=2 --min-cpu-chunk=2",   # many tiles of a few rows
                               "--cpus=2 --window-size=1"])    # no fusion
