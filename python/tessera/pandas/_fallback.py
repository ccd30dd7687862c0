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
import warnings

import numpy
import pandas

from tessera import FallbackError, FallbackWarning, _tessera
from tessera.numpy._fallback import _user_stacklevel, fallback_mode

_warned = set()

# Methods that change their object without an `inplace=` argument.
_MUTATING = {"update", "insert", "pop", "__setitem__", "__delitem__", "__setattr__"}


def announce(qualname):
    """A FallbackWarning the first time `qualname` runs in pandas (--fallback=warn), nothing
    (silent), or FallbackError (error)."""
    mode = fallback_mode()
    if mode == "error":
        raise FallbackError(
            f"tessera.pandas.{qualname} is not implemented natively, and TESSERA_CONFIG has --fallback=error, "
            "which refuses to run it in pandas; set TESSERA_CONFIG=--fallback=warn (the default) or "
            "--fallback=silent to let pandas run it on a copy on this process")
    if mode == "warn" and qualname not in _warned:
        _warned.add(qualname)
        warnings.warn(
            f"tessera.pandas.{qualname} is not implemented natively: pandas runs it on a copy on this process "
            "(changes it makes in place are kept). Silence this with "
            "warnings.simplefilter('ignore', tessera.FallbackWarning) or TESSERA_CONFIG=--fallback=silent",
            FallbackWarning,
            stacklevel=_user_stacklevel(),
        )


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
    if isinstance(obj, pandas.Index) or not type(obj).__module__.startswith("pandas"):
        return obj  # labels stay pandas' own; scalars, arrays and Python objects as they are
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
    announce(qualname)
    result = getattr(host, name)(*to_host(list(args)), **to_host(dict(kwargs)))
    if owner is not None and (kwargs.get("inplace") or name in _MUTATING):
        _write_back(owner, host)
    return from_host(result, owner, qualname)


def method(owner, cls_name, name):
    """What `owner.name` is when tessera.pandas has no `name` of its own but pandas has."""
    qualname = f"{cls_name}.{name}"
    host_cls = getattr(pandas, cls_name)
    attr = getattr(host_cls, name)
    if callable(attr) and not isinstance(attr, property):
        def run(*args, **kwargs):
            return call(owner, qualname, owner.to_pandas(), name, args, kwargs)
        run.__name__ = name
        run.__doc__ = getattr(attr, "__doc__", None)
        return run
    announce(qualname)
    host = owner.to_pandas()
    return from_host(getattr(host, name), owner, qualname)


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
            def run(*args, **kwargs):
                announce(qualname)
                result = attr(*to_host(list(args)), **to_host(dict(kwargs)))
                if self._owner is not None and kwargs.get("inplace"):
                    _write_back(self._owner, self._owner_host())
                return from_host(result, self._owner, qualname)
            return run
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
        announce(self._qualname)
        return from_host(self._host(*to_host(list(args)), **to_host(dict(kwargs))), self._owner, self._qualname)

    def __iter__(self):
        for item in self._host:
            yield from_host(item, None, self._qualname) if not isinstance(item, tuple) else \
                tuple(from_host(v, None, self._qualname) for v in item)

    def __len__(self):
        return len(self._host)

    def __repr__(self):
        return repr(self._host)
