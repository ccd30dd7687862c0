"""NumPy 2's signatures and the array API standard (2024.12): every public function and ndarray
method takes NumPy's parameters (and the native ones show them to inspect); asarray/array follow
NumPy 2's copy rule; creation functions take device= and like=; the inspection namespace,
__array_api_version__, clip without bounds, empty boolean mask axes, NumPy bool keys, var/std
with mean= and the gufunc keywords of matmul & co. behave as NumPy 2.4's.
scripts/array_api_tests.sh runs the standard's own suite (docs/array-api.md)."""

import inspect

import numpy
import pytest

from parity import check, tnp

# --- signatures -------------------------------------------------------------------------------


def parameters(func):
    """The parameter names of `func` in order (*args and **kwargs marked), or None when
    inspect cannot tell."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    names = []
    for p in sig.parameters.values():
        names.append({p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name)
    return names


# Where tessera's parameters differ from what inspect reports for NumPy's, and why that is
# right. Methods are compared without their first parameter (self, however named).
JUSTIFIED = {
    # NumPy's text signature names it start_or_stop; NumPy's arange takes start= as tessera's does.
    "arange": "NumPy takes start= too",
    # NumPy takes these keywords through **kwargs; tessera names them.
    "einsum": "NumPy's **kwargs are dtype, order and casting",
    "frompyfunc": "NumPy's **kwargs is identity",
    "ndarray.max": "NumPy's **kwargs are keepdims, initial and where",
    "ndarray.min": "NumPy's **kwargs are keepdims, initial and where",
    "ndarray.sum": "NumPy's **kwargs are keepdims, initial and where",
    "ndarray.prod": "NumPy's **kwargs are keepdims, initial and where",
    "ndarray.mean": "NumPy's **kwargs are keepdims and where",
    "ndarray.std": "NumPy's **kwargs are keepdims, where, mean and correction",
    "ndarray.var": "NumPy's **kwargs are keepdims, where, mean and correction",
    "ndarray.view": "NumPy's *args, **kwargs are dtype and type",
    # NumPy's text signature says `other`, but its method takes b= (numpy.ndarray.dot(b=...)).
    "ndarray.dot": "NumPy's keyword is b",
    # The legacy functions share the Generator's implementation, which takes axis=.
    "random.permutation": "the Generator's axis",
    "random.shuffle": "the Generator's axis",
    # Its default dtype=int, a type, cannot be written in a text signature, so inspect cannot read
    # it; its parameters are NumPy's (low, high=None, size=None, dtype=int).
    "random.randint": "a type as default value",
    # Deprecated aliases of random_sample: NumPy's take *args, **kwargs and pass on size.
    "random.ranf": "NumPy passes size on",
    "random.sample": "NumPy passes size on",
}


def _public_callables():
    for name in sorted(dir(numpy)):
        obj = getattr(numpy, name)
        if not name.startswith("_") and callable(obj) and not isinstance(obj, type):
            yield name, obj, lambda name=name: getattr(tnp, name)
    for module in ("linalg", "fft", "random"):
        for name in sorted(dir(getattr(numpy, module))):
            obj = getattr(getattr(numpy, module), name)
            if not name.startswith("_") and callable(obj) and not isinstance(obj, type) and not inspect.ismodule(obj):
                yield f"{module}.{name}", obj, lambda module=module, name=name: getattr(getattr(tnp, module), name)
    for name in sorted(dir(numpy.ndarray)):
        obj = getattr(numpy.ndarray, name)
        if (not name.startswith("_") or name == "__array_namespace__") and callable(obj):
            yield f"ndarray.{name}", obj, lambda name=name: getattr(tnp.ndarray, name)


CALLABLES = list(_public_callables())


@pytest.mark.parametrize("name, numpy_func, tessera_func", CALLABLES, ids=[c[0] for c in CALLABLES])
def test_parameters_are_numpys(name, numpy_func, tessera_func):
    if name in JUSTIFIED:
        pytest.skip(f"a justified difference: {JUSTIFIED[name]}")
    try:
        func = tessera_func()
    except AttributeError:
        pytest.skip("an ndarray method tessera's arrays reach through the NumPy fallback, with NumPy's parameters")
    if func is numpy_func:
        pytest.skip("NumPy's own function (it takes no array data)")
    expected, got = parameters(numpy_func), parameters(func)
    if expected is None:
        pytest.skip("NumPy's function has no inspectable signature")
    if name.startswith("ndarray."):
        expected, got = expected[1:], got[1:]
    assert got == expected


def test_native_functions_are_inspectable(tnp):
    # The functions written in C++ carry a text signature (inspect.signature, help(), and the
    # array API suite's signature tests read it).
    if tnp is numpy:
        pytest.skip("self-check mode: NumPy's functions are not tessera's native ones")
    def is_native(f):
        return type(getattr(f, "_tessera_function", None)).__name__ in ("nb_func", "nb_method")

    native = [f for f in vars(tnp._tessera).values() if is_native(f)]
    native += [f for f in vars(tnp.random).values() if is_native(f)]
    native += [f for name in vars(tnp.ndarray) if is_native(f := getattr(tnp.ndarray, name))]
    assert len(native) > 250
    for func in native:
        if "<class" not in (func.__doc__ or ""):  # a type as default value (randint's dtype=int)
            assert parameters(func) is not None, func.__name__
    assert parameters(tnp.zeros_like) == ["a", "dtype", "order", "subok", "shape", "device"]
    assert parameters(tnp.arange(3).reshape) == ["*shape", "order", "copy"]


# --- asarray, array: NumPy 2's copy rule ----------------------------------------------------


@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("dtype", [None, "float64", "float32"])
@pytest.mark.parametrize("func", ["asarray", "array"])
def test_copy_of_an_array(func, dtype, copy):
    def run(xp):
        a = xp.arange(6.0).reshape(2, 3)
        r = getattr(xp, func)(a, dtype=dtype, copy=copy)
        shares = xp.shares_memory(a, r)
        a[0, 0] = 7  # a copy keeps the old value
        return r, shares, r is a

    check(run)


@pytest.mark.parametrize("obj", [5, 2.5, True, [1, 2, 3], [[1.5], [2.5]], numpy.float32(1.5)], ids=repr)
@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("func", ["asarray", "array"])
def test_copy_of_python_data(func, obj, copy):
    # copy=False cannot be honoured for a scalar or a list: ValueError, as NumPy 2.
    check(lambda xp: getattr(xp, func)(obj, copy=copy))


@pytest.mark.parametrize("mode", ["ALWAYS", "IF_NEEDED", "NEVER"])
def test_copy_modes(mode):
    def run(xp):
        a = xp.arange(3)
        r = xp.asarray(a, copy=getattr(numpy._CopyMode, mode))
        return r, r is a

    check(run)


def test_copy_false_uses_a_numpy_arrays_memory(tnp):
    host = numpy.arange(4.0)
    a = tnp.asarray(host, copy=False)
    host[1] = 9.0
    assert a.tolist() == [0.0, 9.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        tnp.asarray(host, dtype="float32", copy=False)
    if tnp is not numpy:
        # NumPy views strided memory; tessera uses only C-contiguous memory in place, so for it
        # a copy is unavoidable.
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            tnp.asarray(host[::2], copy=False)


@pytest.mark.parametrize("ndmin", [0, 1, 3])
def test_array_ndmin_and_ndmax(ndmin):
    check(lambda xp: xp.array([[1, 2], [3, 4]], ndmin=ndmin))
    check(lambda xp: xp.array([[1, 2], [3, 4]], ndmax=1))  # ValueError: nesting beyond ndmax
    check(lambda xp: xp.array([[1, 2], [3, 4]], ndmax=2, ndmin=ndmin))


def test_asanyarray_is_asarray():
    check(lambda xp: xp.asanyarray([1, 2], copy=False))
    check(lambda xp: xp.asanyarray(xp.arange(3), dtype="int8", copy=True))


# --- device= and like= ----------------------------------------------------------------------

CREATORS = {
    "zeros": lambda xp, **kw: xp.zeros((2, 3), **kw),
    "ones": lambda xp, **kw: xp.ones(3, **kw),
    "empty": lambda xp, **kw: xp.empty(0, **kw),
    "full": lambda xp, **kw: xp.full(2, 1.5, **kw),
    "arange": lambda xp, **kw: xp.arange(1, 7, 2, **kw),
    "eye": lambda xp, **kw: xp.eye(3, 2, 1, **kw),
    "asarray": lambda xp, **kw: xp.asarray([1, 2], **kw),
}
LIKE_CREATORS = {
    "zeros_like": lambda xp, **kw: xp.zeros_like(xp.ones((2, 2)), **kw),
    "ones_like": lambda xp, **kw: xp.ones_like([1, 2], **kw),
    "empty_like": lambda xp, **kw: xp.empty_like(xp.ones(0), **kw),
    "full_like": lambda xp, **kw: xp.full_like(xp.ones(3, dtype="int8"), 4, **kw),
    "linspace": lambda xp, **kw: xp.linspace(0, 1, 5, **kw),
}


@pytest.mark.parametrize("device", ["cpu", None, "gpu", 0])
@pytest.mark.parametrize("name", sorted(CREATORS) + sorted(LIKE_CREATORS))
def test_device(name, device):
    make = CREATORS.get(name) or LIKE_CREATORS[name]
    check(lambda xp: make(xp, device=device))  # ValueError for anything but "cpu"


@pytest.mark.parametrize("name", sorted(CREATORS) + ["identity"])
def test_like(name, tnp):
    make = CREATORS.get(name, lambda xp, **kw: xp.identity(2, **kw))
    check(lambda xp: make(xp, like=xp.ones(1)))
    check(lambda xp: make(xp, like=5))  # TypeError: not an array-like
    # NumPy's function given like=<tessera array> dispatches to tessera (NEP 35).
    if tnp is not numpy:
        assert isinstance(make(numpy, like=tnp.ones(1)), tnp.ndarray)


def test_identity_device_is_not_a_parameter():
    check(lambda xp: xp.identity(2, device="cpu"))  # TypeError in NumPy too


@pytest.mark.parametrize("value", [numpy.float64(1.5), numpy.int8(3), numpy.bool_(True), 2, 2.5, 1j, [1, 2]],
                         ids=repr)
@pytest.mark.parametrize("func", ["zeros_like", "ones_like", "empty_like", "full_like"])
def test_like_functions_of_scalars(func, value):
    def run(xp):
        r = getattr(xp, func)(value, 7) if func == "full_like" else getattr(xp, func)(value)
        return r if func != "empty_like" else (r.shape, r.dtype)

    check(run)


def test_astype_copy_and_device():
    check(lambda xp: xp.astype(xp.arange(3), "int64", copy=False, device="cpu"))
    check(lambda xp: xp.astype(xp.arange(3), "float32", device="gpu"))
    check(lambda xp: xp.arange(3).astype("int8", copy=False))


def test_to_device_and_device():
    check(lambda xp: (xp.arange(3).device, xp.arange(3).to_device("cpu")))
    check(lambda xp: xp.arange(3).to_device("gpu"))


# --- the array API namespace ----------------------------------------------------------------


def test_api_version():
    assert tnp.__array_api_version__ == numpy.__array_api_version__ == "2024.12"


@pytest.mark.parametrize("version", [None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12", "2020.12", 2024])
def test_array_namespace_versions(version, tnp):
    def run(xp):
        return xp.arange(2).__array_namespace__(api_version=version) is xp

    check(run)


def test_namespace_info():
    def run(xp):
        info = xp.__array_namespace_info__()
        return (info.capabilities(), info.default_device(), info.devices(), info.default_dtypes(),
                info.default_dtypes(device="cpu"), info.dtypes(), info.dtypes(kind="integral"),
                info.dtypes(kind=("bool", "complex floating")))

    check(run)
    check(lambda xp: xp.__array_namespace_info__().dtypes(kind="nothing"))  # ValueError


# --- clip -----------------------------------------------------------------------------------

CLIPS = {
    "no bounds": lambda xp, a: xp.clip(a),
    "None, None": lambda xp, a: xp.clip(a, None, None),
    "min=": lambda xp, a: xp.clip(a, min=1),
    "max=": lambda xp, a: xp.clip(a, max=1),
    "min= max=None": lambda xp, a: xp.clip(a, min=None, max=None),
    "a_min only": lambda xp, a: xp.clip(a, 1),  # TypeError: a_max missing
    "both spellings": lambda xp, a: xp.clip(a, 0, 2, min=1),  # ValueError
    "dtype=": lambda xp, a: xp.clip(a, 0, 1, dtype="float32"),
    "method": lambda xp, a: a.clip(),
    "method min": lambda xp, a: a.clip(1),
    "method max=": lambda xp, a: a.clip(max=1),
}


@pytest.mark.parametrize("dtype", ["uint8", "int32", "float64"])
@pytest.mark.parametrize("case", sorted(CLIPS))
def test_clip(case, dtype):
    def run(xp):
        a = xp.arange(4, dtype=dtype)
        r = CLIPS[case](xp, a)
        shares = xp.shares_memory(r, a)  # no bounds: a copy, not the array itself
        return r, shares

    check(run)


# --- boolean masks with an empty axis ------------------------------------------------------

MASKS = [((0, 3), (0, 3)), ((0, 3), (0,)), ((0, 1), (0, 0)), ((2, 3), (2, 0)), ((2, 3), (0, 3)),
         ((1, 3), (0,)), ((0, 3, 2), (0, 0)), ((2, 3), (3,)), ((2, 3), (2, 1))]


@pytest.mark.parametrize("shape, mask_shape", MASKS, ids=str)
def test_empty_boolean_mask(shape, mask_shape):
    # An empty axis of the mask matches any axis (nothing selected); other mismatches are IndexError.
    check(lambda xp: xp.zeros(shape)[xp.zeros(mask_shape, bool)])

    def assign(xp):
        a = xp.ones(shape)
        a[xp.zeros(mask_shape, bool)] = 5
        return a

    check(assign)
    check(lambda xp: xp.zeros((2, 3))[xp.zeros(0, bool), 1])


def test_empty_mask_assignment_of_too_many_values():
    def run(xp):
        a = xp.ones((2, 3))
        a[xp.zeros((2, 0), bool)] = xp.ones(2)

    check(run)  # ValueError


# --- other signatures fixed to NumPy 2's ----------------------------------------------------


def test_removed_parameters_are_refused():
    # NumPy 2.4 removed these: tessera refuses them too.
    check(lambda xp: xp.reshape(xp.arange(4), newshape=(2, 2)))
    check(lambda xp: xp.corrcoef(xp.arange(4.0), bias=1))
    check(lambda xp: xp.fix(xp.arange(4.0), dtype="float32"))
    check(lambda xp: xp.linalg.matmul(xp.ones((2, 2)), xp.ones((2, 2)), out=None))


def test_renamed_and_reshaped_parameters():
    check(lambda xp: xp.nonzero(a=xp.arange(3)))
    check(lambda xp: xp.reshape(xp.arange(6), shape=(2, 3), order="C", copy=None))
    check(lambda xp: xp.arange(6).reshape(3, 2, order="C", copy=None))
    check(lambda xp: xp.fix(xp.asarray([-1.5, 2.5])))
    check(lambda xp: xp.einsum_path("ij,jk", xp.ones((2, 3)), xp.ones((3, 4)), einsum_call=False)[0])


@pytest.mark.parametrize("func", ["var", "std"])
def test_var_and_std_of_a_given_mean(func):
    def run(xp, **kw):
        a = xp.arange(12.0).reshape(3, 4)
        m = a.mean(axis=1, keepdims=True)
        return getattr(xp, func)(a, axis=1, mean=m, **kw), getattr(a, func)(axis=1, mean=m, ddof=1)

    check(run)
    check(lambda xp: run(xp, correction=1, keepdims=True))


GUFUNC_CALLS = {
    "matmul": lambda xp, a, b: xp.matmul(a, b),
    "matmul out=": lambda xp, a, b: xp.matmul(a, b, out=xp.zeros((3, 3))),
    "matmul dtype=": lambda xp, a, b: xp.matmul(a, b, dtype="float32"),
    "matmul axes=": lambda xp, a, b: xp.matmul(a, b, axes=[(-2, -1), (-2, -1), (-2, -1)]),
    "vecdot axis=": lambda xp, a, b: xp.vecdot(a, b.T, axis=0),
    "vecdot keepdims=": lambda xp, a, b: xp.vecdot(a, b.T, keepdims=True),
    "matvec": lambda xp, a, b: xp.matvec(a, b[:, 0]),
    "vecmat casting=": lambda xp, a, b: xp.vecmat(b[:, 0], a, casting="same_kind"),
}


@pytest.mark.parametrize("case", sorted(GUFUNC_CALLS))
def test_gufunc_keywords(case):
    check(lambda xp: GUFUNC_CALLS[case](xp, xp.arange(9.0).reshape(3, 3), xp.ones((3, 3))))


def test_ufunc_signatures_are_numpys():
    for name in ("add", "sqrt", "divmod", "logaddexp", "isnat"):
        assert parameters(getattr(tnp, name)) == parameters(getattr(numpy, name)), name


@pytest.mark.parametrize("key", [True, False, numpy.True_, numpy.False_, (numpy.False_, 0), (Ellipsis, numpy.True_)],
                         ids=repr)
def test_numpy_bool_scalar_key(key):
    # NumPy's bool scalar indexes as Python's bool does: a 0-d mask that adds an axis.
    check(lambda xp: xp.asarray([[1.0, 2.0]])[key])
    check(lambda xp: xp.asarray(False)[key])

    def assign(xp):
        a = xp.zeros((1, 2))
        a[key] = 3
        return a

    check(assign)
