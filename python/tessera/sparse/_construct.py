"""Building sparse arrays: eye, identity, diags, spdiags, random, kron, block_diag, hstack,
vstack, tril, triu — each assembles its (row, column, value) triples with tessera operations
and sorts them into CSR once."""
import numbers
import operator

import numpy as _np

import tessera.numpy as tnp
from tessera import _tessera
from tessera.sparse._base import _asarray, _index_dtype, _is_scipy_sparse, _sorted_csr, _spbase
from tessera.sparse._compressed import csc_array, csc_matrix, csr_array, csr_matrix
from tessera.sparse._coo import coo_array, coo_matrix

_ARRAY = {"csr": csr_array, "csc": csc_array, "coo": coo_array}
_MATRIX = {"csr": csr_matrix, "csc": csc_matrix, "coo": coo_matrix}


def _finish(csr, format, matrix=False):
    """`csr` (a csr_array) in `format`, as an array or a matrix class."""
    table = _MATRIX if matrix else _ARRAY
    format = format or "csr"
    if format == "dia":
        from tessera.sparse._dia import dia_array, dia_matrix

        return (dia_matrix if matrix else dia_array)(csr)
    if format not in table:
        raise ValueError(f"unknown format {format!r}")
    if format == "csr":
        return csr._as(table["csr"])
    return table[format](csr._as(csr_array))


def _triples(rows, cols, data, shape, format, matrix=False):
    d, i, p = _sorted_csr(rows, cols, data, shape)
    return _finish(csr_array._raw(d, i, p, shape), format, matrix)


def _shape2(m, n):
    m = operator.index(m)
    n = m if n is None else operator.index(n)
    return m, n


def eye_array(m, n=None, *, k=0, dtype=float, format=None):
    """Ones on the k-th diagonal of an (m, n) sparse array."""
    m, n = _shape2(m, n)
    k = operator.index(k)
    if min(m + k, n - k) < 0:
        raise ValueError(f"Offset {k} (index 0) out of bounds")
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    idx = _index_dtype(m, n)
    r = tnp.arange(length, dtype=idx) + max(0, -k)
    return _triples(r, r + k, tnp.ones(length, dtype=dtype), (m, n), format or "dia")


def eye(m, n=None, k=0, dtype=float, format=None):
    """SciPy's ``eye`` (a sparse matrix)."""
    a = eye_array(m, n, k=k, dtype=dtype, format="csr")
    return _finish(a, format or "dia", matrix=True)


def identity(n, dtype="d", format=None):
    """The n × n identity as a sparse matrix."""
    return eye(n, n, dtype=dtype, format=format)


_NO_VALUE = object()


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=_NO_VALUE):
    """A sparse array from diagonals (SciPy's ``diags_array``). Without `dtype`, SciPy's
    default: numpy.common_type of the diagonals (float64 for integers), with its FutureWarning
    when that differs from their result_type (what dtype=None gives)."""
    if _np.isscalar(offsets):
        if len(diagonals) == 0 or _np.isscalar(diagonals[0]) or (hasattr(diagonals[0], "ndim") and diagonals[0].ndim == 0):
            diagonals = [diagonals]
        offsets = [offsets]
    offsets = [operator.index(o) for o in offsets]
    diagonals = [_asarray(d) for d in diagonals]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if len(set(offsets)) != len(offsets):
        raise ValueError("offset array contains duplicate values")
    if dtype is _NO_VALUE:
        future = _np.result_type(*[d.dtype for d in diagonals])
        dtype = _np.dtype(_np.common_type(*[_np.empty(0, d.dtype) for d in diagonals]))
        if dtype != future:
            import warnings

            warnings.warn(f"Input has data type {future}, but the output has been cast to {dtype}.  In the future, "
                          "the output data type will match the input. To avoid this warning, set the `dtype` "
                          "parameter to `None` to have the output dtype match the input, or set it to the desired "
                          "output data type.", FutureWarning, stacklevel=2)
    if shape is None:
        m = len(diagonals[0]) + abs(int(offsets[0]))
        shape = (m, m)
    m, n = _shape2(*shape)
    if dtype is None:
        dtype = _np.result_type(*[d.dtype for d in diagonals])
    rows, cols, vals = [], [], []
    idx = _index_dtype(m, n)
    for j, (d, k) in enumerate(zip(diagonals, offsets)):
        length = min(m + k, n - k, m, n)
        if length < 0:
            raise ValueError(f"Offset {k} (index {j}) out of bounds")
        d = d.reshape(-1) if d.ndim else d.reshape(1)
        if d.size != 1 and d.size < length:
            raise ValueError(f"Diagonal length (index {j}: {d.size} at offset {k}) does not agree with array size ({m}, {n}).")
        r = tnp.arange(length, dtype=idx) + max(0, -k)
        rows.append(r)
        cols.append(r + k)
        vals.append((tnp.broadcast_to(d, (length,)) if d.size == 1 else d[:length]).astype(dtype))
    a = _triples(tnp.concatenate(rows), tnp.concatenate(cols), tnp.concatenate(vals), (m, n), "csr")
    return _finish(a, format or "dia")


def diags(diagonals, offsets=0, shape=None, format=None, dtype=_NO_VALUE):
    """SciPy's ``diags`` (a sparse matrix)."""
    a = diags_array(diagonals, offsets=offsets, shape=shape, format="csr", dtype=dtype)
    return _finish(a, format or "dia", matrix=True)


def spdiags(data, diags, m=None, n=None, format=None):
    """Diagonals from the rows of `data`: row i on diagonal diags[i], aligned by column."""
    if m is None and n is None:
        raise ValueError("m and n, or shape, are needed")
    if n is None:
        m, n = m
    data = _asarray(data)
    if data.ndim == 1:
        data = data.reshape(1, -1)
    offsets = [diags] if _np.isscalar(diags) else list(diags)
    if data.shape[0] != len(offsets):
        raise ValueError("number of diagonals (%d) does not match the number of offsets (%d)" % (data.shape[0], len(offsets)))
    rows, cols, vals = [], [], []
    idx = _index_dtype(m, n)
    for i, k in enumerate(offsets):
        k = int(k)
        lo, hi = max(0, k), min(n, m + k, data.shape[1])
        if hi <= lo:
            continue
        c = tnp.arange(lo, hi, dtype=idx)
        rows.append(c - k)
        cols.append(c)
        vals.append(data[i, lo:hi])
    if not rows:
        return _finish(csr_array((m, n), dtype=data.dtype), format or "dia", matrix=True)
    a = _triples(tnp.concatenate(rows), tnp.concatenate(cols), tnp.concatenate(vals), (m, n), "csr")
    return _finish(a, format or "dia", matrix=True)


def _generator(rng):
    if rng is None:
        return tnp.random.default_rng()
    if isinstance(rng, numbers.Integral):
        return tnp.random.default_rng(int(rng))
    if isinstance(rng, tnp.random.Generator):
        return rng
    if isinstance(rng, (_np.random.Generator, _np.random.RandomState)):
        # A NumPy generator seeds tessera's: one scalar drawn from it.
        draw = rng.integers if isinstance(rng, _np.random.Generator) else rng.randint
        return tnp.random.default_rng(int(draw(0, 2**63 - 1)))
    raise TypeError(f"rng must be None, an int or a Generator, not {type(rng).__name__}")


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, random_state=None, data_sampler=None):
    """A sparse array with round(density * m * n) values at uniformly chosen distinct positions,
    drawn from tessera's generator (deterministic for a seed on any number of cpus or ranks,
    not SciPy's values). Values are uniform in [0, 1) unless `data_sampler(size)` is given."""
    m, n = _shape2(*shape)
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    dtype = _np.dtype(dtype if dtype is not None else _np.float64)
    if dtype.kind not in "fcbiu":
        raise NotImplementedError(f"type {dtype} not supported")
    gen = _generator(rng if rng is not None else random_state)
    total = m * n
    k = int(round(density * total))
    idx = _index_dtype(m, n, k)
    if k == 0:
        keys = tnp.zeros(0, dtype=tnp.int64)
    elif 4 * k >= total:  # dense enough: the first k of a random order of every position
        keys = tnp.sort(tnp.argsort(gen.random(total))[:k])
    else:  # sparse: distinct keys from a few rounds of draws, then a random k of them
        keys = tnp.zeros(0, dtype=tnp.int64)
        want = k + k // 8 + 16
        while keys.size < k:
            draw = tnp.floor(gen.random(want) * total).astype(tnp.int64)
            keys = tnp.unique(tnp.concatenate((keys, tnp.minimum(draw, total - 1))))
            want = 2 * (k - keys.size) + 16
        if keys.size > k:
            keys = tnp.sort(_tessera._take1d(keys, tnp.argsort(gen.random(keys.size))[:k]))
    if data_sampler is not None:
        vals = _asarray(data_sampler(size=k)).astype(dtype)
    elif dtype.kind == "c":
        vals = (gen.random(k) + 1j * gen.random(k)).astype(dtype)
    elif dtype.kind in "iu":
        info = _np.iinfo(dtype)
        vals = gen.integers(info.min, info.max, size=k, endpoint=True).astype(dtype)
    elif dtype.kind == "b":
        vals = tnp.ones(k, dtype=bool)
    else:
        vals = gen.random(k).astype(dtype)
    rows = keys // n if n else keys
    cols = keys - rows * n
    a = csr_array._raw(vals, cols.astype(idx), tnp.searchsorted(rows, tnp.arange(m + 1, dtype=tnp.int64)).astype(idx),
                       (m, n))
    return _finish(a, format)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, random_state=None, data_rvs=None):
    """SciPy's ``random`` (a sparse matrix); see random_array."""
    a = random_array((m, n), density=density, format="csr", dtype=dtype, rng=rng, random_state=random_state,
                     data_sampler=data_rvs)
    return _finish(a, format, matrix=True)


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, random_state=None):
    return random(m, n, density=density, format=format, dtype=dtype, rng=rng, random_state=random_state)


def _coo(A):
    if isinstance(A, _spbase):
        return A.tocoo()
    if _is_scipy_sparse(A):
        return coo_array(A)
    return coo_array(_asarray(A) if not isinstance(A, tnp.ndarray) or A.ndim == 2 else _asarray(A).reshape(1, -1))


def _is_matrix(*blocks):
    return not any(isinstance(b, _spbase) and b._is_array for b in blocks) and any(isinstance(b, _spbase) for b in blocks)


def kron(A, B, format=None):
    """The Kronecker product of two sparse (or dense) arrays."""
    a, b = _coo(A), _coo(B)
    (p, q), (r, s) = a.shape, b.shape
    shape = (p * r, q * s)
    t = _np.result_type(a.dtype, b.dtype)
    if a.nnz == 0 or b.nnz == 0:
        return _finish(csr_array(shape, dtype=t), format, _is_matrix(A, B))
    ar = a.row.astype(tnp.int64).reshape(-1, 1)
    ac = a.col.astype(tnp.int64).reshape(-1, 1)
    rows = (ar * r + b.row.astype(tnp.int64).reshape(1, -1)).ravel()
    cols = (ac * s + b.col.astype(tnp.int64).reshape(1, -1)).ravel()
    vals = (a.data.astype(t).reshape(-1, 1) * b.data.astype(t).reshape(1, -1)).ravel()
    return _triples(rows, cols, vals, shape, format, _is_matrix(A, B))


def kronsum(A, B, format=None):
    m, n = _coo(A).shape[0], _coo(B).shape[0]
    return _finish((kron(eye(n, dtype=_coo(A).dtype), A, "csr") + kron(B, eye(m, dtype=_coo(B).dtype), "csr"))._as(csr_array),
                   format, _is_matrix(A, B))


def block_array(blocks, *, format=None, dtype=None):
    """A sparse array from a 2-D grid of sparse blocks (None for an empty block)."""
    return _bmat(blocks, format, dtype, matrix=False)


def bmat(blocks, format=None, dtype=None):
    flat = [b for row in blocks for b in row if b is not None]
    return _bmat(blocks, format, dtype, matrix=_is_matrix(*flat))


def _bmat(blocks, format, dtype, matrix):
    grid = [list(row) for row in blocks]
    if not grid or any(len(row) != len(grid[0]) for row in grid):
        raise ValueError("blocks must be 2-D")
    nr, nc = len(grid), len(grid[0])
    coo = [[None if b is None else _coo(b) for b in row] for row in grid]
    heights, widths = [None] * nr, [None] * nc
    for i in range(nr):
        for j in range(nc):
            b = coo[i][j]
            if b is None:
                continue
            if heights[i] is None:
                heights[i] = b.shape[0]
            elif heights[i] != b.shape[0]:
                raise ValueError(f"blocks[{i},:] has incompatible row dimensions. Got blocks[{i},{j}].shape[0] == "
                                 f"{b.shape[0]}, expected {heights[i]}.")
            if widths[j] is None:
                widths[j] = b.shape[1]
            elif widths[j] != b.shape[1]:
                raise ValueError(f"blocks[:,{j}] has incompatible column dimensions. Got blocks[{i},{j}].shape[1] == "
                                 f"{b.shape[1]}, expected {widths[j]}.")
    if any(h is None for h in heights) or any(w is None for w in widths):
        raise ValueError("blocks must have a non-empty block in every row and column")
    roff = _np.concatenate(([0], _np.cumsum(heights))).tolist()
    coff = _np.concatenate(([0], _np.cumsum(widths))).tolist()
    shape = (roff[-1], coff[-1])
    present = [b for row in coo for b in row if b is not None]
    t = _np.dtype(dtype) if dtype is not None else _np.result_type(*[b.dtype for b in present])
    rows, cols, vals = [], [], []
    for i in range(nr):
        for j in range(nc):
            b = coo[i][j]
            if b is None or b.nnz == 0:
                continue
            rows.append(b.row.astype(tnp.int64) + roff[i])
            cols.append(b.col.astype(tnp.int64) + coff[j])
            vals.append(b.data.astype(t))
    if not rows:
        return _finish(csr_array(shape, dtype=t), format, matrix)
    return _triples(tnp.concatenate(rows), tnp.concatenate(cols), tnp.concatenate(vals), shape, format, matrix)


def hstack(blocks, format=None, dtype=None):
    """Blocks side by side."""
    return _bmat([list(blocks)], format, dtype, _is_matrix(*blocks))


def vstack(blocks, format=None, dtype=None):
    """Blocks one above the other."""
    return _bmat([[b] for b in blocks], format, dtype, _is_matrix(*blocks))


def block_diag(mats, format=None, dtype=None):
    """The blocks along the diagonal."""
    mats = list(mats)
    grid = [[m if i == j else None for j in range(len(mats))] for i, m in enumerate(mats)]
    coo = [_coo(m) for m in mats]
    # empty off-diagonal blocks still need the grid's sizes: fill them with empty arrays
    for i in range(len(mats)):
        for j in range(len(mats)):
            if i != j:
                grid[i][j] = coo_array((coo[i].shape[0], coo[j].shape[1]), dtype=coo[j].dtype)
    return _bmat(grid, format, dtype, _is_matrix(*mats))


def _tri(A, k, format, lower):
    a = _coo(A)
    r, c = a.row.astype(tnp.int64), a.col.astype(tnp.int64)
    keep = (c - r <= k) if lower else (c - r >= k)
    out = _triples(r[keep], c[keep], a.data[keep], a.shape, "csr", not (isinstance(A, _spbase) and A._is_array))
    return _finish(out._as(csr_array), format or (A.format if isinstance(A, _spbase) else "coo"),
                   not (isinstance(A, _spbase) and A._is_array))


def tril(A, k=0, format=None):
    """The lower triangle (on and below diagonal k)."""
    return _tri(A, k, format, True)


def triu(A, k=0, format=None):
    """The upper triangle (on and above diagonal k)."""
    return _tri(A, k, format, False)
