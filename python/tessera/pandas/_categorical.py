"""The `.cat` accessor and value_counts of a categorical column held in tessera (its codes in a
tessera integer array, its CategoricalDtype on this process; see _datetimes.Coded).

codes, categories and ordered are the column's own; value_counts counts the codes with one
parallel bincount and builds pandas' result from the counts (one row per category: small) as
pandas builds it. The accessor's other methods (add_categories, rename_categories, ...) run in
pandas, announced as fallbacks."""
import numpy
import pandas

import tessera.numpy as tnp

from . import _fallback


class CategoricalAccessor:
    """pandas' `.cat` of a categorical column held in tessera."""

    def __init__(self, s):
        self._s = s

    @property
    def codes(self):
        from ._series import Series
        s = self._s
        return Series._wrap(tnp.array(s._data.values, copy=True), s._index, None)

    @property
    def categories(self):
        return self._s.dtype.categories

    @property
    def ordered(self):
        return self._s.dtype.ordered

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        host = self._s.to_pandas().cat
        getattr(host, name)  # pandas' AttributeError, before any announcement
        return _fallback._Proxy(host, self._s, "Series.cat").__getattr__(name)

    def __dir__(self):
        return dir(pandas.Series([], dtype=self._s.dtype).cat)

    def __repr__(self):
        return repr(self._s.to_pandas().cat)


def value_counts(s, normalize=False, sort=True, ascending=False, bins=None, dropna=True):
    """Series.value_counts of categorical column `s`: pandas' result (Categorical.value_counts,
    then a stable sort by count), the counts made by tessera."""
    if bins is not None:
        return None
    dtype = s.dtype
    ncat = len(dtype.categories)
    counts = numpy.asarray(tnp.bincount((s._data.values.astype(numpy.int64) + 1), minlength=ncat + 1))
    nulls = int(counts[0])
    count = counts[1:].astype(numpy.int64)
    ix = numpy.arange(ncat)
    if not dropna and nulls:
        count = numpy.append(count, nulls)
        ix = numpy.append(ix, -1)
    labels = pandas.CategoricalIndex(pandas.Categorical.from_codes(ix, dtype=dtype), name=s.name)
    result = pandas.Series(count, index=labels, dtype="int64", name="proportion" if normalize else "count")
    if sort:
        result = result.sort_values(ascending=ascending, kind="stable")
    if normalize:
        result = result / result.sum()
    return _fallback.from_host(result)
