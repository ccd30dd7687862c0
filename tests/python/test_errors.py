"""Bad input gives NumPy's result or NumPy's exception, with a message free of internals.

Each case is one statement run with `np` bound to numpy and to tessera.numpy, `a` to
`np.arange(3.0)`, `i` to `np.arange(3)` and `b` to a bool array; the last expression's value
(or `r`) is the result.  Where NumPy raises, tessera raises the same exception type: the
very class for NumPy's ufunc casting errors (UFuncTypeError subclasses), else the nearest
builtin or public NumPy class.
"""

import warnings

import numpy
import pytest

from parity import assert_same, check_statement, public_exception_type, tnp

# Text that would show tessera's C++ side or its binding layer to the user.
LEAKS = ("std::", "nanobind", "incompatible function arguments", "bad_cast", "tessera::", "_tessera.")

CASTING = [
    # out= casting
    "np.add(a, a, out=np.empty(3, dtype=np.int32))",
    "np.add(a, a, out=np.empty(3, dtype=np.int32), casting='unsafe')",
    "np.add(a, a, out=np.empty(3, dtype=np.float32), casting='safe')",
    "np.add(a, a, out=np.empty(3, dtype=np.float32), casting='same_kind')",
    "np.add(a, a, out=np.empty(3), casting='no')",
    "np.add(i, i, out=np.empty(3), casting='no')",
    "np.add(i, i, out=np.empty(3), casting='equiv')",
    "np.sqrt(a, out=np.empty(3, dtype=np.int64))",
    "np.equal(a, a, out=np.empty(3), casting='safe')",
    # input casting
    "np.add(i, i, casting='no')",
    "np.add(i, a, casting='no')",
    "np.add(i.astype(np.int32), i, casting='no')",
    "np.add(i.astype(np.int32), i, casting='equiv')",
    "np.add(i.astype(np.int32), i, casting='safe')",
    "np.add(i, 1, casting='no')",
    "np.add(i, 1.5, casting='no')",
    "np.add(i, 1.5, casting='same_kind')",
    "np.less(i, a, casting='no')",
    "np.sqrt(i, casting='no')",
    "np.sqrt(a, casting='no')",
    # dtype=
    "np.add(a, a, dtype=np.int32)",
    "np.add(a, a, dtype=np.int32, casting='unsafe')",
    "np.add(a, a, dtype=np.float32)",
    "np.add(a, a, dtype=np.float32, casting='safe')",
    "np.add(i, i, dtype=np.float64, casting='safe')",
    "np.add(i, i, dtype=np.float32, casting='safe')",
    "np.add(i, i, dtype=np.float32)",
    "np.add(i, i, dtype=np.float32, casting='no')",
    "np.sqrt(i, dtype=np.int64)",
    "np.sqrt(a, dtype=np.float32)",
    "np.sqrt(a, dtype=np.float32, casting='safe')",
    "np.negative(a, dtype=np.int64)",
    "np.negative(a, dtype=np.int64, casting='unsafe')",
    "np.equal(a, a, dtype=np.int64)",
    "np.equal(np.array([1.0, 0.5]), np.array([1.0, 0.75]), dtype=bool)",
    # the rule itself
    "np.add(a, a, casting='bogus')",
    "np.add(a, a, casting=3)",
    # astype
    "a.astype(np.int32, casting='safe')",
    "a.astype(np.int32, casting='same_kind')",
    "a.astype(np.float32, casting='same_kind')",
    "a.astype(np.float32, casting='safe')",
    "a.astype(np.float64, casting='no')",
    "a.astype(np.float32, casting='no')",
    "i.astype(np.float64, casting='safe')",
    "i.astype(np.int32, casting='same_kind')",
    "a.astype(np.complex64, casting='same_kind')",
    "a.astype(bool, casting='same_kind')",
    "a.astype(np.int32, casting='bogus')",
    "a.astype('bogus')",
    # in-place operators cast their result same_kind
    "i += 1.5",
    "i -= 1.5",
    "b += 1",
    "b += True",
    "i /= 2",
    "i //= 2.0",
    "i **= 0.5",
    "i |= 1.5",
    "a |= 1",
    "f = np.ones(3, np.float32); f += np.ones(3)",
    "u = np.ones(3, np.uint8); u += 300",
    "u = np.ones(3, np.uint8); u += np.int64(3)",
    "u = np.ones(3, np.uint8); u += np.ones(3, dtype=np.int64)",
]

SIZES = [
    "np.arange(10**20)",
    "np.arange(2**62)",
    "np.arange(-10**20, 0)",
    "np.arange(1e30)",
    "np.arange(float('inf'))",
    "np.arange(float('nan'))",
    "np.arange(0, 10, 0)",
    "np.zeros(2**63)",
    "np.zeros(2**63 - 1)",
    "np.zeros(2**62)",
    "np.zeros(10**19)",
    "np.zeros(-10**19)",
    "np.empty((10**10, 10**10))",
    "np.empty((0, 10**10, 10**10))",
    "np.empty((0, 2**63))",
    "np.empty((2**62, 2, 0))",
    "np.ones((2**40, 2**40))",
    "np.ones((2**31, 2**31, 2))",
    "np.full((2**40, 2**40), 1.0)",
    "np.zeros(-1)",
    "np.zeros((2, -1))",
    "np.empty(-1)",
    "np.ones(-1)",
    "np.full(-1, 2)",
    "np.zeros_like(a, shape=(-1,))",
    "np.eye(2**40)",
    "np.eye(-1)",
    "np.identity(-1)",
    "np.linspace(0, 1, -1)",
    "np.linspace(0, 1, 2**70)",
    "np.linspace(0, 1, 2.5)",
    "np.full(3, 300, dtype=np.uint8)",
    "np.full(3, -1, dtype=np.uint8)",
    "np.full(3, 2**64, dtype=np.float64)",
    "np.full(3, 2**64, dtype=np.int64)",
    "np.full(3, 2**63, dtype=np.int8)",
    "np.array([300], dtype=np.uint8)",
    "np.zeros('x')",
    "np.zeros((2, 1.5))",
    "np.zeros([2, 'x'])",
    "np.zeros(3, dtype='bogus')",
    "a.reshape(-1, -1)",
    "a.reshape('x')",
    "a.reshape(2**63)",
    "a.reshape((2, 2**63))",
    "np.reshape(a, 2**64)",
]

INDEXING = [
    "a[2**63]",
    "a[2**64]",
    "a[-2**63 - 1]",
    "a[2**100]",
    "a[-2**63]",
    "a[10]",
    "a[1.5]",
    "a['x']",
    "a[0, 0]",
    "a[2**63:]",
    "a[::2**70]",
    "a[::-2**70]",
    "a[1::2**63 - 1]",
    "a[2::-2**63]",
    "a[::7]",
    "a[::0]",
    "a.item(10)",
    "a.item(1.5)",
    "i[0] = 2**64",
    "i[0] = None",
    "i[:] = None",
    "i[0] = 1j",
    "i[0] = 'x'",
    "i[0] = '7'",
    "b[0] = None",
    "a[0] = None",
    "a[:] = None",
    "a[1:] = None",
    "a[0] = 'x'",
    "a[0] = '1.5'",
    "a[0] = 1j",
    "a[0] = [1, 2]",
    "a[0] = object()",
    "a[1:3] = [[1, 2]]",
    "a[1:3] = [1, 2, 3]",
    "a[:] = [[1], [2], [3]]",
    "a[...] = np.ones((1, 1, 3))",
    "a[...] = np.ones((2, 3))",
    "a.fill(None)",
    "a.fill('x')",
    "i.fill(None)",
    "i.fill(2**64)",
]

COMPARISONS = [
    "a == None",
    "a != None",
    "None == a",
    "None != a",
    "a == 'x'",
    "a != 'x'",
    "a == object()",
    "a != object()",
    "a == {}",
    "i == None",
    "np.ones((2, 3)) != None",
    "np.equal(a, None)",
    "np.not_equal(a, None)",
    "np.equal(a, 'x')",
    "np.not_equal('x', a)",
    "np.equal(a, object())",
    "a < None",
    "a > object()",
    "a + None",
    "a + 'x'",
    "a + object()",
    "np.add(a, None)",
    "np.add(a, 'x')",
    "a == [1, 2]",
    "a == [1, None, 2]",
    "a != (None, 1.0, 2)",
    "a == [[1, None, 2], [0, 1, None]]",
]


# Argument values NumPy refuses (or reads) in a particular way: positional arguments beyond a
# ufunc's inputs and outputs, axes out of range, `order=`, strings where numbers go, the
# repetition of `a.flat[...] = v`, indices and counts given as floats or strings, rounding
# to a float number of decimals.
ARGUMENTS = [
    "np.sqrt(a, a, a)", "np.add(a, a, a, a)", "np.add(a, a, np.empty(3), np.empty(3))", "np.divmod(a, a, a, a, a)",
    "np.sqrt(a, np.empty(3))", "np.add(a, a, np.empty(3))",
    "np.nanmax(a, axis=-5)", "np.nanmin(a, axis=1)", "np.nanmax(np.ones((2, 3)), axis=2)",
    "np.nanmin(np.ones((2, 3)), axis=(0, 2))", "np.nanmax(a, axis=1, initial=0.0)",
    "a.copy(order='X')", "a.copy(order=1)", "a.copy(order='k')", "a.copy(order=None)", "np.copy(a, order='X')",
    "np.copy(a, order=1)", "np.zeros(3, order='X')", "np.zeros(3, order=1)", "np.zeros(3, order='CC')",
    "np.zeros(3, order='')", "np.zeros(3, order=b'F')", "np.ones(3, order='Z')", "np.empty(3, order='X')",
    "np.full(3, 1.0, order='X')", "np.zeros_like(a, order='X')", "np.ones_like(a, order=1)",
    "np.empty_like(a, order='X')", "np.full_like(a, 2, order='X')", "a.astype(np.int32, order='X')",
    "a.astype(np.int32, order=1)", "np.add(a, 1, order='X')", "np.sqrt(a, order=1)", "np.add(a, 1, order='F')",
    "np.sum(a, initial='x')", "np.sum(a, initial='5')", "np.max(a, initial='x')", "np.min(a, initial='abc')",
    "np.prod(a, initial='2')", "np.add.reduce(a, initial='x')", "np.nansum(a, initial='x')", "a.sum(initial='x')",
    "np.sum(i, initial='x')", "np.sum(i, initial='7')", "np.max(a, initial=b'4')", "np.nanmax(a, initial='9')",
    "np.full(3, 'abc', dtype=int)", "np.full(3, '5', dtype=int)", "np.full(3, 'abc', dtype=float)",
    "np.full(3, '2.5', dtype=np.float32)", "np.full_like(a, 'abc')", "np.full_like(a, '1.5')",
    "np.full_like(i, 'x')", "a.fill('x')", "i.fill('x')", "a.fill('2'); r = a",
    "a.flat[::2] = [1., 2.]; r = a", "z = np.zeros(7); z.flat[::2] = [1., 2.]; r = z",
    "z = np.zeros((2, 3)); z.flat[:] = [1., 2.]; r = z", "z = np.zeros((2, 3)); z.flat[[0, 1, 2]] = [5., 6.]; r = z",
    "z = np.zeros((2, 3)); z.flat[1] = [5., 6.]", "z = np.zeros(5); z.flat[::2] = []; r = z",
    "z = np.zeros((2, 3)); z.flat[np.array([True, False, True, True, False, True])] = [1., 2.]; r = z",
    "z = np.zeros((2, 3)); z.flat[1:5] = np.ones(4) * 3; r = z", "z = np.zeros(4); z.flat[1:3] = 7; r = z",
    "z = np.zeros((2, 3)); z.flat[::2] = [[1., 2.], [3., 4.]]; r = z",
    "np.take(i, 1.5)", "np.take(i, [1.5, 2.7])", "np.take(i, -1.5)", "np.take(i, '1')", "np.take(i, ['1', '2'])",
    "np.take(i, True)", "np.take(i, [True, False])", "np.take(i, 'x')", "np.take(i, 1 + 2j)", "np.take(i, None)",
    "np.take(i, np.nan)", "np.take(i, 1e30)", "np.take(i, np.array([1.5]))", "i.take(1.5)", "i.take([[1.5]])",
    "np.repeat(i, 1.5)", "np.repeat(i, [1.5, 1, 2])", "np.repeat(i, [True, False, True])", "np.repeat(i, '2')",
    "np.repeat(i, ['1', '1', '1'])", "np.repeat(i, -1.5)", "np.repeat(i, np.nan)", "np.repeat(i, 'x')",
    "np.repeat(i, np.array([1.5, 1, 1]))", "np.repeat(i, [1, -1, 1])", "i.repeat(1.5)",
    "np.random.default_rng(0).permutation(-1)", "np.random.permutation(-1)", "np.random.default_rng(0).permutation(0)",
    "np.random.default_rng(0).permutation(1.5)", "np.random.permutation(1.5)",
    "np.random.default_rng(0).permutation('a')", "np.random.permutation('a')",
    "np.random.default_rng(0).permutation(np.ones((2, 3)), axis=2)",
    "np.random.default_rng(0).uniform(5, 1)", "np.random.default_rng(0).uniform(5, 1, size=3)",
    "np.random.default_rng(0).uniform(np.array([0., 5.]), np.array([1., 1.]))",
    "np.random.default_rng(0).uniform(0, np.array([1., np.inf]))", "np.random.default_rng(0).uniform(0, np.inf)",
    "np.random.default_rng(0).uniform(np.nan, 1, size=2)", "np.random.uniform(0, np.inf)",
    "np.random.uniform(np.array([0., 1.]), np.array([np.inf, 2.]))",
    "np.round(a, 2.7)", "np.round(a, 2.0)", "np.round(a, '2')", "np.round(a, None)", "np.around(a, 1.0)",
    "a.round(2.7)", "np.round(a, np.int64(1))", "np.round(a, True)", "np.round(i, 1.5)",
    "np.put(a, 1.5, 9.); r = a", "np.put(a, [1.5, 2.5], [9., 8.]); r = a", "np.put(a, 'x', 9.)",
    "np.searchsorted(a, 2, sorter=[0, 1.5, 2])", "np.searchsorted(a, 2, sorter=[0, 1])",
    "np.sum(a, initial=[1, 2])", "np.sum(a, initial=1j)", "np.sum(a, initial=np.float64(2)); r = a",
    "np.max(i, initial=(1,))", "np.sum(a, initial=np.array(2.))", "np.sum(i, initial=np.array([2]))",
    "np.full_like(a, None)", "np.full(2, None, dtype=float)", "np.full(2, None, dtype=int)",
    "np.full(2, None, dtype=bool)", "np.full_like(i, None)", "np.full(2, b'3', dtype=int)",
    "np.full(2, '1+2j', dtype=complex)", "np.full(2, 'x', dtype=bool)", "np.full_like(i, '3')",
    "a[:2] = ['1', '2']; r = a", "a[:2] = ['1', 'x']", "a[i > 2] = 'x'", "a[i > 2] = '7'; r = a",
    "a[i > 2] = None; r = a", "a[[0, 1]] = 'x'", "np.putmask(a, a > 2, 'x')", "np.putmask(a, a > 2, '4'); r = a",
    "np.place(a, a > 2, ['x'])", "np.place(a, a > 0, ['4', '5']); r = a",
]

def _env(xp):
    return {"np": xp, "a": xp.arange(3.0), "i": xp.arange(3), "b": xp.array([True, False])}


def _run(xp, source):
    env = _env(xp)
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            code = compile(source, "<case>", "eval")
        except SyntaxError:
            exec(compile(source, "<case>", "exec"), env)
            return None
        return eval(code, env)


def _materialize(value):
    if isinstance(value, tnp.ndarray):
        return numpy.asarray(value)
    return value


def check_case(source):
    return check_statement(source, _env, leaks=LEAKS, casting_message=True)


@pytest.mark.parametrize("source", CASTING)
def test_casting(source):
    check_case(source)


@pytest.mark.parametrize("source", SIZES)
def test_sizes_and_shapes(source):
    check_case(source)


@pytest.mark.parametrize("source", INDEXING)
def test_indexing_and_assignment(source):
    check_case(source)


@pytest.mark.parametrize("source", ARGUMENTS)
def test_argument_values(source):
    check_case(source)


@pytest.mark.parametrize("source", COMPARISONS)
def test_comparisons_with_objects(source):
    check_case(source)


def test_assignment_results():
    """The values NumPy stores for None and parsed strings."""
    for source in ["a[0] = None; r = a", "a[1:] = None; r = a", "a[0] = '1.5'; r = a", "b[0] = None; r = b",
                   "i[1] = '7'; r = i"]:
        results = []
        for xp in (numpy, tnp):
            env = _env(xp)
            exec(source, env)
            results.append(_materialize(env["r"]))
        assert_same(results[1], results[0])


# Messages worth matching word for word.
MESSAGES = [
    ("a.astype(np.int32, casting='safe')",
     "Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'safe'"),
    ("np.empty((10**10, 10**10))",
     "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."),
    ("np.zeros(-1)", "negative dimensions are not allowed"),
    ("np.full(3, 300, dtype=np.uint8)", "Python integer 300 out of bounds for uint8"),
    ("np.arange(10**20)", "Maximum allowed size exceeded"),
    ("i += 1.5", "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting rule "
                 "'same_kind'"),
    ("np.sqrt(i, casting='no')",
     "Cannot cast ufunc 'sqrt' input from dtype('int64') to dtype('float64') with casting rule 'no'"),
]


@pytest.mark.parametrize("source,message", MESSAGES)
def test_messages(source, message):
    with pytest.raises(Exception, match=None) as info:
        _run(tnp, source)
    assert str(info.value) == message


# What tessera cannot hold (object, str, datetime dtypes, integers beyond 64 bits): a
# TypeError (or OverflowError) that names the dtype as NumPy does.
UNSUPPORTED = [
    ("np.zeros(3, dtype='U5')", TypeError, "<U5"),
    ("np.zeros(3, dtype=object)", TypeError, "object"),
    ("np.ones(3, dtype='S3')", TypeError, "|S3"),
    ("np.empty(3, dtype='M8[s]')", TypeError, "datetime64[s]"),
    ("np.array(['ab', 'c'])", TypeError, "<U2"),
    ("np.array([1, None])", TypeError, "object"),
    ("np.array([2**64])", TypeError, "object"),
    ("np.asarray([1, 2**64])", TypeError, "object"),
    ("np.full(3, 2**64)", OverflowError, "object array"),
    ("a.astype('U5')", TypeError, "<U5"),
]


@pytest.mark.parametrize("source,exc_type,needle", UNSUPPORTED)
def test_unsupported_dtypes_named(source, exc_type, needle):
    with pytest.raises(exc_type) as info:
        _run(tnp, source)
    assert needle in str(info.value)
    assert not any(s in str(info.value) for s in LEAKS)


# Wrong argument types and counts: any exception will do, as long as it is a TypeError or
# ValueError (or IndexError for keys) that speaks NumPy rather than C++ or nanobind.
MISUSE = [
    "np.add(a)", "np.add()", "np.add(a, a, a, a)", "np.sqrt(a, a, a)", "np.sqrt()", "np.zeros()",
    "np.sum(a, axis='x')", "np.sum(a, axis=1.5)", "np.mean(a, axis='x')", "a.sum(axis='x')",
    "a.sum(axis=2**63)", "a.max(axis='x')", "a.argmax(axis='x')", "np.argmax(a, axis='x')",
    "np.cumsum(a, axis='x')", "np.prod(a, axis='x')", "np.std(a, ddof='x')", "np.var(a, axis=[0, 'x'])",
    "a.reshape('x')", "a.reshape(1.5)", "a.reshape(None, 'x')", "np.reshape(a, 'x')",
    "a.transpose('x')", "np.transpose(a, axes='x')", "a.swapaxes('x', 0)", "np.swapaxes(a, 0, 'x')",
    "np.expand_dims(a, 'x')", "np.squeeze(a, axis='x')", "a.squeeze('x')", "a.flatten('x')",
    "np.concatenate(a)", "np.concatenate([a, 'x'])", "np.concatenate([a, a], axis='x')", "np.stack('x')",
    "np.stack([a, a], axis='x')", "np.broadcast_to(a, 'x')", "np.moveaxis(a, 'x', 0)",
    "np.zeros('x')", "np.zeros(1.5)", "np.zeros(None)", "np.zeros((2, None))", "np.ones('x')", "np.empty('x')",
    "np.full('x', 1)", "np.full(3, 'x')", "np.full(3, None)", "np.full(3, object())",
    "np.zeros_like('x')", "np.ones_like(3, shape='x')", "np.empty_like(a, dtype='bogus')",
    "np.full_like(a, 'x')", "np.full_like(a, None)",
    "np.arange('x')", "np.arange(0, 'x')", "np.arange(3, dtype='U5')", "np.linspace(0, 1, 'x')",
    "np.linspace(0, 1, 2.5)", "np.linspace('x', 1)", "np.eye('x')", "np.eye(3, 'x')", "np.eye(3, k='x')",
    "np.identity('x')",
    "a[1.5]", "a['x']", "a[[1.5]]", "a[object()]", "a[1.5] = 0", "a['x'] = 0", "a[0] = object()",
    "a.item('x')", "a.item(1.5)", "a.item(2**63)",
    "a.astype('bogus')", "a.astype(object())", "a.astype()", "a.astype(np.float64, 'K', 'unsafe', True, True, 5)",
    "a.astype(np.int32, casting=3)", "a.copy(order=3)", "a.fill(object())", "a.fill([1, 2])",
    "np.linalg.norm(a, ord='bogus')", "np.linalg.norm(a, axis='x')", "np.linalg.norm('x')",
    "np.linalg.inv(a)", "np.linalg.inv('x')", "np.linalg.solve(a, 'x')", "np.linalg.det(a)",
    "np.dot(a, 'x')", "np.dot(a, np.ones(4))", "np.matmul(a, 'x')", "a @ 'x'", "np.matmul(a, np.ones((2, 2)))",
    "np.outer(a, 'x')", "np.inner(a, 'x')", "np.vdot(a, 'x')", "np.trace(a)",
    "np.where(a, 1)", "np.where('x', a, a)", "np.clip(a, 'x', 2)", "np.clip(a)", "a.clip('x')",
    "np.sort(a, axis='x')", "np.argsort(a, axis='x')", "np.sort(a, kind=3)",
    "np.random.rand('x')", "np.random.rand(-1)", "np.random.randint('x')", "np.random.randint(5, 2)",
    "np.random.normal(0, 1, 'x')", "np.random.uniform(0, 1, size=-1)", "np.random.seed('x')",
    "np.random.default_rng('x')", "np.random.default_rng(0).random('x')", "np.random.default_rng(0).integers('x')",
    "np.result_type('x', 'y')", "np.copyto(a, 'x')", "np.copyto('x', a)", "np.putmask(a, 'x', 1)",
    "np.nonzero(None)", "np.real(None)", "np.imag('x')", "np.angle('x')",
    "a.__array__('bogus')", "len(np.float64(1.0) + a[0])",
    "int(a)", "float(a)", "complex(a)", "bool(a)", "a.__index__()", "a.__format__(3)",
    "np.asarray(a, dtype='bogus')", "np.array(a, ndmin='x')", "np.array(a, copy='x')",
    "np.ndarray('x')", "np.ndarray((2,), dtype='bogus')",
]


@pytest.mark.parametrize("source", MISUSE)
def test_misuse_speaks_numpy(source):
    try:
        _run(tnp, source)
    except Exception as exc:  # noqa: BLE001
        assert isinstance(exc, (TypeError, ValueError, IndexError, OverflowError, ZeroDivisionError,
                                numpy.linalg.LinAlgError)), f"{type(exc).__name__}: {exc}"
        message = str(exc)
        assert message, type(exc)
        assert not any(s in message for s in LEAKS), message
