"""Python threads issuing operations at once: each thread's operations run in its program
order, every call is atomic as NumPy's are under the interpreter lock, shared arrays end as
NumPy leaves them, and an error is raised in the thread whose operation caused it. Each
program runs the same steps on NumPy and compares values and dtypes."""

import threading

import numpy
import pytest

import tessera
import tessera.numpy as tnp
from tessera import InputArray, OutputArray, align, task


def run_threads(count, body):
    """Runs body(k) on `count` threads started together; re-raises the first failure."""
    start = threading.Barrier(count)
    failures = []

    def run(k):
        try:
            start.wait()
            body(k)
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            failures.append(e)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if failures:
        raise failures[0]


def test_statistics_of_private_arrays_on_four_threads():
    # Four threads, each reducing its own 200,000-element arrays: mean, max, std, argmax.
    def body(k):
        rng = numpy.random.default_rng(k)
        for _ in range(30):
            host = rng.random(200_000)
            a = tnp.array(host)
            got = (float(a.mean()), float(a.max()), float(a.std()), int(a.argmax()))
            want = (host.mean(), host.max(), host.std(), int(host.argmax()))
            numpy.testing.assert_allclose(got[:3], want[:3], rtol=1e-12)
            assert got[3] == want[3]

    run_threads(4, body)


def steps(xp, x, k):
    """200 operations of many kinds on a private array, the same on NumPy and tessera."""
    y = xp.zeros_like(x)
    for i in range(20):
        y = y * 0.5 + x                                  # fused element-wise chain
        y[1:-1] = 0.25 * (y[:-2] + y[2:]) + 0.5 * y[1:-1]  # a stencil in place
        y += k
        m = y > i                                         # a mask
        y[m] -= 1.0
        y = xp.where(y > 2 * i, y, -y)
        s = y.sum()
        y = y - s / y.size
        y[::7] = xp.sqrt(xp.abs(y[::7]))
        y = xp.maximum(y, x - 3)
    return y


@pytest.mark.parametrize("n", [1000, 100_000])
def test_eight_threads_private_and_shared_arrays(n):
    rng = numpy.random.default_rng(7)
    host = rng.standard_normal(n)
    shared_in = tnp.array(host)        # read by every thread
    shared_out = tnp.zeros((8, n))     # each thread writes its own row
    counter = tnp.zeros(4, dtype="int64")  # every thread adds to one element of it
    added = tnp.zeros(4, dtype="int64")  # every thread adds to all of it
    results = {}
    # `counter[i] += 1` is three calls (read, add, write back) in NumPy as here: another
    # thread may run between them, so the program locks it — and nothing else writes that
    # array between the read and the write back. `add(..., out=)` is one call: no lock.
    element_lock = threading.Lock()

    def body(k):
        mine = tnp.array(host + k)
        results[k] = steps(tnp, mine, k)
        shared_out[k] = steps(tnp, shared_in, k)
        for _ in range(25):
            with element_lock:
                counter[k % 4] += 1
            tnp.add(added, 1, out=added)

    run_threads(8, body)
    for k in range(8):
        # The same steps on one thread give the same bits; NumPy's sums round differently,
        # and 20 rounds of subtracting a mean carry that into the last digits.
        alone = numpy.asarray(steps(tnp, tnp.array(host + k), k))
        got = numpy.asarray(results[k])
        numpy.testing.assert_array_equal(got, alone)
        numpy.testing.assert_array_equal(numpy.asarray(shared_out[k]), numpy.asarray(steps(tnp, shared_in, k)))
        want = steps(numpy, host + k, k)
        assert got.dtype == want.dtype
        numpy.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
    # 8 threads x 25 x 1 into one element, and into every element
    numpy.testing.assert_array_equal(numpy.asarray(counter), numpy.bincount(numpy.arange(8) % 4, minlength=4) * 25)
    numpy.testing.assert_array_equal(numpy.asarray(added), numpy.full(4, 8 * 25))


def test_one_thread_writes_another_reads_after_it():
    # A program-order hand-off between threads: what one thread issued before it signals is
    # what the other reads after the signal.
    a = tnp.zeros(300_000)
    ready = threading.Event()
    seen = []

    def writer(_):
        for i in range(1, 6):
            a[:] = a + i
        ready.set()

    def reader(_):
        ready.wait()
        seen.append(float(a.sum()))

    run_threads(2, lambda k: (writer if k == 0 else reader)(k))
    assert seen == [15.0 * 300_000]


@task(constraints=(align("y", "x"),))
def fails_on_negative(y: OutputArray, x: InputArray) -> None:
    if (x < 0).any():
        raise ValueError("negative input")
    y[:] = x * 2


@pytest.mark.parametrize("n", [7, 100_003])
def test_errors_belong_to_the_thread_that_caused_them(n):
    raised = {}
    go = threading.Barrier(2)

    def failing(_):
        y = tnp.empty(n)
        error = None
        try:
            fails_on_negative(y, tnp.full(n, -1.0))  # a small launch runs (and raises) at once
        except ValueError as e:
            error = e
        go.wait()  # a large one's error is waiting while the other thread syncs
        go.wait()
        if error is None:
            try:
                tessera.fence()
            except ValueError as e:
                error = e
        raised["failing"] = str(error)

    def clean(_):
        go.wait()
        y = tnp.empty(n)
        fails_on_negative(y, tnp.full(n, 1.5))
        total = float(y.sum())  # a sync point: must not raise the other thread's error
        tessera.fence()
        raised["clean"] = total
        go.wait()

    run_threads(2, lambda k: (failing if k == 0 else clean)(k))
    assert raised["clean"] == 3.0 * n
    assert "negative input" in raised["failing"] and "fails_on_negative" in raised["failing"]


def test_python_task_bodies_while_threads_issue():
    # Task bodies take the interpreter lock on the workers while other threads issue and wait.
    def body(k):
        for _ in range(10):
            x = tnp.full(100_003, float(k))
            y = tnp.empty(100_003)
            fails_on_negative(y, x)
            assert float(y.sum()) == 2.0 * k * 100_003

    run_threads(4, body)
