"""tessera.numpy's ufuncs: objects with NumPy's ufunc interface over tessera's element-wise functions.

Calling one runs the native function. `reduce`, `accumulate`, `outer` and `at` map onto
tessera's native functions where it has them (add.reduce is sum, add.at a scatter update,
...); everything else (`reduceat`, the other reductions) falls back to the NumPy ufunc's method.
The names and arity come from the extension (`_tessera._ufunc_names`), the attributes from
NumPy's ufunc. The ufuncs with two outputs (frexp, modf, divmod) take `out` as a tuple and call
the extension's `_frexp`, `_modf` and `_divmod`, which compute each output by its own
element-wise function.
"""
import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_call

_ndarray = _tessera.ndarray
_NO_VALUE = _np._NoValue  # NumPy's "initial not given"
_NATIVE_OUT = (type(None), _ndarray)

# ufunc -> its reduction in tessera: (function, accepts dtype=, accepts initial=).
_REDUCTIONS = {"add": ("sum", True, True), "multiply": ("prod", True, True),
               "maximum": ("max", False, True), "minimum": ("min", False, True),
               "logical_and": ("all", False, False), "logical_or": ("any", False, False)}
# The ufuncs whose `at` runs natively (as an in-place scatter update).
_AT_OPS = {"add", "subtract", "multiply", "divide", "minimum", "maximum", "fmin", "fmax", "bitwise_and",
           "bitwise_or", "bitwise_xor"}
# ufunc -> its accumulation, used once tessera has the function natively.
_ACCUMULATIONS = {"add": "cumsum", "multiply": "cumprod"}


def _is_numpy_out(out):
    if isinstance(out, tuple):
        return any(isinstance(o, _np.ndarray) for o in out)
    return isinstance(out, _np.ndarray)


def numpy_out(out, result):
    """What NumPy returns for a call given `out=`: a NumPy `out` array itself (NumPy wrote the
    result into it), else `result`."""
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    return out if isinstance(out, _np.ndarray) else result


class ufunc:
    """A universal function: element-wise, with NumPy's broadcasting, `out=`, `where=`,
    `dtype=` and `casting=`, and the methods reduce, accumulate, outer, at and reduceat."""

    __module__ = "tessera.numpy"

    def __init__(self, func, numpy_ufunc):
        self._func = func
        self._numpy = numpy_ufunc
        self.__name__ = numpy_ufunc.__name__
        self.__doc__ = numpy_ufunc.__doc__
        for attr in ("nin", "nout", "nargs", "identity", "ntypes", "types", "signature"):
            setattr(self, attr, getattr(numpy_ufunc, attr))

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        return self.__name__  # pickled by name, like NumPy's ufuncs

    def __call__(self, *args, **kwargs):
        if self.nout > 1:
            return self._call_outputs(args, kwargs)
        # What the native function takes as it is: no where=, out= absent, None or a tessera array.
        if len(args) == self.nin and "where" not in kwargs and type(kwargs.get("out")) in _NATIVE_OUT:
            return self._func(*args, **kwargs)
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        if len(args) > self.nin:
            if "out" in kwargs:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            kwargs["out"] = args[self.nin:]
            args = args[:self.nin]
        out = kwargs.get("out")
        if isinstance(out, tuple):
            if len(out) != self.nout:
                raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
            out = kwargs["out"] = out[0]
        where = kwargs.pop("where", True)
        if out is None or isinstance(out, _ndarray):
            if where is True:
                return self._func(*args, **kwargs)
            kwargs.pop("out", None)
            result = self._func(*args, **kwargs)
            if out is None:  # NumPy leaves the elements where `where` is False uninitialised
                return _tessera.where(where, result, result)
            casting = kwargs.get("casting", "same_kind")
            if not _np.can_cast(result.dtype, out.dtype, casting):
                raise TypeError(f"Cannot cast ufunc '{self.__name__}' output from {result.dtype!r} to "
                                f"{out.dtype!r} with casting rule '{casting}'")
            _tessera.copyto(out, _tessera.where(where, result.astype(out.dtype), out))
            return out
        if not isinstance(out, _np.ndarray):
            return self._func(*args, **kwargs)  # raises NumPy's TypeError for the bad `out`
        # A NumPy `out` (np_array += t reaches here through __array_ufunc__): compute in
        # tessera, then copy into it as NumPy would have written it.
        kwargs.pop("out")
        result = self._func(*args, **kwargs)
        _np.copyto(out, _np.asarray(result), casting=kwargs.get("casting", "same_kind"),
                   where=True if where is True else _np.asarray(where))
        return out

    def _call_outputs(self, args, kwargs):
        """A call of a ufunc with several outputs: `out` is a tuple with one entry (None or an
        array) per output, or given positionally after the inputs."""
        if len(args) > self.nin:
            if "out" in kwargs:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            positional = args[self.nin:]
            if len(positional) > self.nout:
                raise TypeError(f"{self.__name__}() takes from {self.nin} to {self.nargs} positional arguments "
                                f"but {len(args)} were given")
            kwargs["out"] = positional + (None,) * (self.nout - len(positional))
            args = args[:self.nin]
        outs = kwargs.pop("out", None)
        if outs is None:
            outs = (None,) * self.nout
        elif not isinstance(outs, tuple):
            raise TypeError("'out' must be a tuple of arrays")
        elif len(outs) != self.nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        where = kwargs.pop("where", True)
        if where is True and all(o is None or isinstance(o, _ndarray) for o in outs):
            return self._func(*args, out=outs, **kwargs)
        results = self._func(*args, **kwargs)
        if where is not True:
            where = _tessera.asarray(where)
        returned = []
        for result, o in zip(results, outs):
            if o is None:
                # NumPy leaves the elements where `where` is False uninitialised
                returned.append(result if where is True else _tessera.where(where, result, result))
            elif isinstance(o, _ndarray):
                casting = kwargs.get("casting", "same_kind")
                if not _np.can_cast(result.dtype, o.dtype, casting):
                    raise TypeError(f"Cannot cast ufunc '{self.__name__}' output from {result.dtype!r} to "
                                    f"{o.dtype!r} with casting rule '{casting}'")
                _tessera.copyto(o, result if where is True else _tessera.where(where, result.astype(o.dtype), o))
                returned.append(o)
            elif isinstance(o, _np.ndarray):
                _np.copyto(o, _np.asarray(result), casting=kwargs.get("casting", "same_kind"),
                           where=True if where is True else _np.asarray(where))
                returned.append(o)
            else:
                raise TypeError("return arrays must be of ArrayType")
        return tuple(returned)

    def _binary_only(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions")

    def _fallback(self, method, args, kwargs, writes=()):
        result = fallback_call(f"numpy.{self.__name__}.{method}", getattr(self._numpy, method), args, kwargs,
                               writes)
        return numpy_out(kwargs.get("out"), result)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
        """Reduces `array` along `axis` by applying the ufunc (add.reduce is sum, ...)."""
        self._binary_only("reduce")
        kwargs = {"axis": axis, "dtype": dtype, "out": out, "keepdims": keepdims, "where": where}
        if initial is not _NO_VALUE:
            kwargs["initial"] = initial
        native = _REDUCTIONS.get(self.__name__)
        if native is None or _is_numpy_out(out):
            return self._fallback("reduce", (array,), kwargs)
        name, takes_dtype, takes_initial = native
        if not takes_dtype:
            if dtype is not None:
                return self._fallback("reduce", (array,), kwargs)
            del kwargs["dtype"]
        if not takes_initial and "initial" in kwargs:
            return self._fallback("reduce", (array,), kwargs)
        return getattr(_tessera, name)(array, **kwargs)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running reduction of `array` along `axis` (add.accumulate is cumsum)."""
        self._binary_only("accumulate")
        kwargs = {"axis": axis, "dtype": dtype, "out": out}
        native = getattr(_tessera, _ACCUMULATIONS.get(self.__name__, ""), None)
        if native is None or _is_numpy_out(out) or axis is None or _np.ndim(array) == 0:
            return self._fallback("accumulate", (array,), kwargs)
        return native(array, **kwargs)

    def outer(self, A, B, /, **kwargs):
        """The ufunc applied to every pair (a, b) of elements: result shape A.shape + B.shape."""
        self._binary_only("outer")
        A = _tessera.asarray(A)
        B = _tessera.asarray(B)
        return self(A[(Ellipsis,) + (None,) * B.ndim], B, **kwargs)

    def at(self, a, indices, b=None, /):
        """Applies the ufunc in place at `indices` of `a` (unbuffered: repeated indices accumulate)."""
        args = (a, indices) if b is None else (a, indices, b)
        if b is None or self.__name__ not in _AT_OPS or not isinstance(a, _ndarray):
            return self._fallback("at", args, {}, writes=(0,))
        values = b if isinstance(b, (_ndarray, _np.ndarray)) else _np.asarray(b) if isinstance(b, (list, tuple)) else b
        value_type = values.dtype if hasattr(values, "dtype") else _np.dtype(bool) if isinstance(values, bool) \
            else type(values)
        try:
            loop = self._numpy.resolve_dtypes((a.dtype, value_type, None))
        except (TypeError, _np.exceptions.DTypePromotionError):
            loop = None
        if loop is None or any(t != a.dtype for t in loop):  # computed in a wider type: NumPy's loop
            return self._fallback("at", args, {}, writes=(0,))
        values = _tessera.asarray(values)
        _tessera._index_update(a, indices, values if values.dtype == a.dtype else values.astype(a.dtype), self.__name__)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Reductions over the slices of `array` that start at each of `indices`."""
        self._binary_only("reduceat")
        return self._fallback("reduceat", (array, indices), {"axis": axis, "dtype": dtype, "out": out})


def _make_ufuncs():
    """name -> ufunc for every ufunc the extension binds; NumPy's aliases (abs, mod, ...) share
    one object, as in NumPy. Names NumPy has as plain functions (fix) stay functions."""
    unary, binary = _tessera._ufunc_names
    named = {}
    for name in unary + binary:
        numpy_ufunc = getattr(_np, name, None)
        if not isinstance(numpy_ufunc, _np.ufunc):
            continue
        canonical = numpy_ufunc.__name__
        if canonical not in named:
            func = getattr(_tessera, canonical if canonical in unary + binary else name)
            named[canonical] = ufunc(func, numpy_ufunc)
        named[name] = named[canonical]
    return named


def _two_output_ufunc(name):
    """The ufunc `name` with two outputs, over the extension's `_<name>`, which takes both
    inputs (None for the second of a unary one) and both outputs."""
    native = getattr(_tessera, "_" + name)
    numpy_ufunc = getattr(_np, name)

    if numpy_ufunc.nin == 1:
        def func(x, out=(None, None), dtype=None, casting="same_kind"):
            return native(x, None, out[0], out[1], dtype, casting)
    else:
        def func(x1, x2, out=(None, None), dtype=None, casting="same_kind"):
            return native(x1, x2, out[0], out[1], dtype, casting)
    func.__name__ = name
    return ufunc(func, numpy_ufunc)


#: Every ufunc of tessera.numpy by name (aliases included); NumPy's ufunc.__name__ finds it.
UFUNCS = _make_ufuncs()
UFUNCS.update({name: _two_output_ufunc(name) for name in ("frexp", "modf", "divmod")})
