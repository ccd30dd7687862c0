"""Reading files into DataFrames through Apache Arrow C++: Parquet in parallel by row groups, CSV by
byte ranges."""
import json
import os

import pandas

from tessera import _tessera

from ._frame import DataFrame
from ._series import Series, _from_host


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
        data = values[name] if name in values else _from_host(host[name])[0]
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


# read_csv's arguments read natively; any other sends the call to pandas (announced).
_CSV_NATIVE = {"sep", "delimiter", "header", "names", "usecols", "dtype", "nrows", "skiprows", "na_values",
               "compression", "engine", "parse_dates"}
_CSV_INFERRED = {".gz": "gzip", ".bz2": "bz2", ".zip": "zip", ".xz": "xz", ".zst": "zstd", ".tar": "tar"}


def read_csv(filepath_or_buffer, *args, **kwargs):
    """pandas.read_csv. A file is cut into byte ranges at line ends and parsed by Apache Arrow
    C++'s CSV reader, one task point per range (every worker, every rank): its int64, float64
    and bool columns become tessera arrays (an integer column with missing values is float64
    with NaN, as pandas reads it). String columns (pandas' ``str`` dtype), booleans with missing
    values, dates and ``dtype='category'`` or ``str`` columns are read by pandas on this process
    (``usecols`` of just those columns): datetime and categorical columns are then held in
    tessera (see _datetimes), the others kept on the host. A gzip file is not cut: one point
    reads it. ``sep``/``delimiter`` (one character), ``header=0``/``None``, ``names``,
    ``usecols`` (names), ``dtype`` (a dict or one dtype), ``nrows``, ``skiprows`` (an int),
    ``na_values`` (strings that are not numbers, besides pandas' own), ``parse_dates`` (a list of
    column names, parsed by pandas) and ``compression`` (``'gzip'``, or inferred
    from a ``.gz`` name) are read natively, ``engine`` is accepted (every engine gives this
    frame); any other argument (``index_col``, ``converters``,
    ``dtype_backend``, a buffer...) runs pandas.read_csv on this process, announced as a
    fallback, and gives pandas' result."""
    plan = _csv_plan(filepath_or_buffer, args, kwargs)
    if plan is None:
        return _csv_fallback(filepath_or_buffer, args, kwargs)
    path, options, host_kwargs, int_labels = plan
    if not os.path.exists(path):
        import errno
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    try:
        rows, read = _tessera._read_csv(path, **options)
    except NotImplementedError:  # what Arrow's parser reads otherwise than pandas
        return _csv_fallback(filepath_or_buffer, args, kwargs)
    names = [name for name, _values, _type in read]
    if any(d not in names for d in kwargs.get("parse_dates", None) or ()):
        return _csv_fallback(filepath_or_buffer, args, kwargs)  # pandas' error for a column it lacks
    others = [name for name, values, _type in read if values is None]
    if rows <= 0 or len(others) == len(names):  # nothing native (an empty file: pandas' object columns)
        return DataFrame(pandas.read_csv(path, **kwargs))
    labels = pandas.RangeIndex(rows)
    host = None
    if others:
        usecols = [int(n) for n in others] if int_labels else others
        host = pandas.read_csv(path, usecols=usecols, **host_kwargs)
        if len(host) != rows:  # pandas counts rows otherwise (a case Arrow reads differently)
            return _csv_fallback(filepath_or_buffer, args, kwargs)
    cols = {}
    for name, values, _type in read:
        label = int(name) if int_labels else name
        data = values
        if values is None:  # a datetime or categorical column held in tessera, else pandas' column
            data = host[label].copy()
            data.index = labels
            data = _from_host(data)[0]
        cols[label] = Series._wrap(data, labels, label)
    return DataFrame._wrap(cols, labels)


def _csv_fallback(filepath_or_buffer, args, kwargs):
    from ._fallback import run
    return run("read_csv", pandas.read_csv, (filepath_or_buffer, *args), kwargs)


def _csv_plan(source, args, kwargs):
    """(path, options of _read_csv, kwargs for pandas' reading of the host columns, whether the
    labels are 0, 1, ...) — or None when pandas must read the file."""
    if args or set(kwargs) - _CSV_NATIVE or not isinstance(source, (str, os.PathLike)):
        return None
    path = os.fspath(source)
    if not isinstance(path, str) or "://" in path:
        return None
    path = os.path.expanduser(path)
    if os.path.isdir(path):
        return None  # pandas' error
    sep, delimiter = kwargs.get("sep", None), kwargs.get("delimiter", None)
    if sep is not None and delimiter is not None:
        return None
    sep = delimiter if delimiter is not None else (sep if sep is not None else ",")
    if not isinstance(sep, str) or len(sep) != 1 or sep in "\"\r\n ":
        return None
    names = kwargs.get("names", None)
    header = kwargs.get("header", "infer")
    if header == "infer":
        header = 0 if names is None else None
    if header is not None and (isinstance(header, bool) or header != 0):
        return None
    if names is not None:
        names = list(names)
        if not names or not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
            return None
    int_labels = header is None and names is None
    usecols = kwargs.get("usecols", None)
    if usecols is not None:
        if int_labels or isinstance(usecols, str) or callable(usecols):
            return None
        usecols = list(usecols)
        if not all(isinstance(u, str) for u in usecols):
            return None
    nrows = kwargs.get("nrows", None)
    skiprows = kwargs.get("skiprows", None)
    for n in (nrows, skiprows):
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            return None
    na_values = kwargs.get("na_values", None)
    if na_values is None:
        na_values = []
    elif isinstance(na_values, str):
        na_values = [na_values]
    elif isinstance(na_values, (list, tuple, set)) and all(isinstance(v, str) for v in na_values):
        na_values = sorted(na_values)
    else:
        return None
    if any(_is_number(v) for v in na_values):
        return None  # pandas also matches its numeric value ("1" takes 1.0): pandas reads it
    compression = kwargs.get("compression", "infer")
    if compression == "infer":
        compression = next((c for ext, c in _CSV_INFERRED.items() if path.lower().endswith(ext)), None)
    if compression not in (None, "gzip"):
        return None
    dtypes, host = _csv_dtypes(kwargs.get("dtype", None), names, usecols)
    if dtypes is None:
        return None
    dates = kwargs.get("parse_dates", None)
    if dates is not None:  # column names pandas parses (into datetime columns held in tessera)
        if isinstance(dates, (str, bool)) or not isinstance(dates, (list, tuple)) or \
                not all(isinstance(d, str) for d in dates) or int_labels:
            return None
        if any(d in host or any(d == name for name, _ in dtypes) for d in dates) or \
                usecols is not None and any(d not in usecols for d in dates):
            return None
        host = host + [d for d in dates if d not in host]
    host_kwargs = {k: v for k, v in kwargs.items() if k not in ("usecols", "engine")}
    options = dict(delimiter=sep, header=header == 0, names=names or [], skiprows=skiprows or 0,
                   nrows=-1 if nrows is None else nrows, usecols=usecols or [], na_values=na_values,
                   dtypes=dtypes, host=host, gzip=compression == "gzip")
    return path, options, host_kwargs, int_labels


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _csv_dtypes(dtype, names, usecols):
    """([(column, NumPy dtype name)] read natively, [columns pandas reads]) for read_csv's dtype=,
    or (None, None) when pandas must read the file."""
    if dtype is None:
        return [], []
    if not isinstance(dtype, dict):
        if _host_dtype(dtype):
            return None, None  # every column a string: pandas reads it all
        d = _native_dtype(dtype)
        if d is None:
            return None, None
        return [("", d)], []  # "": every column
    dtypes, host = [], []
    for name, d in dtype.items():
        if not isinstance(name, str):
            return None, None
        if _host_dtype(d):
            host.append(name)
            continue
        d = _native_dtype(d)
        if d is None:
            return None, None
        dtypes.append((name, d))
    return dtypes, host


def _host_dtype(d):
    return d in (str, "str", "category", "string", object, "object") or isinstance(d, pandas.CategoricalDtype)


def _native_dtype(d):
    import numpy
    try:
        if isinstance(d, pandas.api.extensions.ExtensionDtype):
            return None
        t = numpy.dtype(d)
    except TypeError:
        return None
    if t.kind in "iub" or t.kind == "f" and t.itemsize >= 4:
        return t.name
    return None
