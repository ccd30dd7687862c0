"""Python tasks (tessera.task): the bodies of issue 9 launched over tessera arrays and compared
with the same computation in NumPy (values, dtypes, shapes); constraints (align, broadcast,
bloat framed and inside one array, reductions); scalars; errors at decoration, at the call,
and from a body at the next sync point. The suite runs in normal mode, in test mode (tiny
tiles: many points) and on 2 ranks (tests/ranks/test_parity.py)."""

import inspect

import numpy
import pytest

import tessera
import tessera.numpy as tnp
from tessera import (InOutArray, InputArray, OutputArray, ReductionArray, TaskContext, align, bloat, broadcast,
                     min_extents, task)

# Small arrays run at once on the program thread; large ones are cut into tiles for the workers.
SIZES = [7, 100_003]


def data(shape, dtype="float64", seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind in "iu":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def result(a):
    """A tessera array's values as NumPy (waits for the tasks that write it)."""
    return numpy.asarray(a)


def same(got, want, rtol=1e-12):
    got = result(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=0)


# --- the tasks of issue 9 ----------------------------------------------------------------------

@task(constraints=(align("y", "x"), broadcast("w")))
def scaled_add(y: OutputArray, x: InputArray, w: InputArray, a: float) -> None:
    y[:] = a * x + w.sum()


@task(constraints=(align("out", "x"), broadcast("x", (1,))))
def batched_fft(out: OutputArray, x: InputArray) -> None:
    assert x.shape[1] == 16, "a tile holds whole rows"
    out[:] = numpy.fft.fft(x, axis=1)


@task(constraints=(broadcast("total"),))
def total(total: ReductionArray["+"], x: InputArray) -> None:
    total[...] += x.sum()


@task(constraints=(bloat("src", "dst", (1, 1), (1, 1)),))
def smooth(dst: OutputArray, src: InputArray) -> None:
    dst[:] = 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:])


def smooth_numpy(src):
    return 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:])


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_scaled_add(n, dtype):
    x, w = data(n, dtype), data(5, dtype, seed=1)
    y = tnp.empty(n, dtype=dtype)
    scaled_add(y, tnp.asarray(x), tnp.asarray(w), 2.5)
    same(y, (2.5 * x + w.sum()).astype(dtype), rtol=1e-6 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("rows", [3, 9000])
def test_batched_fft_sees_whole_rows(rows):
    x = data((rows, 16), "complex128")
    out = tnp.empty((rows, 16), dtype="complex128")
    batched_fft(out, tnp.asarray(x))
    same(out, numpy.fft.fft(x, axis=1))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_total_adds_every_tile_into_the_whole(n, dtype):
    x = data(n, dtype)
    t = tnp.full((), 3, dtype=dtype)  # the fold adds to what the array held
    total(t, tnp.asarray(x))
    same(t, numpy.asarray(3 + x.sum(), dtype=dtype), rtol=1e-9)


@pytest.mark.parametrize("shape", [(4, 5), (300, 400)])
def test_smooth_reads_a_framed_halo(shape):
    src = data((shape[0] + 2, shape[1] + 2))
    dst = tnp.empty(shape)
    smooth(dst, tnp.asarray(src))
    same(dst, smooth_numpy(src))


# --- a halo inside one array: the grown tile is clipped at the edges ------------------------------

@task(constraints=(bloat("src", "dst", (1, 1), (1, 1)),))
def smooth_inside(dst: OutputArray, src: InputArray, ctx: TaskContext) -> None:
    """dst = src on the boundary, the 4-point average inside; src and dst have one shape."""
    (n, m), (d0, d1), (e0, e1), (s0, s1) = ctx.shape["dst"], ctx.lo["dst"], ctx.hi["dst"], ctx.lo["src"]
    assert ctx.shape["src"] == (n, m) and 0 <= ctx.point < ctx.points
    assert s0 == max(d0 - 1, 0) and s1 == max(d1 - 1, 0), "the halo is clipped at the array's edge"
    assert ctx.hi["src"] == (min(e0 + 1, n), min(e1 + 1, m))
    dst[:] = src[d0 - s0:e0 - s0, d1 - s1:e1 - s1]
    r0, r1, c0, c1 = max(d0, 1), min(e0, n - 1), max(d1, 1), min(e1, m - 1)  # the interior, globally
    if r0 < r1 and c0 < c1:
        def at(dr, dc):
            return src[r0 + dr - s0:r1 + dr - s0, c0 + dc - s1:c1 + dc - s1]
        dst[r0 - d0:r1 - d0, c0 - d1:c1 - d1] = 0.25 * (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1))


@pytest.mark.parametrize("shape", [(5, 6), (400, 300)])
def test_halo_inside_one_array(shape):
    src = data(shape)
    want = src.copy()
    want[1:-1, 1:-1] = smooth_numpy(src)
    dst = tnp.empty(shape)
    smooth_inside(dst, tnp.asarray(src))
    same(dst, want)


# --- in place, reductions, scalars -------------------------------------------------------------

@task(constraints=(align("x", "y"),))
def axpy_in_place(x: InOutArray, y: InputArray, a: float) -> None:
    x *= a
    x += y


@pytest.mark.parametrize("n", SIZES)
def test_inout_updates_in_place(n):
    x0, y0 = data(n), data(n, seed=1)
    x = tnp.asarray(x0)
    view = x[1:]  # an alias sees the update
    axpy_in_place(x, tnp.asarray(y0), -1.5)
    same(x, -1.5 * x0 + y0)
    same(view, (-1.5 * x0 + y0)[1:])


@task(constraints=(broadcast("m"),))
def largest(m: ReductionArray["max"], x: InputArray) -> None:
    m[...] = numpy.maximum(m, x.max())


@task(constraints=(broadcast("m"),))
def smallest(m: ReductionArray["min"], x: InputArray) -> None:
    m[...] = numpy.minimum(m, x.min())


@task(constraints=(broadcast("p"),))
def product(p: ReductionArray["*"], x: InputArray) -> None:
    p[...] *= x.prod()


@task(constraints=(broadcast("counts"),))
def histogram(counts: ReductionArray["+"], x: InputArray) -> None:
    numpy.add.at(counts, x, 1)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_min_and_max_reductions(n, dtype):
    x = data(n, dtype)
    for fn, fold, start in ((largest, numpy.max, -1000), (smallest, numpy.min, 1000), (largest, numpy.max, 1000)):
        m = tnp.full((), start, dtype=dtype)
        fn(m, tnp.asarray(x))
        same(m, numpy.asarray(fold([start, fold(x)]), dtype=dtype))


@pytest.mark.parametrize("n", SIZES)
def test_prod_reduction(n):
    x = numpy.where(numpy.arange(n) % (n // 5 + 1) == 0, 2, 1).astype("int64")  # a few twos
    p = tnp.full((), 3, dtype="int64")
    product(p, tnp.asarray(x))
    same(p, numpy.asarray(3 * x.prod(), dtype="int64"))


@pytest.mark.parametrize("n", SIZES)
def test_sum_reduction_into_an_array(n):
    x = numpy.random.default_rng(2).integers(0, 10, size=n)
    counts = tnp.zeros(10, dtype="int64")
    histogram(counts, tnp.asarray(x))
    same(counts, numpy.bincount(x, minlength=10))


@task(constraints=(align("out", "x"),))
def mix(out: OutputArray, x: InputArray, k: int, c: complex, flag: bool, extra, scale: float = 0.5) -> None:
    assert type(k) is int and type(c) is complex and type(flag) is bool and type(scale) is float
    assert type(extra) is numpy.float32, type(extra)
    out[:] = x * k + (c.imag if flag else 0) + extra + scale


@task(constraints=(align("out", "x"), min_extents("x", (4,))))
def at_least_four(out: OutputArray, x: InputArray) -> None:
    assert x.size >= 4, f"a tile of {x.size} elements"
    out[:] = x + 1


def test_min_extents():
    x = data(10)
    out = tnp.empty(10)
    at_least_four(out, tnp.asarray(x))
    same(out, x + 1)


def test_scalar_parameters_by_annotation_or_as_given():
    x = data(10)
    out = tnp.empty(10)
    mix(out, tnp.asarray(x), numpy.int8(3), 2, True, numpy.float32(0.25))
    same(out, x * 3 + 0.0 + numpy.float32(0.25) + 0.5)
    mix(out, tnp.asarray(x), k=2, c=1j, flag=False, extra=numpy.float32(1), scale=2)
    same(out, x * 2 + 1.0 + 2.0)


def test_numpy_arrays_run_the_body_once_on_whole_arrays():
    x, w = data(6), data(3, seed=1)
    y = numpy.empty(6)
    scaled_add(y, x, w, 2.0)
    numpy.testing.assert_array_equal(y, 2.0 * x + w.sum())
    t = numpy.zeros(())
    total(t, x)
    assert t == x.sum()


@task(constraints=(align("y", "x"),))
def writes_its_input(y: OutputArray, x: InputArray) -> None:
    x[:] = 0
    y[:] = 1


@pytest.mark.parametrize("n", SIZES)
def test_inputs_are_read_only(n):
    with pytest.raises(ValueError, match="read-only"):
        writes_its_input(numpy.empty(n), numpy.ones(n))
    x = tnp.ones(n)
    with pytest.raises(ValueError, match="writes_its_input.*read-only"):
        writes_its_input(tnp.empty(n), x)
        tessera.fence()
    assert result(x).tolist() == [1.0] * n


# --- errors ------------------------------------------------------------------------------------

def test_unknown_name_in_a_constraint():
    with pytest.raises(ValueError, match=r"task 'bad' \(defined at .*test_tasks.py:\d+\).*'z'.*not a parameter"):
        @task(constraints=(align("y", "z"),))
        def bad(y: OutputArray, x: InputArray) -> None:
            pass
    with pytest.raises(ValueError, match="'a', which is not an array parameter"):
        @task(constraints=(broadcast("a"),))
        def bad2(y: OutputArray, a: float) -> None:
            pass


def test_bad_annotations():
    with pytest.raises(TypeError, match=r"task 'bad' \(defined at .*test_tasks.py.*'x' is annotated"):
        @task
        def bad(y: OutputArray, x: list) -> None:
            pass
    with pytest.raises(ValueError, match="must be '\\+', '\\*', 'min' or 'max'"):
        ReductionArray["avg"]
    with pytest.raises(TypeError, match="ReductionArray\\['\\+'\\]"):
        @task
        def bad3(y: ReductionArray) -> None:
            pass
    with pytest.raises(TypeError, match="returns nothing"):
        @task
        def bad4(y: OutputArray) -> int:
            return 1


def test_bad_calls():
    x, y = tnp.ones(4), tnp.empty(4)
    with pytest.raises(TypeError, match=r"task 'scaled_add' \(defined at .*test_tasks.py:\d+\)"):
        scaled_add(y, x, x)
    with pytest.raises(TypeError, match="argument 'x' must be a tessera array, not list"):
        scaled_add(y, [1.0] * 4, x, 1.0)
    with pytest.raises(TypeError, match="argument 'x' is a numpy.ndarray while others are tessera arrays"):
        scaled_add(y, numpy.ones(4), x, 1.0)
    with pytest.raises(TypeError, match="argument 'a' must be float, not str"):
        scaled_add(y, x, x, "2")
    with pytest.raises(ValueError, match="scaled_add"):  # align needs one shape
        scaled_add(tnp.empty(5), x, x, 1.0)
    scaled_add(y, x, x, 1.0)  # nothing was launched by the calls above
    same(y, numpy.full(4, 5.0))


@task(constraints=(align("y", "x"),))
def fails(y: OutputArray, x: InputArray, kind: int) -> None:
    y[:] = x
    if kind == 0:
        raise ValueError("no good value")
    if kind == 1:
        {}["missing"]
    if kind == 2:
        y[:] = 1 // int(x.min() * 0)


@pytest.mark.parametrize("kind, exc, text", [(0, ValueError, "ValueError: no good value"),
                                             (1, RuntimeError, "KeyError: 'missing'"),
                                             (2, ZeroDivisionError, "ZeroDivisionError: integer division")])
@pytest.mark.parametrize("n", SIZES)
def test_body_error_reaches_the_next_sync_point(kind, exc, text, n):
    x, y = tnp.ones(n), tnp.empty(n)
    with pytest.raises(exc) as info:
        line = inspect.currentframe().f_lineno + 1
        fails(y, x, kind)
        tessera.fence()
    message = str(info.value)
    assert "task 'fails'" in message and text in message, message
    assert f"test_tasks.py:{line}" in message, message  # the line that launched it
    assert message.count("test_tasks.py:{line}".format(line=line)) == 1, message  # said once
    # The runtime is usable afterwards.
    z = tnp.empty(n)
    fails(z, tnp.full(n, 2.0), 3)
    same(z, numpy.full(n, 2.0))


def test_a_large_launch_is_deferred():
    x, y = tnp.ones(200_000), tnp.empty(200_000)
    fails(y, x, 0)  # returns at once: the body runs on the workers
    with pytest.raises(ValueError, match="no good value"):
        tessera.fence()
    tessera.fence()  # the error was raised once


def test_task_repr_and_name():
    assert repr(scaled_add).startswith("<tessera task 'scaled_add' defined at ")
    named = task(name="renamed")(lambda y: None)
    assert named.name == "renamed"


@task(constraints=(align("y", "x"),))
def composed(y: OutputArray, x: InputArray, launch_inside: bool) -> None:
    scaled_add(y, x, numpy.ones(2), 3.0)  # NumPy views: the other task's body runs here, at once
    if launch_inside:
        scaled_add(GLOBAL, GLOBAL, GLOBAL, 1.0)


GLOBAL = tnp.ones(3)


@pytest.mark.parametrize("n", SIZES)
def test_a_body_calls_tasks_on_its_views_but_launches_none(n):
    x, y = data(n), tnp.empty(n)
    composed(y, tnp.asarray(x), False)
    same(y, 3.0 * x + 2.0)
    with pytest.raises(RuntimeError, match="task 'composed' launched task 'scaled_add' in its body"):
        composed(y, tnp.asarray(x), True)
        tessera.fence()


@task(constraints=(align("y", "x"),))
def calls_runtime(y: OutputArray, x: InputArray, what: int) -> None:
    y[:] = x
    if what == 0:
        tessera.fence()
    elif what == 1:
        tnp.add(x, 1.0)  # a tessera.numpy operation (on a NumPy view)
    elif what == 2:
        float(GLOBAL[0])  # a read of a tessera array's values


@pytest.mark.parametrize("what, text", [(0, "called fence()"), (1, "issued the operation 'add'"),
                                        (2, "read the values of a tessera array")])
@pytest.mark.parametrize("n", SIZES)
def test_a_body_calling_the_runtime_raises_instead_of_waiting_for_itself(what, text, n):
    x, y = tnp.ones(n), tnp.empty(n)
    with pytest.raises(RuntimeError) as info:
        calls_runtime(y, x, what)
        tessera.fence()
    message = str(info.value)
    assert f"task 'calls_runtime' {text} in its body" in message, message
    z = tnp.empty(n)  # the runtime is usable afterwards
    calls_runtime(z, tnp.full(n, 2.0), 3)
    same(z, numpy.full(n, 2.0))
