"""Multi-dimensional histograms (NumPy's histograms and twodim_base): histogramdd counts by
sorting the cell numbers (native sort and searchsorted); histogram2d is histogramdd of two."""
import builtins
import operator

import numpy as _np

from tessera import _tessera
from tessera.numpy._sets import _outer_edges

_ndarray = _tessera.ndarray


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """Counts of the D-dimensional points of `sample` in each cell of a grid of bins (each bin
    half-open but the last, closed), or the sums of their `weights`; with the edges per
    dimension."""
    if isinstance(sample, _ndarray) and sample.ndim == 2:
        columns = [sample[:, i] for i in builtins.range(sample.shape[1])]
    elif isinstance(sample, (list, tuple)) and all(_np.ndim(s) == 1 for s in sample):
        columns = [_tessera.asarray(s) for s in sample]
        if len({c.shape for c in columns}) > 1:
            raise ValueError("setting an array element with a sequence. The requested array has an "
                             "inhomogeneous shape after 1 dimensions.")
    else:
        s = _tessera.asarray(sample)
        s = _tessera.atleast_2d(s).T if s.ndim < 2 else s
        if s.ndim != 2:
            raise ValueError("too many values to unpack (expected 2)")
        columns = [s[:, i] for i in builtins.range(s.shape[1])]
    D = len(columns)
    N = columns[0].shape[0] if columns else 0
    try:
        M = len(bins)
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i in builtins.range(D):
        if _np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(columns[i], range[i])
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            # The few edges are NumPy's own linspace (host metadata), so they are its bits.
            edges.append(_tessera.asarray(_np.linspace(smin, smax, n + 1)))
        elif _np.ndim(bins[i]) == 1:
            e = _tessera.asarray(bins[i])
            if e.size > 1 and bool(_tessera.any(e[:-1] > e[1:])):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
            edges.append(e)
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    nbin = [e.shape[0] + 1 for e in edges]
    # The cell of each point, numbered as NumPy's ravel_multi_index over (nbin) would.
    flat = _tessera.zeros(N, dtype=_np.intp)
    for i in builtins.range(D):
        found = _tessera._searchsorted(edges[i], columns[i], True)
        found = _tessera.where(_tessera.equal(columns[i], edges[i][-1]), found - 1, found)
        flat = flat * nbin[i] + found.astype(_np.intp)
    cells = int(_np.prod(nbin))
    if weights is not None:  # the weights added into their cells in the order of the points (NumPy's bincount)
        weights = _tessera.asarray(weights)
        if weights.shape != (N,):
            raise ValueError("The weights and list don't have the same length.")
        counts = _tessera.zeros(cells)
        _tessera._index_update(counts, flat, weights.astype(float), "add", checked=True)  # cells in [0, cells)
    else:  # cell c holds the points numbered below c + 1 less those numbered below c
        below = _tessera._searchsorted(_tessera.sort(flat), _tessera.arange(cells + 1, dtype=_np.intp), False)
        counts = below[1:] - below[:-1]
    hist = counts.reshape(tuple(nbin)).astype(float)[(slice(1, -1),) * D]
    if density:
        s = hist.sum()
        for i in builtins.range(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = hist / _tessera.subtract(edges[i][1:], edges[i][:-1]).reshape(tuple(shape))
        hist = hist / s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """Counts of the points (x, y) in each cell of a grid of bins, with the x and y edges."""
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
