"""merge: pandas.merge's rows from a hash join of the key columns (the C++ join_indices: a probe
launch over the probe side's tiles, in pandas' row order), then every column of the result as a
gather of its side's column by those row positions — a tessera gather for the columns held in
tessera arrays, pandas' take on this process for the others.

Native: how= inner, left, right, outer; on=, or left_on= with right_on=; several keys; keys of
numeric dtypes (equal dtypes, or integers with floats, compared as float64), and categorical or
string keys for inner and left joins; suffixes=. What is not native yet (cross joins, index
joins, indicator=, validate=, sort=True, keys of other dtypes) runs in pandas, announced as a
fallback."""
import numpy
import pandas

import tessera.numpy as tnp
from tessera import _tessera

from . import _datetimes, _fallback
from ._series import Series

_HOWS = ("inner", "left", "right", "outer")


def merge(left, right, how="inner", on=None, left_on=None, right_on=None, left_index=False, right_index=False,
          sort=False, suffixes=("_x", "_y"), copy=None, indicator=False, validate=None):
    from ._frame import DataFrame
    args = dict(how=how, on=on, left_on=left_on, right_on=right_on, left_index=left_index, right_index=right_index,
                sort=sort, suffixes=suffixes, indicator=indicator, validate=validate)
    result = None
    if isinstance(left, DataFrame) and isinstance(right, DataFrame):
        result = _native(left, right, **args)
    if result is None:
        result = _fallback.run("merge", pandas.merge, (left, right), args)
    return result


def _names(x):
    if x is None:
        return None
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _native(left, right, how, on, left_on, right_on, left_index, right_index, sort, suffixes, indicator, validate):
    from ._frame import DataFrame
    if how not in _HOWS or left_index or right_index or sort or indicator or validate is not None:
        return None
    if on is None and left_on is None and right_on is None:
        common = [c for c in left._columns if c in right._columns]
        if not common:
            return None  # pandas' MergeError, from pandas itself
        on = common
    if on is not None:
        if left_on is not None or right_on is not None:
            return None
        lk = rk = _names(on)
    else:
        lk, rk = _names(left_on), _names(right_on)
        if lk is None or rk is None or len(lk) != len(rk):
            return None
    if not lk:
        return None
    for names, side in ((lk, left), (rk, right)):
        for k in names:
            if isinstance(k, str) and k not in side._columns:
                raise KeyError(k)  # pandas' error, at once (no copy made for pandas to raise it)
    if any(k not in left._columns for k in lk) or any(k not in right._columns for k in rk):
        return None
    if left.columns.has_duplicates or right.columns.has_duplicates or len(left) == 0 or len(right) == 0:
        return None
    lkeys, rkeys = [], []
    for a, b in zip(lk, rk):
        pair = _key_pair(left._columns[a], right._columns[b], how)
        if pair is None:
            return None
        lkeys.append(pair[0])
        rkeys.append(pair[1])
    li, ri = _tessera._join_indices(lkeys, rkeys, how)
    n = li.shape[0]
    lmiss = how in ("right", "outer")  # rows with no left row (-1 positions)
    rmiss = how in ("left", "outer")
    same_keys = [a for a, b in zip(lk, rk) if a == b]  # keys of one name: one column, coalesced
    sx, sy = suffixes if suffixes is not None else (None, None)
    right_rest = [c for c in right._columns if c not in same_keys]
    left_names = set(left._columns)
    out = {}
    for c, s in left._columns.items():
        if c in same_keys:
            j = lk.index(c)
            out[c] = _coalesce(s, right._columns[rk[j]], li, ri, lmiss, how)
            continue
        name = _suffixed(c, sx) if c in right_rest else c
        out[name] = _take(s, li, lmiss)
    for c in right_rest:
        name = _suffixed(c, sy) if c in left_names else c
        if name in out:
            return None  # pandas' MergeError for duplicate labels, from pandas itself
        out[name] = _take(right._columns[c], ri, rmiss)
    labels = pandas.RangeIndex(n)
    return DataFrame._wrap({k: Series._wrap(v._data, labels, k) for k, v in out.items()}, labels)


def _suffixed(name, suffix):
    return name if suffix is None else f"{name}{suffix}"


def _numeric_key(s):
    """A numeric column as int64 or float64 (what join_indices compares), else None: a held
    column itself, or a pandas column of Arrow's integers or floats (`dtype_backend="pyarrow"`)
    as a tessera array made once per column (nulls as NaN: pandas matches nulls with nulls)."""
    if s._on_host:
        t = s.dtype
        if not isinstance(t, pandas.ArrowDtype) or t.kind not in "iuf" or t.numpy_dtype == numpy.uint64:
            return None
        cached = getattr(s, "_codes", None)
        if cached is None:
            host = s._data
            if t.kind in "iu" and not host.hasnans:
                cached = tnp.asarray(host.to_numpy(dtype=numpy.int64))
            else:
                cached = tnp.asarray(host.to_numpy(dtype=numpy.float64, na_value=numpy.nan))
            s._codes = cached  # kept with the column (Series._init forgets it when the values change)
        return cached
    t = s.dtype
    if t.kind in "biu" and t != numpy.uint64:
        return s._data if t == numpy.int64 else s._data.astype(numpy.int64)
    if t.kind == "f":
        return s._data if t == numpy.float64 else s._data.astype(numpy.float64)
    return None


def _key_pair(a, b, how):
    """The two sides' key column as arrays join_indices compares, or None."""
    if isinstance(a._data, _datetimes.Coded) or isinstance(b._data, _datetimes.Coded):
        return _datetimes.merge_keys(a, b, how)
    ka, kb = _numeric_key(a), _numeric_key(b)
    if ka is not None and kb is not None:
        if a.dtype.kind != b.dtype.kind and "f" not in (a.dtype.kind, b.dtype.kind):
            return None  # bool with ints and the like: pandas' own rules
        if isinstance(a.dtype, pandas.ArrowDtype) != isinstance(b.dtype, pandas.ArrowDtype) or \
                isinstance(a.dtype, pandas.ArrowDtype) and a.dtype != b.dtype:
            return None  # Arrow's types with NumPy's, or of two kinds: pandas' own result dtype
        if isinstance(a.dtype, pandas.ArrowDtype) and how == "outer":
            return None  # a coalesced Arrow key: pandas' own, for now
        return ka, kb
    if ka is not None or kb is not None or how not in ("inner", "left"):
        return None
    ha, hb = a._data, b._data
    if isinstance(ha.dtype, pandas.CategoricalDtype) and isinstance(hb.dtype, pandas.CategoricalDtype):
        # Right codes in the left's categories; a category the left lacks matches nothing.
        ca = numpy.asarray(ha.cat.codes, dtype=numpy.float64)
        m = ha.cat.categories.get_indexer(hb.cat.categories).astype(numpy.float64)
        m[m < 0] = -2 - numpy.arange(int((m < 0).sum()))  # distinct, and never a left code
        rc = numpy.asarray(hb.cat.codes)
        cb = numpy.where(rc < 0, numpy.nan, m[numpy.maximum(rc, 0)])
        ca[numpy.asarray(ha.cat.codes) < 0] = numpy.nan  # NaN matches NaN, as pandas matches them
        return tnp.asarray(ca), tnp.asarray(cb)
    if ha.dtype == object or pandas.api.types.is_string_dtype(ha.dtype) and not isinstance(ha.dtype, pandas.CategoricalDtype):
        if not (hb.dtype == object or pandas.api.types.is_string_dtype(hb.dtype)) or \
                isinstance(hb.dtype, pandas.CategoricalDtype):
            return None
        codes, _ = pandas.factorize(pandas.concat([ha, hb], ignore_index=True), use_na_sentinel=True)
        codes = codes.astype(numpy.float64)
        codes[codes < 0] = numpy.nan
        return tnp.asarray(codes[:len(ha)]), tnp.asarray(codes[len(ha):])
    return None


def _take(s, idx, missing):
    """Column `s` at row positions `idx` (a tessera int64 array; -1: no row, when `missing`),
    with pandas' dtype for a column that gained missing values."""
    if isinstance(s._data, _datetimes.Coded):  # NaT or a missing category where there is no row
        return Series._wrap(s._data.take(idx, missing and bool(tnp.any(idx < 0))), None, s.name)
    if not s._on_host:
        v = s._data
        if not missing:
            return Series._wrap(v[idx], None, s.name)
        absent = idx < 0
        if not bool(tnp.any(absent)):
            return Series._wrap(v[idx], None, s.name)  # nothing missing: the dtype stays
        got = v[tnp.where(absent, 0, idx)]
        if v.dtype.kind in "iu":
            got = got.astype(numpy.float64)
        elif v.dtype.kind == "b":
            host = pandas.Series(numpy.asarray(got), dtype=object)
            host[numpy.asarray(absent)] = numpy.nan
            return Series._wrap(host, None, s.name)
        return Series._wrap(tnp.where(absent, numpy.nan, got), None, s.name)
    positions = numpy.asarray(idx)
    values = s._data.array.take(positions, allow_fill=missing)
    return Series._wrap(pandas.Series(values, name=s.name), None, s.name)


def _coalesce(ls, rs, li, ri, lmiss, how):
    """A key of one name on both sides: the left's value where the row has a left row, else the
    right's (right and outer joins), in the dtype pandas gives."""
    if how == "right":
        return _take(rs, ri, False)
    if not lmiss:
        out = _take(ls, li, False)
        if isinstance(ls.dtype, pandas.CategoricalDtype) and ls.dtype != rs.dtype:
            # categoricals of other categories: pandas gives the key as its categories' values
            out = Series._wrap(out._data.astype(ls.dtype.categories.dtype), None, ls.name)
        return out
    if isinstance(ls._data, _datetimes.Coded):  # datetimes of one dtype (see _datetimes.merge_keys)
        return Series._wrap(_datetimes.coalesce(ls._data, rs._data, li, ri), None, ls.name)
    t = numpy.result_type(ls.dtype, rs.dtype)
    a = ls._data[tnp.where(li < 0, 0, li)].astype(t)
    b = rs._data[tnp.where(ri < 0, 0, ri)].astype(t)
    return Series._wrap(tnp.where(li >= 0, a, b), None, ls.name)
