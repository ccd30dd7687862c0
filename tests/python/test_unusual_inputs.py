"""Unusual input gives NumPy's outcome at the same statement, and leaves the arrays as NumPy does.

Each case is one statement run with `np` bound to numpy and to tessera.numpy, `a` to
`np.arange(3.0)`, `i` to `np.arange(3)`, `b` to a bool array, `e` to an empty float array,
`z` to a 0-d array and `m`/`im` to (2, 3) float/int arrays; the last expression's value (or
`r`) is the result. Where NumPy raises, tessera raises the same public exception type in that
statement (not at a later one), and every array keeps the values NumPy leaves in it: an
operation refused part-way must not have written its output.
"""

import pytest

from parity import check_statement

NAMES = ("a", "i", "b", "e", "z", "m", "im")


def _env(xp):
    return {"np": xp, "a": xp.arange(3.0), "i": xp.arange(3), "b": xp.array([True, False, True]),
            "e": xp.empty(0), "z": xp.array(5.0), "m": xp.arange(6.0).reshape(2, 3),
            "im": xp.arange(6).reshape(2, 3)}


def check_case(source):
    check_statement(source, _env, NAMES)


# A negative exponent of an integer power: raised before anything is written (it was raised
# from inside a task when the operation was split in tiles: at a later statement, with the
# output overwritten by garbage).
INTEGER_POWERS = [
    "np.power(i, -1)",
    "i **= -1",
    "i ** (i - 2)",
    "2 ** (i - 1)",
    "np.power(im, np.array([0, -2, 1]))",
    "np.power(i.astype(np.int8), np.int8(-1))",
    "np.power(i, np.array([], dtype=int))",
    "np.power(e.astype(int), -1)",
    "np.power(i, -1, out=i)",
    "r = np.arange(3000); t = np.power(r, -1, out=r)",
    "r = np.arange(3000); r **= r - 5",
    "np.power.reduce(np.array([2, -1]))",
    "np.power.reduce(np.array([-2, 1]))",
    "np.power.accumulate(np.array([2, -1, 3]))",
    "np.power.reduceat(np.array([2, 3, -1, 2]), [0, 2])",
    "np.power.reduceat(np.array([2, -3, -1, 2]), [0, 1, 3])",
    "np.power.outer(i, i - 1)",
    "np.power.at(i, [0], -1)",
    "np.power.at(i, [0, 1], 2)",
    "np.power(i.astype(np.uint8), 2)",
    "b **= -1",
    "np.power(b, -1, out=b)",
    "np.power(i, -1, out=np.empty(3, dtype=np.int8))",
    "np.power(i, -1.0)",
    "np.float_power(i, -1)",
]

# Axis and argument readings of NumPy's functions.
ARGUMENTS = [
    "np.subtract.reduce(z)",
    "np.divide.reduce(z)",
    "np.subtract.reduce(z, axis=-1)",
    "np.subtract.reduce(z, axis=1)",
    "np.add.accumulate(m, axis=(0, 1))",
    "np.add.accumulate(m, axis=(1,))",
    "np.multiply.accumulate(m, axis=())",
    "np.unique(m, axis=(0, 1))",
    "np.unique(m, axis=())",
    "np.argsort(z)",
    "z.argsort()",
    "np.argsort(z, axis=0)",
    "np.argsort(z, axis=None)",
    "np.argsort(z, axis=1)",
    "np.size(m, 2)",
    "np.size(m, -1)",
    "np.size(m, -3)",
    "np.size(m, (0, 1))",
    "np.bincount(e)",
    "np.bincount([])",
    "np.bincount(e.astype(int))",
    "np.argmax(m, axis=0, out=np.empty(3))",
    "np.argmin(m, axis=0, out=np.empty(3, dtype=np.uint64))",
    "np.argmax(m, axis=0, out=np.empty(3, dtype=np.int32))",
    "np.argmax(m, axis=0, out=np.empty(3, dtype=np.int64))",
    "m.argmax(axis=1, out=np.empty(2))",
    "np.clip(a, None, None)",
    "np.clip(im, None, None)",
    "np.clip(b, None, None)",
    "np.clip(a, None, None, out=i)",
    "np.clip(a, 0, 1, out=i)",
    "a.clip(0, 1, out=i)",
    "np.clip(a, None, None, out=np.empty(3))",
    "np.take(a, [0, 5], out=a)",
    "np.take(m, [0, 5], axis=1, out=np.empty((2, 2)))",
    "np.take(m, [0, 1], axis=-1, out=np.empty((2, 2)))",
    "np.take(m, [[0]], axis=0, out=np.empty((1, 1, 3)))",
    "np.take(m, [0], axis=5, out=np.empty(1))",
    "np.take(a, 1, out=np.empty(()))",
]

# arange's length from Python ints past int64 (uint64 for NumPy, float64 values).
ARANGE = [
    "np.arange(0, 10, 2**63)",
    "np.arange(0, 2**63, 2**62)",
    "np.arange(0, 2**64 - 1, 2**63)",
    "np.arange(2**63 - 5, 2**63 + 5)",
    "np.arange(-2**63, 2**63 - 1, 2**62)",
    "np.arange(2**63, 0, -2**62)",
]

# Values assigned into an array: Python objects cast as NumPy casts them.
ASSIGNMENT = [
    "a[:] = [1, None, 3]; r = a",
    "a[:2] = (None, 1); r = a",
    "a[[0, 1]] = [None, 1]; r = a",
    "a[a > 0] = [None, None]; r = a",
    "b[:] = [1, None, 0]; r = b",
    "np.putmask(a, b, [])",
    "np.putmask(a, a > 5, [])",
    "np.putmask(a, b, [7, 8])",
]

# Output arrays of the FFTs: NumPy's ufunc casting error for a dtype the result cannot cast to.
FFT_OUT = [
    "np.fft.fft(a, out=np.empty(3))",
    "np.fft.fft(a, out=a)",
    "np.fft.rfft(a, out=np.empty(2))",
    "np.fft.rfft(np.arange(4.0), out=np.empty(3))",
    "np.fft.irfft(a, out=np.empty(4, dtype=np.int64))",
    "np.fft.fft(a, out=np.empty(3, dtype=np.complex64))",
]

# A ufunc's signature= (or sig=) and subok= keywords: a signature of one dtype is dtype=, others
# are NumPy's choice.
UFUNC_KEYWORDS = [
    "np.add(a, a, signature=(None, None, 'f4'))",
    "np.add(a, a, signature='dd->d')",
    "np.add(a, a, signature='ff->f')",
    "np.add(i, i, signature='dd->d')",
    "np.add(a, a, signature='ii->i')",
    "np.add(a, a, sig='dd->d')",
    "np.sqrt(a, signature='f->f')",
    "np.divmod(a, 2, signature='dd->dd')",
    "np.add(a, a, signature=('f4', None, None))",
    "np.add(a, a, signature='f8,f8->f8')",
    "np.add(a, a, signature='dd')",
    "np.add(a, a, signature='d')",
    "np.add(a, a, signature=(None, None))",
    "np.add(a, a, sig='dd->d', signature='dd->d')",
    "np.add(a, a, dtype=float, signature='dd->d')",
    "np.add(a, a, subok=False)",
    "np.add(a, a, subok='x')",
    "np.negative(a, subok=True)",
]

# Index keys.
INDEXING = [
    "a[np.bool_(True)]",
    "a[np.bool_(False)]",
    "m[np.True_, 0]",
    "m[np.False_, ...]",
    "a[np.bool_(True)] = 7; r = a",
    "z[np.True_]",
]

FAMILIES = {"integer_powers": INTEGER_POWERS, "arguments": ARGUMENTS, "indexing": INDEXING,
            "assignment": ASSIGNMENT, "fft_out": FFT_OUT, "arange_beyond_int64": ARANGE,
            "ufunc_keywords": UFUNC_KEYWORDS}
CASES = [(family, source) for family, sources in FAMILIES.items() for source in sources]


@pytest.mark.parametrize("family, source", CASES, ids=[f"{f}-{s}" for f, s in CASES])
def test_unusual_input(family, source):
    check_case(source)
