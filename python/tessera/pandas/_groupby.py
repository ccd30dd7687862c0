"""groupby: aggregation of numeric columns by one numeric key column, hashed per tile on every
worker and rank (the C++ group_aggregate), with pandas' result: groups in ascending key
order, NaN keys left out, pandas' dtypes. Other keys (strings, several columns) and other
options run in pandas on this process."""
import numpy
import pandas

import tessera.numpy as tnp
from tessera import _tessera

from ._series import Series, _host_result

_AGGS = ("sum", "mean", "count", "min", "max")


def _fast_key(s):
    return not s._on_host and s.dtype.kind in "biuf" and s.dtype.itemsize <= 8


class DataFrameGroupBy:
    def __init__(self, df, by, selection=None, series=False, **options):
        self._df = df
        self._by = by
        self._selection = selection  # the value columns (None: every column but the key)
        self._series = series
        self._options = options

    def __getitem__(self, key):
        if isinstance(key, (list, tuple)):
            return DataFrameGroupBy(self._df, self._by, list(key), False, **self._options)
        return DataFrameGroupBy(self._df, self._by, [key], True, **self._options)

    def _host(self):
        g = self._df.to_pandas().groupby(self._by, **self._options)
        if self._selection is not None:
            g = g[self._selection[0]] if self._series else g[self._selection]
        return g

    def _plan(self):
        """(key Series, value column names) when the fast path applies, else None."""
        if self._options or not isinstance(self._by, str) and not (isinstance(self._by, (list, tuple)) and len(self._by) == 1):
            return None
        by = self._by if isinstance(self._by, str) else self._by[0]
        if by not in self._df._columns:
            return None
        key = self._df._columns[by]
        names = [c for c in self._df._columns if c != by] if self._selection is None else list(self._selection)
        for c in names:
            if c not in self._df._columns:
                return None
            if not _fast_key(self._df._columns[c]):
                return None
        return (key, names) if _fast_key(key) and len(self._df._index) > 0 else None

    def _aggregate(self, how):
        plan = self._plan()
        if plan is None:
            return _host_result(getattr(self._host(), how)())
        key, names = plan
        cols = [self._df._columns[c] for c in names]
        k = key._data.astype(numpy.float64 if key.dtype.kind == "f" else numpy.int64)
        values = [c._data.astype(numpy.float64 if c.dtype.kind == "f" else numpy.int64) for c in cols]
        keys, size, sums, counts, mins, maxs = _tessera._group_aggregate(k, values)
        labels = pandas.Index(numpy.asarray(keys).astype(key.dtype, copy=False), name=key.name)
        if how == "size":  # a column's groups' sizes carry its name
            return Series._wrap(size, labels, names[0] if self._series else None)
        out = {}
        for name, col, s, c, lo, hi in zip(names, cols, sums, counts, mins, maxs):
            t = col.dtype
            if how == "sum":
                v = _sum_dtype(s, t)
            elif how == "count":
                v = c
            elif how == "mean":
                v = s.astype(numpy.float64) / c
                if t == numpy.float32:
                    v = v.astype(numpy.float32)  # pandas' result dtype of a float mean is the column's
            else:
                v = (lo if how == "min" else hi).astype(t)
            out[name] = Series._wrap(v, labels, name)
        if self._series:
            return out[names[0]]
        from ._frame import DataFrame
        return DataFrame._wrap(out, labels)

    def size(self):
        return self._aggregate("size")

    def agg(self, how):
        if isinstance(how, str) and how in _AGGS:
            return self._aggregate(how)
        return _host_result(self._host().agg(how))

    aggregate = agg


def _sum_dtype(s, t):
    """Group sums (int64 or float64) in the dtype pandas gives: booleans count in int64;
    integers come back in their own dtype when every sum fits it, else in (u)int64."""
    if t == numpy.bool_:
        return s
    if t.kind in "iu":
        wide = numpy.dtype(numpy.uint64 if t.kind == "u" else numpy.int64)
        s = s.astype(wide)
        info = numpy.iinfo(t)
        if s.shape[0] == 0 or (int(tnp.min(s)) >= info.min and int(tnp.max(s)) <= info.max):
            return s.astype(t)
        return s
    return s.astype(t)


for _how in _AGGS:
    setattr(DataFrameGroupBy, _how, (lambda h: lambda self: self._aggregate(h))(_how))
