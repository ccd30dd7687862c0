"""Assignments of an expression over shifted views of an array into a box of that same array
(`p[1:-1, 1:-1] = f(p[...])`) are computed in place: each tile computes its rows a few ahead
of writing them back and keeps the rows its neighbours read for a short operation after it,
so neither a copy of the box nor fresh storage is made. Whatever the shifts, strides, tiling
(test mode cuts tiny arrays into many tiles) or number of cpus, the values must be NumPy's bit
for bit."""
import numpy
import pytest

import tessera.numpy as np
from parity import output_under, same_output_under


def start(shape, dtype=numpy.float64, seed=11):
    a = numpy.random.default_rng(seed).standard_normal(shape)
    return (a * 100).astype(dtype) if numpy.dtype(dtype).kind == "i" else a.astype(dtype)


def jacobi(a):
    a[1:-1, 1:-1] = 0.25 * (a[1:-1, 2:] + a[1:-1, :-2] + a[2:, 1:-1] + a[:-2, 1:-1])


def wide(a):  # rows up to three above and two below
    a[3:-2, 2:-2] = a[:-5, 2:-2] - 0.5 * a[5:, 4:] + a[1:-4, :-4] * a[4:-1, 1:-3] / 1000.0 + a[2:-3, 3:-1]


def below_only(a):  # every aliased input lies below the output rows
    a[:-2, :] = a[2:, :] * 2.0 + a[1:-1, :]


def above_only(a):
    a[2:, :] = a[:-2, :] - a[1:-1, :] / 3.0


def one_d(a):  # a row is one element
    a[1:-1] = (a[:-2] + a[2:]) * 0.5 - a[1:-1]


def three_d(a):  # a row is a plane
    a[1:-1, 1:-1, 1:-1] = (a[2:, 1:-1, 1:-1] + a[:-2, 1:-1, 1:-1] + a[1:-1, 2:, 1:-1]
                           + a[1:-1, :-2, 1:-1] + a[1:-1, 1:-1, 2:] + a[1:-1, 1:-1, :-2]) / 6.0


def reversed_columns(a):  # negative inner strides, the same for every view
    a[1:-1, ::-1] = a[2:, ::-1] + a[:-2, ::-1]


def strided_columns(a):  # every other column
    a[1:-1, 1::2] = a[2:, 1::2] * a[:-2, 1::2] - 1.0


def every_other_row(a):  # the rows of the views are two rows of the array apart
    a[2:-2:2, :] = a[4::2, :] + a[:-4:2, :]


def same_row_shift(a):  # only a shift within each row
    a[:, 1:] = a[:, :-1] + 1.0


def with_other_arrays(a):
    b = a * 0.0 + 2.0  # another array the expression reads
    a[1:-1, 1:-1] = b[1:-1, 1:-1] * a[2:, 1:-1] - a[:-2, :-2] + numpy.float64(0.5)


PROGRAMS = {
    "jacobi": ((300, 200), jacobi),
    "wide": ((120, 90), wide),
    "wide_long_rows": ((40, 12000), wide),  # a row over 64 KiB: groups of a few rows
    "jacobi_long_rows": ((30, 20000), jacobi),
    "below_only": ((150, 64), below_only),
    "above_only": ((150, 64), above_only),
    "one_d": ((100_003,), one_d),
    "three_d": ((40, 30, 20), three_d),
    "reversed_columns": ((130, 70), reversed_columns),
    "strided_columns": ((130, 71), strided_columns),
    "every_other_row": ((161, 50), every_other_row),
    "same_row_shift": ((90, 77), same_row_shift),
    "with_other_arrays": ((200, 100), with_other_arrays),
}


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.int64])
def test_sweeps_match_numpy_bitwise(name, dtype):
    shape, program = PROGRAMS[name]
    ref = start(shape, dtype)
    t = np.array(ref)
    for _ in range(5):
        program(ref)
        program(t)
    got = numpy.asarray(t)
    assert got.dtype == ref.dtype
    assert numpy.array_equal(got, ref)


def test_reads_between_sweeps_see_each_sweep():
    ref = start((256, 128))
    t = np.array(ref)
    for _ in range(6):
        jacobi(ref)
        jacobi(t)
        assert float(t[1:-1, 1:-1].sum()) == float(np.array(ref)[1:-1, 1:-1].sum())
        assert numpy.array_equal(numpy.asarray(t[127]), ref[127])


def test_views_and_copies_around_the_sweep():
    ref = start((200, 150))
    t = np.array(ref)
    row, inner = t[100], t[1:-1, 1:-1]
    old = t.copy()
    jacobi(ref)
    jacobi(t)
    assert numpy.array_equal(numpy.asarray(old), start((200, 150)))
    assert numpy.array_equal(numpy.asarray(row), ref[100])
    assert numpy.array_equal(numpy.asarray(inner), ref[1:-1, 1:-1])
    row[:] = -3.0  # a write through a view taken before lands in the array
    ref[100] = -3.0
    jacobi(ref)
    jacobi(t)
    assert numpy.array_equal(numpy.asarray(t), ref)


DIGEST = "\n".join([
    "import hashlib, numpy, tessera.numpy as np",
    "from test_in_place_stencils import PROGRAMS, start",
    "digest = hashlib.sha1()",
    "for shape, program in PROGRAMS.values():",
    "    a = np.array(start(shape))",
    "    for _ in range(4):",
    "        program(a)",
    "    digest.update(numpy.asarray(a).tobytes())",
    "print(digest.hexdigest())",
])


def test_tilings_and_cpus_agree_bitwise():
    same_output_under(DIGEST, ["--cpus=2", "--cpus=1",
                               "--cpus=2 --min-cpu-chunk=2",            # many tiles of a few rows
                               "--cpus=2 --window-size=1",              # no fusion: copies instead
                               "--cpus=1 --min-cpu-chunk=100000000"])   # small: runs at once


def test_sweeps_run_in_place(tmp_path):
    """A sweep is one element-wise operation writing the array and one that writes the rows
    tiles kept for each other; nothing copies the box or renames the storage. (Each sweep is
    followed by a read here: sweeps that follow each other fuse, see test_fused_sweeps.py.)"""
    code = "\n".join([
        "import tessera.numpy as np",
        "from test_in_place_stencils import jacobi",
        "p = np.zeros((1000, 1000))",
        "p[0] = 1.0",
        "for _ in range(10):",
        "    jacobi(p)",
        "    float(p[500, 500])",
        "print(float(p.sum()))",
    ])
    logdir = tmp_path / "trace"
    printed = output_under(f"--cpus=2 --profile --logdir {logdir}", code)
    ref = numpy.zeros((1000, 1000))
    ref[0] = 1.0
    for _ in range(10):
        jacobi(ref)
    assert float(printed) == float(ref.sum())
    fields = [line.split("\t") for line in (logdir / "tessera_0.prof").read_text().splitlines()]
    names = [f[2] for f in fields if f[0] == "op" and f[4] == "(998, 998)"]  # over the box
    assert names.count("in-place rows") == 10, names
    assert "rename" not in names and "copy" not in names, names
