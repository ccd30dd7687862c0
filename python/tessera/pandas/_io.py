"""Reading files into DataFrames: Parquet through Apache Arrow C++, in parallel by row groups."""
import json
import os

import pandas

from tessera import _tessera

from ._frame import DataFrame
from ._series import Series


def read_parquet(path, columns=None, **kwargs):
    """pandas.read_parquet: numeric and boolean columns are read into tessera arrays by one task
    point per row group (every worker, every rank); a column of a type not held yet (strings,
    datetimes, nested types) is read by pandas on this process, with pandas' result."""
    if kwargs:
        return DataFrame(pandas.read_parquet(path, columns=columns, **kwargs))
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"[Errno 2] Failed to open local file '{path}'. Detail: [errno 2] No such file or directory")
    import pyarrow.parquet as pq
    schema = pq.read_schema(path)
    meta = json.loads((schema.metadata or {}).get(b"pandas", b"{}"))
    index_columns = meta.get("index_columns", [])
    stored = [c for c in index_columns if isinstance(c, str)]
    names = [f for f in schema.names if f not in stored] if columns is None else list(columns)
    for name in names:
        if name not in schema.names:
            import pyarrow
            raise pyarrow.lib.ArrowInvalid(f"No match for FieldRef.Name({name}) in {schema.to_string(show_schema_metadata=False)}")
    if len(set(schema.names)) != len(schema.names) or any(not isinstance(n, str) for n in names):
        return DataFrame(pandas.read_parquet(path, columns=columns))
    if not names:
        return DataFrame(pandas.read_parquet(path, columns=columns))
    held = [n for n in names if _held_type(schema.field(n).type)]
    try:
        rows, read, _meta = _tessera._read_parquet(path, held) if held else (None, [], [])
    except NotImplementedError:  # a boolean column with nulls (pandas: object): pandas reads it all
        return DataFrame(pandas.read_parquet(path, columns=columns))
    values = {name: v for name, v, _validity, _type in read}
    others = [n for n in names if n not in values]
    host = pandas.read_parquet(path, columns=others) if others or stored else None
    labels = host.index if host is not None else _range_index(index_columns, rows)
    cols = {}
    for name in names:
        data = values[name] if name in values else host[name].copy()
        cols[name] = Series._wrap(data, labels, name)
    return DataFrame._wrap(cols, labels)


def _held_type(t):
    import pyarrow as pa
    return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)


def _range_index(index_columns, rows):
    for c in index_columns:
        if isinstance(c, dict) and c.get("kind") == "range":
            return pandas.RangeIndex(c["start"], c["stop"], c["step"], name=c.get("name"))
    return pandas.RangeIndex(rows)


def read_csv(filepath_or_buffer, *args, **kwargs):
    """pandas.read_csv: parsed by pandas on this process (not yet by byte ranges on every worker
    and rank); its numeric and boolean columns then become tessera arrays."""
    return DataFrame(pandas.read_csv(filepath_or_buffer, *args, **kwargs))
