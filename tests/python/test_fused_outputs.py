"""Element-wise operations whose results the program keeps (named intermediates, arrays
written in place) fuse with the operations that read them: one pass computes both and still
writes every result the program can see. The values must be NumPy's bit for bit (only
+ - * /, comparisons, where and casts here, which round the same everywhere), whether or not
the window fused them, and the reads and writes of one array through different views must
stay in program order."""
import os
import re
import subprocess
import sys

import numpy
import pytest

import tessera.numpy as np

N = 200_003


def start(m, n=N, seed=7):
    rng = numpy.random.default_rng(seed)
    return [m.array(rng.standard_normal(n)) for _ in range(3)]


def black_scholes_like(m, x, y, z):
    d1 = (x / (m.abs(y) + 1.0) + 0.5 * z) / (1.0 + z * z)
    d2 = d1 - 0.3 * z
    c1 = m.where(d1 > 0, 1.0 - d1 * d1, d1)
    c2 = m.where(d2 > 0, 1.0 - d2 * d2, d2)
    call = x * c1 - y * c2
    put = y * (1.0 - c2) - x * (1.0 - c1)
    return [d1, d2, c1, c2, call, put]


def in_place(m, x, y, z):
    x += 1.0           # the producer writes its own input...
    t = x * 2.0        # ...and a later operation reads the new values
    y[:] = t - y       # then overwrites another input of the chain
    u = y + t
    x[1:] = u[:-1]     # a write through a shifted view of a fused result
    return [x, y, t, u]


def shifted_views(m, x, y, z):
    t = x + y
    w = t * 3.0
    x[:-1] = x[1:] + w[:-1]   # reads and writes x at different offsets
    v = x + t                 # must see the shifted write
    z[::2] = v[::2] * 0.5     # strided outputs
    s = z[::2] + 1.0
    return [t, w, x, v, z, s]


def overwritten(m, x, y, z):
    t = x * y
    t[:] = t + z          # the same view written again
    u = t - x
    t = None              # the handle goes: u is what remains
    q = u.astype(m.float32) * m.float32(3)   # a narrower named intermediate
    r = q + u             # read back at float64
    k = (u > 0).astype(m.int32) + 2
    return [u, q, r, k]


def constants(m, x, y, z):
    a = m.zeros_like(x)
    a += x                # a fill fused into its reader
    b = m.full_like(x, 2.5)
    c = b * a + b
    d = c.copy()          # a copy of a kept result
    return [a, b, c, d]


PROGRAMS = [black_scholes_like, in_place, shifted_views, overwritten, constants]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_kept_results_match_numpy_bitwise(program):
    want = program(numpy, *start(numpy))
    got = program(np, *start(np))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g = numpy.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert numpy.array_equal(g, w)


def run_under(config, code):
    env = dict(os.environ, TESSERA_CONFIG=config, PYTHONPATH=os.path.dirname(__file__))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


DIGEST = "\n".join([
    "import hashlib, numpy, tessera.numpy as np",
    "from test_fused_outputs import PROGRAMS, start",
    "digest = hashlib.sha1()",
    "for program in PROGRAMS:",
    "    for r in program(np, *start(np)):",
    "        digest.update(numpy.asarray(r).tobytes())",
    "print(digest.hexdigest())",
])


def test_fused_and_unfused_agree_bitwise():
    fused = run_under("--cpus=2", DIGEST)
    assert run_under("--cpus=2 --window-size=1", DIGEST) == fused
    assert run_under("--cpus=1 --min-cpu-chunk=4096", DIGEST) == fused


def test_named_intermediates_fuse_into_few_operations(tmp_path):
    """The Black-Scholes-like chain is 25 element-wise calls whose results the program keeps
    and reads; they run as one or two element-wise operations."""
    code = "\n".join([
        "import tessera.numpy as np",
        "from test_fused_outputs import black_scholes_like, start",
        "r = black_scholes_like(np, *start(np))",
        "print(float(sum(x.sum() for x in r)))",  # reads every result
    ])
    logdir = tmp_path / "trace"
    run_under(f"--cpus=2 --profile --logdir {logdir}", code)
    fields = [line.split("\t") for line in (logdir / "tessera_0.prof").read_text().splitlines()]
    # element-wise operations over the arrays (not the sums that read them); a sum that reads
    # a result first may compute the whole operation as it goes
    elementwise = [f for f in fields if f[0] == "op" and f[4] == f"({N},)" and f[2] != "sum"]
    sums = [f for f in fields if f[0] == "op" and f[4] == f"({N},)" and f[2] == "sum"]
    assert len(elementwise) <= 2 and len(sums) == 6, (elementwise, sums)


def test_results_never_read_are_never_computed(tmp_path):
    """Only what the printed value needs is computed: the other named results wait, and are
    dropped when the program drops them (the pool never holds them)."""
    code = "\n".join([
        "import tessera.numpy as np",
        "from test_fused_outputs import black_scholes_like, start",
        "def price():",
        "    r = black_scholes_like(np, *start(np))",
        "    return float(r[-1].sum())",
        "print(price())",
    ])
    env = dict(os.environ, TESSERA_CONFIG="--cpus=2 --show-memory-usage", PYTHONPATH=os.path.dirname(__file__))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    want = float(black_scholes_like(numpy, *start(numpy))[-1].sum())
    assert numpy.isclose(float(r.stdout.splitlines()[0]), want, rtol=1e-12, atol=0)
    peak = int(re.search(r"SYSMEM: peak (\d+) bytes", r.stderr).group(1))
    array = N * 8
    # the three inputs and `put` (and the sum's partials): not the other five results
    assert peak < 5 * array, (peak, array)


def test_waiting_results_see_the_values_their_inputs_had():
    """Results no one has read yet wait in the window; whatever the program then does to their
    inputs or to them (operations, out=, in-place, writes through exported NumPy views, small
    operations that run at once) must leave every result as NumPy's."""
    for m in (numpy, np):
        x, y, z = start(m, n=300_007)
        small = m.arange(10.0)
        d = x * 2 + 1               # waits: nothing reads it yet
        e = y - x                   # waits
        f = z * 3                   # waits
        x += 5                      # an operation writes an input of d and e
        numpy.asarray(y)[:7] = 0.5  # the host writes an input of e (through the exported buffer)
        np_out = m.add(z, 1, out=f)  # an operation overwrites a waiting result
        small += 1                  # a small operation that touches none of them
        g = x * 0 + small[3]        # reads the small result
        got = [float(d[5]), d, e, f, np_out, g, small]
        if m is numpy:
            want = got
        else:
            result = got
    for r, w in zip(result, want):
        assert numpy.array_equal(numpy.asarray(r), numpy.asarray(w))


def test_waiting_results_are_computed_when_read_in_any_way():
    x, y, z = start(np)
    x0, y0, z0 = start(numpy)
    d, d0 = x * y - z, x0 * y0 - z0
    float((x + 1).sum())  # a read of something else: d keeps waiting
    assert d.tolist()[:5] == d0.tolist()[:5]
    e, e0 = x / 3, x0 / 3
    assert repr(e) == repr(np.array(e0))
    f, f0 = y * y, y0 * y0
    assert numpy.array_equal(numpy.asarray(f), f0)
    g, g0 = z + x, z0 + x0
    assert numpy.array_equal(numpy.array(memoryview(numpy.asarray(g))), g0)


def test_an_update_nothing_reads_does_not_hold_every_input_it_fused():
    """`x += a * p` in a loop with a sync point per iteration (a Krylov solver): x is never
    read, so its update waits at each read of something else, and each wait merges the next
    update into it. Waiting without bound would keep every iteration's p alive until the
    end; a result waits through a few flushes, then runs and gives the inputs back."""
    n = N
    x, x0 = np.zeros(n), numpy.zeros(n)
    base, base0 = start(np, n)[0], start(numpy, n)[0]
    import tessera
    tessera.fence()
    before = tessera._tessera.memory_usage()[0]
    highest = before
    for i in range(40):
        # a fresh array per iteration that is not element-wise (else x's update would take
        # in the expression that makes it, holding only `base`)
        p, p0 = np.roll(base, i + 1), numpy.roll(base0, i + 1)
        a = float((p * p).sum()) * (i + 1.0)           # a sync point reading something else
        assert numpy.isclose(a, (p0 * p0).sum() * (i + 1.0), rtol=1e-12)
        x += (1.0 / a) * p
        x0 += (1.0 / a) * p0
        highest = max(highest, tessera._tessera.memory_usage()[0])
    # x, the p of this iteration and of the few waiting updates; not forty of them
    assert highest - before < 8 * n * 8, (highest - before) / (n * 8)
    assert numpy.array_equal(numpy.asarray(x), x0)


# A result the program keeps and then sums (`y = f(x); s = y.sum()`): the sum writes it as it
# reads it. The kept result must be NumPy's bits, and the sum the bits of summing it stored.
def kept_then_summed(m):
    x, y, z = start(m)
    a = x * 2.0 + y            # kept, summed whole
    s = a.sum()
    b = (y - z) / 3.0          # kept, summed along the last axis of a 2-D view of it
    b2 = b[: N - 3].reshape(-1, 100)
    c = b2 * 1.5               # kept, summed by rows
    r = c.sum(axis=1)
    f = x.astype(m.float32) * m.float32(0.5) + m.float32(1)  # float32, a float32 sum
    t = f.sum()
    call, put = black_scholes_like(m, x, y, z)[-2:]
    both = call.sum() + put.sum()  # two results of one operation, each summed
    return [a, b2, c, f, call, put], [s, r, t, both]


def test_kept_results_summed_in_one_pass():
    kept_n, sums_n = kept_then_summed(numpy)
    kept, sums = kept_then_summed(np)
    for g, w in zip(kept, kept_n):
        g = numpy.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert numpy.array_equal(g, w)
    # the same bits as summing the stored results, which no producer computes any more
    stored = [np.array(numpy.asarray(kept[0])).sum(), np.array(numpy.asarray(kept[2])).sum(axis=1),
              np.array(numpy.asarray(kept[3])).sum(),
              np.array(numpy.asarray(kept[4])).sum() + np.array(numpy.asarray(kept[5])).sum()]
    for g, w, want in zip(sums, stored, sums_n):
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == want.dtype and g.shape == want.shape
        assert numpy.array_equal(g, w)
        numpy.testing.assert_allclose(g, want, rtol=1e-5 if g.dtype == numpy.float32 else 1e-12)


def test_a_kept_result_summed_is_computed_by_the_sum(tmp_path):
    """`a = x * 2 + y; a.sum()` runs as one operation that writes `a` and sums it."""
    code = "\n".join([
        "import numpy, tessera.numpy as np",
        "from test_fused_outputs import start",
        "x, y, z = start(np)",
        "a = x * 2.0 + y",
        "s = float(a.sum())",
        "print(s, float(numpy.asarray(a)[7]))",
    ])
    logdir = tmp_path / "trace"
    printed = run_under(f"--cpus=2 --profile --logdir {logdir}", code)
    fields = [line.split("\t") for line in (logdir / "tessera_0.prof").read_text().splitlines()]
    names = [f[2] for f in fields if f[0] == "op"]
    assert "sum" in names and "multiply" not in names and "add" not in names, names
    x, y, _ = start(numpy)
    a = x * 2.0 + y
    s, a7 = map(float, printed.split())
    assert a7 == float(a[7])
    assert numpy.isclose(s, float(a.sum()), rtol=1e-12, atol=0)


def test_a_kept_result_summed_that_its_producer_reads_through_another_view():
    """An operation writing an array it reads reversed, then a sum of that array."""
    for m in (numpy, np):
        x, y, _ = start(m)
        a = x + 0.0
        a[:] = a[::-1] * 2.0 + y
        s = a.sum()
        b = y * 3.0
        b += 1.0               # reads and writes the same view
        t = b.sum()
        if m is numpy:
            want = [a, s, b, t]
    got = [a, s, b, t]
    for g, w in zip(got[0::2], want[0::2]):
        assert numpy.array_equal(numpy.asarray(g), w)
    for g, w in zip(got[1::2], want[1::2]):
        numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=1e-12)


def test_results_still_waiting_at_exit_are_not_computed(tmp_path):
    """A program that ends holding results it never read (module globals) does not compute
    them at exit: nothing can read them any more."""
    code = "\n".join([
        "import tessera.numpy as np",
        "from test_fused_outputs import black_scholes_like, start",
        "r = black_scholes_like(np, *start(np))",
        "print(float(r[-1].sum()))",
    ])
    logdir = tmp_path / "trace"
    out = run_under(f"--cpus=2 --profile --logdir {logdir}", code)
    want = float(black_scholes_like(numpy, *start(numpy))[-1].sum())
    assert numpy.isclose(float(out.splitlines()[0]), want, rtol=1e-12, atol=0)
    fields = [line.split("\t") for line in (logdir / "tessera_0.prof").read_text().splitlines()]
    elementwise = [f for f in fields if f[0] == "op" and f[4] == f"({N},)" and f[2] != "sum"]
    assert elementwise == [], elementwise


def test_results_waiting_in_memory_handed_out_are_computed_at_exit():
    """A waiting result written into memory the program handed to NumPy is still computed when
    the program ends: an exit handler that ran before tessera's may read it."""
    code = "\n".join([
        "import atexit",
        "import numpy",
        "seen = []",
        "atexit.register(lambda: print(float(seen[0][5]), float(seen[0][-1])))",  # runs after tessera's
        "import tessera.numpy as np",
        "from test_fused_outputs import start",
        "x, y, z = start(np)",
        "a = np.zeros(len(x))",
        "seen.append(numpy.from_dlpack(a))",  # a view of its memory (asarray copies)
        "np.add(x, 1.0, out=a)",
        "print(float(y.sum()))",  # a read of something else: the addition waits
    ])
    out = run_under("--cpus=2", code).split()
    x, y, _ = start(numpy)
    assert numpy.isclose(float(out[0]), y.sum(), rtol=1e-12, atol=0)
    assert [float(v) for v in out[1:]] == [x[5] + 1.0, x[-1] + 1.0]
