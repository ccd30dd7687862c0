"""concat, melt, duplicated and drop_duplicates: rows of several frames one after another, a wide
frame made long, the rows whose keys came before — with pandas' values, dtypes, labels and
column order.

concat (axis=0) writes each numeric column of the result as one tessera array: its pieces, each
cast to the result's dtype, one after another, and NaN where a frame lacks the column. Which
columns the result has, in which order and of which dtype is what pandas.concat gives for
stand-ins of the frames (each column's dtype on one row, or none for an empty frame): pandas'
rules (NumPy's promotion between numbers, integers with missing rows as float64, booleans with
numbers or missing rows as objects, categoricals) are then pandas' own, whatever they are.
Columns kept on this process (strings, categoricals...) are concatenated there by pandas, as a
join takes them. axis=1 of frames and named Series with the same row labels places the columns
side by side (each a copy). Other arguments (keys, levels, names,
verify_integrity, union_categories, row labels to align) run pandas.concat, announced as a
fallback.

duplicated and drop_duplicates use groupby's launches: with keep="first" a row is a duplicate
when it is not the first row of its group (first_rows: the groups' first rows marked per tile);
otherwise by groupby's row pass (group_rows: each row's group and position in it), with
keep="last" when it is not its group's last, with keep=False when its group has more than one
row. NaN keys are equal to each other, as in pandas."""
import numpy
import pandas
from pandas.api.extensions import no_default

import tessera.numpy as tnp
from tessera import _tessera

from . import _datetimes, _fallback
from ._series import Series, _held


# --- concat ------------------------------------------------------------------------------------
def concat(objs, *, axis=0, join="outer", ignore_index=False, keys=None, levels=None, names=None,
           verify_integrity=False, sort=no_default, copy=no_default, union_categories=False):
    """pandas.concat: along rows, each numeric column one tessera array built from the pieces;
    along columns (same row labels), the columns placed side by side; the rest in pandas."""
    args = dict(axis=axis, join=join, ignore_index=ignore_index, keys=keys, levels=levels, names=names,
                verify_integrity=verify_integrity, union_categories=union_categories)
    if sort is not no_default:
        args["sort"] = sort
    if copy is not no_default:
        args["copy"] = copy
    from ._frame import DataFrame
    if isinstance(objs, (DataFrame, Series, pandas.DataFrame, pandas.Series, str)) or not hasattr(objs, "__iter__"):
        raise TypeError("first argument must be an iterable of pandas objects, you passed an object of type "
                        f'"{type(objs).__name__}"')
    result = None
    if not isinstance(objs, dict):
        objs = list(objs)
        result = _concat(objs, axis, join, ignore_index, keys is None and levels is None and names is None and
                         not verify_integrity and not union_categories and copy is no_default, sort)
    if result is None:
        result = _fallback.run("concat", pandas.concat, (objs,), args)
    return result


def _concat(objs, axis, join, ignore_index, simple, sort):
    """The native concatenation, or None (pandas then runs it)."""
    from ._frame import DataFrame
    if not objs:
        raise ValueError("No objects to concatenate")
    objs = [o for o in objs if o is not None]
    if not objs:
        raise ValueError("All objects passed were None")
    for o in objs:
        if not isinstance(o, (DataFrame, Series, pandas.DataFrame, pandas.Series)):
            raise TypeError(f"cannot concatenate object of type '{type(o)}'; only Series and DataFrame objs are valid")
    if not simple or join not in ("outer", "inner") or not all(isinstance(o, (DataFrame, Series)) for o in objs):
        return None
    frames = all(isinstance(o, DataFrame) for o in objs)
    if frames and any(isinstance(o.columns, pandas.MultiIndex) for o in objs):
        return None
    if axis in (0, "index", "rows"):
        if frames:
            return _rows_of_frames(objs, join, ignore_index, sort)
        if all(isinstance(o, Series) for o in objs):
            return _rows_of_series(objs, ignore_index)
        return None
    if axis in (1, "columns") and not ignore_index:
        return _side_by_side(objs)
    return None


def _standin(s, rows):
    """A pandas Series of `s`'s dtype and name with `rows` (0 or 1) rows: what pandas' dtype rules see."""
    if s._on_host:
        return s._data.iloc[:rows].reset_index(drop=True).rename(s.name)
    if not _held(s.dtype):  # datetimes, timedeltas, categoricals held in tessera
        return s.head(rows).to_pandas().reset_index(drop=True)
    return pandas.Series(numpy.zeros(rows, dtype=s.dtype), name=s.name)


def _pieces(parts, lengths, t):
    """One tessera array of dtype `t`: each part (a tessera array, or None for NaN rows) in turn."""
    arrays = []
    for v, n in zip(parts, lengths):
        if n == 0:
            continue
        if v is None:
            arrays.append(tnp.full(n, numpy.nan, dtype=t))
        else:
            arrays.append(v if v.dtype == t else v.astype(t))
    if not arrays:
        return tnp.empty(0, dtype=t)
    if len(arrays) == 1:
        only = arrays[0]
        return tnp.array(only, copy=True) if any(only is v for v in parts) else only  # a column's own: a copy
    return tnp.concatenate(arrays)


def _labels(indexes, ignore_index):
    if ignore_index:
        return pandas.RangeIndex(sum(len(i) for i in indexes))
    return indexes[0].append(indexes[1:]) if len(indexes) > 1 else indexes[0].copy()


def _rows_of_frames(frames, join, ignore_index, sort):
    from ._frame import DataFrame
    standins = []
    for f in frames:
        rows = min(len(f), 1)
        standins.append(pandas.DataFrame({k: _standin(s, rows) for k, s in f._columns.items()},
                                         index=pandas.RangeIndex(rows), columns=f.columns))
    kwargs = {} if sort is no_default else {"sort": sort}
    shape = pandas.concat(standins, join=join, ignore_index=True, **kwargs)
    if shape.columns.has_duplicates:
        return None
    if join == "outer":  # pandas leaves out the frames with neither rows nor columns (when some have either)
        frames = [f for f in frames if len(f) or f._columns] or frames
    lengths = [len(f) for f in frames]
    labels = _labels([f._index for f in frames], ignore_index)
    cols = {}
    for j, c in enumerate(shape.columns):
        t = shape.dtypes.iloc[j]
        pieces = [f._columns.get(c) for f in frames]
        coded = _datetimes.concat(pieces, lengths, t)
        if coded is not None:
            cols[c] = Series._wrap(coded, labels, c)
        elif _held(t) and all(p is None or not p._on_host for p in pieces) and \
                (t.kind in "fc" or all(p is not None for p, n in zip(pieces, lengths) if n)):
            values = _pieces([None if p is None else p._data for p in pieces], lengths, t)
            cols[c] = Series._wrap(values, labels, c)
        else:
            cols[c] = Series._wrap(_host_column(c, frames, pieces), labels, c)
    out = DataFrame._wrap(cols, labels)
    out._column_labels = shape.columns
    return out


class _Other:
    """A column label no frame uses: what a frame lacking a column holds instead in pandas' concat."""

    def __repr__(self):
        return "<other>"


def _host_column(c, frames, pieces):
    """Column `c` of the concatenation computed by pandas on this process (a column kept here, or
    numbers that become objects): each frame's piece, or a frame of its rows without `c`."""
    other = _Other()
    parts = []
    for f, p in zip(frames, pieces):
        if p is not None:
            parts.append(pandas.DataFrame({c: p.to_pandas().reset_index(drop=True)}))
        elif f._columns:
            parts.append(pandas.DataFrame({other: numpy.zeros(len(f), dtype=bool)}))
        else:
            parts.append(pandas.DataFrame(index=pandas.RangeIndex(len(f))))
    host = pandas.concat(parts, ignore_index=True)[c]
    from ._series import _from_host
    values, _, _ = _from_host(host)
    return values


def _rows_of_series(series, ignore_index):
    shape = pandas.concat([_standin(s, min(len(s), 1)) for s in series], ignore_index=True)
    t = shape.dtype
    coded = _datetimes.concat(series, [len(s) for s in series], t)
    if coded is not None:
        return Series._wrap(coded, _labels([s._index for s in series], ignore_index), shape.name)
    if not _held(t) or any(s._on_host for s in series):
        return None
    labels = _labels([s._index for s in series], ignore_index)
    values = _pieces([s._data for s in series], [len(s) for s in series], t)
    return Series._wrap(values, labels, shape.name)


def _side_by_side(objs):
    """axis=1 when every object has the first one's row labels (nothing to align): the columns
    placed side by side, each a copy; None otherwise."""
    from ._frame import DataFrame
    index = objs[0].index
    if any(not o.index.equals(index) for o in objs) or any(isinstance(o, Series) and o.name is None for o in objs):
        return None
    columns = []
    labels = []
    for o in objs:
        if isinstance(o, DataFrame):
            columns += list(o._columns.values())
            labels.append(o.columns)
        else:
            columns.append(o)
            labels.append(pandas.Index([o.name]))
    labels = labels[0].append(labels[1:]) if len(labels) > 1 else labels[0]
    if labels.has_duplicates:
        return None  # a frame with duplicate column names is not held yet: pandas' own
    cols = {}
    for label, s in zip(labels, columns):
        data = tnp.array(s._data, copy=True) if isinstance(s._data, _tessera.ndarray) else s._data.copy(deep=False)
        cols[label] = Series._wrap(data, index, label)
    out = DataFrame._wrap(cols, index)
    out._column_labels = labels
    return out


# --- melt --------------------------------------------------------------------------------------
def _listed(v):
    if v is None:
        return []
    if pandas.api.types.is_list_like(v):
        return list(v)
    return [v]


def melt(frame, id_vars=None, value_vars=None, var_name=None, value_name="value", col_level=None,
         ignore_index=True):
    """pandas.melt: the value column is the value columns one after another (one tessera array),
    the id columns repeated once per value column, the variable column the value columns' labels
    each repeated once per row. Value columns kept on this process, MultiIndex columns and
    col_level run pandas.melt, announced as a fallback."""
    from ._frame import DataFrame
    args = dict(id_vars=id_vars, value_vars=value_vars, var_name=var_name, value_name=value_name,
                col_level=col_level, ignore_index=ignore_index)
    result = None
    if isinstance(frame, DataFrame):
        result = _melt(frame, id_vars, value_vars, var_name, value_name, col_level, ignore_index)
    if result is None:
        result = _fallback.run("melt", pandas.melt, (frame,), args)
    return result


def _melt(frame, id_vars, value_vars, var_name, value_name, col_level, ignore_index):
    from ._frame import DataFrame
    columns = frame.columns
    if col_level is not None or isinstance(columns, pandas.MultiIndex) or \
            pandas.api.types.is_list_like(var_name):
        return None
    if value_name in columns:
        raise ValueError(f"value_name ({value_name}) cannot match an element in the DataFrame columns.")
    ids, values = _listed(id_vars), _listed(value_vars)
    if len(columns.get_indexer_for(ids)) > len(ids):
        raise ValueError("id_vars cannot contain duplicate columns.")
    asked = ids + values
    where = columns.get_indexer_for(asked)
    if (where == -1).any():
        missing = [lab for lab, w in zip(asked, where) if w == -1]
        raise KeyError(f"The following id_vars or value_vars are not present in the DataFrame: {missing}")
    if value_vars is not None:
        positions = list(pandas.unique(where))
    else:
        positions = list(range(len(columns)))
    id_positions = set(columns.get_indexer_for(ids))
    kept = [p for p in positions if p not in id_positions]
    if len(ids) != len(set(ids)) or any(p not in positions for p in id_positions):
        return None  # id columns picked twice or not among the columns kept: pandas' own
    labels = columns.take(kept)
    if var_name is None:
        var_name = columns.name if columns.name is not None else "variable"
    names = [*ids, var_name, value_name]
    dups = list({x for x in names if names.count(x) > 1})
    if dups:
        raise ValueError(f"melt output columns cannot contain duplicate names: {dups}")
    value_cols = [frame._columns[columns[p]] for p in kept]
    rows, k = len(frame), len(value_cols)
    if k == 0 or any(s._on_host for s in value_cols):
        return None
    shape = pandas.concat([_standin(s, min(rows, 1)) for s in value_cols], ignore_index=True)
    t = shape.dtype
    if not _held(t):
        return None
    index = pandas.RangeIndex(rows * k) if ignore_index else \
        frame._index.take(numpy.tile(numpy.arange(rows), k))
    cols = {}
    for c in ids:
        s = frame._columns[c]
        data = _datetimes.concat([s] * k, [rows] * k, s.dtype)  # datetimes, categoricals: in tessera
        if data is None and s._on_host:
            host = pandas.concat([s._data] * k, ignore_index=True)
            from ._series import _from_host
            data = _from_host(host)[0]
        elif data is None:
            data = _pieces([s._data] * k, [rows] * k, s.dtype)
        cols[c] = Series._wrap(data, index, c)
    if _held(labels.dtype):
        data = tnp.repeat(tnp.asarray(labels.to_numpy()), rows)
    else:
        data = pandas.Series(labels.repeat(rows))
    cols[var_name] = Series._wrap(data, index, var_name)
    cols[value_name] = Series._wrap(_pieces([s._data for s in value_cols], [rows] * k, t), index, value_name)
    return DataFrame._wrap(cols, index)


# --- duplicated ----------------------------------------------------------------------------------
_KEEP_ERROR = 'keep must be either "first", "last" or False'


def duplicated_mask(columns, keep):
    """A tessera boolean array: which rows of the key `columns` (Series of one frame) repeat an
    earlier row (keep="first"), a later one (keep="last") or any other (keep=False)."""
    from ._groupby import _key_codes
    if keep not in ("first", "last") and keep is not False:
        raise ValueError(_KEEP_ERROR)
    n = len(columns[0])
    if n == 0:
        return tnp.zeros(0, dtype=bool)
    arrays, nulls, ranges = [], [], []
    for s in columns:
        arr, negative_null, _, span = _key_codes(s)
        arrays.append(arr)
        nulls.append(negative_null)
        ranges.append(span)
    if any(r is None for r in ranges):
        ranges = []
    if keep == "first":
        return ~_tessera._group_first_rows(arrays, dropna=False, negative_is_null=nulls, ranges=ranges)
    group, position, _, size = _tessera._group_rows(arrays, dropna=False, negative_is_null=nulls, ranges=ranges)
    if keep == "last":
        return position < size[group] - 1
    return size[group] > 1


def key_columns(frame, subset):
    """The Series of `frame` that duplicated compares: `subset`'s (a label or labels), or every
    column; pandas' KeyError for labels that are not columns. None when not native."""
    if subset is None:
        return list(frame._columns.values())
    if not numpy.iterable(subset) or isinstance(subset, str) or (isinstance(subset, tuple) and subset in frame._columns):
        subset = (subset,)
    names = list(subset)
    diff = set(names) - set(frame._columns)
    if diff:
        raise KeyError(pandas.Index(diff))
    if not names:
        return None
    return [frame._columns[c] for c in frame._columns if c in names]


# --- pivot_table ---------------------------------------------------------------------------------
_PIVOT_FUNCTIONS = ("sum", "mean", "count", "min", "max")


def _by(by):
    """pandas' list of pivot keys: none, one label, or the labels of a list."""
    if by is None:
        return []
    if pandas.api.types.is_scalar(by):
        return [by]
    if isinstance(by, (numpy.ndarray, pandas.Index, pandas.Series, Series)) or callable(by):
        return None  # keys that are not columns: pandas' own
    return list(by)


def pivot_table(data, values=None, index=None, columns=None, aggfunc="mean", fill_value=None, margins=False,
                dropna=True, margins_name="All", observed=True, sort=True, **kwargs):
    """pandas.pivot_table for one aggregation by name (sum, mean, count, min, max) of named value
    columns: groupby's native aggregation by the index and column keys (a task per row tile),
    then the small table of groups unstacked by pandas as pandas.pivot_table does it. Margins,
    dropna=False, several or callable aggregations and keys that are not columns run
    pandas.pivot_table, announced as a fallback."""
    from ._frame import DataFrame
    args = dict(values=values, index=index, columns=columns, aggfunc=aggfunc, fill_value=fill_value,
                margins=margins, dropna=dropna, margins_name=margins_name, observed=observed, sort=sort, **kwargs)
    result = None
    if isinstance(data, DataFrame) and not kwargs and not margins and dropna is True and \
            isinstance(aggfunc, str) and aggfunc in _PIVOT_FUNCTIONS and values is not None and len(data):
        result = _pivot_table(data, values, _by(index), _by(columns), aggfunc, fill_value, observed, sort)
    if result is None:
        result = _fallback.run("pivot_table", pandas.pivot_table, (data,), args)
    return result


def _pivot_table(data, values, index, columns, aggfunc, fill_value, observed, sort):
    from ._frame import DataFrame
    if index is None or columns is None:
        return None
    keys = index + columns
    try:
        if not keys or any(k not in data._columns for k in keys) or len(set(keys)) != len(keys):
            return None
    except TypeError:
        return None
    values_multi = pandas.api.types.is_list_like(values)
    values = list(values) if values_multi else [values]
    for v in values:
        if v not in data._columns:
            raise KeyError(v)
    if any(v in keys for v in values) or len(set(values)) != len(values):
        return None
    for v in values:
        s = data._columns[v]
        if s._on_host or s.dtype.kind not in "biuf":
            return None
    groups = data.groupby(keys, observed=observed, sort=sort, dropna=True)[values]
    agged = groups._aggregate([(v, v, aggfunc) for v in values], "frame")
    if agged is None:
        return None
    # From here on, pandas' own steps on the table of groups (a row per group: small).
    agged = agged.to_pandas()
    if not sort and isinstance(agged.index, pandas.MultiIndex):
        # Unsorted, pandas' levels hold each key column's values in order of first appearance in
        # the column, and unstack orders rows and columns by them.
        levels = [_appearance_order(data._columns[k]) for k in keys]
        codes = [lev.get_indexer(agged.index.get_level_values(i)) for i, lev in enumerate(levels)]
        agged.index = pandas.MultiIndex(levels=levels, codes=codes, names=agged.index.names).remove_unused_levels()
    if len(agged.columns):
        agged = agged.dropna(how="all")
    table = agged
    if table.index.nlevels > 1 and index:
        index_names = agged.index.names[: len(index)]
        to_unstack = []
        for i in range(len(index), len(keys)):
            name = agged.index.names[i]
            to_unstack.append(i if name is None or name in index_names else name)
        table = agged.unstack(to_unstack, fill_value=fill_value)
    if sort is True:
        table = table.sort_index(axis=1)
    if fill_value is not None:
        table = table.fillna(fill_value)
    if not values_multi and table.columns.nlevels > 1:
        table.columns = table.columns.droplevel(0)
    if len(index) == 0 and len(columns) > 0:
        table = table.T
    table = table.dropna(how="all", axis=1)
    return DataFrame(table)


def _appearance_order(s):
    """A key column's distinct values (nulls aside) in order of first appearance, as a pandas
    Index: for a tessera column, the keys of a groupby without values (a task per row tile)."""
    if not isinstance(s._data, _tessera.ndarray):
        return pandas.Index(pandas.factorize(s.to_pandas(), sort=False)[1])
    keys = _tessera._group_aggregate([s._data], [], dropna=True)[0]
    return pandas.Index(numpy.asarray(keys[0]), dtype=s.dtype)
