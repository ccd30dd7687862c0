"""tessera.pandas: pandas' API on tessera — `import tessera.pandas as pd`.

A DataFrame is columns aligned by rows; a numeric or boolean column is a tessera array
(tiled by rows, computed on every worker and rank, the very array tessera.numpy computes
on), and `read_parquet` reads a file's row groups in parallel with Apache Arrow C++.
A naive datetime64 or timedelta64 column is a tessera int64 array of its counts (NaT as
INT64_MIN, as pandas stores it) and a categorical column a tessera array of its codes, each
with its pandas dtype: they stay in tessera through selection, filtering, sort_values, concat,
merge and groupby keys, and their `.dt` and `.cat` accessors compute in tessera (see
_datetimes). What this library does not hold yet — string and tz-aware datetime columns,
indexes other than the row labels pandas keeps — it keeps as pandas objects on the calling
process, so programs still run, with pandas' results, where they are not yet parallel;
their accessors (`.str`, `.dt`...) are pandas' own, announced as fallbacks.
"""
from pandas import NA, NaT, Index, RangeIndex, MultiIndex, isna, notna  # the labels and scalars are pandas' own
from pandas.errors import MergeError

from ._series import Series
from ._frame import DataFrame
from ._io import read_csv, read_parquet
from ._merge import merge
from ._reshape import concat, melt, pivot_table

__all__ = ["DataFrame", "Series", "Index", "RangeIndex", "MultiIndex", "NA", "NaT", "MergeError",
           "isna", "isnull", "notna", "notnull", "merge", "concat", "melt", "pivot_table", "read_csv", "read_parquet"]


# pandas' functions that touch no data: pandas' own, unchanged (no fallback to announce).
_PANDAS_OWN = {"get_option", "set_option", "reset_option", "describe_option", "option_context",
               "set_eng_float_format", "show_versions", "test"}
isnull, notnull = isna, notna


def __getattr__(name):
    """pandas' functions that tessera.pandas has no native version of yet (to_datetime,
    crosstab, ...) run in pandas on this process, announced as fallbacks; their results come
    back as tessera.pandas objects."""
    import pandas
    from . import _fallback
    if name.startswith("_") or not hasattr(pandas, name):
        raise AttributeError(f"module 'tessera.pandas' has no attribute '{name}'")
    attr = getattr(pandas, name)
    if not callable(attr) or isinstance(attr, type) or name in _PANDAS_OWN:
        return attr  # types (Timestamp, CategoricalDtype...), options and submodules are pandas' own

    def function(*args, **kwargs):
        return _fallback.run(name, attr, args, kwargs)
    function.__name__ = name
    function.__doc__ = attr.__doc__
    return function
