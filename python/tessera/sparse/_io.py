"""Files: save_npz/load_npz in SciPy's .npz layout, and Matrix Market (coordinate, real,
integer or complex; general or symmetric) through mmread/mmwrite. Values pass through the
host only to be written or read."""
import numpy as _np

import tessera.numpy as tnp
from tessera.sparse._base import _spbase
from tessera.sparse._compressed import csc_array, csc_matrix, csr_array, csr_matrix
from tessera.sparse._coo import coo_array, coo_matrix


def save_npz(file, matrix, compressed=True):
    """Writes `matrix` (csr, csc, coo or dia) as SciPy's save_npz does."""
    if not isinstance(matrix, _spbase):
        raise NotImplementedError("Save is not implemented for sparse matrix of format " + type(matrix).__name__)
    arrays = {"format": matrix.format.encode("ascii"), "shape": _np.asarray(matrix.shape)}
    if matrix.format in ("csr", "csc"):
        arrays.update(indices=_np.asarray(matrix.indices), indptr=_np.asarray(matrix.indptr))
    elif matrix.format == "coo":
        arrays.update(row=_np.asarray(matrix.row), col=_np.asarray(matrix.col))
    elif matrix.format == "dia":
        arrays.update(offsets=_np.asarray(matrix.offsets))
    else:
        raise NotImplementedError(f"Save is not implemented for sparse matrix of format {matrix.format}.")
    arrays["data"] = _np.asarray(matrix.data)
    if not matrix._is_array:
        arrays["_is_array"] = False
    else:
        arrays["_is_array"] = True
    (_np.savez_compressed if compressed else _np.savez)(file, **arrays)


def load_npz(file):
    """Reads a file written by save_npz (tessera's or SciPy's)."""
    with _np.load(file, allow_pickle=False) as f:
        fmt = f["format"].item()
        fmt = fmt.decode("ascii") if isinstance(fmt, bytes) else str(fmt)
        is_array = bool(f["_is_array"]) if "_is_array" in f.files else False
        shape = tuple(int(s) for s in f["shape"])
        data = tnp.asarray(f["data"])
        if fmt in ("csr", "csc"):
            cls = {"csr": (csr_matrix, csr_array), "csc": (csc_matrix, csc_array)}[fmt][is_array]
            return cls((data, tnp.asarray(f["indices"]), tnp.asarray(f["indptr"])), shape=shape)
        if fmt == "coo":
            cls = coo_array if is_array else coo_matrix
            return cls((data, (tnp.asarray(f["row"]), tnp.asarray(f["col"]))), shape=shape)
        if fmt == "dia":
            from tessera.sparse._dia import dia_array, dia_matrix

            cls = dia_array if is_array else dia_matrix
            return cls((data, tnp.asarray(f["offsets"])), shape=shape)
    raise NotImplementedError(f"Load is not implemented for sparse matrix of format {fmt}.")


def mmwrite(target, a, comment=None, field=None, precision=None, symmetry=None):
    """Writes a sparse array in Matrix Market coordinate format (general)."""
    if not isinstance(a, _spbase):
        raise ValueError("mmwrite here writes sparse arrays")
    coo = a.tocoo()
    kind = _np.dtype(coo.dtype).kind
    field = field or {"f": "real", "c": "complex", "i": "integer", "u": "unsigned-integer", "b": "integer"}[kind]
    rows, cols, vals = _np.asarray(coo.row) + 1, _np.asarray(coo.col) + 1, _np.asarray(coo.data)
    lines = [f"%%MatrixMarket matrix coordinate {field} general"]
    if comment:
        lines += ["%" + line for line in comment.split("\n")]
    lines.append(f"{coo.shape[0]} {coo.shape[1]} {coo.nnz}")
    fmt = f"%.{precision}e" if precision is not None else "%r"
    for r, c, v in zip(rows.tolist(), cols.tolist(), vals.tolist()):
        if field == "complex":
            lines.append(f"{r} {c} {fmt % v.real} {fmt % v.imag}")
        elif field in ("integer", "unsigned-integer"):
            lines.append(f"{r} {c} {int(v)}")
        else:
            lines.append(f"{r} {c} {fmt % float(v)}")
    text = "\n".join(lines) + "\n"
    if hasattr(target, "write"):
        target.write(text.encode() if "b" in getattr(target, "mode", "") else text)
    else:
        path = str(target)
        if not path.endswith(".mtx"):
            path += ".mtx"
        with open(path, "w") as f:
            f.write(text)


def mmread(source, *, spmatrix=True):
    """Reads a Matrix Market coordinate file into a coo_array (general, symmetric,
    skew-symmetric or hermitian; real, integer, complex or pattern)."""
    if hasattr(source, "read"):
        text = source.read()
        text = text.decode() if isinstance(text, bytes) else text
    else:
        path = str(source)
        try:
            f = open(path)
        except FileNotFoundError:
            f = open(path + ".mtx")
        with f:
            text = f.read()
    lines = text.splitlines()
    header = lines[0].split()
    if len(header) < 5 or header[0].lower() != "%%matrixmarket":
        raise ValueError("not a Matrix Market file")
    layout, field, symmetry = header[2].lower(), header[3].lower(), header[4].lower()
    body = [ln for ln in lines[1:] if ln.strip() and not ln.startswith("%")]
    if layout != "coordinate":
        raise NotImplementedError("mmread here reads coordinate files")
    m, n, nnz = (int(x) for x in body[0].split()[:3])
    table = [ln.split() for ln in body[1:1 + nnz]]
    r = _np.array([int(t[0]) - 1 for t in table], dtype=_np.int64)
    c = _np.array([int(t[1]) - 1 for t in table], dtype=_np.int64)
    if field == "pattern":
        v = _np.ones(len(table))
    elif field == "complex":
        v = _np.array([complex(float(t[2]), float(t[3])) for t in table])
    elif field in ("integer", "unsigned-integer"):
        v = _np.array([int(t[2]) for t in table], dtype=_np.int64)
    else:
        v = _np.array([float(t[2]) for t in table])
    if symmetry in ("symmetric", "skew-symmetric", "hermitian"):
        off = r != c
        mirror = v[off]
        if symmetry == "skew-symmetric":
            mirror = -mirror
        elif symmetry == "hermitian":
            mirror = _np.conj(mirror)
        r, c, v = _np.concatenate((r, c[off])), _np.concatenate((c, r[off])), _np.concatenate((v, mirror))
    cls = coo_matrix if spmatrix else coo_array
    return cls((tnp.asarray(v), (tnp.asarray(r), tnp.asarray(c))), shape=(m, n))
