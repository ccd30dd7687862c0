"""NumPy's functions about arrays rather than of their values, for tessera arrays.

They look at dtypes, shapes and where arrays lie in memory, never at the data, except the
printing functions, which read the values as ``repr`` of a tessera array does. NumPy's
functions that take no array (``typename``, ``set_printoptions``...) are re-exported
unchanged by ``tessera.numpy``; the ones below take arrays, which NumPy would otherwise
dispatch to the fallback.
"""
import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import numpy_signature

_ndarray = _tessera.ndarray


def _dtype_standin(obj):
    """An empty NumPy array of a tessera array's dtype: enough for NumPy's dtype rules."""
    return _np.empty((0,), obj.dtype) if isinstance(obj, _ndarray) else obj


def _values(obj):
    return _tessera._to_numpy(obj) if isinstance(obj, _ndarray) else obj


@numpy_signature(_np.array2string)
def array2string(a, *args, **kwargs):
    """The values of `a` as text, with NumPy's print options (reads the values, as repr does)."""
    return _np.array2string(_values(a), *args, **kwargs)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """``repr`` of an array: ``array([...])`` (reads the values)."""
    return _np.array_repr(_values(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """``str`` of an array (reads the values)."""
    return _np.array_str(_values(a), max_line_width, precision, suppress_small)


def iscomplexobj(x):
    """Whether `x` has a complex dtype (not whether its values have imaginary parts)."""
    return _np.iscomplexobj(_dtype_standin(x))


def isrealobj(x):
    """Whether `x` has a dtype that is not complex."""
    return not iscomplexobj(x)


def isfortran(a):
    """Whether `a` is Fortran-contiguous and not C-contiguous."""
    if isinstance(a, _ndarray):
        return bool(a.flags.f_contiguous and not a.flags.c_contiguous)
    return _np.isfortran(a)


def common_type(*arrays):
    """The inexact scalar type common to the arrays' dtypes."""
    return _np.common_type(*(_dtype_standin(a) for a in arrays))


def can_cast(from_, to, casting="safe"):
    """Whether `from_` (a dtype, scalar type or array: its dtype) casts to `to` under `casting`."""
    return _np.can_cast(from_.dtype if isinstance(from_, _ndarray) else from_, to, casting)


def min_scalar_type(a):
    """The smallest dtype that holds `a`: its dtype for an array with dimensions, the value's
    smallest type for a 0-d array (one element is read)."""
    if isinstance(a, _ndarray):
        return a.dtype if a.ndim else _np.min_scalar_type(_np.asarray(a.item(), a.dtype))
    return _np.min_scalar_type(a)


# Where a stand-in for a tessera array "lies": a made-up address, never read, from which
# the storage offsets of views of one storage keep their true distances.
_STORAGE_BASE = 1 << 44


class _Layout:
    def __init__(self, interface):
        self.__array_interface__ = interface


def _memory_standin(a):
    """A NumPy array at a made-up address with `a`'s place in its storage (never read), so
    that NumPy's exact overlap test can run on the layout alone."""
    offset, strides, _ = _tessera._storage_layout(a)
    item = a.itemsize
    return _np.asarray(_Layout({
        "data": (_STORAGE_BASE + offset * item, not a.flags.writeable), "shape": tuple(a.shape),
        "strides": tuple(s * item for s in strides), "typestr": a.dtype.str, "version": 3}))


def _overlap(test, a, b, max_work):
    ta, tb = isinstance(a, _ndarray), isinstance(b, _ndarray)
    if ta and tb:
        if _tessera._storage_id(a) != _tessera._storage_id(b):
            return False
        return test(_memory_standin(a), _memory_standin(b), max_work=max_work)
    if ta or tb:
        return False  # tessera's storages are its own: a NumPy array lies elsewhere
    return test(a, b, max_work=max_work)


def shares_memory(a, b, /, max_work=None):
    """Whether `a` and `b` have an element in common in memory (exact by default, as NumPy;
    for tessera arrays, from their storage and layout)."""
    return _overlap(_np.shares_memory, a, b, max_work)


def may_share_memory(a, b, /, max_work=0):
    """Whether `a` and `b` might share memory: the bounds of their memory overlap (as NumPy's)."""
    return _overlap(_np.may_share_memory, a, b, max_work)


class _PyFunc:
    """The object ``frompyfunc`` returns: NumPy's ufunc over Python objects, called on the
    values of tessera arrays (read once), calling the Python function once per element.
    Results are NumPy object arrays, as NumPy gives: tessera has no object dtype."""

    def __init__(self, numpy_ufunc):
        self._numpy = numpy_ufunc
        for attr in ("__name__", "__doc__", "nin", "nout", "nargs", "identity", "ntypes", "types", "signature"):
            setattr(self, attr, getattr(numpy_ufunc, attr))

    def __repr__(self):
        return repr(self._numpy)

    def _run(self, method, args, kwargs):
        args = [_values(a) for a in args]
        kwargs = {k: _values(v) for k, v in kwargs.items()}
        return getattr(self._numpy, method)(*args, **kwargs) if method else self._numpy(*args, **kwargs)

    def __call__(self, *args, **kwargs):
        return self._run(None, args, kwargs)

    def reduce(self, *args, **kwargs):
        return self._run("reduce", args, kwargs)

    def accumulate(self, *args, **kwargs):
        return self._run("accumulate", args, kwargs)

    def outer(self, *args, **kwargs):
        return self._run("outer", args, kwargs)


def frompyfunc(func, /, nin, nout, *, identity=None):
    """A ufunc-like object calling the Python function `func` on each element (see _PyFunc)."""
    kwargs = {} if identity is None else {"identity": identity}
    return _PyFunc(_np.frompyfunc(func, nin, nout, **kwargs))


# The array API's device of an array: tessera arrays, like NumPy's, live on the "cpu".

def _device(self):
    return "cpu"


def to_device(self, device, /, *, stream=None):
    """The array itself on the "cpu" device, the only one (the array API's method, as NumPy's)."""
    if not isinstance(device, str):
        raise TypeError(f"to_device() argument 1 must be str, not {type(device).__name__}")
    if device != "cpu":
        raise ValueError(f"Unsupported device: {device}. Only 'cpu' is accepted.")
    if stream is not None:
        raise ValueError("The stream argument in to_device() is not supported")
    return self


__array_api_version__ = "2024.12"  # the version of the array API standard tessera.numpy follows, as NumPy 2.4


class __array_namespace_info__(_np.__array_namespace_info__):
    """The array API's inspection utilities: capabilities, default_device, devices, default_dtypes
    and dtypes. NumPy's answers hold for tessera.numpy: the same dtypes and default dtypes (NumPy's
    own dtype objects), one device, "cpu", boolean indexing and data-dependent shapes, up to 64
    dimensions."""

    __module__ = "tessera.numpy"


def install(cls):
    """The ndarray attributes above, on tessera's array class."""
    cls.device = property(_device)
    cls.to_device = to_device


# NumPy's functions that take no array data, re-exported unchanged by tessera.numpy.
NUMPY_OWN = (
    "base_repr", "binary_repr", "typename", "isscalar", "iterable", "isdtype", "mintypecode", "info",
    "show_runtime", "get_include", "getbufsize", "setbufsize", "geterrcall", "seterrcall",
    "get_printoptions", "set_printoptions", "printoptions", "format_float_positional", "format_float_scientific",
    "datetime_data", "show_config",
)
