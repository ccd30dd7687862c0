"""Fallback to NumPy for what tessera does not implement natively.

NumPy runs on copies of the tessera arrays it is given, and array results come back as
tessera arrays. Nothing NumPy does is lost:

- arguments that a function changes in place (the table ``_IN_PLACE``, every ``out=``)
  get writable copies whose new values are copied back into the tessera arrays, views
  of a larger array included;
- every other argument is handed over read-only, so a change nobody listed makes NumPy
  raise; the call is then run again on writable copies and what changed is copied back
  (or, where running twice would draw random numbers twice, NotImplementedError is
  raised naming the function);
- a result that is a view of an argument comes back as a tessera view of that argument
  (writes through it reach the argument) when its elements lie on a regular grid of the
  argument's storage, else as a read-only copy;
- the argument itself comes back as the very tessera object that was passed.

What a fallback does first is set by ``TESSERA_CONFIG=--fallback=warn|silent|error``:
``warn`` (the default) emits a ``tessera.FallbackWarning`` (a RuntimeWarning) naming each
function once, ``silent`` emits nothing, ``error`` raises ``tessera.FallbackError`` (a
NotImplementedError) naming the function, before any argument is converted or NumPy runs.
"""
import functools
import inspect
import os
import sys
import warnings

import numpy as _np

from tessera import FallbackError, FallbackWarning, _tessera

_warned = set()
_mode = []  # the --fallback flag, read once


def fallback_mode():
    """The --fallback flag of TESSERA_CONFIG: 'warn', 'silent' or 'error'."""
    if not _mode:
        _mode.append(_tessera._fallback_mode())
    return _mode[0]


def announce(qualname, library="tessera", runner="NumPy", where="on copies of the arrays",
             kept="copied back", warned=_warned):
    """What --fallback asks for when `qualname` of `library` is about to run in `runner` (NumPy,
    or pandas for tessera.pandas): a FallbackWarning the first time (warn; `warned` holds the
    names already announced), nothing (silent), or FallbackError (error)."""
    mode = fallback_mode()
    if mode == "error":
        raise FallbackError(
            f"{library}.{qualname} is not implemented natively, and TESSERA_CONFIG has --fallback=error, "
            f"which refuses to run it in {runner}; set TESSERA_CONFIG=--fallback=warn (the default) or "
            f"--fallback=silent to let {runner} run it {where}")
    if mode == "warn" and qualname not in warned:
        warned.add(qualname)
        warnings.warn(
            f"{library}.{qualname} is not implemented natively: {runner} runs it {where} "
            f"(changes it makes in place are {kept}). Silence this with "
            "warnings.simplefilter('ignore', tessera.FallbackWarning) or TESSERA_CONFIG=--fallback=silent",
            FallbackWarning,
            stacklevel=_user_stacklevel(),
        )

# Functions that change arguments in place: qualname -> arguments written, as
# (position, keyword) pairs, or a function of (args, kwargs) giving them. Methods count
# the array they are called on as position 0. `out=` is found for every function.
_IN_PLACE = {
    "ndarray.sort": ((0, None),),
    "ndarray.partition": ((0, None),),
    "ndarray.put": ((0, None),),
    "ndarray.fill": ((0, None),),
    "ndarray.setfield": ((0, None),),
    "ndarray.byteswap": lambda args, kwargs: ((0, None),) if _flag(args, kwargs, 1, "inplace") else (),
    "numpy.put": ((0, "a"),),
    "numpy.place": ((0, "arr"),),
    "numpy.put_along_axis": ((0, "arr"),),
    "numpy.copyto": ((0, "dst"),),
    "numpy.fill_diagonal": ((0, "a"),),
    "numpy.putmask": ((0, "a"),),
    "numpy.nan_to_num": lambda args, kwargs: () if _flag(args, kwargs, 1, "copy", True) else ((0, "x"),),
    "numpy.random.shuffle": ((0, "x"),),
    "numpy.random.Generator.shuffle": ((0, "x"),),
    "numpy.random.RandomState.shuffle": ((0, "x"),),
}

# Functions that return views of their arguments: their arguments are handed over writable,
# so the views NumPy returns are writable and come back as tessera views.
_VIEWS = {
    "numpy.flip", "numpy.fliplr", "numpy.flipud", "numpy.rot90", "numpy.einsum", "numpy.real", "numpy.imag",
    "numpy.lib.stride_tricks.as_strided", "numpy.lib.stride_tricks.sliding_window_view", "ndarray.diagonal",
    "numpy.diagonal", "numpy.diag", "ndarray.swapaxes", "numpy.split", "numpy.array_split", "numpy.hsplit",
    "numpy.vsplit", "numpy.dsplit", "numpy.unstack", "numpy.trim_zeros", "numpy.require",
}

# Running these twice would draw random numbers twice.
_NO_RERUN_PREFIXES = ("numpy.random.",)


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _user_stacklevel():
    """The stacklevel of the first frame outside the tessera package (the user's line)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def _flag(args, kwargs, position, keyword, default=False):
    if keyword in kwargs:
        return bool(kwargs[keyword])
    return bool(args[position]) if len(args) > position else default


_out_positions = {}  # qualname -> position of `out`, or None


def _out_position(qualname, func):
    """The position of `func`'s `out` parameter when it can be passed positionally (cached by
    name: bound methods of NumPy generators are new objects at every call)."""
    if qualname not in _out_positions:
        position = None
        try:
            params = list(inspect.signature(func).parameters.values())
        except (TypeError, ValueError):
            params = []
        for i, p in enumerate(params):
            if p.name == "out" and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                position = i
        _out_positions[qualname] = position
    return _out_positions[qualname]


def _written_objects(qualname, func, args, kwargs, writes, method):
    """The tessera arrays (by id) the call writes: `writes`, the table and `out=`."""
    spec = list(writes)
    table = _IN_PLACE.get(qualname)
    if callable(table):
        table = table(args, kwargs)
    for entry in table or ():
        spec.append(entry)
    ids = set()

    def add(obj):
        if isinstance(obj, _tessera.ndarray):
            ids.add(id(obj))
        elif isinstance(obj, (tuple, list)):
            for o in obj:
                add(o)

    for entry in spec:
        position, keyword = entry if isinstance(entry, tuple) else (
            (entry, None) if isinstance(entry, int) else (None, entry))
        if keyword is not None and keyword in kwargs:
            add(kwargs[keyword])
        elif position is not None and position < len(args):
            add(args[position])
    add(kwargs.get("out"))
    position = _out_position(qualname, func)
    if position is not None:
        position += 1 if method else 0
        if position < len(args):
            add(args[position])
    return ids


class _Copies:
    """The NumPy copies of one call's tessera arguments, one per tessera object."""

    def __init__(self, writable_ids):
        self.writable_ids = writable_ids
        self.pairs = {}  # id(tessera array) -> (tessera array, NumPy copy)
        self.by_host = {}  # id(NumPy copy) -> tessera array

    def to_numpy(self, obj):
        if isinstance(obj, _tessera.ndarray):
            pair = self.pairs.get(id(obj))
            if pair is None:
                host = _tessera._to_numpy(obj)
                if id(obj) not in self.writable_ids or not obj.flags.writeable:
                    host.flags.writeable = False
                pair = self.pairs[id(obj)] = (obj, host)
                self.by_host[id(host)] = obj
            return pair[1]
        if isinstance(obj, (list, tuple)):
            converted = [self.to_numpy(o) for o in obj]
            return type(obj)(converted) if isinstance(obj, tuple) else converted
        if isinstance(obj, dict):
            return {k: self.to_numpy(v) for k, v in obj.items()}
        return obj

    def rerun_copies(self):
        """Fresh writable copies of every argument (the first run's read-only ones are the
        snapshot to compare with)."""
        again = _Copies(set(self.pairs))
        for key, (obj, host) in self.pairs.items():
            fresh = _tessera._to_numpy(obj)  # the first run may have changed the writable copies
            if not obj.flags.writeable:
                fresh.flags.writeable = False
            again.pairs[key] = (obj, fresh)
            again.by_host[id(fresh)] = obj
        return again

    def changed_since(self, first):
        """Ids of the arguments whose bytes differ from `first`'s copies of them."""
        changed = set()
        for key, (_, host) in self.pairs.items():
            before = first.pairs[key][1]
            if host.shape != before.shape or not _np.array_equal(
                    host.reshape(-1).view(_np.uint8), before.reshape(-1).view(_np.uint8)):
                changed.add(key)
        return changed

    def write_back(self, ids):
        for key in ids:
            pair = self.pairs.get(key)
            if pair is not None:
                _tessera.copyto(pair[0], pair[1])

    def from_numpy(self, obj):
        if isinstance(obj, _np.ndarray):
            return self._array_result(obj)
        if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
            return tuple(self.from_numpy(o) for o in obj)
        if isinstance(obj, tuple):  # a named tuple (e.g. linalg results)
            return type(obj)(*(self.from_numpy(o) for o in obj))
        if isinstance(obj, list):
            return [self.from_numpy(o) for o in obj]
        return obj

    def _array_result(self, obj):
        if type(obj) is not _np.ndarray:  # matrix, memmap, masked arrays, recarrays: NumPy's own
            if isinstance(obj, _np.memmap) and fallback_mode() != "silent":
                warnings.warn("tessera.numpy gives back NumPy's memmap itself, so that writes to it reach the "
                              "file; tessera operations read a copy of its values", FallbackWarning,
                              stacklevel=_user_stacklevel())
            return obj
        base = obj
        while base is not None and id(base) not in self.by_host:
            base = base.base if isinstance(base, _np.ndarray) else None
        if base is not None:
            arg = self.by_host[id(base)]
            if obj is base:
                return arg
            view = _view_of(arg, base, obj)
            if view is not None:
                return view
        if obj.dtype.kind not in "biufc" or obj.dtype == _np.longdouble:
            return obj
        result = _tessera.asarray(obj)
        if base is not None or not obj.flags.writeable:
            _tessera._lock_read_only(result)  # NumPy's view of data tessera holds elsewhere
        return result


def _grid(shape, first, steps):
    """first + sum(index[d] * steps[d]) for every index of `shape` (int64)."""
    out = _np.full(shape, first, dtype=_np.int64)
    for d, step in enumerate(steps):
        axis = [1] * len(shape)
        axis[d] = shape[d]
        out += (_np.arange(shape[d], dtype=_np.int64) * step).reshape(axis)
    return out


def _view_of(arg, host, view):
    """`view` (a NumPy view of `host`, the C-ordered copy of tessera array `arg`) as a tessera
    view of `arg`, or None when its elements are not on one regular grid of arg's storage.
    Costs O(view.size), and nothing when `arg` is C-contiguous in its storage."""
    if view.dtype != host.dtype or view.size == 0:
        return None
    item = host.itemsize
    start = view.__array_interface__["data"][0] - host.__array_interface__["data"][0]
    if start % item or any(s % item for s in view.strides):
        return None
    first_flat, flat_steps = start // item, [s // item for s in view.strides]
    offset, strides, _ = _tessera._storage_layout(arg)
    c_strides = _np.cumprod((host.shape + (1,))[:0:-1])[::-1] if host.ndim else ()
    if all(n == 1 or s == c for n, s, c in zip(host.shape, strides, c_strides)):
        # Element f of the copy (C order) is element offset + f of the storage.
        first, grid = offset + first_flat, flat_steps
    else:
        flat = _grid(view.shape, first_flat, flat_steps)
        where = sum((i * s for i, s in zip(_np.unravel_index(flat, host.shape), strides)),
                    _np.full(view.shape, offset, dtype=_np.int64))
        first = int(where.reshape(-1)[0])
        grid = [int(where[tuple(int(d == k) for d in range(view.ndim))]) - first if view.shape[k] > 1 else 0
                for k in range(view.ndim)]
        if not _np.array_equal(where, _grid(view.shape, first, grid)):
            return None
    return _tessera._strided_view(arg, int(first), list(view.shape), [int(g) for g in grid],
                                  bool(view.flags.writeable))


def _is_read_only_error(exc):
    text = str(exc)
    return isinstance(exc, ValueError) and "read-only" in text


def fallback_call(qualname, func, args, kwargs, writes=(), method=False):
    """Runs NumPy's `func` on NumPy copies of the tessera arrays in `args`/`kwargs` and
    returns its results as tessera arrays. `writes` names the arguments (positions, keywords
    or (position, keyword) pairs) that `func` changes in place, beyond those ``_IN_PLACE``
    lists and ``out=``; their changes reach the tessera arrays. `method`: `args[0]` is the
    array a method was called on (shifts the position of a positional `out`)."""
    announce(qualname)
    written = _written_objects(qualname, func, args, kwargs, writes, method)
    if qualname in _VIEWS:
        writable = {id(a) for a in _tessera_arrays((args, kwargs))}
    else:
        writable = written
    copies = _Copies(writable)
    np_args, np_kwargs = copies.to_numpy(args), copies.to_numpy(kwargs)
    try:
        result = func(*np_args, **np_kwargs)
    except ValueError as exc:
        if not _is_read_only_error(exc) or not any(
                not host.flags.writeable and obj.flags.writeable for obj, host in copies.pairs.values()):
            copies.write_back(written)  # what NumPy changed before it raised stays changed, as in NumPy
            raise
        if qualname.startswith(_NO_RERUN_PREFIXES):
            raise NotImplementedError(
                f"tessera.{qualname} changes an argument in place, which tessera's NumPy fallback does not "
                "know how to copy back; call numpy directly on numpy.asarray() copies") from exc
        # NumPy changed an argument nobody listed: run again on writable copies and copy back
        # what changed.
        again = copies.rerun_copies()
        try:
            result = func(*again.to_numpy(args), **again.to_numpy(kwargs))
        finally:
            again.write_back(again.changed_since(copies) | written)
        return again.from_numpy(result)
    except BaseException:
        copies.write_back(written)
        raise
    copies.write_back(written)
    return copies.from_numpy(result)


def _tessera_arrays(obj):
    if isinstance(obj, _tessera.ndarray):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from _tessera_arrays(o)
    elif isinstance(obj, dict):
        for o in obj.values():
            yield from _tessera_arrays(o)


def _wrap(qualname, func, method=False):
    @functools.wraps(func)
    def call(*args, **kwargs):
        return fallback_call(qualname, func, args, kwargs, method=method)

    return call


class _Submodule:
    """A NumPy submodule whose functions fall back (e.g. numpy.fft)."""

    def __init__(self, module, prefix, native=None):
        self._module = module
        self._prefix = prefix
        self._native = native or {}

    def __getattr__(self, name):
        if name in self._native:
            return self._native[name]
        return fallback_attribute(name, self._module, self._prefix)

    def __dir__(self):
        return sorted(set(dir(self._module)) | set(self._native))


def numpy_signature(numpy_func):
    """Decorates a function that hands its arguments on to `numpy_func`: it takes NumPy's
    parameters, and inspect.signature and help() show them."""
    def decorate(func):
        func.__signature__ = inspect.signature(numpy_func)
        return func
    return decorate


def fallback_attribute(name, module=_np, prefix="numpy"):
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        obj = getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module '{prefix.replace('numpy', 'tessera.numpy')}' has no attribute '{name}'") from None
    if callable(obj) and not isinstance(obj, type):
        return _wrap(f"{prefix}.{name}", obj)
    if isinstance(obj, type(_np)):
        return _Submodule(obj, f"{prefix}.{name}")
    return obj


def _resize(self, *new_shape, refcheck=True):
    """ndarray.resize: NumPy's in-place resize (zeros past the old data); the array then
    holds new storage. Refused, as in NumPy, for an array that does not own its data."""
    if not self.flags.owndata:
        raise ValueError("cannot resize this array: it does not own its data")
    if not self.flags.writeable:
        raise ValueError("resize only works on single-segment arrays")
    if len(new_shape) == 1 and (new_shape[0] is None or isinstance(new_shape[0], (tuple, list))):
        new_shape = () if new_shape[0] is None else tuple(new_shape[0])
    if new_shape == ():
        return None
    host = _tessera._to_numpy(self)
    host.resize(new_shape, refcheck=False)
    _tessera._rebind(self, _tessera.asarray(host))
    return None


def _searchsorted(self, v, side="left", sorter=None):
    from tessera.numpy._sets import searchsorted
    return searchsorted(self, v, side, sorter)


_NATIVE_METHODS = {"resize": _resize, "searchsorted": _searchsorted}


def ndarray_attribute(self, name):
    """Methods and attributes of numpy.ndarray that tessera arrays lack run on a NumPy copy."""
    if name.startswith("__"):
        raise AttributeError(name)
    if name in _NATIVE_METHODS:
        return functools.partial(_NATIVE_METHODS[name], self)
    attr = getattr(_np.ndarray, name, None)
    if attr is None:
        raise AttributeError(f"'tessera.numpy.ndarray' object has no attribute '{name}'")
    if callable(attr):
        method = _wrap(f"ndarray.{name}", attr, method=True)
        return functools.partial(method, self)
    if name in _MEMORY_ATTRIBUTES:
        # The array's own memory (after pending work), so that C code writing through the
        # pointer changes the array, as with NumPy.
        return getattr(_np.from_dlpack(self), name)
    # Views NumPy makes of the (writable) copy come back as views of the array itself.
    copies = _Copies({id(self)})
    return copies.from_numpy(getattr(copies.to_numpy(self), name))


# ndarray attributes that hand out a pointer to the array's memory.
_MEMORY_ATTRIBUTES = {"ctypes", "data"}
