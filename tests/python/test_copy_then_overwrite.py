"""`pn = p.copy()` followed by an assignment that overwrites most of p from pn
(`p[1:-1, 1:-1] = f(pn[...])`, the pressure sweep of a CFD code): the copy takes p's memory
as it is and p gets fresh memory with only its frame copied back, so no full copy is made.
Both arrays must hold exactly NumPy's values afterwards, and views, later writes and exported
memory must behave as if the copy had been made."""
import numpy
import pytest

import tessera.numpy as np
from parity import output_under, same_output_under


def start(shape, dtype=numpy.float64, seed=5):
    a = numpy.random.default_rng(seed).standard_normal(shape)
    return (a * 100).astype(dtype) if numpy.dtype(dtype).kind == "i" else a.astype(dtype)


def sweep(p, b):
    pn = p.copy()
    p[1:-1, 1:-1] = ((pn[1:-1, 2:] + pn[1:-1, :-2]) * 0.3 + (pn[2:, 1:-1] + pn[:-2, 1:-1]) * 0.2
                     - 0.1 * b[1:-1, 1:-1])
    p[:, -1] = p[:, -2]
    p[0, :] = p[1, :]
    p[:, 0] = p[:, 1]
    p[-1, :] = 0
    return pn


@pytest.mark.parametrize("shape", [(300, 300), (64, 1000), (1000, 40), (7, 9)])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.int64])
def test_sweeps_match_numpy_bitwise(shape, dtype):
    ref_p, ref_b = start(shape, dtype), start(shape, dtype, seed=6)
    p, b = np.array(ref_p), np.array(ref_b)
    for _ in range(6):
        ref_pn = sweep(ref_p, ref_b)
        pn = sweep(p, b)
    assert numpy.array_equal(numpy.asarray(p), ref_p)
    assert numpy.asarray(pn).dtype == ref_pn.dtype
    assert numpy.array_equal(numpy.asarray(pn), ref_pn)


def jacobi_with_checks(np, p, sweeps, every):
    """The Jacobi loop of a convergence test: a copy before every few sweeps, then the norm
    of the change. The sweep reads p itself (computed in place); after the exchange it reads
    the copy, which holds the same values."""
    norms = []
    for it in range(1, sweeps + 1):
        check = it % every == 0
        if check:
            pn = p.copy()
        p[1:-1, 1:-1] = .25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])
        if check:
            norms.append(float(np.sqrt(np.sum((p - pn) ** 2))))
    return norms


@pytest.mark.parametrize("shape", [(400, 300), (300, 1030), (9, 8)])
def test_a_sweep_in_place_after_the_copy_matches_numpy_bitwise(shape):
    ref = start(shape)
    p = np.array(ref)
    # The norms are sums, whose order of additions is tessera's own (the same on any number
    # of cpus and ranks) and not always NumPy's pairwise one: they agree to rounding.
    assert jacobi_with_checks(np, p, 12, 3) == pytest.approx(jacobi_with_checks(numpy, ref, 12, 3), rel=1e-13)
    assert numpy.array_equal(numpy.asarray(p), ref)


def test_the_copy_keeps_the_values_from_before_the_assignment():
    ref = start((400, 300))
    p = np.array(ref)
    pn = p.copy()
    p[1:-1, 1:-1] = pn[2:, 1:-1] * 2.0
    expected = ref.copy()
    expected[1:-1, 1:-1] = ref[2:, 1:-1] * 2.0
    assert numpy.array_equal(numpy.asarray(pn), ref)
    assert numpy.array_equal(numpy.asarray(p), expected)
    pn[5, 5] = -1.0  # the copy and the array stay independent both ways
    p[6, 6] = -2.0
    assert float(p[5, 5]) == expected[5, 5]
    assert float(pn[6, 6]) == ref[6, 6]


def test_views_taken_before_see_the_new_values():
    ref = start((300, 200))
    p = np.array(ref)
    row, inner, column = p[150], p[1:-1, 1:-1], p[:, 0]
    pn = p.copy()
    p[1:-1, 1:-1] = pn[1:-1, 2:] - pn[1:-1, :-2]
    ref[1:-1, 1:-1] = ref[1:-1, 2:] - ref[1:-1, :-2]
    assert numpy.array_equal(numpy.asarray(row), ref[150])
    assert numpy.array_equal(numpy.asarray(inner), ref[1:-1, 1:-1])
    assert numpy.array_equal(numpy.asarray(column), ref[:, 0])  # the frame
    row[:] = 7.0  # a write through an old view lands in the array, not in the copy
    assert float(p[150, 3]) == 7.0
    assert float(pn[150, 3]) != 7.0


def test_a_read_of_the_array_between_copy_and_assignment_sees_the_old_values():
    ref = start((300, 300))
    p = np.array(ref)
    pn = p.copy()
    total = p.sum()  # issued between the copy and the assignment
    p[1:-1, 1:-1] = pn[1:-1, 1:-1] * 0.5
    assert float(total) == float(np.array(ref).sum())
    assert numpy.array_equal(numpy.asarray(pn), ref)


def test_exported_memory_stays_where_it_is():
    """An array whose address was handed out (DLPack) may not change memory: the copy is
    then a plain copy, and the exported view still sees the array's values."""
    ref = start((300, 300))
    p = np.array(ref)
    exported = numpy.from_dlpack(p)
    for _ in range(3):
        pn = p.copy()
        p[1:-1, 1:-1] = pn[1:-1, 2:] * 0.5 + pn[1:-1, :-2] * 0.5
        ref_pn = ref.copy()
        ref[1:-1, 1:-1] = ref_pn[1:-1, 2:] * 0.5 + ref_pn[1:-1, :-2] * 0.5
    assert numpy.array_equal(numpy.asarray(p), ref)
    assert numpy.array_equal(exported, ref)
    assert numpy.array_equal(numpy.asarray(pn), ref_pn)


def profiled_copies(tmp_path, code, where):
    """What `code` prints under the profiler, and the bytes each task of the (1000, 1000)
    copies issued at `where` (a part of their file:line) read and wrote."""
    logdir = tmp_path / "trace"
    printed = output_under(f"--cpus=2 --profile --logdir {logdir}", code)
    fields = [line.split("\t") for line in (logdir / "tessera_0.prof").read_text().splitlines()]
    copies = {f[1] for f in fields if f[0] == "op" and f[2] == "copy" and where in f[3] and f[4] == "(1000, 1000)"}
    # span <lane> task <begin> <end> <op> <task> <bytes> <tile>
    return printed, [int(f[7]) for f in fields if f[0] == "span" and f[2] == "task" and f[5] in copies]


FRAME = 2 * 4 * 999 * 8  # the frame of a 1000 x 1000 float64 array, read and written


def test_only_the_frame_is_copied(tmp_path):
    """The profile shows each copy moving only the frame, not the million elements of a
    full copy."""
    code = "\n".join([
        "import tessera.numpy as np",
        "p = np.zeros((1000, 1000))",
        "p[0] = 1.0",
        "for _ in range(5):",
        "    pn = p.copy()",
        "    p[1:-1, 1:-1] = 0.25 * (pn[1:-1, 2:] + pn[1:-1, :-2] + pn[2:, 1:-1] + pn[:-2, 1:-1])",
        "print(float(p.sum()))",
    ])
    printed, moved = profiled_copies(tmp_path, code, ":5")
    ref = numpy.zeros((1000, 1000))
    ref[0] = 1.0
    for _ in range(5):
        pn = ref.copy()
        ref[1:-1, 1:-1] = 0.25 * (pn[1:-1, 2:] + pn[1:-1, :-2] + pn[2:, 1:-1] + pn[:-2, 1:-1])
    assert float(printed) == float(ref.sum())
    assert moved == [FRAME] * 5, moved


def test_a_sweep_in_place_after_the_copy_copies_only_the_frame(tmp_path):
    code = "\n".join([
        "import tessera.numpy as np",
        "from test_copy_then_overwrite import jacobi_with_checks",
        "p = np.zeros((1000, 1000))",
        "p[0] = 1.0",
        "print(jacobi_with_checks(np, p, 20, 5))",
    ])
    printed, moved = profiled_copies(tmp_path, code, "test_copy_then_overwrite")
    ref = numpy.zeros((1000, 1000))
    ref[0] = 1.0
    assert eval(printed) == pytest.approx(jacobi_with_checks(numpy, ref, 20, 5), rel=1e-13)
    assert moved == [FRAME] * 4, moved


DIGEST = "\n".join([
    "import hashlib, numpy, tessera.numpy as np",
    "from test_copy_then_overwrite import start, sweep",
    "digest = hashlib.sha1()",
    "for shape in [(300, 300), (64, 1000), (1000, 40)]:",
    "    p, b = np.array(start(shape)), np.array(start(shape, seed=6))",
    "    for _ in range(4):",
    "        pn = sweep(p, b)",
    "    digest.update(numpy.asarray(p).tobytes() + numpy.asarray(pn).tobytes())",
    "print(digest.hexdigest())",
])


def test_tilings_and_cpus_agree_bitwise():
    same_output_under(DIGEST, ["--cpus=2", "--cpus=1",
                               "--cpus=2 --min-cpu-chunk=2",   # many tiles
                               "--cpus=2 --window-size=1"])    # no fusion: full copies
