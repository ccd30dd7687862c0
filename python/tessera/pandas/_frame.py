"""DataFrame: columns aligned by rows, each a Series (a tessera array, or a pandas column kept
on this process for the dtypes not held in tessera yet), sharing one set of row labels."""
import numpy
import pandas
from pandas.api.extensions import no_default as _no_default

import tessera.numpy as tnp
from tessera import _tessera

from . import _fallback, _series
from ._series import Series, _from_host, _host_result, _require_same_labels

_REDUCTIONS = ("sum", "prod", "min", "max", "mean", "median", "std", "var", "count", "any", "all")


class DataFrame(_series.DataFrameLike):
    """pandas.DataFrame with its columns in tessera arrays (see tessera.pandas' docstring)."""

    __array_priority__ = 1000

    def __init__(self, data=None, index=None, columns=None, dtype=None, copy=None):
        if isinstance(data, DataFrame):
            self._init(dict(data._columns), data._index)
            return
        if isinstance(data, dict) and any(isinstance(v, (Series, _tessera.ndarray)) for v in data.values()):
            cols = {}
            labels = None if index is None else pandas.Index(index)
            for key, value in data.items():
                s = value if isinstance(value, Series) else None
                if s is None and isinstance(value, _tessera.ndarray):
                    s = Series(value, index=labels, dtype=dtype, copy=copy)
                elif s is None:
                    s = Series(pandas.Series(value, index=labels, dtype=dtype))
                if labels is None:
                    labels = s.index
                elif not s.index.equals(labels):  # labels to align: pandas' own result
                    self._init(*_columns_of(pandas.DataFrame({k: _to_pandas(v) for k, v in data.items()},
                                                             index=index, columns=columns, dtype=dtype)))
                    return
                cols[key] = Series._wrap(s._data, labels, key)
            if columns is not None:
                cols = {c: cols[c] for c in columns if c in cols}
            self._init(cols, labels if labels is not None else pandas.RangeIndex(0))
            return
        host = data if isinstance(data, pandas.DataFrame) and index is None and columns is None and dtype is None \
            else pandas.DataFrame(data, index=index, columns=columns, dtype=dtype, copy=copy)
        self._init(*_columns_of(host))

    def _init(self, columns, index, labels=None):
        self._columns = columns  # name -> Series, in column order
        # pandas' Index of the column labels when it says more than the names (a MultiIndex,
        # a dtype, a name): kept while the columns are those it lists.
        self._column_labels = labels
        self._index = index

    @classmethod
    def _wrap(cls, columns, index):
        df = cls.__new__(cls)
        df._init(columns, index)
        return df

    # --- what it is -------------------------------------------------------------------------
    @property
    def columns(self):
        labels = self._column_labels
        if labels is not None and len(labels) == len(self._columns) and all(
                a is b or a == b for a, b in zip(labels, self._columns)):
            return labels
        return pandas.Index(list(self._columns), dtype=object if not self._columns else None)

    @property
    def index(self):
        return self._index

    @property
    def shape(self):
        return (len(self._index), len(self._columns))

    @property
    def size(self):
        return len(self._index) * len(self._columns)

    ndim = 2

    @property
    def empty(self):
        return len(self._index) == 0 or not self._columns

    def __len__(self):
        return len(self._index)

    @property
    def dtypes(self):
        return pandas.Series([s.dtype for s in self._columns.values()], index=self.columns, dtype=object)

    def keys(self):
        return self.columns

    def items(self):
        return iter(self._columns.items())

    def __iter__(self):
        return iter(self._columns)

    def __contains__(self, key):
        return key in self._columns

    def to_pandas(self):
        """The same DataFrame in pandas (its values copied to this process)."""
        known = self._columns or self._column_labels is not None  # no columns: pandas' labels, when known
        return pandas.DataFrame({k: s.to_pandas() for k, s in self._columns.items()}, index=self._index,
                                columns=self.columns if known else None)

    def __repr__(self):
        from ._display import frame_repr
        return frame_repr(self)

    def _repr_html_(self):
        from ._display import frame_html
        return frame_html(self)

    def to_parquet(self, path=None, *args, **kwargs):
        """pandas' to_parquet, written by pandas on this process (not yet by row groups in parallel)."""
        return self.to_pandas().to_parquet(path, *args, **kwargs)

    def to_csv(self, path_or_buf=None, *args, **kwargs):
        """pandas' to_csv, written by pandas on this process (not yet by byte ranges in parallel)."""
        return self.to_pandas().to_csv(path_or_buf, *args, **kwargs)

    def to_numpy(self, dtype=None, copy=False):
        cols = list(self._columns.values())
        if cols and all(isinstance(s._data, _tessera.ndarray) for s in cols):
            t = numpy.result_type(*[s.dtype for s in cols]) if dtype is None else numpy.dtype(dtype)
            return tnp.stack([s._data.astype(t) for s in cols], axis=1)
        return self.to_pandas().to_numpy(dtype=dtype, copy=copy)

    @property
    def values(self):
        return self.to_numpy()

    def __array__(self, dtype=None, copy=None):
        return numpy.asarray(self.to_pandas().to_numpy(dtype=dtype))

    def copy(self, deep=True):
        if not deep:  # a new frame over the same columns (adding one leaves this frame as it is)
            return DataFrame._wrap(dict(self._columns), self._index)
        return DataFrame._wrap({k: s.copy() for k, s in self._columns.items()}, self._index)

    # --- selection -------------------------------------------------------------------------
    def __getitem__(self, key):
        if isinstance(key, Series) and key.dtype == numpy.bool_:
            _require_same_labels(self, key)
            mask = key._data if not key._on_host else tnp.asarray(key._data.to_numpy())
            host_mask = numpy.asarray(mask)
            labels = self._index[host_mask]
            return DataFrame._wrap({k: Series._wrap(s._take_rows(mask)._data, labels, k)
                                    for k, s in self._columns.items()}, labels)
        if isinstance(key, slice):
            return DataFrame._wrap({k: s._take_rows(key) for k, s in self._columns.items()}, self._index[key])
        if isinstance(key, (list, pandas.Index, numpy.ndarray)) and not (len(key) and isinstance(key[0], (bool, numpy.bool_))):
            missing = [k for k in key if k not in self._columns]
            if missing:
                raise KeyError(f"{missing if len(missing) < len(key) else pandas.Index(key)} not in index"
                               if len(missing) < len(key) else f"None of [{pandas.Index(key)}] are in the [columns]")
            return DataFrame._wrap({k: self._columns[k] for k in key}, self._index)
        try:
            hit = key in self._columns
        except TypeError:
            hit = False
        if hit:
            return self._columns[key]
        labels = self.columns
        if isinstance(labels, pandas.MultiIndex) and not isinstance(key, tuple) and key in labels.levels[0]:
            # A first-level label of (column, function) labels: the columns under it, labelled by
            # the levels below (one column labelled "" is that column, as pandas gives it).
            picked = [c for c in self._columns if c[0] == key]
            if picked:
                rest = labels[labels.get_level_values(0) == key].droplevel(0)
                if len(picked) == 1 and rest[0] == "":
                    return self._columns[picked[0]].rename(key)
                cols = {r: self._columns[c].rename(r) for r, c in zip(rest, picked)}
                out = DataFrame._wrap(cols, self._index)
                out._column_labels = rest
                return out
        if isinstance(key, (str, int, float, tuple)) or key is None:
            raise KeyError(key)
        return _host_result(self.to_pandas()[key])

    def __getattr__(self, name):
        columns = self.__dict__.get("_columns")
        if columns is not None and name in columns:
            return columns[name]
        if not name.startswith("_") and hasattr(pandas.DataFrame, name):
            return _fallback.method(self, "DataFrame", name)
        raise AttributeError(f"'DataFrame' object has no attribute '{name}'")

    def __setitem__(self, key, value):
        n = len(self._index)
        if isinstance(value, Series):
            if value.index.equals(self._index):
                s = Series._wrap(value.copy()._data, self._index, key)
            else:  # pandas aligns the labels
                host = value.to_pandas().reindex(self._index)
                s = Series._wrap(*_from_host(host)[:2], key)
        elif isinstance(value, _tessera.ndarray):
            if value.ndim != 1 or value.shape[0] != n:
                raise ValueError(f"Length of values ({value.shape[0] if value.ndim else 1}) does not match length of index ({n})")
            s = Series._wrap(tnp.array(value, copy=True), self._index, key)
        elif numpy.isscalar(value) and not isinstance(value, (str, bytes, numpy.datetime64, numpy.timedelta64)):
            s = Series._wrap(tnp.full(n, value), self._index, key)
        else:
            host = pandas.Series(value, index=self._index) if numpy.ndim(value) else \
                pandas.Series([value] * n, index=self._index)
            if len(host) != n:
                raise ValueError(f"Length of values ({len(value)}) does not match length of index ({n})")
            s = Series._wrap(*_from_host(host)[:2], key)
        if not self._columns and n == 0:
            self._index = s.index
        self._columns[key] = s

    def __delitem__(self, key):
        del self._columns[key]

    def head(self, n=5):
        return self[:n] if n >= 0 else self[:max(len(self) + n, 0)]

    def tail(self, n=5):
        return self[len(self):] if n == 0 else self[-n:]

    @property
    def iloc(self):
        return _FrameILoc(self)

    def drop(self, columns=None, **kwargs):
        if kwargs or columns is None:
            return _host_result(self.to_pandas().drop(columns=columns, **kwargs))
        names = [columns] if isinstance(columns, str) else list(columns)
        missing = [c for c in names if c not in self._columns]
        if missing:
            raise KeyError(f"{missing} not found in axis")
        return DataFrame._wrap({k: s for k, s in self._columns.items() if k not in names}, self._index)

    def rename(self, columns=None, **kwargs):
        if kwargs or not isinstance(columns, dict):
            return _host_result(self.to_pandas().rename(columns=columns, **kwargs))
        return DataFrame._wrap({columns.get(k, k): s.rename(columns.get(k, k)) for k, s in self._columns.items()},
                               self._index)

    def merge(self, right, how="inner", on=None, left_on=None, right_on=None, left_index=False, right_index=False,
              sort=False, suffixes=("_x", "_y"), copy=None, indicator=False, validate=None):
        """pandas' merge: a hash join on every worker and rank for numeric keys (and categorical
        or string keys of inner and left joins); the rest in pandas (see _merge)."""
        from ._merge import merge
        return merge(self, right, how=how, on=on, left_on=left_on, right_on=right_on, left_index=left_index,
                     right_index=right_index, sort=sort, suffixes=suffixes, indicator=indicator, validate=validate)

    def sort_values(self, by, *, axis=0, ascending=True, inplace=False, kind="quicksort", na_position="last",
                    ignore_index=False, key=None):
        """pandas' sort_values: numeric keys sorted by tessera's parallel stable sorts (equal keys
        keep row order, as kind="stable" gives in pandas), every column gathered; other keys
        in pandas (see _sort)."""
        from ._sort import sort_values
        result = None
        if axis in (0, "index") and not inplace and key is None:
            result = sort_values(self, by, ascending, na_position, ignore_index)
        if result is None:
            return _fallback.call(self, "DataFrame.sort_values", self.to_pandas(), "sort_values", (by,),
                                  dict(axis=axis, ascending=ascending, inplace=inplace, kind=kind,
                                       na_position=na_position, ignore_index=ignore_index, key=key))
        return result

    def reset_index(self, level=None, *, drop=False, inplace=False, col_level=0, col_fill="", allow_duplicates=False,
                    names=None):
        """pandas' reset_index of a one-level index: a RangeIndex, and the labels as the first
        column unless `drop` (a tessera array for numeric labels); other cases in pandas."""
        simple = level is None and col_level == 0 and col_fill == "" and not allow_duplicates and names is None
        if not simple or isinstance(self._index, pandas.MultiIndex) or \
                isinstance(self.columns, pandas.MultiIndex):
            return _fallback.call(self, "DataFrame.reset_index", self.to_pandas(), "reset_index", (level,),
                                  dict(drop=drop, inplace=inplace, col_level=col_level, col_fill=col_fill,
                                       allow_duplicates=allow_duplicates, names=names))
        labels = pandas.RangeIndex(len(self._index))
        cols = {}
        if not drop:
            name = self._index.name if self._index.name is not None else ("index" if "index" not in self._columns
                                                                          else "level_0")
            if name in self._columns:
                raise ValueError(f"cannot insert {name}, already exists")
            values, _, _ = _from_host(pandas.Series(self._index, index=labels))
            cols[name] = Series._wrap(values, labels, name)
        cols.update({k: Series._wrap(s._data, labels, k) for k, s in self._columns.items()})
        if inplace:
            import warnings
            warnings.warn(  # pandas' own deprecation, at the same statement
                "The inplace keyword in DataFrame.reset_index is deprecated and will be removed in a future version "
                "(PDEP-8).\nSee https://pandas.pydata.org/docs/dev/whatsnew/v3.1.0.html#deprecation-inplace for more "
                "details.", pandas.errors.Pandas4Warning, stacklevel=2)
            self._init(cols, labels)
            return None
        return DataFrame._wrap(cols, labels)

    def assign(self, **kwargs):
        """pandas' assign: a new frame with the columns computed in order (a callable gets the
        frame as it is so far)."""
        out = self.copy(deep=False)
        for key, value in kwargs.items():
            out[key] = value(out) if callable(value) else value
        return out

    # --- reshaping and selection by expression -------------------------------------------------
    def duplicated(self, subset=None, keep="first"):
        """pandas' duplicated: groupby's row pass over the key columns (see _reshape)."""
        from ._reshape import duplicated_mask, key_columns
        if self.empty:
            return Series._wrap(tnp.zeros(len(self), dtype=bool), self._index, None)
        cols = key_columns(self, subset)
        if cols is None:
            return _fallback.call(self, "DataFrame.duplicated", self.to_pandas(), "duplicated", (subset,),
                                  {"keep": keep})
        return Series._wrap(duplicated_mask(cols, keep), self._index, None)

    def drop_duplicates(self, subset=None, *, keep="first", inplace=_no_default, ignore_index=False):
        """pandas' drop_duplicates: the rows duplicated() leaves out, in row order."""
        from ._reshape import duplicated_mask, key_columns
        cols = None
        if inplace is _no_default:
            if self.empty:
                return self.copy(deep=False)
            cols = key_columns(self, subset)
        if cols is None:
            kwargs = dict(keep=keep, ignore_index=ignore_index)
            if inplace is not _no_default:
                kwargs["inplace"] = inplace
            return _fallback.call(self, "DataFrame.drop_duplicates", self.to_pandas(), "drop_duplicates", (subset,),
                                  kwargs)
        out = self[Series._wrap(~duplicated_mask(cols, keep), self._index, None)]
        if ignore_index:
            labels = pandas.RangeIndex(len(out))
            out = DataFrame._wrap({k: Series._wrap(s._data, labels, k) for k, s in out._columns.items()}, labels)
        return out

    def melt(self, id_vars=None, value_vars=None, var_name=None, value_name="value", col_level=None,
             ignore_index=True):
        """pandas' melt: the value columns one after another as one column (see _reshape)."""
        from ._reshape import melt
        return melt(self, id_vars=id_vars, value_vars=value_vars, var_name=var_name, value_name=value_name,
                    col_level=col_level, ignore_index=ignore_index)

    def pivot_table(self, values=None, index=None, columns=None, aggfunc="mean", fill_value=None, margins=False,
                    dropna=True, margins_name="All", observed=True, sort=True, **kwargs):
        """pandas' pivot_table: groupby's native aggregation, then the table of groups unstacked
        (see _reshape)."""
        from ._reshape import pivot_table
        return pivot_table(self, values=values, index=index, columns=columns, aggfunc=aggfunc, fill_value=fill_value,
                           margins=margins, dropna=dropna, margins_name=margins_name, observed=observed, sort=sort,
                           **kwargs)

    def query(self, expr, *, parser="pandas", engine=None, local_dict=None, global_dict=None, resolvers=None,
              level=0, inplace=_no_default):
        """pandas' query: the expression evaluated on the columns by tessera, then the rows where
        it holds (see _eval)."""
        from . import _eval
        return _eval.query(self, expr, parser, engine, local_dict, global_dict, resolvers, level, inplace)

    def eval(self, expr, *, inplace=_no_default, **kwargs):
        """pandas' eval: the expression evaluated on the columns by tessera (see _eval)."""
        from . import _eval
        return _eval.eval(self, expr, inplace, kwargs)

    def groupby(self, by, **options):
        """pandas' groupby: one numeric key column aggregated on every worker and rank."""
        from ._groupby import DataFrameGroupBy
        if not isinstance(by, (list, tuple)) and by not in self._columns and not callable(by):
            raise KeyError(by)
        return DataFrameGroupBy(self, by, **options)

    # --- element-wise -----------------------------------------------------------------------
    def isna(self):
        return DataFrame._wrap({k: s.isna() for k, s in self._columns.items()}, self._index)

    isnull = isna

    def notna(self):
        return DataFrame._wrap({k: s.notna() for k, s in self._columns.items()}, self._index)

    notnull = notna

    def fillna(self, value):
        if isinstance(value, dict):
            return DataFrame._wrap({k: (s.fillna(value[k]) if k in value else s) for k, s in self._columns.items()},
                                   self._index)
        return DataFrame._wrap({k: s.fillna(value) for k, s in self._columns.items()}, self._index)

    def abs(self):
        return DataFrame._wrap({k: s.abs() for k, s in self._columns.items()}, self._index)

    def _binary(self, other, op):
        if isinstance(other, (DataFrame, Series)) or not numpy.isscalar(other):
            return _host_result(op(self.to_pandas(), other.to_pandas() if hasattr(other, "to_pandas") else other),
                                f"DataFrame.{op.__name__.strip('_')}")
        return DataFrame._wrap({k: op(s, other) for k, s in self._columns.items()}, self._index)

    # --- reductions -------------------------------------------------------------------------
    def _reduce(self, name, numeric_only=False, **kw):
        cols = self._columns
        if numeric_only:
            cols = {k: s for k, s in cols.items() if pandas.api.types.is_numeric_dtype(s.dtype)}
        if any(not isinstance(s._data, _tessera.ndarray) for s in cols.values()) and name != "count":
            # pandas decides what a column of another dtype gives (or raises)
            return getattr(self.to_pandas()[list(cols)], name)(numeric_only=numeric_only, **kw)
        results = [getattr(s, name)(**kw) for s in cols.values()]
        # The dtype pandas finds for the results: their common NumPy type, but booleans with
        # numbers make objects.
        kinds = [numpy.asarray(r).dtype for r in results]
        if not kinds:
            common = numpy.dtype(numpy.int64 if name == "count" else numpy.float64 if name not in ("any", "all") else bool)
        elif any(k == bool for k in kinds) and not all(k == bool for k in kinds):
            common = numpy.dtype(object)
        else:
            common = numpy.result_type(*kinds)
        labels = pandas.Index(list(cols), dtype=object if not cols else None)
        return pandas.Series(numpy.array(results, dtype=common), index=labels)


def _columns_of(host):
    """(columns, labels) of a pandas DataFrame."""
    if host.columns.has_duplicates:
        raise NotImplementedError("tessera.pandas: a DataFrame with duplicate column names is not held yet")
    cols = {}
    for k in host.columns:
        values, _, _ = _from_host(host[k])
        cols[k] = Series._wrap(values, host.index, k)
    return cols, host.index, host.columns


def _to_pandas(v):
    return v.to_pandas() if isinstance(v, (Series, DataFrame)) else (numpy.asarray(v) if isinstance(v, _tessera.ndarray) else v)


class _FrameILoc:
    def __init__(self, df):
        self._df = df

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._df[key]
        return _host_result(self._df.to_pandas().iloc[key])


def _reduction(name):
    def method(self, axis=0, skipna=True, numeric_only=False, **kw):
        if axis not in (0, "index"):
            return _host_result(getattr(self.to_pandas(), name)(axis=axis, skipna=skipna, numeric_only=numeric_only, **kw))
        if name != "count":
            kw["skipna"] = skipna
        return self._reduce(name, numeric_only=numeric_only, **kw)
    method.__name__ = name
    return method


for _name in _REDUCTIONS:
    setattr(DataFrame, _name, _reduction(_name))

import operator as _operator  # noqa: E402

for _name, _op in [("add", _operator.add), ("sub", _operator.sub), ("mul", _operator.mul),
                   ("truediv", _operator.truediv), ("floordiv", _operator.floordiv), ("mod", _operator.mod),
                   ("pow", _operator.pow), ("eq", _operator.eq), ("ne", _operator.ne), ("lt", _operator.lt),
                   ("le", _operator.le), ("gt", _operator.gt), ("ge", _operator.ge)]:
    setattr(DataFrame, f"__{_name}__", (lambda op: lambda self, other: self._binary(other, op))(_op))
DataFrame.__hash__ = None
