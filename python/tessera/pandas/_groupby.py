"""groupby: rows grouped by one or several key columns and numeric columns aggregated per group,
hashed per tile on every worker and rank (the C++ group_aggregate), with pandas' result: its
group order (sorted keys, or order of first appearance with sort=False), its null groups
(dropna=), its index or key columns (as_index=), its column labels and dtypes.

Keys may be numeric columns, categoricals (their codes are hashed; observed=True, pandas'
default), datetimes and timedeltas held in tessera (their counts are hashed) or any other dtype
pandas can factorize (strings, tz-aware datetimes: factorized on this process, then hashed like
codes). What is not native yet — other aggregations (median, nunique,
first...), observed=False over categoricals, apply, transform — runs in pandas on this process,
announced as a fallback."""
import numpy
import pandas

import tessera.numpy as tnp
from tessera import _tessera

from . import _fallback
from ._series import Series

_NATIVE = ("sum", "mean", "count", "size", "min", "max", "std", "var", "median")
_OPTIONS = ("sort", "as_index", "dropna", "observed")


class DataFrameGroupBy:
    def __init__(self, df, by, selection=None, series=False, **options):
        self._df = df
        self._by = by
        self._selection = selection  # the value columns (None: every column but the keys)
        self._series = series
        self._options = options

    def __getitem__(self, key):
        if isinstance(key, (list, tuple)):
            return DataFrameGroupBy(self._df, self._by, list(key), False, **self._options)
        return DataFrameGroupBy(self._df, self._by, [key], True, **self._options)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if not self._series and name in self._df._columns and name not in (self._keys() or []):
            return self[name]
        host = self._host()
        if not hasattr(host, name):
            raise AttributeError(f"'{type(host).__name__}' object has no attribute '{name}'")
        return getattr(_fallback._Proxy(host, None, f"{type(host).__name__}"), name)

    def __iter__(self):
        return iter(_fallback._Proxy(self._host(), None, "DataFrameGroupBy"))

    def __len__(self):
        return len(self._host())

    def _host(self):
        g = self._df.to_pandas().groupby(_fallback.to_host(self._by), **self._options)
        if self._selection is not None:
            g = g[self._selection[0]] if self._series else g[self._selection]
        return g

    def _run_in_pandas(self, name, *args, **kwargs):
        qualname = ("SeriesGroupBy." if self._series else "DataFrameGroupBy.") + name
        return _fallback.call(None, qualname, self._host(), name, args, kwargs)

    # --- the native path ----------------------------------------------------------------------
    def _keys(self):
        """The key column names, or None when the keys are not columns of the frame."""
        by = [self._by] if not isinstance(self._by, (list, tuple)) else list(self._by)
        if not by:
            return None
        for b in by:
            try:
                if b not in self._df._columns:
                    return None
            except TypeError:
                return None
        return by

    def _plan(self, columns=None):
        """(key names, value names) when the native path applies to `columns` (default: the
        selected ones, or every column but the keys), else None."""
        if any(k not in _OPTIONS for k in self._options):
            return None
        keys = self._keys()
        if keys is None or len(set(keys)) != len(keys) or len(self._df) == 0:
            return None
        names = [c for c in self._df._columns if c not in keys] if self._selection is None else list(self._selection)
        for c in (names if columns is None else columns):
            if c not in self._df._columns or c in keys:
                return None
            s = self._df._columns[c]
            if s._on_host or s.dtype.kind not in "biuf":
                return None
        for k in keys:
            s = self._df._columns[k]
            if isinstance(s.dtype, pandas.CategoricalDtype) and not self._options.get("observed", True):
                return None  # unobserved categories: pandas' own
        return keys, names

    def _key_arrays(self, keys):
        """(arrays to hash, negative-is-null flags, decoders, value ranges or []) of the key
        columns: the ranges let the engine index a dense table instead of hashing."""
        key_arrays, nulls, decoders, ranges = [], [], [], []
        for k in keys:
            arr, negative_null, decode, span = _key_codes(self._df._columns[k])
            key_arrays.append(arr)
            nulls.append(negative_null)
            decoders.append(decode)
            ranges.append(span)
        return key_arrays, nulls, decoders, ([] if any(r is None for r in ranges) else ranges)

    def _rows(self):
        """(each row's group, its position in the group, each group's size) as tessera arrays —
        the groups in order of first appearance, as _compute's — or None off the native path."""
        if self._plan([]) is None:
            return None
        if getattr(self, "_rows_cache", None) is None:
            keys = self._keys()
            key_arrays, nulls, _, ranges = self._key_arrays(keys)
            group, position, _, size = _tessera._group_rows(
                key_arrays, dropna=self._options.get("dropna", True), negative_is_null=nulls, ranges=ranges)
            self._rows_cache = (group, position, size)
        return self._rows_cache

    def _compute(self, specs):
        """(key words, decoders, {label: values}) of `specs` — (output label, value column,
        function) — per group in order of first appearance, as tessera arrays (computed on
        the workers: nothing comes to this process but what a check needs)."""
        keys = self._keys()
        used = []
        for _, c, f in specs:
            if f not in ("size", "median") and c not in used:
                used.append(c)
        functions = {f for _, _, f in specs}
        key_arrays, nulls, decoders, ranges = self._key_arrays(keys)
        squares = bool(functions & {"std", "var"})
        values = [self._df._columns[c]._data for c in used]
        gkeys, size, sums, counts, mins, maxs, m2 = _tessera._group_aggregate(
            key_arrays, values, dropna=self._options.get("dropna", True), negative_is_null=nulls, squares=squares,
            ranges=ranges, counts=bool(functions & {"count", "mean", "std", "var"}),
            extremes=bool(functions & {"min", "max"}))
        column = {c: i for i, c in enumerate(used)}
        groups = size.shape[0]
        out = {}
        for label, c, f in specs:
            if f == "size":
                out[label] = size
                continue
            t = self._df._columns[c].dtype
            if f == "median":
                out[label] = tnp.asarray(self._median(c, groups))
                continue
            i = column[c]
            if f == "count":
                v = counts[i]
            elif f == "sum":
                v = _sum_dtype(sums[i], t)
            elif f == "mean":
                cnt = counts[i]
                v = tnp.where(cnt > 0, sums[i].astype(numpy.float64) / tnp.maximum(cnt, 1), numpy.nan)
                v = v.astype(numpy.float32) if t == numpy.float32 else v
            elif f in ("std", "var"):
                cnt = counts[i]
                v = tnp.where(cnt > 1, m2[i] / tnp.maximum(cnt - 1, 1), numpy.nan)
                v = tnp.sqrt(v) if f == "std" else v
                v = v.astype(numpy.float32) if t == numpy.float32 else v
            else:
                v = (mins[i] if f == "min" else maxs[i]).astype(t)
            out[label] = v
        return list(gkeys), decoders, out

    def _median(self, c, groups):
        """Each group's median of column `c`: the rows sorted by (group, value) with tessera's
        parallel stable sort, then the middle of each group's run."""
        group, _, _ = self._rows()
        v = self._df._columns[c]._data
        t = v.dtype
        x = v.astype(numpy.float64) if t != numpy.float64 else v
        valid = group >= 0
        if t.kind == "f":
            valid = valid & ~tnp.isnan(x)
        rows = tnp.flatnonzero(valid)
        g = group[rows]
        x = x[rows]
        x = x[tnp.lexsort((x, g))]
        counts = numpy.asarray(tnp.bincount(g, minlength=groups)) if x.shape[0] else numpy.zeros(groups, numpy.int64)
        if x.shape[0] == 0:
            med = numpy.full(groups, numpy.nan)
        else:
            # Only the middle values come to this process: two per group.
            starts = numpy.cumsum(counts) - counts
            last = x.shape[0] - 1
            lo = numpy.asarray(x[tnp.asarray(numpy.minimum(starts + (counts - 1) // 2, last))])
            hi = numpy.asarray(x[tnp.asarray(numpy.minimum(starts + counts // 2, last))])
            med = numpy.where(counts > 0, (lo + hi) / 2, numpy.nan)
        return med.astype(numpy.float32) if t == numpy.float32 else med

    def _aggregate(self, specs, shape):
        """Computes `specs` — (output label, value column, function) — natively, and returns the
        result pandas gives: `shape` is "series", "frame" or "multi" (columns labelled (column,
        function)). None when the native path does not apply."""
        plan = self._plan([c for _, c, f in specs if f != "size"])
        if plan is None or any(f not in _NATIVE for _, _, f in specs):
            return None
        keys, _ = plan
        as_index = self._options.get("as_index", True)
        key_words, decoders, out = self._compute(specs)
        groups = key_words[0].shape[0]
        order = None
        if self._options.get("sort", True) and groups > 1:
            if len(key_words) == 1 and decoders[0][1] is _same:  # one numeric key: tessera's sort
                order = tnp.argsort(key_words[0], kind="stable")
            else:
                ranks = [decode[1](numpy.asarray(w)) for decode, w in zip(decoders, key_words)]
                order = tnp.asarray(numpy.lexsort(ranks[::-1]))
        take = (lambda a: a) if order is None else (lambda a: a[order])
        from ._frame import DataFrame
        if shape == "frame" and not as_index:
            # The key columns, then the values, each a tessera column where its dtype is held.
            index = pandas.RangeIndex(groups)
            cols = {}
            for k, decode, w in zip(keys, decoders, key_words):
                w = take(w)
                if decode[0] is _same:
                    cols[k] = Series._wrap(w, index, k)
                else:
                    cols[k] = Series._wrap(pandas.Series(decode[0](numpy.asarray(w)), index=index, name=k), index, k)
            for label, v in out.items():
                cols[label] = Series._wrap(take(v), index, label)
            return DataFrame._wrap(cols, index)
        labels = [decode[0](numpy.asarray(take(w))) for decode, w in zip(decoders, key_words)]
        out = {label: numpy.asarray(take(v)) for label, v in out.items()}
        index = _index(labels, keys)
        if shape == "series" and as_index:
            (label, values_), = out.items()
            return Series(pandas.Series(values_, index=index, name=label))
        frame = pandas.DataFrame(out, index=index)
        if shape == "multi":
            frame.columns = pandas.MultiIndex.from_tuples(list(out))
        if not as_index:
            frame = frame.reset_index()  # the keys become the first columns ((key, "") under a MultiIndex)
        return DataFrame(frame)

    # --- row by row ---------------------------------------------------------------------------
    def _selected(self):
        """What the row-wise methods return rows of: the selected column(s), or the whole frame."""
        if self._selection is None:
            return self._df
        return self._df[self._selection[0]] if self._series else self._df[self._selection]

    def _filter(self, mask):
        return self._selected()[Series._wrap(mask, self._df._index, None)]

    def head(self, n=5):
        rows = self._rows()
        if rows is None:
            return self._run_in_pandas("head", n)
        group, position, size = rows
        if n >= 0:
            return self._filter((group >= 0) & (position < n))
        return self._filter((group >= 0) & (position < size[tnp.maximum(group, 0)] + n))

    def tail(self, n=5):
        rows = self._rows()
        if rows is None:
            return self._run_in_pandas("tail", n)
        group, position, size = rows
        back = size[tnp.maximum(group, 0)] - 1 - position
        if n >= 0:
            return self._filter((group >= 0) & (back < n))
        return self._filter((group >= 0) & (position >= -n))

    def nth(self, n, dropna=None):
        rows = self._rows()
        if rows is None or dropna is not None or not isinstance(n, (int, numpy.integer)) or isinstance(n, bool):
            return self._run_in_pandas("nth", n, **({} if dropna is None else {"dropna": dropna}))
        group, position, size = rows
        if n >= 0:
            return self._filter((group >= 0) & (position == n))
        return self._filter((group >= 0) & (size[tnp.maximum(group, 0)] + n == position))

    def cumcount(self, ascending=True):
        rows = self._rows()
        if rows is None:
            return self._run_in_pandas("cumcount", ascending=ascending)
        group, position, size = rows
        v = position if ascending else size[tnp.maximum(group, 0)] - 1 - position
        if bool(tnp.any(group < 0)):  # rows left out count as NaN, as pandas counts them
            v = tnp.where(group < 0, numpy.nan, v.astype(numpy.float64))
        return Series._wrap(v, self._df._index, None)

    def transform(self, func, *args, **kwargs):
        rows = self._rows() if isinstance(func, str) and func in _NATIVE and not args and not kwargs else None
        if rows is None:
            return self._run_in_pandas("transform", func, *args, **kwargs)
        group, _, _ = rows
        names = [self._selection[0]] if self._series else (
            list(self._selection) if self._selection is not None else [c for c in self._df._columns
                                                                       if c not in self._keys()])
        if self._plan(names if func != "size" else []) is None:
            return self._run_in_pandas("transform", func)
        specs = [(c, c, func) for c in names] if func != "size" else [(None, None, "size")]
        _, _, out = self._compute(specs)
        missing = bool(tnp.any(group < 0))
        at = tnp.maximum(group, 0)
        cols = {}
        for label, v in out.items():
            x = tnp.asarray(v)[at]
            if missing:
                x = tnp.where(group < 0, numpy.nan, x.astype(numpy.float64) if x.dtype.kind != "f" else x)
            cols[label] = x
        if self._series or func == "size":
            (label, x), = cols.items()
            return Series._wrap(x, self._df._index, label)
        from ._frame import DataFrame
        return DataFrame._wrap({k: Series._wrap(x, self._df._index, k) for k, x in cols.items()}, self._df._index)

    def _named(self, how):
        """(label, column, function) specs and the result's shape for one function name."""
        plan = self._plan()
        if plan is None:
            return None, None
        _, names = plan
        if how == "size":
            return [(None, None, "size")], "size"
        if self._series:
            return [(names[0], names[0], how)], "series"
        return [(c, c, how) for c in names], "frame"

    def _reduce(self, how, *args, **kwargs):
        if args or kwargs:
            return self._run_in_pandas(how, *args, **kwargs)
        specs, shape = self._named(how)
        result = None
        if specs is not None:
            if shape == "size":
                result = self._size()
            else:
                result = self._aggregate(specs, shape)
        return result if result is not None else self._run_in_pandas(how)

    def _size(self):
        as_index = self._options.get("as_index", True)
        name = self._selection[0] if self._series else None
        res = self._aggregate([("size", None, "size")], "frame")
        if res is None:
            return None
        if as_index:
            s = res["size"]
            return s.rename(name)
        return res

    def size(self):
        result = self._size()
        return result if result is not None else self._run_in_pandas("size")

    def agg(self, func=None, *args, **kwargs):
        result = None
        if not args and func is None and kwargs and all(isinstance(v, tuple) and len(v) == 2 for v in kwargs.values()):
            specs = [(label, c, f) for label, (c, f) in kwargs.items()]  # named aggregation
            if all(isinstance(f, str) for _, _, f in specs):
                result = self._aggregate(specs, "frame")
        elif not args and not kwargs:
            if isinstance(func, str):
                return self._reduce(func)
            plan = self._plan(list(func) if isinstance(func, dict) else None)
            if plan is not None and isinstance(func, dict) and not self._series:
                lists = any(isinstance(f, (list, tuple)) for f in func.values())
                specs = []
                for c, fs in func.items():
                    for f in (fs if isinstance(fs, (list, tuple)) else [fs]):
                        specs.append(((c, f) if lists else c, c, f))
                if all(isinstance(f, str) for _, _, f in specs) and all(c in self._df._columns for c in func):
                    result = self._aggregate(specs, "multi" if lists else "frame")
            elif plan is not None and isinstance(func, (list, tuple)) and all(isinstance(f, str) for f in func):
                _, names = plan
                if self._series:
                    specs = [(f, names[0], f) for f in func]
                    result = self._aggregate(specs, "frame")
                else:
                    result = self._aggregate([((c, f), c, f) for c in names for f in func], "multi")
        return result if result is not None else self._run_in_pandas("agg", func, *args, **kwargs)

    aggregate = agg


def _key_codes(s):
    """(array to hash, whether its negatives are nulls, (labels of words, sort ranks of words))
    for key column `s`."""
    if hasattr(s._data, "group_key"):  # datetimes, timedeltas, categoricals held in tessera (_datetimes)
        return s._data.group_key()
    if not s._on_host:
        v = s._data
        span = None
        if v.dtype.kind in "biu" and v.dtype != numpy.uint64 and len(s):
            span = (int(tnp.min(v)), int(tnp.max(v)))  # one parallel pass (the values may change: not kept)
        return v, False, (_same, _same), span
    host = s._data
    if isinstance(host.dtype, pandas.CategoricalDtype):
        codes = getattr(s, "_codes", None)
        if codes is None:
            codes = tnp.asarray(host.cat.codes.to_numpy())
            s._codes = codes  # kept with the column (Series._init forgets it when the values change)
        dtype = host.dtype

        def labels(w):
            return pandas.Categorical.from_codes(w, dtype=dtype)

        def ranks(w):
            return numpy.where(w < 0, numpy.iinfo(numpy.int64).max, w.astype(numpy.int64))
        return codes, True, (labels, ranks), (0, max(len(dtype.categories) - 1, 0))
    codes, uniques = pandas.factorize(host, use_na_sentinel=True)
    order = numpy.empty(len(uniques), dtype=numpy.int64)
    order[numpy.argsort(numpy.asarray(uniques), kind="stable")] = numpy.arange(len(uniques))

    def labels(w):
        return uniques.take(w, allow_fill=True)

    def ranks(w):
        return numpy.where(w < 0, numpy.iinfo(numpy.int64).max, order[numpy.maximum(w, 0)])
    return tnp.asarray(codes), True, (labels, ranks), (0, max(len(uniques) - 1, 0))


def _same(w):
    """A numeric key's labels and sort ranks: its values."""
    return w


def _index(labels, keys):
    if len(keys) == 1:
        return pandas.Index(labels[0], name=keys[0])
    return pandas.MultiIndex.from_arrays(labels, names=keys)


def _sum_dtype(s, t):
    """Group sums (int64, uint64 or float64) in the dtype pandas gives: booleans count in int64;
    integers come back in their own dtype when every sum fits it, else in (u)int64."""
    if t == numpy.bool_ or s.dtype == t:
        return s
    if t.kind in "iu":
        info = numpy.iinfo(t)
        if s.shape[0] == 0 or (int(tnp.min(s)) >= info.min and int(tnp.max(s)) <= info.max):
            return s.astype(t)
        return s
    return s.astype(t)


for _how in ("sum", "mean", "count", "min", "max", "std", "var", "median"):
    setattr(DataFrameGroupBy, _how, (lambda h: lambda self, *a, **k: self._reduce(h, *a, **k))(_how))
