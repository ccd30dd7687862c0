"""sort_values: the row order pandas gives, computed by tessera's parallel stable sorts over
numeric key columns, then every column gathered in that order.

pandas orders one key with `nargsort` (the values that are not NaN sorted, descending by
sorting the reversed values and reversing the result, NaN rows after or before them in row
order) and several keys with `lexsort_indexer` (each key's dense rank, reversed for a
descending key, NaN ranked last or first, then a stable lexicographic sort). Both are built
here from the same pieces. pandas' default kind for one key, quicksort, leaves the order of
equal keys unspecified; tessera's is always stable (ties keep row order), one of the orders
pandas may give, and the one it gives with kind="stable"."""
import numpy
import pandas

import tessera.numpy as tnp


def _one(x, ascending, na_position):
    """pandas' nargsort of tessera array `x`: int64 row positions."""
    n = x.shape[0]
    floating = x.dtype.kind == "f"
    if floating:
        nan = tnp.isnan(x)
        if bool(tnp.any(nan)):
            rows = tnp.flatnonzero(~nan)
            order = rows[_one(x[rows], ascending, "last")]
            nans = tnp.flatnonzero(nan)
            return tnp.concatenate([order, nans] if na_position == "last" else [nans, order])
    if ascending:
        return tnp.argsort(x, kind="stable")
    o = tnp.argsort(x[::-1], kind="stable")
    return ((n - 1) - o)[::-1]


def _rank(x, ascending, na_position):
    """The dense rank of each value of `x` (0 for the smallest), reversed when descending; NaN
    ranked after (or before) every value."""
    uniq, inverse = tnp.unique(x, return_inverse=True)
    inverse = inverse.astype(numpy.int64)
    k = uniq.shape[0]
    has_nan = x.dtype.kind == "f" and k > 0 and bool(tnp.isnan(uniq[k - 1]))
    values = k - 1 if has_nan else k  # distinct values that are not NaN (NumPy's unique puts NaN last)
    rank = inverse if ascending else tnp.where(inverse < values, values - 1 - inverse, inverse)
    if has_nan:
        rank = tnp.where(inverse == values, values if na_position == "last" else -1, rank)
    return rank


def order(columns, ascending, na_position):
    """Row positions (a tessera int64 array) sorting tessera arrays `columns` as pandas'
    sort_values does, the first the primary key."""
    if len(columns) == 1:
        return _one(columns[0], ascending[0], na_position)
    ranks = [_rank(c, a, na_position) for c, a in zip(columns, ascending)]
    return tnp.lexsort(ranks[::-1])


def _key(s):
    """A key column as a tessera array to sort (datetimes, categoricals: see _datetimes)."""
    return s._data.sort_key() if hasattr(s._data, "sort_key") else s._data


def sort_values(df, by, ascending=True, na_position="last", ignore_index=False):
    """DataFrame.sort_values for held numeric keys; None when the keys are not (pandas then
    sorts on this process)."""
    from ._frame import DataFrame
    from ._merge import _take
    from ._series import Series
    keys = [by] if not isinstance(by, (list, tuple)) else list(by)
    if not keys or na_position not in ("first", "last") or len(df) == 0:
        return None
    asc = [ascending] * len(keys) if not isinstance(ascending, (list, tuple)) else list(ascending)
    if len(asc) != len(keys) or not all(isinstance(a, (bool, numpy.bool_)) for a in asc):
        return None  # pandas' errors, from pandas itself
    for k in keys:
        try:
            s = df._columns.get(k) if k in df._columns else None
        except TypeError:
            return None
        if s is None or s._on_host or s.dtype.kind not in "biuf" and not hasattr(s._data, "sort_key"):
            return None
    idx = order([_key(df._columns[k]) for k in keys], asc, na_position)
    labels = pandas.RangeIndex(len(df)) if ignore_index else df._index.take(numpy.asarray(idx))
    return DataFrame._wrap({c: Series._wrap(_take(s, idx, False)._data, labels, c) for c, s in df._columns.items()},
                           labels)
