"""Files and buffers: NumPy's formats, tessera's arrays.

Reading a file is not computing: NumPy's own readers (``numpy.lib.format`` behind
``load``, the text parsers behind ``loadtxt``/``genfromtxt``/``fromregex``, ``fromfile``,
``frombuffer``...) turn the bytes into values, which become a tessera array at once.
Writing reads the tessera array's values once (as printing does) and hands them to NumPy's
writer, so the files are exactly NumPy's. Nothing here goes through the fallback.

With several ranks every rank reads a file itself, and a file named by a path is written by
rank 0 alone, once every rank has reached the call: every rank returns once it is written (an error raises on every rank), so any
rank may read it next. A file object is each rank's own, and each rank writes to it.

Results a tessera array cannot hold (structured or string dtypes, object arrays, masked
arrays from ``genfromtxt(usemask=True)``) are NumPy's own objects, as the fallback gives
them. ``frombuffer`` copies: the tessera array does not share the buffer's memory.
``load(mmap_mode='r' | 'c')`` gives a tessera array over the file's mapping (no read up
front; pages come in as tasks touch them; 'r' is read-only, 'c' keeps writes private);
'r+' and 'w+' run through the fallback, which gives NumPy's memmap itself (its writes reach
the file when NumPy flushes it).
"""
import os
import pickle

import numpy as _np

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute, numpy_signature

_ndarray = _tessera.ndarray


def _host(obj):
    """A tessera array's values as a NumPy array (what is written); anything else as it is."""
    if isinstance(obj, _ndarray):
        return _tessera._to_numpy(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_host(o) for o in obj) if isinstance(obj, tuple) else [_host(o) for o in obj]
    return obj


def _write_once(file, write):
    """Runs `write()`, which writes values already read; with several ranks and `file` a path,
    on rank 0 only, and every rank returns once the file is written."""
    if not isinstance(file, (str, bytes, os.PathLike)) or _tessera._rank_count() == 1:
        return write()
    _tessera._exchange(b"")  # every rank is done with what came before (reading the file, say)
    error = None
    if _tessera._rank() == 0:
        try:
            write()
        except Exception as exc:  # noqa: BLE001  raised on every rank below
            error = exc
    try:
        message = pickle.dumps(error) if error is not None else b""
    except Exception:  # noqa: BLE001  an exception that does not pickle travels as its text
        message = pickle.dumps(OSError(str(error)))
    outcome = _tessera._exchange(message)[0]
    if error is not None:
        raise error
    if outcome:
        raise pickle.loads(outcome)
    return None


def _tessera_array(obj):
    """A NumPy array that was just read, as a tessera array when tessera holds its dtype."""
    if type(obj) is _np.ndarray and obj.dtype.kind in "biufc" and obj.dtype != _np.longdouble:
        return _tessera.asarray(obj)
    if isinstance(obj, tuple):  # loadtxt(unpack=True) of several columns
        return tuple(_tessera_array(o) for o in obj)
    if isinstance(obj, list):
        return [_tessera_array(o) for o in obj]
    return obj


class NpzFile:
    """An opened ``.npz`` archive (NumPy's ``NpzFile``) whose arrays are read as tessera
    arrays, one at a time when asked for."""

    def __init__(self, npz):
        self._npz = npz

    def __getitem__(self, key):
        return _tessera_array(self._npz[key])

    def get(self, key, default=None):
        return self[key] if key in self._npz else default

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def keys(self):
        return self._npz.keys()

    def values(self):
        return [self[k] for k in self._npz]

    def items(self):
        return [(k, self[k]) for k in self._npz]

    def __getattr__(self, name):  # files, fid, zip, allow_pickle, f, ...
        return getattr(self._npz, name)

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return repr(self._npz)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):  # NumPy's default
    """Arrays from ``.npy`` / ``.npz`` files (or pickles, with `allow_pickle`), as tessera arrays."""
    if mmap_mode in ("r+", "w+", "readwrite", "write"):
        return fallback_attribute("load")(file, mmap_mode, allow_pickle, fix_imports, encoding,
                                          max_header_size=max_header_size)
    result = _np.load(file, mmap_mode, allow_pickle, fix_imports, encoding, max_header_size=max_header_size)
    if isinstance(result, _np.lib.npyio.NpzFile):
        return NpzFile(result)
    if isinstance(result, _np.memmap) and result.dtype.isbuiltin and result.dtype.kind in "biufc":
        return _tessera.from_dlpack(result)  # the mapping itself when C-ordered, else a copy
    return _tessera_array(result)


def save(file, arr, allow_pickle=True):
    """Writes `arr` to a ``.npy`` file in NumPy's format."""
    values = _host(arr)
    return _write_once(file, lambda: _np.save(file, values, allow_pickle))


def savez(file, *args, allow_pickle=True, **kwds):
    """Writes arrays into an uncompressed ``.npz`` archive."""
    values, named = _host(args), {k: _host(v) for k, v in kwds.items()}
    return _write_once(file, lambda: _np.savez(file, *values, allow_pickle=allow_pickle, **named))


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Writes arrays into a compressed ``.npz`` archive."""
    values, named = _host(args), {k: _host(v) for k, v in kwds.items()}
    return _write_once(file, lambda: _np.savez_compressed(file, *values, allow_pickle=allow_pickle, **named))


@numpy_signature(_np.savetxt)
def savetxt(fname, X, *args, **kwargs):
    """Writes a 1-D or 2-D array to a text file, with NumPy's formatting."""
    values = _host(X)
    return _write_once(fname, lambda: _np.savetxt(fname, values, *args, **kwargs))


@numpy_signature(_np.loadtxt)
def loadtxt(*args, **kwargs):
    """Reads a text file with NumPy's parser into a tessera array."""
    return _tessera_array(_np.loadtxt(*args, **kwargs))


@numpy_signature(_np.genfromtxt)
def genfromtxt(*args, **kwargs):
    """Reads a text file with missing values (NumPy's parser) into a tessera array."""
    return _tessera_array(_np.genfromtxt(*args, **kwargs))


def fromregex(file, regexp, dtype, encoding=None):
    """The matches of a regular expression in a file, as an array (NumPy's parser)."""
    return _tessera_array(_np.fromregex(file, regexp, dtype, encoding))


@numpy_signature(_np.fromfile)
def fromfile(*args, **kwargs):
    """An array from a binary or text file, read by NumPy."""
    return _tessera_array(_np.fromfile(*args, **kwargs))


@numpy_signature(_np.frombuffer)
def frombuffer(buffer, *args, **kwargs):
    """An array from the bytes of a buffer (a copy: it does not share the buffer's memory;
    read-only, as NumPy's, when the buffer is)."""
    host = _np.frombuffer(_host(buffer), *args, **kwargs)
    result = _tessera_array(host)
    if result is not host and not host.flags.writeable:
        _tessera._lock_read_only(result)
    return result


def fromstring(*args, **kwargs):
    """An array from the numbers in a string (NumPy's parser)."""
    return _tessera_array(_np.fromstring(*args, **kwargs))


@numpy_signature(_np.fromiter)
def fromiter(*args, **kwargs):
    """An array from the values of an iterable."""
    return _tessera_array(_np.fromiter(*args, **kwargs))


# ndarray methods that write an array's values out.

def tofile(self, fid, sep="", format="%s"):
    """Writes the array's values to a file, as binary or text (NumPy's ``tofile``)."""
    values = _tessera._to_numpy(self)
    return _write_once(fid, lambda: values.tofile(fid, sep, format))


def tobytes(self, order="C"):
    """The array's values as bytes, in C or Fortran order."""
    return _tessera._to_numpy(self).tobytes(order)


def dumps(self):
    """The array as a pickle (loads back as a tessera array)."""
    return pickle.dumps(self, protocol=2)


def dump(self, file):
    """Pickles the array into a file (a path or an open binary file)."""
    if not isinstance(file, (str, bytes, os.PathLike)):
        return pickle.dump(self, file, protocol=2)
    data = pickle.dumps(self, protocol=2)  # reads the values on every rank

    def write():
        with open(file, "wb") as f:
            f.write(data)

    return _write_once(file, write)


METHODS = (tofile, tobytes, dump, dumps)
