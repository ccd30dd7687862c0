"""Memory tools: --show-memory-usage prints each pool's peak and current use at exit;
ndarray.stencil_hint validates its offsets like NumPy and allocates the array (halo
recorded) up front, so the slices and whole-array operations after it share that one
allocation; tessera.offload_to keeps an array in SYSMEM and refuses memory kinds this
machine lacks; tessera.timing.time reads the clock after pending work has finished."""

import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import tessera
import tessera.numpy as tnp
from tessera import OutputArray, task
from tessera.timing import time

MiB = 1 << 20
N = 1024 * 1024


def run(tmp_path, source, flags):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(source))
    env = dict(os.environ)
    env["TESSERA_CONFIG"] = (env.get("TESSERA_CONFIG", "") + " " + flags).strip()
    return subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=300)


def used():
    tessera.fence()
    return tessera._tessera.memory_usage()[0]


# --show-memory-usage ------------------------------------------------------------------

USAGE_PROGRAM = """\
import tessera.numpy as np

a = np.ones((1024 * 1024,))
b = a + 1
assert float(b[7]) == 2.0 and float(a[7]) == 1.0
del a
print("finished")
"""


def test_show_memory_usage_prints_peak_and_current_use_per_pool_at_exit(tmp_path):
    r = run(tmp_path, USAGE_PROGRAM, "--sysmem 64 --show-memory-usage")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "finished\n"
    lines = r.stderr.splitlines()
    assert lines[-2] == "tessera memory usage at exit:", r.stderr
    assert lines[-1] == (f"  SYSMEM: peak {16 * MiB} bytes (16.0 MiB), in use {8 * MiB} bytes (8.0 MiB), "
                         f"capacity {64 * MiB} bytes (64.0 MiB)")


def test_memory_usage_is_not_printed_unless_asked(tmp_path):
    r = run(tmp_path, USAGE_PROGRAM, "--sysmem 64 --show-memory-usage=0")
    assert r.returncode == 0, r.stderr
    assert "memory usage" not in r.stderr + r.stdout


def test_memory_report_lists_the_live_arrays():
    a = tnp.full((1000,), 3.0)
    tessera.fence()
    report = tessera.memory_report()
    assert report.startswith("SYSMEM holds ")
    assert "  8000 bytes for store of shape (1000,) float64" in report
    assert "covering elements <0>..<999>" in report
    del a


# stencil_hint -------------------------------------------------------------------------

def test_stencil_hint_allocates_once_up_front_and_slices_reuse_it():
    before = used()
    a = tnp.ones((N - 2,))
    b = tnp.zeros((N,))
    assert b.stencil_hint((1,), (1,)) is None
    # b's memory is taken at the hint, before anything ran.
    assert tessera._tessera.memory_usage()[0] - before >= 8 * N
    b[1:-1] = a
    c = b + 2
    d = c + 3
    assert used() - before == 4 * 8 * N  # a, b, c, d: b was allocated once, slice and whole alike
    ref = numpy.zeros(N)
    ref[1:-1] = 1
    assert numpy.array_equal(numpy.asarray(d), ref + 5)
    report = tessera.memory_report()
    assert "covering elements <0>..<1048575> (stencil halo <1> below, <1> above), made by 'stencil_hint'" in report


def test_stencil_hint_accepts_keywords_ints_and_zero_dimensions():
    m = tnp.zeros((4, 5))
    m.stencil_hint(low_offsets=(1, 2), high_offsets=[3, 1])
    v = tnp.arange(10)
    v.stencil_hint(1, 0)  # an int stands for a 1-tuple, as in NumPy's shapes
    s = tnp.asarray(2.5)
    s.stencil_hint((), ())
    m += 1
    assert m.tolist() == [[1.0] * 5] * 4 and v.tolist() == list(range(10)) and float(s) == 2.5


@pytest.mark.parametrize("low, high, error, words", [
    ((1, 1), (1,), ValueError, "low_offsets (1, 1) has 2 entries, but the array has 1 dimension"),
    ((1,), (), ValueError, "high_offsets () has 0 entries, but the array has 1 dimension"),
    ((-1,), (0,), ValueError, "low_offsets (-1,) must not be negative"),
    ((0,), (-2,), ValueError, "high_offsets (-2,) must not be negative"),
    ((1.5,), (1,), TypeError, "'float' object cannot be interpreted as an integer"),
    ((1,), None, TypeError, "'NoneType' object cannot be interpreted as an integer"),
])
def test_stencil_hint_rejects_bad_offsets(low, high, error, words):
    b = tnp.zeros((8,))
    with pytest.raises(error) as info:
        b.stencil_hint(low, high)
    assert words in str(info.value)


def test_stencil_hint_on_a_view_asks_for_the_owning_array():
    b = tnp.zeros((8,))
    with pytest.raises(ValueError, match="view of another array's data"):
        b[1:].stencil_hint((1,), (1,))


# offload_to ---------------------------------------------------------------------------

@pytest.mark.parametrize("target", [tessera.StoreTarget.SYSMEM, "SYSMEM", "sysmem"])
def test_offload_to_sysmem_keeps_the_only_copy_there(target):
    a = tnp.arange(100_000, dtype=tnp.float64) * 2
    before = used()
    assert tessera.offload_to(a, target) is None
    assert used() == before  # no second copy
    assert float(a[99_999]) == 199_998.0


@pytest.mark.parametrize("target, why", [
    (tessera.StoreTarget.FBMEM, "no GPU support"),
    ("ZCMEM", "no GPU support"),
    (tessera.StoreTarget.NUMAMEM, "every array lives in SYSMEM"),
])
def test_offload_to_a_memory_this_machine_lacks_is_a_value_error(target, why):
    a = tnp.ones((10,))
    with pytest.raises(ValueError) as info:
        tessera.offload_to(a, target)
    message = str(info.value)
    assert "is not present on this machine" in message and why in message
    assert "the memories here are: SYSMEM" in message
    assert a.tolist() == [1.0] * 10


def test_offload_to_checks_its_arguments():
    a = tnp.ones((3,))
    with pytest.raises(ValueError, match="unknown memory kind 'GPU'"):
        tessera.offload_to(a, "GPU")
    with pytest.raises(TypeError, match="StoreTarget"):
        tessera.offload_to(a, 3)
    with pytest.raises(TypeError, match="expected a tessera array"):
        tessera.offload_to([1.0, 2.0], "SYSMEM")


# tessera.timing -----------------------------------------------------------------------

def test_time_is_an_int_in_microseconds_by_default_and_never_goes_back():
    t0 = time()
    t1 = time("us")
    t_ns = time("ns")
    t_ms = time("ms")
    t_s = time(units="s")
    assert all(isinstance(t, int) for t in (t0, t1, t_ns, t_ms, t_s))
    assert t0 <= t1 <= t_ns // 1000
    assert t_ms >= t_ns // 1_000_000 and t_s >= t_ms // 1000


@task()
def no_value(y: OutputArray) -> None:
    raise ValueError("no value for this tile")


def test_time_waits_for_pending_work():
    bad = tnp.empty(300_000)
    no_value(bad)  # the task fails when it runs
    with pytest.raises(ValueError, match="no value for this tile"):
        time()  # the error of the work still pending comes out: time() waited for it
    del bad
    assert float(tnp.arange(300_000).sum()) == 299_999 * 300_000 / 2  # and the runtime goes on


def test_time_rejects_unknown_units():
    with pytest.raises(ValueError, match="units must be one of 's', 'ms', 'us', 'ns'"):
        time("minutes")
