"""Fallback to pandas for what tessera.pandas does not implement natively.

pandas runs on a copy of the object on this process (`to_pandas()`), and what it returns comes
back as tessera.pandas' own objects: a DataFrame or Series as one whose numeric columns are
tessera arrays; a GroupBy, an indexer (`loc`, `at`), an accessor (`str`, `dt`, `cat`), a window
(`rolling`) as a proxy whose results come back the same way. Nothing pandas does is lost: a
method that changes its object in place (`inplace=True`, `update`, `insert`, `pop`, an
assignment through `loc`/`iloc`/`at`/`iat`) is run on the copy, and the copy then becomes the
object's new contents.

What a fallback does first is set by ``TESSERA_CONFIG=--fallback=warn|silent|error``, as for
tessera.numpy: ``warn`` (the default) emits a ``tessera.FallbackWarning`` naming each function
once, ``silent`` nothing, ``error`` raises ``tessera.FallbackError`` before pandas runs.
"""
import functools
import inspect
import types

import numpy
import pandas

from tessera import _tessera
from tessera.numpy._fallback import announce as _announce

_warned = set()

# Methods that change their object without an `inplace=` argument.
_MUTATING = {"update", "insert", "pop", "__setitem__", "__delitem__", "__setattr__"}


def announce(qualname):
    """A FallbackWarning the first time `qualname` runs in pandas (--fallback=warn), nothing
    (silent), or FallbackError (error): tessera.numpy's announcement, in pandas' words."""
    _announce(qualname, library="tessera.pandas", runner="pandas", where="on a copy on this process", kept="kept",
              warned=_warned)


def run(qualname, function, args, kwargs, owner=None):
    """Announces `qualname`, calls pandas' `function` with the arguments as pandas' own, and
    brings the result back (`owner`: the tessera.pandas object it came from, for proxies)."""
    announce(qualname)
    return from_host(function(*to_host(list(args)), **to_host(dict(kwargs))), owner, qualname)


def to_host(x):
    """`x` with every tessera.pandas object, tessera array and proxy in it as pandas' and NumPy's own."""
    if hasattr(x, "to_pandas") and type(x).__module__.startswith("tessera.pandas"):
        return x.to_pandas()
    if isinstance(x, _Proxy):
        return x._host
    if isinstance(x, _tessera.ndarray):
        return numpy.asarray(x)
    if isinstance(x, list):
        return [to_host(v) for v in x]
    if isinstance(x, tuple) and type(x) is tuple:
        return tuple(to_host(v) for v in x)
    if isinstance(x, dict) and type(x) is dict:
        return {k: to_host(v) for k, v in x.items()}
    return x


def from_host(obj, owner=None, qualname=""):
    """What pandas returned, as tessera.pandas' own: frames and series converted, other pandas
    objects (GroupBy, indexers, accessors, windows) proxied, everything else as it is."""
    if isinstance(obj, pandas.DataFrame):
        from ._frame import DataFrame
        return DataFrame(obj)
    if isinstance(obj, pandas.Series):
        from ._series import Series, _from_host
        return Series._wrap(*_from_host(obj))
    if isinstance(obj, pandas.Index) or not type(obj).__module__.startswith("pandas") or \
            pandas.api.types.is_scalar(obj):
        return obj  # labels stay pandas' own; scalars (Timestamp, NaT...), arrays and Python objects as they are
    if isinstance(obj, (pandas.api.extensions.ExtensionArray, pandas.api.extensions.ExtensionDtype)) or \
            type(obj).__module__.startswith(("pandas._libs", "pandas.core.dtypes", "pandas._config")):
        return obj
    return _Proxy(obj, owner, qualname)


def _write_back(owner, host):
    """Makes `owner` (a tessera.pandas object) hold `host`, the copy pandas changed in place."""
    from ._frame import DataFrame, _columns_of
    from ._series import _from_host
    if isinstance(owner, DataFrame):
        owner._init(*_columns_of(host))
    else:
        owner._init(*_from_host(host))


def call(owner, qualname, host, name, args, kwargs):
    """Runs method `name` of `host` (the pandas copy of `owner`) with pandas' arguments and
    brings the result back; an in-place change becomes `owner`'s new contents."""
    result = run(qualname, getattr(host, name), args, kwargs, owner)
    if owner is not None and (kwargs.get("inplace") or name in _MUTATING):
        _write_back(owner, host)
    return result


def method(owner, cls_name, name):
    """What `owner.name` is when tessera.pandas has no `name` of its own but pandas has."""
    qualname = f"{cls_name}.{name}"
    host_cls = getattr(pandas, cls_name)
    attr = getattr(host_cls, name)
    # A method is a function of the class; a property or an accessor (`dt`, `str`, `cat`,
    # `sparse`, `plot`: pandas' Accessor descriptors, whose class is callable) is an attribute.
    if _is_method(inspect.getattr_static(host_cls, name, None)):
        def bound(*args, **kwargs):
            return call(owner, qualname, owner.to_pandas(), name, args, kwargs)
        bound.__name__ = name
        bound.__doc__ = getattr(attr, "__doc__", None)
        return bound
    host = owner.to_pandas()
    value = getattr(host, name)  # pandas' AttributeError (`.dt` of numbers...) before any announcement
    announce(qualname)
    return from_host(value, owner, qualname)


def _is_method(static):
    if isinstance(static, (staticmethod, classmethod)):
        static = static.__func__
    return isinstance(static, (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                               types.WrapperDescriptorType, functools.partial)) or \
        (callable(static) and not hasattr(type(static), "__get__"))


class _Proxy:
    """A pandas object that is not a frame or a series (a GroupBy, `loc`, `.str`, `rolling(3)`):
    attributes, calls, items and iteration run on it in pandas and come back converted; an
    assignment through it changes the tessera.pandas object it came from."""

    def __init__(self, host, owner, qualname):
        object.__setattr__(self, "_host", host)
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_qualname", qualname)

    def __getattr__(self, name):
        attr = getattr(self._host, name)
        qualname = f"{self._qualname}.{name}"
        if callable(attr):
            def method(*args, **kwargs):
                result = run(qualname, attr, args, kwargs, self._owner)
                if self._owner is not None and kwargs.get("inplace"):
                    _write_back(self._owner, self._owner_host())
                return result
            return method
        return from_host(attr, self._owner, qualname)

    def _owner_host(self):
        host = self._host
        for attr in ("obj", "_obj"):  # indexers and accessors keep the frame they came from
            if hasattr(host, attr):
                return getattr(host, attr)
        return None

    def __getitem__(self, key):
        return from_host(self._host[to_host(key)], self._owner, self._qualname + "[]")

    def __setitem__(self, key, value):
        self._host[to_host(key)] = to_host(value)
        changed = self._owner_host()
        if self._owner is not None and changed is not None:
            _write_back(self._owner, changed)

    def __call__(self, *args, **kwargs):
        return run(self._qualname, self._host, args, kwargs, self._owner)

    def __iter__(self):
        for item in self._host:
            yield from_host(item, None, self._qualname) if not isinstance(item, tuple) else \
                tuple(from_host(v, None, self._qualname) for v in item)

    def __len__(self):
        return len(self._host)

    def __repr__(self):
        return repr(self._host)
