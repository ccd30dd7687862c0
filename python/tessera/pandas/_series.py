"""Series: one column — a tessera array of values (numeric and boolean dtypes; datetimes,
timedeltas and categoricals as integers, see _datetimes) with pandas' row labels, or a pandas
Series kept on this process for the dtypes not held in tessera yet."""
import operator
import sys

import numpy
import pandas
from pandas.api.extensions import no_default as _no_default

import tessera.numpy as tnp
from tessera import _tessera

from . import _fallback
from ._datetimes import Coded

_HELD_KINDS = "biuf"  # bool, signed, unsigned, floating: the dtypes a tessera column holds


def _held(dtype):
    return isinstance(dtype, numpy.dtype) and dtype.kind in _HELD_KINDS and dtype.itemsize <= 8


def _scalar(x):
    """A 0-d tessera result as the NumPy scalar pandas returns."""
    return numpy.asarray(x)[()]


def _as_values(data, dtype, copy):
    """A tessera array for an array-like, or None when it is of a dtype kept on the host."""
    if isinstance(data, _tessera.ndarray):
        out = data if dtype is None else tnp.asarray(data, dtype=dtype)
        # pandas copies an array it is given (copy=None), so later writes to it are not seen: a
        # lazy copy shares the array's memory until either of them is written.
        return _tessera._lazy_copy(out) if (copy or copy is None) and out is data else out
    return None


class Series:
    """pandas.Series with its values in a tessera array (see the module's docstring)."""

    __array_priority__ = 1000  # numpy arrays defer to the Series in binary operations

    def __init__(self, data=None, index=None, dtype=None, name=None, copy=None):
        if isinstance(data, Series):
            values = data._data
            if isinstance(values, _tessera.ndarray):
                values = _as_values(values, dtype, copy)
            elif dtype is not None:
                values = _from_host(data.to_pandas().astype(dtype))[0]
            self._init(values, data._index if index is None else pandas.Index(index), data._name if name is None else name)
            return
        t = None if dtype is None else pandas.api.types.pandas_dtype(dtype)
        if isinstance(data, _tessera.ndarray) and t is not None and not _held(t):
            data = numpy.asarray(data)  # to a dtype tessera.numpy does not hold (category, datetime64...): pandas'
        values = _as_values(data, t, copy)
        if values is not None:
            if values.ndim != 1:
                raise ValueError(f"Data must be 1-dimensional, got ndarray of shape {values.shape} instead")
            labels = pandas.RangeIndex(values.shape[0]) if index is None else pandas.Index(index)
            if len(labels) != values.shape[0]:
                raise ValueError(f"Length of values ({values.shape[0]}) does not match length of index ({len(labels)})")
            self._init(values, labels, name)
            return
        # Anything else: pandas infers the dtype and the labels, then the values move here.
        host = data if isinstance(data, pandas.Series) and index is None and dtype is None and name is None \
            else pandas.Series(data, index=index, dtype=dtype, name=name, copy=copy)
        self._init(*_from_host(host))

    def _init(self, values, index, name):
        self._data = values  # a tessera array, a Coded column, or a pandas Series (host) with its own labels
        self._codes = None  # a host column's codes as a tessera array, made when a groupby or merge needs them
        self._index = index
        self._name = name

    @classmethod
    def _wrap(cls, values, index, name):
        s = cls.__new__(cls)
        s._init(values, index, name)
        return s

    def __getattr__(self, name):
        if name in _ACCESSORS:
            return self._accessor(name)
        if not name.startswith("_") and hasattr(pandas.Series, name):
            return _fallback.method(self, "Series", name)
        raise AttributeError(f"'Series' object has no attribute '{name}'")

    def _accessor(self, name):
        """`.dt`, `.cat`, `.str`, `.sparse`...: tessera's own for a datetime, timedelta or
        categorical column held in tessera; pandas' error for a column of another dtype held in
        tessera; else pandas' accessor on a copy (a proxy whose results come back converted)."""
        coded = self._data.kind if isinstance(self._data, Coded) else None
        if name == "dt" and coded in ("M", "m"):
            from ._datetimes import DatetimeAccessor
            return DatetimeAccessor(self)
        if name == "cat" and coded == "c":
            from ._categorical import CategoricalAccessor
            return CategoricalAccessor(self)
        if not self._on_host:
            getattr(pandas.Series([], dtype=self.dtype), name)  # pandas' AttributeError for this dtype
        return _fallback.method(self, "Series", name)

    # --- what it is ---------------------------------------------------------------------
    @property
    def _on_host(self):
        return isinstance(self._data, pandas.Series)

    @property
    def _coded(self):
        return isinstance(self._data, Coded)

    @property
    def dtype(self):
        return self._data.dtype

    dtypes = dtype

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def index(self):
        return self._index

    @property
    def shape(self):
        return (len(self._index),)

    @property
    def size(self):
        return len(self._index)

    ndim = 1

    @property
    def empty(self):
        return len(self._index) == 0

    def __len__(self):
        return len(self._index)

    @property
    def values(self):
        """The values: the column's tessera array itself (no copy); pandas' own array for a
        datetime, timedelta or categorical column."""
        if self._coded:
            return self.to_pandas().values
        return self._data.values if self._on_host else self._data

    def to_numpy(self, dtype=None, copy=False, na_value=None):
        """The values as a tessera array: the column's own, read-only (pandas' copy-on-write
        hands out read-only views), or a copy with `copy` or another `dtype`."""
        if self._on_host or self._coded:
            host = self.to_pandas()
            return host.to_numpy(dtype=dtype, copy=copy, na_value=na_value) if na_value is not None \
                else host.to_numpy(dtype=dtype, copy=copy)
        v = self._data
        if na_value is not None and v.dtype.kind == "f":
            v = tnp.where(tnp.isnan(v), na_value, v)
            copy = False
        if dtype is not None and numpy.dtype(dtype) != v.dtype:
            return v.astype(dtype)
        if copy:
            return tnp.array(v, copy=True)
        view = v.view()
        view.flags.writeable = False
        return view

    def __tessera_array__(self):
        """What tessera.numpy's asarray takes: the column's own array, read-only (pandas 3 hands
        out read-only views: copy-on-write), with no copy; None for a column kept on the host, and
        for datetimes, timedeltas and categoricals (tessera.numpy holds none of them)."""
        if self._on_host or self._coded:
            return None
        return self.to_numpy()

    def __array__(self, dtype=None, copy=None):
        host = numpy.asarray(self._data) if not self._on_host else self._data.to_numpy()
        return host if dtype is None else host.astype(dtype)

    def to_pandas(self):
        """The same Series in pandas (its values copied to this process)."""
        if self._on_host:
            out = self._data.copy()
            out.index = self._index
            out.name = self._name
            return out
        if self._coded:
            return pandas.Series(self._data.to_host(), index=self._index, name=self._name, copy=False)
        return pandas.Series(numpy.asarray(self._data), index=self._index, name=self._name, copy=False)

    def __repr__(self):
        from ._display import series_repr
        return series_repr(self)

    def copy(self, deep=True):
        data = self._data.copy() if not isinstance(self._data, _tessera.ndarray) else tnp.array(self._data, copy=True)
        return Series._wrap(data, self._index, self._name)

    def rename(self, name):
        return Series._wrap(self._data, self._index, name)

    def astype(self, dtype, copy=None, errors="raise"):
        t = pandas.api.types.pandas_dtype(dtype)
        if self._coded and t == self.dtype:
            return self.copy()
        if not self._on_host and not self._coded and _held(t):
            return Series._wrap(self._data.astype(t), self._index, self._name)
        return _host_result(self.to_pandas().astype(dtype, errors=errors))

    # --- selection -----------------------------------------------------------------------
    def head(self, n=5):
        return self.iloc[:n] if n >= 0 else self.iloc[:max(len(self) + n, 0)]

    def tail(self, n=5):
        if n == 0:
            return self.iloc[len(self):]
        return self.iloc[-n:] if n > 0 else self.iloc[-n:]

    @property
    def iloc(self):
        return _ILoc(self)

    def _take_rows(self, key):
        """Rows by a slice or a boolean tessera mask (labels follow)."""
        if isinstance(key, slice):
            if self._on_host:
                return Series._wrap(self._data.iloc[key], self._index[key], self._name)
            return Series._wrap(self._data[key], self._index[key], self._name)
        mask = key
        host_mask = numpy.asarray(mask)
        labels = self._index[host_mask]
        if self._on_host:
            return Series._wrap(self._data[host_mask], labels, self._name)
        return Series._wrap(self._data[mask], labels, self._name)

    def __getitem__(self, key):
        if isinstance(key, Series) and key.dtype == numpy.bool_:
            _require_same_labels(self, key)
            return self._take_rows(key._data if not key._on_host else tnp.asarray(key._data.to_numpy()))
        if isinstance(key, slice) and (key.start is None or isinstance(key.start, int)) and \
                (key.stop is None or isinstance(key.stop, int)):
            return self._take_rows(key)
        return _host_result(self.to_pandas()[key])

    def __setitem__(self, key, value):
        """pandas' assignment: a value at one label of the default RangeIndex, or under a boolean
        Series' mask, written into the column's array (a lazy copy it shares memory with takes
        its own then: copy-on-write); anything else in pandas, its result kept."""
        if not self._on_host and _fits(value, self._data.dtype):
            labels = self._index
            if isinstance(key, (int, numpy.integer)) and not isinstance(key, (bool, numpy.bool_)) and \
                    isinstance(labels, pandas.RangeIndex) and labels.start == 0 and labels.step == 1 and \
                    0 <= key < len(labels):
                self._data[int(key)] = value
                return
            if isinstance(key, Series) and key.dtype == numpy.bool_ and not key._on_host and key._index.equals(labels):
                self._data[key._data] = value
                return
        _fallback.call(self, "Series.__setitem__", self.to_pandas(), "__setitem__", (key, value), {})

    # --- element-wise ---------------------------------------------------------------------
    def _binary(self, other, op, reflected=False):
        if isinstance(other, DataFrameLike):
            return NotImplemented
        if isinstance(other, Series):
            if not other._index.equals(self._index):  # label alignment: pandas' own result
                a, b = self.to_pandas(), other.to_pandas()
                return _host_result(op(b, a) if reflected else op(a, b), f"Series.{op.__name__.strip('_')}")
            name = self._name if self._name == other._name else None
            rhs = other._data
        else:
            name = self._name
            rhs = other
        if self._coded:
            from ._datetimes import binary
            out = binary(self, other, op, reflected)
            if out is not None:
                return out
        if self._on_host or self._coded or isinstance(rhs, pandas.Series) or not _is_operand(rhs):
            a = self.to_pandas()
            b = other.to_pandas() if isinstance(other, Series) else other
            return _host_result(op(b, a) if reflected else op(a, b), f"Series.{op.__name__.strip('_')}")
        if isinstance(rhs, (list, tuple)):
            rhs = tnp.asarray(rhs)
        if hasattr(rhs, "shape") and getattr(rhs, "ndim", 0) > 0 and rhs.shape != (len(self),):
            raise ValueError("Lengths must match to compare" if op in _COMPARISONS else
                             f"operands could not be broadcast together with shapes ({len(self)},) {rhs.shape} ")
        values = op(rhs, self._data) if reflected else op(self._data, rhs)
        return Series._wrap(values, self._index, name)

    def _unary(self, op):
        if self._on_host or self._coded:
            return _host_result(op(self.to_pandas()), f"Series.{getattr(op, '__name__', 'apply').strip('_')}")
        return Series._wrap(op(self._data), self._index, self._name)

    def __neg__(self):
        return self._unary(operator.neg)

    def __pos__(self):
        return self._unary(operator.pos)

    def __abs__(self):
        return self._unary(abs)

    def __invert__(self):
        return self._unary(operator.invert)

    def abs(self):
        return self.__abs__()

    def round(self, decimals=0):
        return self._unary(lambda v: v.round(decimals))

    def isna(self):
        if self._on_host:
            return _host_result(self._data.isna())
        if self._coded:
            return Series._wrap(self._data.isna(), self._index, self._name)
        if self._data.dtype.kind == "f":
            return Series._wrap(tnp.isnan(self._data), self._index, self._name)
        return Series._wrap(tnp.zeros(len(self), dtype=bool), self._index, self._name)

    isnull = isna

    def notna(self):
        return ~self.isna()

    notnull = notna

    def fillna(self, value):
        if self._on_host or self._coded or self._data.dtype.kind != "f" or isinstance(value, (Series, dict)):
            return _host_result(self.to_pandas().fillna(value))
        return Series._wrap(tnp.where(tnp.isnan(self._data), value, self._data), self._index, self._name)

    def dropna(self):
        if self._coded:
            return self._take_rows(~self._data.isna())
        if self._on_host or self._data.dtype.kind != "f":
            return self.copy() if not self._on_host else _host_result(self._data.dropna())
        return self._take_rows(~tnp.isnan(self._data))

    def where(self, cond, other=numpy.nan):
        if self._on_host or self._coded or not isinstance(cond, Series) or cond._on_host or not cond._index.equals(self._index):
            return _host_result(self.to_pandas().where(cond.to_pandas() if isinstance(cond, Series) else cond, other))
        o = other._data if isinstance(other, Series) else other
        return Series._wrap(tnp.where(cond._data, self._data, o), self._index, self._name)

    def mask(self, cond, other=numpy.nan):
        return self.where(~cond, other)

    def clip(self, lower=None, upper=None):
        if self._on_host or self._coded:
            return _host_result(self._data.clip(lower, upper))
        v = self._data
        if lower is not None:
            v = tnp.where(v < lower, lower, v)
        if upper is not None:
            v = tnp.where(v > upper, upper, v)
        return Series._wrap(v.astype(self._data.dtype) if v.dtype != self._data.dtype else v, self._index, self._name)

    def between(self, left, right, inclusive="both"):
        if inclusive == "both":
            return (self >= left) & (self <= right)
        if inclusive == "left":
            return (self >= left) & (self < right)
        if inclusive == "right":
            return (self > left) & (self <= right)
        if inclusive == "neither":
            return (self > left) & (self < right)
        raise ValueError("Inclusive has to be either string of 'both','left', 'right', or 'neither'.")

    # --- reductions -----------------------------------------------------------------------
    def _valid(self):
        if self._coded:
            return ~self._data.isna()
        return None if self._data.dtype.kind != "f" else ~tnp.isnan(self._data)

    def count(self):
        if self._on_host:
            return self._data.count()
        if self._coded:
            return numpy.int64(len(self) - _scalar(tnp.count_nonzero(self._data.isna())))
        if self._data.dtype.kind != "f":
            return numpy.int64(len(self))
        return numpy.int64(_scalar(tnp.count_nonzero(self._valid())))

    def _reduce(self, name, skipna, **kw):
        if self._on_host:
            return getattr(self._data, name)(skipna=skipna, **kw)
        if self._coded:
            if name in ("min", "max") and self._data.kind in "Mm":
                from ._datetimes import minmax
                return minmax(self, name, skipna)
            _fallback.announce(f"Series.{name}")
            return getattr(self.to_pandas(), name)(skipna=skipna, **kw)
        v = self._data
        floating = v.dtype.kind == "f"
        if name in ("sum", "prod"):
            if floating:
                f = tnp.nansum if name == "sum" else tnp.nanprod
                return _scalar(f(v) if skipna else getattr(tnp, name)(v))
            return _scalar(getattr(tnp, name)(v))
        if len(self) == 0 and name in ("min", "max", "mean", "std", "var", "median"):
            return float("nan")  # pandas: a Python float NaN for an empty column
        if name in ("min", "max"):
            if floating and skipna and self.count() == 0:
                return numpy.float64("nan")
            if floating and skipna:
                return _scalar(getattr(tnp, "nan" + name)(v))
            return _scalar(getattr(tnp, name)(v))
        if name in ("mean", "std", "var", "median"):
            ddof = kw.get("ddof", 1)
            n = self.count() if floating and skipna else len(self)
            if n == 0:
                return float("nan") if name == "mean" else numpy.float64("nan")
            if name in ("std", "var") and n <= ddof:
                return numpy.float64("nan")
            if v.dtype.kind in "biu":
                v = v.astype(numpy.float64)
            fn = getattr(tnp, ("nan" if floating and skipna else "") + name)
            return _scalar(fn(v, ddof=ddof) if name in ("std", "var") else fn(v))
        if name in ("any", "all"):
            b = v != 0
            if floating and skipna:
                b = (b & ~tnp.isnan(v)) if name == "any" else (b | tnp.isnan(v))
            return numpy.bool_(_scalar(getattr(tnp, name)(b)))
        raise AssertionError(name)

    def sum(self, skipna=True):
        return self._reduce("sum", skipna)

    def prod(self, skipna=True):
        return self._reduce("prod", skipna)

    product = prod

    def min(self, skipna=True):
        return self._reduce("min", skipna)

    def max(self, skipna=True):
        return self._reduce("max", skipna)

    def mean(self, skipna=True):
        return self._reduce("mean", skipna)

    def median(self, skipna=True):
        return self._reduce("median", skipna)

    def std(self, ddof=1, skipna=True):
        return self._reduce("std", skipna, ddof=ddof)

    def var(self, ddof=1, skipna=True):
        return self._reduce("var", skipna, ddof=ddof)

    def any(self, skipna=True):
        return self._reduce("any", skipna)

    def all(self, skipna=True):
        return self._reduce("all", skipna)

    def cumsum(self):
        return self._scan("cumsum")

    def cumprod(self):
        return self._scan("cumprod")

    def _scan(self, name):
        if self._on_host or self._coded or self._data.dtype.kind == "f":  # NaN-skipping scans: pandas' own, for now
            return _host_result(getattr(self.to_pandas(), name)())
        return Series._wrap(getattr(tnp, name)(self._data), self._index, self._name)

    def duplicated(self, keep="first"):
        """pandas' duplicated: groupby's row pass over the values (see _reshape)."""
        from ._reshape import duplicated_mask
        return Series._wrap(duplicated_mask([self], keep), self._index, self._name)

    def drop_duplicates(self, *, keep="first", inplace=_no_default, ignore_index=False):
        """pandas' drop_duplicates: the values duplicated() leaves out, in row order."""
        if inplace is not _no_default:
            return _fallback.call(self, "Series.drop_duplicates", self.to_pandas(), "drop_duplicates", (),
                                  dict(keep=keep, inplace=inplace, ignore_index=ignore_index))
        from ._reshape import duplicated_mask
        out = self._take_rows(~duplicated_mask([self], keep))
        if ignore_index:
            out = Series._wrap(out._data, pandas.RangeIndex(len(out)), self._name)
        return out

    def unique(self):
        return self.to_pandas().unique()

    def nunique(self, dropna=True):
        return self.to_pandas().nunique(dropna=dropna)

    def value_counts(self, normalize=False, sort=True, ascending=False, bins=None, dropna=True):
        if self._coded and self._data.kind == "c":
            from ._categorical import value_counts
            out = value_counts(self, normalize=normalize, sort=sort, ascending=ascending, bins=bins, dropna=dropna)
            if out is not None:
                return out
        return _host_result(self.to_pandas().value_counts(normalize=normalize, sort=sort, ascending=ascending,
                                                          bins=bins, dropna=dropna))

    def diff(self, periods=1):
        """pandas' diff: the differences of signed integers (as float64, float32 for int8 and
        int16, NaN where there is no earlier row), floats, datetimes and timedeltas (a timedelta
        column, NaT where either value is NaT); other columns in pandas."""
        whole = isinstance(periods, (int, numpy.integer)) and not isinstance(periods, bool)
        if whole and self._coded and self._data.kind in "Mm":
            from ._datetimes import diff
            return diff(self, int(periods))
        if whole and isinstance(self._data, _tessera.ndarray) and self._data.dtype.kind in "if":
            v, n = self._data, len(self)
            t = v.dtype if v.dtype.kind == "f" else numpy.dtype(numpy.float32 if v.dtype.itemsize <= 2 else numpy.float64)
            k = min(abs(int(periods)), n)
            if v.dtype.itemsize <= 2:
                v = v.astype(t)  # pandas subtracts int8 and int16 after C's promotion: no wrapping
            d = (v[k:] - v[:n - k]) if periods >= 0 else (v[:n - k] - v[k:])
            d = d.astype(t) if d.dtype != t else d
            fill = tnp.full(k, numpy.nan, dtype=t)
            out = (tnp.concatenate([fill, d] if periods >= 0 else [d, fill]) if k else tnp.array(d, copy=True))
            return Series._wrap(out, self._index, self._name)
        return _fallback.call(self, "Series.diff", self.to_pandas(), "diff", (periods,), {})

    def equals(self, other):
        return isinstance(other, Series) and self.to_pandas().equals(other.to_pandas())


_ACCESSORS = ("dt", "cat", "str", "sparse", "list", "struct")


class DataFrameLike:
    """What Series defers its binary operations to (set to DataFrame by _frame)."""


_COMPARISONS = {operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge}


def _is_operand(x):
    return isinstance(x, (_tessera.ndarray, numpy.ndarray, numpy.generic, int, float, bool, list, tuple)) \
        and not isinstance(x, str)


def _fits(value, dtype):
    """Whether pandas stores `value` in a column of `dtype` as it is (no upcast, no error)."""
    if isinstance(value, (bool, numpy.bool_)):
        return dtype.kind == "b"
    if isinstance(value, (int, numpy.integer)):
        if dtype.kind == "f":
            return abs(int(value)) <= 2 ** 53
        return dtype.kind in "iu" and numpy.iinfo(dtype).min <= int(value) <= numpy.iinfo(dtype).max
    if isinstance(value, (float, numpy.floating)):
        return dtype.kind == "f" and (dtype == numpy.float64 or numpy.float32(value) == value or value != value)
    return False


def _require_same_labels(s, mask):
    if not mask._index.equals(s._index):
        raise pandas.errors.IndexingError(
            "Unalignable boolean Series provided as indexer (index of the boolean Series and of the indexed object do not match).")


def _from_host(host):
    """(values, labels, name) of a pandas Series: a tessera array where its dtype is held (a
    Coded column for datetimes, timedeltas and categoricals)."""
    if _held(host.dtype):
        return tnp.asarray(host.to_numpy(copy=True)), host.index, host.name
    from ._datetimes import from_host
    coded = from_host(host)
    if coded is not None:
        return coded, host.index, host.name
    return host.copy(), host.index, host.name


def _host_result(obj, qualname=None):
    """What pandas computed on this process for a method that is not native for these arguments
    (announced as a fallback under the calling method's name), as tessera.pandas' own object."""
    _fallback.announce(qualname or sys._getframe(1).f_code.co_qualname)
    return _fallback.from_host(obj)


class _ILoc:
    def __init__(self, s):
        self._s = s

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._s._take_rows(key)
        return _host_result(self._s.to_pandas().iloc[key])


def _binary_method(op, reflected=False):
    def method(self, other):
        return self._binary(other, op, reflected)
    return method


for _name, _op in [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul), ("truediv", operator.truediv),
                   ("floordiv", operator.floordiv), ("mod", operator.mod), ("pow", operator.pow),
                   ("and", operator.and_), ("or", operator.or_), ("xor", operator.xor)]:
    setattr(Series, f"__{_name}__", _binary_method(_op))
    setattr(Series, f"__r{_name}__", _binary_method(_op, reflected=True))
    if _name not in ("and", "or", "xor"):
        setattr(Series, _name, _binary_method(_op))
        setattr(Series, "r" + _name, _binary_method(_op, reflected=True))
for _name, _op in [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
                   ("gt", operator.gt), ("ge", operator.ge)]:
    setattr(Series, f"__{_name}__", _binary_method(_op))
    setattr(Series, _name, _binary_method(_op))
Series.__hash__ = None
Series.div = Series.truediv
