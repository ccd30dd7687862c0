"""tessera.numpy's ufuncs: objects with NumPy's ufunc interface over tessera's element-wise functions.

Calling one runs the native function. `reduce`, `accumulate`, `outer` and `at` map onto
tessera's native functions where it has them (add.reduce is sum, add.at a scatter update,
...); the other reductions, accumulations and `reduceat` of the ufuncs the table marks "fold" run as
tessera's ufunc_fold (each column folded element after element, NumPy's order); what is left
(where=, an `initial` of a non-reorderable ufunc, a NumPy `out`) falls back to the NumPy ufunc's method.
The names, aliases and methods come from tessera's ufunc table (`_tessera._ufunc_table()`),
the attributes from NumPy's ufunc. The ufuncs with two outputs (frexp, modf, divmod) take `out` as a tuple and call
the extension's `_frexp`, `_modf` and `_divmod`, which compute each output by its own
element-wise function.
"""
import inspect

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_call

_ndarray = _tessera.ndarray
_NO_VALUE = _np._NoValue  # NumPy's "initial not given"
_NATIVE_OUT = (type(None), _ndarray)

# tessera's ufunc table (src/numeric/elementwise/ufuncs.def): name -> what the ufunc object
# does natively. "reduce": (tessera function, accepts dtype=, accepts initial=) or None;
# "accumulate": tessera's function or None; "at": an in-place scatter update; "reorderable":
# commutative and associative (reduce takes several axes and initial=); "fold": reduce,
# accumulate and reduceat run as tessera's ufunc_fold (_tessera._ufunc_fold); "identity": the
# value y with x op y == x for every x, which fills the places a where= skips (NumPy's identity
# for the reorderable ones); "half_in_float": NumPy folds float16 in float32 (rounding once at
# the end) in reduceat and in a reduce along the innermost axis.
_TABLE = {row["name"]: row for row in _tessera._ufunc_table()}
_NO_ROW = {"reduce": None, "accumulate": None, "at": False, "reorderable": False, "fold": False, "identity": None,
           "half_in_float": False}


def _prod(shape):
    n = 1
    for e in shape:
        n *= e
    return n


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
        self.__signature__ = inspect.signature(numpy_ufunc)  # NumPy's parameters, which a call takes
        self._row = _TABLE.get(self.__name__, _NO_ROW)
        # The inputs of a call the native function takes as it is when they come alone.
        self._plain_nin = self.nin if self.nout == 1 else -1

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        return self.__name__  # pickled by name, like NumPy's ufuncs

    def __call__(self, *args, **kwargs):
        if not kwargs and len(args) == self._plain_nin:
            return self._func(*args)
        if "order" in kwargs:  # every tessera result is C-ordered; NumPy's errors for a bad order
            _tessera.empty(0, order=kwargs.pop("order"))
        if "subok" in kwargs:  # tessera has no array subclasses to keep
            if not isinstance(kwargs.pop("subok"), bool):
                raise TypeError("'subok' must be a boolean")
        if "signature" in kwargs or "sig" in kwargs:
            dtype = self._signature_dtype(kwargs.get("signature", kwargs.get("sig")))
            if dtype is None or len(kwargs.keys() & {"signature", "sig", "dtype"}) > 1:
                return self._fallback("__call__", args, kwargs)  # NumPy's loop choice, or its error
            kwargs.pop("signature", None)
            kwargs.pop("sig", None)
            kwargs["dtype"] = dtype
        if self.nout > 1:
            return self._call_outputs(args, kwargs)
        # What the native function takes as it is: no where=, out= absent, None or a tessera array.
        if len(args) == self.nin and "where" not in kwargs and type(kwargs.get("out")) in _NATIVE_OUT:
            return self._func(*args, **kwargs)
        return self._call(args, kwargs)

    def _signature_dtype(self, signature):
        """The dtype= a signature amounts to: one dtype for every operand ('dd->d'), or only the
        outputs' ((None, None, 'f4')); None for any other (NumPy then chooses its loop)."""
        if isinstance(signature, str):
            ins, arrow, outs = signature.partition("->")
            if not arrow or "," in signature or len(ins) != self.nin or len(outs) != self.nout:
                return None
            types = list(ins + outs)
        elif isinstance(signature, tuple) and len(signature) == self.nargs:
            types = list(signature)
        else:
            return None
        try:
            given = {_np.dtype(t) for t in types if t is not None}
        except TypeError:
            return None
        outputs_given = all(t is not None for t in types[self.nin:])
        inputs_match = all(t is None for t in types[:self.nin]) or all(t is not None for t in types[:self.nin])
        return given.pop() if len(given) == 1 and outputs_given and inputs_match else None

    def _too_many(self, args):
        if len(args) > self.nargs:
            raise TypeError(f"{self.__name__}() takes from {self.nin} to {self.nargs} positional arguments "
                            f"but {len(args)} were given")

    def _call(self, args, kwargs):
        if len(args) > self.nin:
            self._too_many(args)
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
            self._too_many(args)
            positional = args[self.nin:]
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
        row = self._row
        native = row["reduce"]
        if native is not None:
            name, takes_dtype, takes_initial = native
            if (takes_dtype or dtype is None) and (takes_initial or "initial" not in kwargs):
                if not takes_dtype:
                    del kwargs["dtype"]
                return getattr(_tessera, name)(array, **kwargs)
        if not row["fold"] or (not row["reorderable"] and row["identity"] is None
                               and (where is not True or initial is not _NO_VALUE)):
            return self._fallback("reduce", (array,), kwargs)
        return self._fold_reduce(array, axis, dtype, out, keepdims, initial, where)

    def _loop_dtype(self, method, array, dtype, out, *args):
        """The dtype NumPy's `method` computes `array` in (NumPy's rules, asked of a 1-element array)."""
        if dtype is None and isinstance(out, _ndarray):
            dtype = out.dtype
        probe = _np.zeros(1, dtype=array.dtype)
        return getattr(self._numpy, method)(probe, *args, dtype=dtype).dtype

    def _fold(self, x, kind, indices=(), innermost=True):
        """`x` (rows, columns) folded by `kind` in its dtype; float16 arithmetic as NumPy does it:
        a reduction along the innermost axis accumulates in float32, any other rounds each step."""
        if x.dtype == _np.float16 and kind != "accumulate" and innermost and self._row["half_in_float"]:
            return _tessera._ufunc_fold(x.astype(_np.float32), self.__name__, kind, indices).astype(_np.float16)
        return _tessera._ufunc_fold(x, self.__name__, kind, indices)

    def _fold_reduce(self, array, axis, dtype, out, keepdims, initial, where=True):
        a = _tessera.asarray(array)
        loop = self._loop_dtype("reduce", a, dtype, out)
        if a.ndim == 0 and type(axis) is int and axis in (0, -1):
            axes = ()  # NumPy reads axis 0 (or -1) of a 0-d array as no axis: the element itself
        else:
            axes = tuple(range(a.ndim)) if axis is None else _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
        reorderable = self._row["reorderable"]
        if len(axes) > 1 and not reorderable:
            raise ValueError(f"reduction operation '{self.__name__}' is not reorderable, so at most one axis "
                             "may be specified")
        kept = [d for d in range(a.ndim) if d not in axes]
        kept_shape = tuple(a.shape[d] for d in kept)
        length = _prod(a.shape[d] for d in axes)
        if initial is _NO_VALUE and self.__name__ == "gcd":
            initial = 0  # NumPy starts from the identity: gcd(0, x) = |x|
        if where is not True and initial is _NO_VALUE:
            if self.identity is None:
                raise ValueError(f"reduction operation '{self.__name__}' does not have an identity, so to use a "
                                 "where mask one has to specify 'initial'")
            initial = self.identity
        if length == 0:
            start = initial if initial is not _NO_VALUE else self.identity
            if start is None:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} which has no identity")
            result = _tessera.full(kept_shape, _np.array(start).astype(loop)[()], dtype=loop)
        else:
            x = a.astype(loop) if a.dtype != loop else a
            if where is not True:  # skipped places hold a value that changes nothing
                filler = self._row["identity"] if self._row["identity"] is not None else initial
                mask = _tessera.broadcast_to(_tessera.asarray(where, dtype=_np.bool_), a.shape)
                x = _tessera.where(mask, x, _np.array(filler).astype(loop)[()]).astype(loop)
            x = _tessera.moveaxis(x, axes, tuple(range(len(axes)))).reshape(length, _prod(kept_shape))
            innermost = axes == (a.ndim - 1,) or len(kept_shape) == 0
            first = not reorderable and initial is not _NO_VALUE
            if first:  # the fold starts from `initial`, in NumPy's order
                start = _tessera.full((1, x.shape[1]), _np.array(initial).astype(loop)[()], dtype=loop)
                x = _tessera.concatenate([start, x])
            result = self._fold(x, "reduce", innermost=innermost).reshape(kept_shape)
            if initial is not _NO_VALUE and not first:
                result = self._func(_np.array(initial).astype(loop)[()], result).astype(loop)
        if keepdims:
            result = result.reshape(tuple(1 if d in axes else a.shape[d] for d in range(a.ndim)))
        return self._to_out(result, out)

    def _to_out(self, result, out):
        if isinstance(out, tuple):
            out = out[0] if len(out) == 1 else out
        if out is None:
            return result
        if not isinstance(out, (_ndarray, _np.ndarray)):
            raise TypeError("output must be an array")
        if tuple(out.shape) != tuple(result.shape):
            raise ValueError(f"output parameter has the wrong shape: expected {tuple(result.shape)}, "
                             f"got {tuple(out.shape)}")
        if isinstance(out, _np.ndarray):  # a NumPy `out`: written as NumPy writes it
            _np.copyto(out, _np.asarray(result), casting="unsafe")
        else:
            _tessera.copyto(out, result.astype(out.dtype) if out.dtype != result.dtype else result)
        return out

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running reduction of `array` along `axis` (add.accumulate is cumsum)."""
        self._binary_only("accumulate")
        if isinstance(axis, tuple):  # NumPy's reading: one axis, perhaps in a tuple
            if len(axis) != 1:
                raise ValueError("accumulate does not allow multiple axes")
            axis = axis[0]
        kwargs = {"axis": axis, "dtype": dtype, "out": out}
        native = getattr(_tessera, self._row["accumulate"] or "", None)
        if _is_numpy_out(out) or axis is None or _np.ndim(array) == 0 or (native is None and not self._row["fold"]):
            return self._fallback("accumulate", (array,), kwargs)
        if native is not None:
            return native(array, **kwargs)
        a = _tessera.asarray(array)
        loop = self._loop_dtype("accumulate", a, dtype, out)
        ax = _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
        x = _tessera.moveaxis(a.astype(loop) if a.dtype != loop else a, ax, 0)
        moved = tuple(x.shape)
        if a.size == 0:
            result = _tessera.empty(moved, dtype=loop)
        else:
            result = self._fold(x.reshape(moved[0], _prod(moved[1:])), "accumulate").reshape(moved)
        return self._to_out(_tessera.moveaxis(result, 0, ax), out)

    def outer(self, A, B, /, **kwargs):
        """The ufunc applied to every pair (a, b) of elements: result shape A.shape + B.shape."""
        self._binary_only("outer")
        A = _tessera.asarray(A)
        B = _tessera.asarray(B)
        return self(A[(Ellipsis,) + (None,) * B.ndim], B, **kwargs)

    def at(self, a, indices, b=None, /):
        """Applies the ufunc in place at `indices` of `a` (unbuffered: repeated indices accumulate).
        Computed in NumPy's loop for the operands' dtypes and cast back to `a`'s unsafely."""
        args = (a, indices) if b is None else (a, indices, b)
        if not isinstance(a, _ndarray) or self.nout != 1 or (b is None) != (self.nin == 1):
            return self._fallback("at", args, {}, writes=(0,))
        if b is None:
            try:
                loop = self._numpy.resolve_dtypes((a.dtype, None))
            except (TypeError, _np.exceptions.DTypePromotionError):
                return self._fallback("at", args, {}, writes=(0,))
            _tessera._index_apply(a, indices, None, self.__name__, loop[0])
            return
        values = b if isinstance(b, (_ndarray, _np.ndarray)) else _np.asarray(b) if isinstance(b, (list, tuple)) else b
        value_type = values.dtype if hasattr(values, "dtype") else _np.dtype(bool) if isinstance(values, bool) \
            else type(values)
        try:
            loop = self._numpy.resolve_dtypes((a.dtype, value_type, None))
        except (TypeError, _np.exceptions.DTypePromotionError):
            loop = None
        if loop is None or loop[0] != loop[1]:  # no loop, or one of mixed dtypes (ldexp): NumPy's
            return self._fallback("at", args, {}, writes=(0,))
        values = _tessera.asarray(values)
        if self._row["at"] and all(t == a.dtype for t in loop):
            _tessera._index_update(a, indices, values if values.dtype == a.dtype else values.astype(a.dtype),
                                   self.__name__)
            return
        _tessera._index_apply(a, indices, values if values.dtype == loop[0] else values.astype(loop[0]),
                              self.__name__, loop[0])

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Reductions over the slices of `array` that start at each of `indices`."""
        self._binary_only("reduceat")
        if not self._row["fold"] or _is_numpy_out(out) or _np.ndim(array) == 0:
            return self._fallback("reduceat", (array, indices), {"axis": axis, "dtype": dtype, "out": out})
        a = _tessera.asarray(array)
        idx = indices.tolist() if isinstance(indices, _ndarray) else indices
        idx = _np.asarray(idx)
        if idx.ndim != 1:
            raise ValueError("index must be 1-d")  # NumPy's message for indices of another rank
        idx = idx.astype(_np.intp)  # NumPy casts the indices unsafely (0.5 is 0)
        loop = self._loop_dtype("reduceat", a, dtype, out, [0])
        ax = _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
        x = _tessera.moveaxis(a.astype(loop) if a.dtype != loop else a, ax, 0)
        moved = tuple(x.shape)
        length = moved[0]
        for i in idx.tolist():
            if i < 0 or i >= length:
                raise IndexError(f"index {i} out-of-bounds in {self.__name__}.reduceat [0, {length})")
        shape = (len(idx),) + moved[1:]
        if _prod(shape) == 0:
            result = _tessera.empty(shape, dtype=loop)
        else:
            result = self._fold(x.reshape(length, _prod(moved[1:])), "reduceat", idx.tolist()).reshape(shape)
        return self._to_out(_tessera.moveaxis(result, 0, ax), out)


def _make_ufuncs():
    """name -> ufunc for every ufunc of the table; NumPy's aliases (abs, mod, ...) share one
    object where NumPy's do (degrees and rad2deg are two ufuncs in NumPy, of one function)."""
    named = {}
    for name, row in _TABLE.items():
        for alias in [name] + row["aliases"]:
            numpy_ufunc = getattr(_np, alias, None)
            if not isinstance(numpy_ufunc, _np.ufunc):
                continue
            canonical = numpy_ufunc.__name__
            if canonical not in named:
                named[canonical] = ufunc(getattr(_tessera, canonical if canonical in _TABLE else alias), numpy_ufunc)
            named[alias] = named[canonical]
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
UFUNCS.update({name: _two_output_ufunc(name) for name in _tessera._two_output_ufuncs()})
