"""Stencil sweeps fused in time: a loop of assignments into one array from shifted views of
itself (`p[1:-1, 1:-1] = f(p[...])`) is computed several sweeps per pass over memory, each
sweep's rows kept in a small buffer until the next sweep has read them. Every value must be
exactly NumPy's, sweep after sweep, whatever the shape, the reach of the stencil, the arrays
it also reads, and whatever the program reads or keeps between sweeps."""
import numpy
import pytest

import tessera.numpy as np
from parity import output_under, same_output_under


def jacobi(p, c):
    p[1:-1, 1:-1] = .25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])


def downwind(p, c):  # reads its own row and the row above, and another array
    p[1:, :] = 0.5 * p[:-1, :] + 0.25 * p[1:, :] - c[1:, :]


def upwind(p, c):  # reads only rows below, two of them
    p[:-2, 1:-1] = p[2:, 1:-1] - p[1:-1, 2:] * c[:-2, 1:-1]


def wide(p, c):  # a reach of two rows and two columns
    p[2:-2, 2:-2] = (p[:-4, 2:-2] + p[4:, 2:-2] + p[2:-2, :-4] + p[2:-2, 4:] + p[2:-2, 2:-2]) * 0.2


def integers(p, c):
    p[1:-1, 1:-1] = (p[1:-1, 2:] + p[:-2, 1:-1]) // 2 - p[2:, 1:-1] % 7 + c[1:-1, 1:-1]


STENCILS = [jacobi, downwind, upwind, wide]


def start(shape, dtype=numpy.float64, seed=3):
    a = numpy.random.default_rng(seed).standard_normal(shape)
    return (a * 100).astype(dtype) if numpy.dtype(dtype).kind == "i" else a.astype(dtype)


def run(stencil, p, c, sweeps):
    for _ in range(sweeps):
        stencil(p, c)


@pytest.mark.parametrize("stencil", STENCILS)
@pytest.mark.parametrize("shape", [(6, 7), (64, 1000), (301, 300), (1000, 40), (40, 3000)])
@pytest.mark.parametrize("sweeps", [2, 9, 20])
def test_sweeps_match_numpy_bitwise(stencil, shape, sweeps):
    ref, ref_c = start(shape), start(shape, seed=4) * 0.01
    p, c = np.array(ref), np.array(ref_c)
    run(stencil, p, c, sweeps)
    run(stencil, ref, ref_c, sweeps)
    assert numpy.array_equal(numpy.asarray(p), ref)


@pytest.mark.parametrize("dtype,stencil", [(numpy.float32, jacobi), (numpy.float32, downwind),
                                           (numpy.int64, integers), (numpy.int32, integers)])
def test_other_dtypes(dtype, stencil):
    ref, ref_c = start((200, 150), dtype), start((200, 150), dtype, seed=4)
    p, c = np.array(ref), np.array(ref_c)
    run(stencil, p, c, 12)
    run(stencil, ref, ref_c, 12)
    assert numpy.asarray(p).dtype == ref.dtype
    assert numpy.array_equal(numpy.asarray(p), ref)


def test_one_and_three_dimensions():
    ref = start(5000)
    u = np.array(ref)
    for _ in range(10):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        ref[1:-1] = 0.5 * (ref[2:] + ref[:-2])
    assert numpy.array_equal(numpy.asarray(u), ref)
    ref = start((40, 30, 20))
    v = np.array(ref)
    for a in (v, ref):
        for _ in range(10):
            a[1:-1, 1:-1, 1:-1] = (a[:-2, 1:-1, 1:-1] + a[2:, 1:-1, 1:-1] + a[1:-1, :-2, 1:-1]
                                   + a[1:-1, 2:, 1:-1] + a[1:-1, 1:-1, :-2] + a[1:-1, 1:-1, 2:]) / 6.0
    assert numpy.array_equal(numpy.asarray(v), ref)


def test_reads_between_sweeps_see_each_sweep():
    """A sum every third sweep needs that sweep's values: the runs are cut there."""
    ref, ref_c = start((500, 400)), start((500, 400), seed=4)
    p, c = np.array(ref), np.array(ref_c)
    sums, ref_sums = [], []
    for it in range(15):
        jacobi(p, c)
        jacobi(ref, ref_c)
        if it % 3 == 2:
            sums.append(p.sum())
            ref_sums.append(np.array(ref).sum())  # the same order of additions as tessera's
    assert [float(s) for s in sums] == [float(s) for s in ref_sums]
    assert numpy.array_equal(numpy.asarray(p), ref)


def test_a_write_to_another_array_between_sweeps():
    """The stencil reads c, which the program changes after the fourth sweep."""
    ref, ref_c = start((300, 300)), start((300, 300), seed=4)
    p, c = np.array(ref), np.array(ref_c)
    for it in range(10):
        downwind(p, c)
        downwind(ref, ref_c)
        if it == 3:
            c *= 2.0
            ref_c *= 2.0
    assert numpy.array_equal(numpy.asarray(p), ref)


def test_views_taken_before_see_the_new_values():
    ref = start((300, 200))
    p = np.array(ref)
    row, inner, column = p[150], p[1:-1, 1:-1], p[:, 0]
    run(jacobi, p, None, 10)
    run(jacobi, ref, None, 10)
    assert numpy.array_equal(numpy.asarray(row), ref[150])
    assert numpy.array_equal(numpy.asarray(inner), ref[1:-1, 1:-1])
    assert numpy.array_equal(numpy.asarray(column), ref[:, 0])  # the frame
    row[:] = 7.0  # a write through an old view lands in the array
    assert float(p[150, 3]) == 7.0


def test_exported_memory_stays_where_it_is():
    """An array whose address was handed out (DLPack) keeps its memory: the last sweep's
    values are copied into it, and the exported view sees them."""
    ref = start((300, 300))
    p = np.array(ref)
    exported = numpy.from_dlpack(p)
    run(jacobi, p, None, 10)
    run(jacobi, ref, None, 10)
    assert numpy.array_equal(numpy.asarray(p), ref)
    assert numpy.array_equal(exported, ref)


def test_the_profile_shows_sweeps_fused(tmp_path):
    """16 sweeps of a 1000 x 1000 grid run as passes of several sweeps, not one by one."""
    logdir = tmp_path / "trace"
    code = "\n".join([
        "import tessera.numpy as np",
        "from test_fused_sweeps import jacobi",
        "p = np.zeros((1000, 1000))",
        "p[0] = 1.0",
        "for _ in range(16):",
        "    jacobi(p, None)",
        "print(float(p.sum()))",
    ])
    printed = output_under(f"--cpus=2 --profile --logdir {logdir}", code)
    fields = [line.split("\t") for line in (logdir / "tessera_0.prof").read_text().splitlines()]
    names = [f[2] for f in fields if f[0] == "op"]
    fused = [int(n.split("(")[1].split()[0]) for n in names if n.endswith(" sweeps)")]
    assert len(fused) >= 2 and max(fused) > 2, names
    assert sum(fused) <= 16
    ref = numpy.zeros((1000, 1000))
    ref[0] = 1.0
    run(jacobi, ref, None, 16)
    assert float(printed) == float(ref.sum())


DIGEST = "\n".join([
    "import hashlib, numpy, tessera.numpy as np",
    "from test_fused_sweeps import start, run, STENCILS",
    "digest = hashlib.sha1()",
    "for stencil in STENCILS:",
    "    for shape in [(300, 300), (64, 1000), (1000, 40), (40, 3000)]:",
    "        p, c = np.array(start(shape)), np.array(start(shape, seed=4))",
    "        run(stencil, p, c, 11)",
    "        digest.update(numpy.asarray(p).tobytes())",
    "print(digest.hexdigest())",
])


def test_tilings_and_cpus_agree_bitwise():
    same_output_under(DIGEST, ["--cpus=2", "--cpus=1",
                               "--cpus=2 --min-cpu-chunk=2",   # many tiles
                               "--cpus=2 --window-size=1"])    # sweep by sweep
