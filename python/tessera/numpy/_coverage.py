"""How tessera runs each public NumPy function, read off the objects themselves.

`rows()` walks NumPy's public functions (every callable of ``numpy`` that is not a type, and
those of ``numpy.linalg``, ``numpy.fft``, ``numpy.random`` and the methods of
``numpy.random.Generator``) and classifies tessera's counterpart:

- native C++ operation: defined in the compiled ``tessera._tessera`` (or a Python signature
  around the extension's function of the same name, or of that name with a leading ``_``);
- native composition: a Python function of tessera.numpy built on tessera operations;
- NumPy's own: NumPy's function re-exported unchanged (it touches no array data);
- fallback: served by the fallback, which runs NumPy on copies of the arrays.

What cannot be read off an object (which functions run as one task, where values differ from
NumPy) is in ``NOTES`` below; scripts/api_coverage.py renders docs/api-coverage.md from this.
"""
import types

import numpy as _np

NATIVE_CPP = "native C++ operation"
COMPOSITION = "native composition"
NUMPY_OWN = "NumPy's own"
FALLBACK = "fallback"
CATEGORIES = (NATIVE_CPP, COMPOSITION, NUMPY_OWN, FALLBACK)

_LAPACK_ONE_MATRIX = {"parallel": "over a stack's matrices (one matrix: one task)",
                      "ranks": "over a stack's matrices (one matrix: one rank)"}
_LAPACK_BY_TILES = {"parallel": "over a stack's matrices; one matrix of 512 rows or more by 256 x 256 tiles "
                              "as tasks (the same bits on any number of cpus)",
                    "ranks": "over a stack's matrices; one large matrix's tiles over the ranks"}
_READER = {"parallel": "no: NumPy's parser reads the bytes", "ranks": "every rank reads the file",
           "differs": "structured, string and object results are NumPy arrays (tessera has no such dtypes)"}
_WRITER = {"parallel": "no: NumPy's writer formats the values", "ranks": "rank 0 writes a named file, every rank waits for it"}
_NO_DATETIME = {"differs": "tessera has no datetime64 dtype: runs in NumPy"}
_MATRIX = {"differs": "numpy.matrix is NumPy's class: runs in NumPy"}
_PRINTING = {"parallel": "no: reads the values, as repr does", "ranks": "values gathered, as repr does"}

# Facts that cannot be read off the objects: qualified name (or a prefix ending in '.') ->
# {"parallel": ..., "ranks": ..., "differs": ...}; a name's own entry adds to its prefix's.
NOTES = {
    "numpy.random.": {"differs": "values differ from NumPy: counter-based generator (Philox-4x32-10); "
                                 "results do not depend on cpus or ranks"},
    "numpy.random.Generator.": {"differs": "values differ from NumPy: counter-based generator (Philox-4x32-10)"},
    "numpy.linalg.solve": _LAPACK_BY_TILES, "numpy.linalg.inv": _LAPACK_ONE_MATRIX,
    "numpy.linalg.cholesky": _LAPACK_BY_TILES, "numpy.linalg.qr": _LAPACK_ONE_MATRIX,
    "numpy.linalg.svd": _LAPACK_ONE_MATRIX, "numpy.linalg.svdvals": _LAPACK_ONE_MATRIX,
    "numpy.linalg.eig": _LAPACK_ONE_MATRIX, "numpy.linalg.eigvals": _LAPACK_ONE_MATRIX,
    "numpy.linalg.eigh": _LAPACK_ONE_MATRIX, "numpy.linalg.eigvalsh": _LAPACK_ONE_MATRIX,
    "numpy.linalg.det": _LAPACK_ONE_MATRIX, "numpy.linalg.slogdet": _LAPACK_ONE_MATRIX,
    "numpy.linalg.pinv": _LAPACK_ONE_MATRIX, "numpy.linalg.matrix_rank": _LAPACK_ONE_MATRIX,
    "numpy.linalg.cond": _LAPACK_ONE_MATRIX, "numpy.linalg.tensorsolve": _LAPACK_ONE_MATRIX,
    "numpy.linalg.tensorinv": _LAPACK_ONE_MATRIX,
    "numpy.linalg.lstsq": {"parallel": "no: one task", "ranks": "no: one rank"},
    "numpy.fft.": {"parallel": "over the lines of the other axes", "ranks": "over the lines (a single line: one rank)"},
    "numpy.load": dict(_READER, differs="an .npz archive opens as an NpzFile-like object whose arrays are tessera "
                                        "arrays; mmap_mode 'r'/'c' gives a tessera array over the file's mapping, "
                                        "'r+'/'w+' NumPy's memmap (the fallback: writes reach the file)"),
    "numpy.loadtxt": _READER, "numpy.genfromtxt": dict(_READER, differs=_READER["differs"] + "; usemask=True "
                                                                                   "gives NumPy's masked array"),
    "numpy.fromregex": _READER, "numpy.fromfile": _READER,
    "numpy.frombuffer": dict(_READER, ranks="every rank reads the buffer",
                             differs="a copy: the result does not share the buffer's memory"),
    "numpy.fromstring": dict(_READER, ranks="every rank parses the string"),
    "numpy.fromiter": dict(_READER, ranks="every rank iterates"),
    "numpy.save": _WRITER, "numpy.savez": _WRITER, "numpy.savez_compressed": _WRITER, "numpy.savetxt": _WRITER,
    "numpy.array2string": _PRINTING, "numpy.array_repr": _PRINTING, "numpy.array_str": _PRINTING,
    "numpy.frompyfunc": {"parallel": "no: calls the Python function once per element",
                         "ranks": "every rank calls it on every element",
                         "differs": "results are NumPy object arrays (tessera has no object dtype)"},
    "numpy.shares_memory": {"differs": "a tessera array and a NumPy array never share memory"},
    "numpy.may_share_memory": {"differs": "a tessera array and a NumPy array never share memory"},
    "numpy.busday_count": _NO_DATETIME, "numpy.busday_offset": _NO_DATETIME, "numpy.is_busday": _NO_DATETIME,
    "numpy.datetime_as_string": _NO_DATETIME, "numpy.isnat": _NO_DATETIME,
    "numpy.asmatrix": _MATRIX, "numpy.bmat": _MATRIX,
    "numpy.nested_iters": {"differs": "NumPy's iterator over NumPy arrays: runs in NumPy"},
    "numpy.test": {"differs": "NumPy's own test suite"},
}

_DEFAULTS = {NATIVE_CPP: ("yes", "yes"), COMPOSITION: ("yes", "yes"), NUMPY_OWN: ("-", "-"),
             FALLBACK: ("no: NumPy on one core", "no: every rank runs NumPy on the whole arrays")}
_FALLBACK_NAMES = {"fallback", "_fallback", "_fallback_attribute", "fallback_attribute", "fallback_call"}


def _is_compiled(obj):
    """Whether `obj` is a function or method of the compiled extension (nanobind's objects,
    possibly behind the extension's call wrapper or an instance-method wrapper)."""
    for inner in (obj, getattr(obj, "_tessera_function", None), getattr(obj, "__func__", None)):
        if type(inner).__name__ in ("nb_func", "nb_method"):
            return True
    return (getattr(obj, "__module__", None) or "").startswith("tessera._tessera")


def _compiled_modules():
    from tessera import _tessera

    return [_tessera] + [getattr(_tessera, m) for m in ("_linalg", "_fft", "_random") if hasattr(_tessera, m)]


def _python_code(obj):
    from tessera.numpy._ufunc import ufunc

    if isinstance(obj, ufunc):
        obj = obj._func
    return getattr(obj, "__code__", None), obj


def classify(ours, numpy_obj, name):
    """(category, whether some arguments fall back) of tessera's `ours` for NumPy's `numpy_obj`."""
    if ours is None:
        return FALLBACK, False
    if ours is numpy_obj:
        return NUMPY_OWN, False
    code, target = _python_code(ours)
    if code is None:
        return (NATIVE_CPP if _is_compiled(target) else COMPOSITION), False
    partial = bool(_FALLBACK_NAMES & set(code.co_names))
    for compiled_name in (name, "_" + name):  # the extension's function, public or private
        if compiled_name in code.co_names and any(_is_compiled(getattr(m, compiled_name, None))
                                                  for m in _compiled_modules()):
            return NATIVE_CPP, partial
    return COMPOSITION, partial


def _public_functions(module):
    return sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))
                  and not isinstance(getattr(module, n), type))


def _note(qualname):
    note = {}
    for key in sorted(NOTES, key=len):
        if qualname == key or (key.endswith(".") and qualname.startswith(key)):
            note.update(NOTES[key])
    return note


def _row(qualname, ours, numpy_obj, name):
    category, partial = classify(ours, numpy_obj, name)
    parallel, ranks = _DEFAULTS[category]
    # A fallback runs NumPy itself: only a note on the function itself (why it stays) applies.
    note = NOTES.get(qualname, {}) if category == FALLBACK else _note(qualname)
    differs = []
    if category == NUMPY_OWN and hasattr(numpy_obj, "_implementation"):
        differs.append("given a tessera array, NumPy hands it to the fallback")
    if partial:
        differs.append("some arguments fall back")
    if "differs" in note:
        differs.append(note["differs"])
    if category in (NATIVE_CPP, COMPOSITION):
        parallel, ranks = note.get("parallel", parallel), note.get("ranks", ranks)
    return {"name": qualname, "category": category, "parallel": parallel, "ranks": ranks,
            "differs": "; ".join(differs)}


def rows():
    """One row per public NumPy function: name, category, parallel, ranks, differs."""
    import tessera.numpy as tnp

    out = []
    for prefix, numpy_module, ours in (("numpy", _np, tnp), ("numpy.linalg", _np.linalg, tnp.linalg),
                                       ("numpy.fft", _np.fft, tnp.fft), ("numpy.random", _np.random, tnp.random)):
        own = vars(ours)
        for name in _public_functions(numpy_module):
            out.append(_row(f"{prefix}.{name}", own.get(name), getattr(numpy_module, name), name))
    generator = vars(tnp.random.Generator)
    for name in _public_functions(_np.random.Generator):
        numpy_method = getattr(_np.random.Generator, name)
        out.append(_row(f"numpy.random.Generator.{name}", generator.get(name), numpy_method, name))
    return out
