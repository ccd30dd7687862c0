"""tessera.pandas: pandas' API on tessera — `import tessera.pandas as pd`.

A DataFrame is columns aligned by rows; a numeric or boolean column is a tessera array
(tiled by rows, computed on every worker and rank, the very array tessera.numpy computes
on), and `read_parquet` reads a file's row groups in parallel with Apache Arrow C++.
What this library does not hold yet — string, datetime and categorical columns, indexes
other than the row labels pandas keeps — it keeps as pandas objects on the calling
process, so programs still run, with pandas' results, where they are not yet parallel.
"""
from pandas import NA, NaT, Index, RangeIndex, MultiIndex, isna, notna  # the labels and scalars are pandas' own
from pandas.errors import MergeError

from ._series import Series
from ._frame import DataFrame
from ._io import read_csv, read_parquet

__all__ = ["DataFrame", "Series", "Index", "RangeIndex", "MultiIndex", "NA", "NaT", "MergeError",
           "isna", "notna", "read_csv", "read_parquet"]
