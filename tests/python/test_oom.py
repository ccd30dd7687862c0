"""Out of memory as a user meets it: the reference example run in a 40 MiB SYSMEM pool
raises tessera.OutOfMemoryError (a MemoryError) at the line that runs out, and its message
names the memory kind, the bytes asked, the operation and its file:line, the store and
where it was created, then every live allocation (size, elements covered, creation site,
the operation that made it) with the pool's use. Without --provenance the message says
how to get the sites. The program can catch the error, drop arrays and go on with every
result computed so far intact.

Each test runs its program in a fresh process (the pool size is read once at start-up),
adding its flags to the TESSERA_CONFIG the suite runs with (e.g. test mode, --cpus=2).
"""

import os
import re
import subprocess
import sys
import textwrap

import pytest

MiB = 1 << 20
N = 1024 * 1024

# The reference document's example, with two more arrays: tessera keeps one storage per
# array (no duplicate instances), so a, b, c, d, e fill the 40 MiB and f runs out.
EXAMPLE = """\
import tessera
import tessera.numpy as np

a = np.ones((1024 * 1024 - 2,))
b = np.zeros((1024 * 1024,))
b[1:-1] = a
c = b + 2
d = c + 3
e = d + 4
f = e + 5
print("not reached")
"""


def run(tmp_path, source, flags, name="prog.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    env = dict(os.environ)
    env["TESSERA_CONFIG"] = (env.get("TESSERA_CONFIG", "") + " " + flags).strip()
    r = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=300)
    return r, str(path)


def error_message(stderr):
    """The text of the uncaught tessera.OutOfMemoryError at the end of a traceback."""
    head = "tessera.OutOfMemoryError: "
    assert head in stderr, stderr
    return stderr[stderr.index(head) + len(head):].rstrip("\n")


def allocation_line(size, shape, elements, prog, line, op, provenance=True):
    created = f" created at {prog}:{line}" if provenance else ""
    issued = f" issued at {prog}:{line}" if provenance else ""
    return (f"  {size} bytes for store of shape {shape} float64{created}, "
            f"covering elements {elements}, made by '{op}'{issued}")


@pytest.mark.parametrize("cpus", ["--cpus 1", "--cpus 2"])
def test_reference_example_message_line_by_line(tmp_path, cpus):
    r, prog = run(tmp_path, EXAMPLE, f"{cpus} --sysmem 40 --provenance")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "not reached" not in r.stdout
    # Raised at the line that ran out (f = e + 5), not at a later sync point.
    assert f'File "{prog}", line 10, in <module>\n    f = e + 5' in r.stderr, r.stderr
    lines = error_message(r.stderr).split("\n")
    fill = r"'[a-z_]+'"  # whatever the fill operation of ones/zeros is called
    assert lines[0] == (f"Out of memory in SYSMEM: cannot allocate {8 * N} bytes "
                        f"for operation 'add' issued at {prog}:10")
    assert lines[1] == f"  for store of shape ({N},) float64 created at {prog}:10"
    assert lines[2] == (f"SYSMEM holds {40 * MiB} of {40 * MiB} bytes (40.0 of 40.0 MiB, 0 bytes free) "
                        "in 5 live allocations:")
    # a: its 8388592 bytes take a block of 8388608 (64-byte alignment).
    assert re.fullmatch(re.escape(allocation_line(8 * N, f"({N - 2},)", f"<0>..<{N - 3}>", prog, 4, "OP"))
                        .replace("'OP'", fill), lines[3]), lines[3]
    assert re.fullmatch(re.escape(allocation_line(8 * N, f"({N},)", f"<0>..<{N - 1}>", prog, 5, "OP"))
                        .replace("'OP'", fill), lines[4]), lines[4]
    for i, line in enumerate((7, 8, 9)):
        assert lines[5 + i] == allocation_line(8 * N, f"({N},)", f"<0>..<{N - 1}>", prog, line, "add")
    assert lines[8] == ("Free arrays that are no longer needed (del in Python), or give SYSMEM more room "
                        "(--sysmem=MiB in TESSERA_CONFIG, now 40).")
    assert len(lines) == 9, lines


def test_error_is_a_memory_error_and_names_the_pool_in_its_type(tmp_path):
    source = EXAMPLE.replace("f = e + 5", (
        "try:\n"
        "    f = e + 5\n"
        "except MemoryError as err:\n"
        "    print(type(err).__module__, type(err).__name__, isinstance(err, tessera.OutOfMemoryError))"))
    r, _ = run(tmp_path, source, "--sysmem 40 --provenance")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "tessera OutOfMemoryError True"


def test_without_provenance_the_message_says_how_to_get_the_sites(tmp_path):
    r, prog = run(tmp_path, EXAMPLE, "--cpus 1 --sysmem 40 --provenance=0")
    assert r.returncode == 1, r.stdout + r.stderr
    lines = error_message(r.stderr).split("\n")
    assert lines[0] == f"Out of memory in SYSMEM: cannot allocate {8 * N} bytes for operation 'add'"
    assert lines[1] == f"  for store of shape ({N},) float64"
    assert lines[2].startswith(f"SYSMEM holds {40 * MiB} of {40 * MiB} bytes")
    for line in (5, 6, 7):
        assert lines[line] == allocation_line(8 * N, f"({N},)", f"<0>..<{N - 1}>", prog, 0, "add", provenance=False)
    assert lines[8] == ('Run with --provenance (TESSERA_CONFIG="--provenance") to see where each store was '
                        "created and which line issued each operation.")
    assert lines[9].startswith("Free arrays that are no longer needed")
    assert prog not in "\n".join(lines)  # no sites without --provenance


RECOVERY = """\
import numpy
import tessera
import tessera.numpy as np

a = np.ones((1024 * 1024 - 2,))
b = np.zeros((1024 * 1024,))
b[1:-1] = a
c = b + 2
d = c + 3
e = d + 4
try:
    f = e + 5
    print("no error")
except tessera.OutOfMemoryError as err:
    print("caught:", str(err).splitlines()[0])
    del a, b, d
f = e + 5          # fits now
g = f * 2 - c      # and so does more work (f * 2 is a temporary, as in NumPy)
h = np.arange(10) + 1

ref_b = numpy.zeros(1024 * 1024)
ref_b[1:-1] = 1
ref_c = ref_b + 2
ref_e = ref_c + 3 + 4
ref_f = ref_e + 5
assert numpy.array_equal(numpy.asarray(c), ref_c)
assert numpy.array_equal(numpy.asarray(e), ref_e)
assert numpy.array_equal(numpy.asarray(f), ref_f)
assert numpy.array_equal(numpy.asarray(g), ref_f * 2 - ref_c)
assert h.tolist() == list(range(1, 11))
used, peak, capacity = tessera._tessera.memory_usage()
print("used", used, "peak", peak, "capacity", capacity)
print("done")
"""


def test_program_catches_the_error_frees_arrays_and_goes_on(tmp_path):
    r, prog = run(tmp_path, RECOVERY, "--sysmem 40 --provenance")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert out[0] == (f"caught: Out of memory in SYSMEM: cannot allocate {8 * N} bytes "
                      f"for operation 'add' issued at {prog}:12")
    assert out[-1] == "done"
    used, peak, capacity = (int(v) for v in out[-2].split()[1::2])
    assert capacity == 40 * MiB and peak <= capacity
    assert used == 4 * 8 * N + 128  # c, e, f, g and h are alive: a, b, d and f * 2 went back


def test_error_for_an_earlier_operation_names_it_and_drops_what_depends_on_it(tmp_path):
    # x waits in the window, unclaimed, while host data taken in takes memory at once; x then runs out
    # when the next operation, which reads it, is issued. The error names x's line; the
    # reader is dropped with it (never computed), everything else goes on.
    source = """\
    import numpy, tessera
    import tessera.numpy as np

    keep = np.full((1024 * 1024,), 7.0)
    tessera.fence()
    x = np.ones((3 * 1024 * 1024,))        # line 6: deferred, 24 MiB
    y = np.asarray(numpy.ones(3 * 1024 * 1024))  # host data, in the pool at once: 24 MiB
    try:
        t = x[:1000] * 2                   # line 9
        print("no error")
    except MemoryError as err:
        print("caught:", str(err).splitlines()[0])
    print(float(keep.sum()))
    try:
        float(x[0])
    except ValueError as err:
        print("x:", err)
    del y
    x = np.ones((3 * 1024 * 1024,))
    t = x[:1000] * 2
    print(float(x[-1] + keep[0]), float(t.sum()))
    """
    r, prog = run(tmp_path, source, "--sysmem 40 --provenance")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert re.fullmatch(rf"caught: Out of memory in SYSMEM: cannot allocate {24 * MiB} bytes "
                        rf"for operation '[a-z_]+' issued at {re.escape(prog)}:6", out[0]), out
    assert out[1] == f"{7.0 * N}"
    assert out[2] == "x: array was never computed (an earlier error stopped it)"
    assert out[3] == "8.0 2000.0"


def test_error_surfaces_at_the_next_sync_point_when_no_later_call_runs_out(tmp_path):
    source = """\
    import numpy, tessera
    import tessera.numpy as np

    keep = np.full((1024 * 1024,), 7.0)
    tessera.fence()
    x = np.ones((3 * 1024 * 1024,))        # line 6: deferred, 24 MiB
    y = np.asarray(numpy.ones(3 * 1024 * 1024))  # host data, in the pool at once: 24 MiB
    try:
        tessera.fence()
        print("no error")
    except MemoryError as err:
        print("caught:", str(err).splitlines()[0])
    print(float(keep[3]), y.shape)
    """
    r, prog = run(tmp_path, source, "--sysmem 40 --provenance")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert re.fullmatch(rf"caught: Out of memory in SYSMEM: cannot allocate {24 * MiB} bytes "
                        rf"for operation '[a-z_]+' issued at {re.escape(prog)}:6", out[0]), out
    assert out[1] == f"7.0 ({3 * N},)"
