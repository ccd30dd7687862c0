"""Datetime, timedelta and categorical columns held in tessera arrays.

A naive datetime64 or timedelta64 column (units s, ms, us, ns) is a tessera int64 array of its
counts in its unit, NaT as INT64_MIN (pandas' own storage); a categorical column is a tessera
integer array of its codes (-1 for a missing value) with pandas' CategoricalDtype (categories,
ordered) kept on this process. `Coded` is such a column's values: what a Series holds in place
of a plain tessera array. Selections, gathers, sorts, concatenations, groupby and merge keys
work on the integers; `to_host` gives pandas' own array back.

The `.dt` accessor computes the calendar fields with integer arithmetic on the counts (days
since 1970-01-01, then the civil date of each day, Howard Hinnant's days-to-civil algorithm, in float64 integers),
floor/ceil/round to fixed frequencies with pandas' rounding, and a timedelta's days, seconds
and total_seconds. Each result has pandas' dtype: the dtype pandas gives for the column's dtype,
or float64 with NaN where the column has NaT and the field is a number (False for the boolean
fields), as pandas gives them. What is not native (strftime, date, time, tz_localize, ...)
runs in pandas, announced as a fallback.
"""
import operator
import warnings

import numpy
import pandas

import tessera.numpy as tnp
from tessera import _tessera

from . import _fallback

NAT = numpy.iinfo(numpy.int64).min
_PER_SECOND = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}


def coded_kind(dtype):
    """"M" (datetime64), "m" (timedelta64), "c" (categorical) for a dtype held as a `Coded`
    column, else None (tz-aware datetimes, other units: kept on this process)."""
    if isinstance(dtype, numpy.dtype) and dtype.kind in "Mm":
        return dtype.kind if numpy.datetime_data(dtype)[0] in _PER_SECOND else None
    if isinstance(dtype, pandas.CategoricalDtype):
        return "c"
    return None


def from_host(host):
    """A `Coded` column for a pandas Series of a coded dtype, else None."""
    kind = coded_kind(host.dtype)
    if kind is None:
        return None
    if kind == "c":
        return Coded(tnp.asarray(numpy.asarray(host.cat.codes)), host.dtype)
    return Coded(tnp.asarray(host.to_numpy(copy=True).view(numpy.int64)), host.dtype)


def _unit(dtype):
    return numpy.datetime_data(dtype)[0]


class Coded:
    """The values of a datetime, timedelta or categorical column: a tessera integer array and
    the pandas dtype it stands for."""

    __slots__ = ("values", "dtype")

    def __init__(self, values, dtype):
        self.values = values
        self.dtype = dtype

    @property
    def kind(self):
        return coded_kind(self.dtype)

    @property
    def missing(self):
        """The code of a missing value (NaT or a categorical's -1)."""
        return -1 if self.kind == "c" else NAT

    @property
    def shape(self):
        return self.values.shape

    ndim = 1

    def __len__(self):
        return self.values.shape[0]

    def __getitem__(self, key):
        """Rows by a slice, a boolean tessera mask or tessera row positions (a Coded column)."""
        return Coded(self.values[key], self.dtype)

    def take(self, idx, missing=False):
        """Rows at tessera positions `idx` (-1: a missing value, when `missing`)."""
        if not missing:
            return Coded(self.values[idx], self.dtype)
        absent = idx < 0
        got = self.values[tnp.where(absent, 0, idx)]
        return Coded(tnp.where(absent, self.missing, got).astype(self.values.dtype), self.dtype)

    def copy(self, deep=True):
        return Coded(tnp.array(self.values, copy=True), self.dtype)

    def isna(self):
        return self.values < 0 if self.kind == "c" else self.values == NAT

    def to_host(self):
        """pandas' own array: a NumPy datetime64/timedelta64 array, or a Categorical."""
        codes = numpy.asarray(self.values)
        if self.kind == "c":
            return pandas.Categorical.from_codes(codes, dtype=self.dtype)
        return codes.view(self.dtype)

    def __array__(self, dtype=None, copy=None):
        out = numpy.asarray(self.to_host())
        return out if dtype is None else out.astype(dtype)

    def astype(self, dtype):
        return pandas.Series(self.to_host()).astype(dtype)

    # --- what groupby, sort_values and concat take ---------------------------------------------
    def group_key(self):
        """(array to hash, whether its negatives are nulls, (labels of words, sort ranks of
        words), value range) for groupby (see _groupby._key_codes)."""
        dtype, v = self.dtype, self.values
        if self.kind == "c":
            def labels(w):
                return pandas.Categorical.from_codes(w, dtype=dtype)
            return v, True, (labels, _null_last), (0, max(len(dtype.categories) - 1, 0))
        nat = v == NAT
        n_valid = len(self) - int(tnp.count_nonzero(nat))
        if n_valid == 0:
            low = high = 0
        else:
            low = int(tnp.min(tnp.where(nat, numpy.iinfo(numpy.int64).max, v)))
            high = int(tnp.max(v))
        if high - low > numpy.iinfo(numpy.int64).max:  # counts spanning more than int64: pandas' codes
            codes, uniques = pandas.factorize(pandas.Index(self.to_host()), use_na_sentinel=True)
            order = numpy.empty(len(uniques), dtype=numpy.int64)
            order[numpy.argsort(numpy.asarray(uniques), kind="stable")] = numpy.arange(len(uniques))
            return tnp.asarray(codes), True, (lambda w: uniques.take(w, allow_fill=True),
                                              lambda w: numpy.where(w < 0, numpy.iinfo(numpy.int64).max,
                                                                    order[numpy.maximum(w, 0)])), \
                (0, max(len(uniques) - 1, 0))
        key = tnp.where(nat, -1, v - low)

        def labels(w):
            w = numpy.asarray(w, dtype=numpy.int64)
            return numpy.where(w < 0, NAT, w + low).view(dtype)
        return key, True, (labels, _null_last), (0, high - low)

    def sort_key(self):
        """A tessera array sorting as pandas sorts the column (missing values as NaN)."""
        v = self.values
        missing = self.isna()
        if not bool(tnp.any(missing)):
            return v
        if self.kind == "c":
            return tnp.where(missing, numpy.nan, v.astype(numpy.float64))
        _, rank = tnp.unique(v, return_inverse=True)  # dense ranks: exact in float64
        return tnp.where(missing, numpy.nan, rank.astype(numpy.float64))


def _null_last(w):
    w = numpy.asarray(w)
    return numpy.where(w < 0, numpy.iinfo(numpy.int64).max, w.astype(numpy.int64))


def concat(pieces, lengths, dtype):
    """One Coded column of `dtype` from Series `pieces` (None: a frame without the column, all
    missing), or None when a piece is not a Coded column of that very dtype."""
    if coded_kind(dtype) is None:
        return None
    parts = []
    for p, n in zip(pieces, lengths):
        if p is None:
            parts.append(None)
            continue
        if not isinstance(p._data, Coded) or p._data.dtype != dtype:
            return None
        parts.append(p._data.values)
    kind = coded_kind(dtype)
    t = next((v.dtype for v in parts if v is not None), numpy.dtype(numpy.int8 if kind == "c" else numpy.int64))
    arrays = [tnp.full(n, -1 if kind == "c" else NAT, dtype=t) if v is None else v
              for v, n in zip(parts, lengths) if n]
    if not arrays:
        return Coded(tnp.empty(0, dtype=t), dtype)
    if len(arrays) == 1:
        only = arrays[0]
        return Coded(tnp.array(only, copy=True) if any(only is v for v in parts) else only, dtype)
    return Coded(tnp.concatenate([a.astype(t) for a in arrays]), dtype)


# --- element-wise ---------------------------------------------------------------------------------
_ARITHMETIC = {operator.add, operator.sub}
_COMPARISONS = {operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge}


def _as_scalar(x, kind):
    """A Timestamp (kind "M") or Timedelta ("m") for a scalar operand, NaT, or None."""
    if x is None or isinstance(x, (bool, numpy.bool_)):
        return None
    try:
        if kind == "M" and isinstance(x, (str, numpy.datetime64, pandas.Timestamp)) or \
                kind == "M" and type(x).__name__ in ("datetime", "date"):
            out = pandas.Timestamp(x)
        elif kind == "m" and isinstance(x, (str, numpy.timedelta64, pandas.Timedelta)) or \
                kind == "m" and type(x).__name__ == "timedelta":
            out = pandas.Timedelta(x)
        else:
            return None
    except (ValueError, TypeError):
        return None
    if out is pandas.NaT:
        return out
    if getattr(out, "tz", None) is not None or out.unit not in _PER_SECOND:
        return None
    return out


def _counts_in(values, unit, to):
    """Counts of `unit` as counts of the finer (or equal) unit `to`, NaT kept; None when a
    count does not fit int64 in `to` (pandas then says what it says)."""
    factor = _PER_SECOND[to] // _PER_SECOND[unit]
    if factor == 1:
        return values
    nat = values == NAT
    limit = numpy.iinfo(numpy.int64).max // factor
    if bool(tnp.any(~nat & ((values > limit) | (values < -limit)))):
        return None
    return tnp.where(nat, NAT, values * factor)


def checked(x, y, op, nat):
    """x + y or x - y of int64 counts (tessera arrays or Python ints), raising pandas'
    OverflowError where a row that is not NaT (`nat`) overflows int64, NaT where `nat`."""
    r = op(x, y)
    wrapped = ((x ^ r) & (y ^ r)) if op is operator.add else ((x ^ y) & (x ^ r))
    if bool(tnp.any((wrapped < 0) & ~nat)):
        raise OverflowError("Overflow in int64 addition")
    return tnp.where(nat, NAT, r)


def binary(s, other, op, reflected):
    """Series `s` (a datetime or timedelta column) op `other`, or None when the operation is not
    native (pandas then computes it). pandas' own rules decide the result's dtype and errors."""
    from ._series import Series
    kind = s._data.kind
    if kind == "c":
        return _categorical_binary(s, other, op, reflected)
    if op not in _ARITHMETIC and op not in _COMPARISONS:
        return None
    if isinstance(other, Series):
        if not isinstance(other._data, Coded) or other._data.kind not in "Mm" or not other._index.equals(s._index):
            return None
        rhs_kind, rhs_unit = other._data.kind, _unit(other.dtype)
        rhs, scalar = other._data.values, None
    else:
        scalar = _as_scalar(other, kind)
        if scalar is None:
            scalar = _as_scalar(other, "m" if kind == "M" else "M")
        if scalar is None or scalar is pandas.NaT:
            return None  # NaT's own type rules: pandas' own
        rhs_kind = "M" if isinstance(scalar, pandas.Timestamp) else "m"
        rhs_unit, rhs = scalar.unit, None
        other = scalar
    mine = pandas.Series([], dtype=s.dtype)
    theirs = pandas.Series([], dtype=other.dtype) if isinstance(other, Series) else scalar
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shape = op(theirs, mine) if reflected else op(mine, theirs)  # pandas' errors and result dtype
    t = shape.dtype
    unit = _unit(s.dtype)
    finer = max(unit, rhs_unit, key=lambda u: _PER_SECOND[u])
    lhs = _counts_in(s._data.values, unit, finer)
    if rhs is None:
        rhs_value = scalar.as_unit(finer)._value
    else:
        rhs_value = rhs = _counts_in(rhs, rhs_unit, finer)
        if rhs is None:
            return None
    if lhs is None:
        return None
    nat = lhs == NAT
    if rhs is not None:
        nat = nat | (rhs == NAT)
    x, y = (rhs_value, lhs) if reflected else (lhs, rhs_value)
    name = s._name if not isinstance(other, Series) or other._name == s._name else None
    if op in _COMPARISONS:
        if t != numpy.bool_ or rhs_kind != kind:
            return None
        result = tnp.where(nat, op is operator.ne, op(x, y))  # NaT compares unequal to everything
        return Series._wrap(result, s._index, name)
    if coded_kind(t) not in ("M", "m") or _unit(t) != finer:
        return None
    return Series._wrap(Coded(checked(x, y, op, nat), t), s._index, name)


def _categorical_binary(s, other, op, reflected):
    """== and != with a scalar; <, <=, >, >= with a category of an ordered categorical."""
    from ._series import Series
    if op not in _COMPARISONS or isinstance(other, (Series, list, tuple, numpy.ndarray, _tessera.ndarray)) or \
            isinstance(other, (pandas.Series, pandas.Index)) or other is None:
        return None
    dtype = s.dtype
    try:
        hit = other in dtype.categories
    except TypeError:
        return None
    codes = s._data.values
    if op in (operator.eq, operator.ne):
        if not hit:
            return Series._wrap(tnp.full(len(s), op is operator.ne, dtype=bool), s._index, s._name)
        eq = codes == int(dtype.categories.get_loc(other))
        return Series._wrap(eq if op is operator.eq else ~eq, s._index, s._name)
    if not dtype.ordered or not hit:
        return None  # pandas' TypeError, from pandas itself
    code = int(dtype.categories.get_loc(other))
    result = op(code, codes) if reflected else op(codes, code)
    return Series._wrap(result & (codes >= 0), s._index, s._name)


# --- reductions -----------------------------------------------------------------------------------
def _boxed(value, dtype):
    if value == NAT:
        return pandas.NaT
    unit = _unit(dtype)
    box = pandas.Timestamp if dtype.kind == "M" else pandas.Timedelta
    return box(numpy.datetime64(value, unit) if dtype.kind == "M" else numpy.timedelta64(value, unit))


def minmax(s, name, skipna):
    """min or max of a datetime or timedelta column: a Timestamp or Timedelta (NaT when there
    is no value, or with skipna=False and a NaT)."""
    v = s._data.values
    if len(s) == 0:
        return pandas.NaT
    nat = v == NAT
    if bool(tnp.any(nat)):
        if not skipna or bool(tnp.all(nat)):
            return pandas.NaT
        fill = numpy.iinfo(numpy.int64).max if name == "min" else NAT
        v = tnp.where(nat, fill, v)
    return _boxed(int(getattr(tnp, name)(v)), s.dtype)


def diff(s, periods):
    """diff of a datetime or timedelta column: a timedelta column of the same unit."""
    from ._series import Series
    v = s._data.values
    n = len(s)
    t = numpy.dtype(f"m8[{_unit(s.dtype)}]")
    k = min(abs(periods), n)
    if periods >= 0:
        a, b = v[k:], v[:n - k]
    else:
        a, b = v[:n - k], v[k:]
    d = checked(a, b, operator.sub, (a == NAT) | (b == NAT))
    fill = tnp.full(k, NAT, dtype=numpy.int64)
    out = tnp.concatenate([fill, d] if periods >= 0 else [d, fill]) if k else d
    return Series._wrap(Coded(out, t), s._index, s._name)


# --- the .dt accessor -----------------------------------------------------------------------------
_DEPRECATED = {"dayofweek": "day_of_week", "weekday": "day_of_week", "dayofyear": "day_of_year",
               "daysinmonth": "days_in_month"}
_DATE_FIELDS = ("year", "month", "day", "hour", "minute", "second", "microsecond", "nanosecond", "day_of_week",
                "day_of_year", "quarter", "days_in_month", "is_month_start", "is_month_end", "is_quarter_start",
                "is_quarter_end", "is_year_start", "is_year_end", "is_leap_year")
_DELTA_FIELDS = ("days", "seconds", "microseconds", "nanoseconds")


class DatetimeAccessor:
    """pandas' `.dt` of a datetime or timedelta column held in tessera."""

    def __init__(self, s):
        self._s = s
        self._kind = s._data.kind

    def _host(self, name):
        return _fallback._Proxy(self._s.to_pandas().dt, self._s, "Series.dt").__getattr__(name)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _DEPRECATED and self._kind == "M":
            warnings.warn(f"Series.dt.{name} is deprecated and will be removed in a future version. "
                          f"Use Series.dt.{_DEPRECATED[name]} instead.", pandas.errors.Pandas4Warning, stacklevel=2)
            return self._field(_DEPRECATED[name])
        if self._kind == "M" and name in _DATE_FIELDS or self._kind == "m" and name in _DELTA_FIELDS:
            return self._field(name)
        if not hasattr(pandas.Series([], dtype=self._s.dtype).dt, name):
            raise AttributeError(f"'{'DatetimeProperties' if self._kind == 'M' else 'TimedeltaProperties'}' "
                                 f"object has no attribute '{name}'")
        return self._host(name)

    def __dir__(self):
        return dir(pandas.Series([], dtype=self._s.dtype).dt)

    def __repr__(self):
        return repr(self._s.to_pandas().dt)

    # --- fields ---
    def _field(self, name):
        from ._series import Series
        s = self._s
        v = s._data.values
        nat = v == NAT
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = getattr(pandas.Series([], dtype=s.dtype).dt, name).dtype  # pandas' dtype of the field
        has_nat = bool(tnp.any(nat))
        x = tnp.where(nat, 0, v) if has_nat else v
        values = (_date_field if self._kind == "M" else _delta_field)(x, _PER_SECOND[_unit(s.dtype)], name)
        if t == numpy.bool_:
            out = values & ~nat if has_nat else values
        elif has_nat:
            out = tnp.where(nat, numpy.nan, values)
        else:
            out = values.astype(t)
        return Series._wrap(out, s._index, s._name)

    # --- rounding to fixed frequencies ---
    def _round(self, freq, mode, ambiguous, nonexistent):
        from ._series import Series
        from pandas._libs.tslibs.timedeltas import get_unit_for_round
        s = self._s
        if ambiguous != "raise" or nonexistent != "raise":
            return self._host(mode)(freq, ambiguous=ambiguous, nonexistent=nonexistent)
        creso = pandas.array(numpy.array([], dtype=s.dtype))._creso
        step = int(get_unit_for_round(freq, creso))  # pandas' errors for frequencies that are not fixed
        v = s._data.values
        if step == 0:
            return s.copy()
        nat = v == NAT
        x = tnp.where(nat, 0, v)
        if mode == "floor":
            r = x - x % step
        elif mode == "ceil":
            r = x + (-x) % step
        elif step % 2:  # round half to even: an odd step has no ties
            r = _ceil(x - step // 2, step)
        else:
            q = x // step
            rem = x - q * step
            up = (rem > step // 2) | ((rem == step // 2) & (q % 2 == 1))
            r = (q + up.astype(numpy.int64)) * step
        return Series._wrap(Coded(tnp.where(nat, NAT, r), s.dtype), s._index, s._name)

    def floor(self, freq, ambiguous="raise", nonexistent="raise"):
        return self._round(freq, "floor", ambiguous, nonexistent)

    def ceil(self, freq, ambiguous="raise", nonexistent="raise"):
        return self._round(freq, "ceil", ambiguous, nonexistent)

    def round(self, freq, ambiguous="raise", nonexistent="raise"):
        return self._round(freq, "round", ambiguous, nonexistent)

    def normalize(self):
        if self._kind != "M":
            raise AttributeError("'TimedeltaProperties' object has no attribute 'normalize'")
        return self.floor("D")

    def total_seconds(self):
        from ._series import Series
        if self._kind != "m":
            raise AttributeError("'DatetimeProperties' object has no attribute 'total_seconds'")
        s = self._s
        v = s._data.values
        nat = v == NAT
        out = v / _PER_SECOND[_unit(s.dtype)]
        if bool(tnp.any(nat)):
            out = tnp.where(nat, numpy.nan, out)
        return Series._wrap(out, s._index, s._name)


def _ceil(x, step):
    rem = x % step
    return tnp.where(rem == 0, x, x + (step - rem))


def _fdiv(a, c):
    """Floor division of float64 integers below 2**53 by a constant: exact (the quotient is
    correctly rounded, and no integer lies within its rounding error), and several times
    faster than int64's."""
    return tnp.floor(a / c)


def _split(x, per_second):
    """(days since 1970-01-01, time of day in the column's units) of int64 counts, as float64
    integers: both below 2**53 in magnitude for every unit."""
    per_day = 86400 * per_second
    days = x // per_day
    return days.astype(numpy.float64), (x - days * per_day).astype(numpy.float64)


def _sub_second(rem, per_second, name):
    """microsecond(s) or nanosecond(s) of a time of day `rem` (float64 units)."""
    sub = rem - _fdiv(rem, per_second) * per_second
    if name.startswith("micro"):
        return sub * (10 ** 6 // per_second) if per_second <= 10 ** 6 else _fdiv(sub, per_second // 10 ** 6)
    if per_second == 10 ** 9:
        return sub - _fdiv(sub, 1000) * 1000
    return tnp.zeros(rem.shape[0], dtype=numpy.float64)


def _date_field(x, per_second, name):
    """Field `name` of datetimes counted in units of 1/per_second s (no NaT): float64
    integers, or booleans."""
    days, rem = _split(x, per_second)
    if name == "hour":
        return _fdiv(rem, 3600 * per_second)
    if name == "minute":
        m = _fdiv(rem, 60 * per_second)
        return m - _fdiv(m, 60) * 60
    if name == "second":
        sec = _fdiv(rem, per_second)
        return sec - _fdiv(sec, 60) * 60
    if name in ("microsecond", "nanosecond"):
        return _sub_second(rem, per_second, name)
    if name == "day_of_week":
        w = days + 3  # 1970-01-01 was a Thursday; Monday is 0
        return w - _fdiv(w, 7) * 7
    # The civil date of each day, in a calendar whose years start in March (H. Hinnant).
    z = days + 719468
    era = _fdiv(z, 146097)
    doe = z - era * 146097  # [0, 146096]
    yoe = _fdiv(doe - _fdiv(doe, 1460) + _fdiv(doe, 36524) - _fdiv(doe, 146096), 365)  # [0, 399]
    doy = doe - (365 * yoe + _fdiv(yoe, 4) - _fdiv(yoe, 100))  # [0, 365], from March 1
    mp = _fdiv(5 * doy + 2, 153)  # [0, 11], from March
    month = tnp.where(mp < 10, mp + 3, mp - 9)
    if name == "month":
        return month
    if name == "quarter":
        return _fdiv(month - 1, 3) + 1
    day = doy - _fdiv(153 * mp + 2, 5) + 1
    if name == "day":
        return day
    year = yoe + era * 400 + (month <= 2)
    if name == "year":
        return year
    leap = ((year - _fdiv(year, 4) * 4) == 0) & (((year - _fdiv(year, 100) * 100) != 0) |
                                                ((year - _fdiv(year, 400) * 400) == 0))
    if name == "is_leap_year":
        return leap
    if name == "day_of_year":
        return tnp.where(month >= 3, doy + 60 + leap, doy - 305)
    odd = month + (month >= 8)
    in_month = tnp.where(month == 2, 28 + leap, 30 + (odd - _fdiv(odd, 2) * 2))
    if name == "days_in_month":
        return in_month
    if name == "is_month_start":
        return day == 1
    if name == "is_month_end":
        return day == in_month
    first_of_quarter = (month - 1) - _fdiv(month - 1, 3) * 3 == 0
    if name == "is_quarter_start":
        return (day == 1) & first_of_quarter
    if name == "is_quarter_end":
        return (day == in_month) & (month - _fdiv(month, 3) * 3 == 0)
    if name == "is_year_start":
        return (day == 1) & (month == 1)
    if name == "is_year_end":
        return (day == 31) & (month == 12)
    raise AssertionError(name)


def _delta_field(x, per_second, name):
    """Field `name` of timedeltas counted in units of 1/per_second s (no NaT): float64 integers."""
    days, rem = _split(x, per_second)
    if name == "days":
        return days
    if name == "seconds":
        return _fdiv(rem, per_second)
    return _sub_second(rem, per_second, name)


# --- merge keys -----------------------------------------------------------------------------------
def merge_keys(a, b, how):
    """The two sides' key columns as arrays join_indices compares, when either is a Coded
    column, or None (pandas then merges): datetimes or timedeltas of one dtype as their int64
    counts (NaT matches NaT, as in pandas) for every join; categoricals as codes
    in the left's categories (float64, NaN matching NaN; a right category the left lacks matches
    nothing) for inner and left joins."""
    if not (isinstance(a._data, Coded) and isinstance(b._data, Coded)):
        return None
    ka, kb = a._data, b._data
    if ka.kind in "Mm":
        if ka.dtype != kb.dtype:
            return None
        return ka.values, kb.values
    if ka.kind != "c" or kb.kind != "c" or how not in ("inner", "left"):
        return None
    m = ka.dtype.categories.get_indexer(kb.dtype.categories).astype(numpy.float64)
    m[m < 0] = -2 - numpy.arange(int((m < 0).sum()))  # distinct, and never a left code
    m = numpy.append(m, numpy.nan)  # a missing right code (-1) reads the last entry
    ca = tnp.where(ka.values < 0, numpy.nan, ka.values.astype(numpy.float64))
    rc = kb.values.astype(numpy.int64)
    cb = tnp.asarray(m)[tnp.where(rc < 0, len(m) - 1, rc)]
    return ca, cb


def coalesce(left, right, li, ri):
    """An outer join's key of one name: the left's value where the row has a left row, else the
    right's (Coded columns of one dtype)."""
    a = left.values[tnp.where(li < 0, 0, li)]
    b = right.values[tnp.where(ri < 0, 0, ri)]
    return Coded(tnp.where(li >= 0, a, b), left.dtype)
