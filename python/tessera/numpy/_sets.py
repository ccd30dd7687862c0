"""Searching, sets and counting built on tessera's native sort, argsort and searchsorted:
unique (values, first positions, counts), isin, the set operations, digitize and histogram.
Each is a few deferred operations; a result whose size depends on the values (unique, the
set operations) waits for them, as in NumPy. unique's inverse is a
scatter of the running group number back to the sorted positions; unique along an axis
lexsorts the sub-arrays as rows. histogram's string bin rules are NumPy's own width rules
run on the tessera array."""
import operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute as _fallback
from tessera.numpy._indexing import lexsort as _lexsort
from tessera.numpy._scans import diff as _diff


def _is_inexact(a):
    return _np.dtype(a.dtype).kind in "fc"


def searchsorted(a, v, side="left", sorter=None):
    """Where the elements of `v` go in the sorted 1-D `a` (first or last such position)."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    a = _tessera.asarray(a)
    if sorter is not None:  # the positions in the order `sorter` gives `a`
        sorter = _tessera.asarray(sorter)
        if not _np.issubdtype(sorter.dtype, _np.integer):
            raise TypeError("sorter must only contain integers")
        if sorter.shape != a.shape:
            raise ValueError("sorter.size must equal a.size")
        if sorter.size and (int(sorter.min()) < 0 or int(sorter.max()) >= a.size):
            raise ValueError("Sorter index out of range.")
        a = a[sorter]
    return _tessera._searchsorted(a, _tessera.asarray(v), side == "right")


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """The sorted distinct elements of the flattened `ar`, with their first positions, the
    positions in them of each element of `ar` (shaped like `ar`) and their counts."""
    ar = _tessera.asarray(ar)
    if axis is not None:
        if isinstance(axis, tuple) and len(axis) != 1:  # NumPy moves the axes to one place
            raise ValueError("`source` and `destination` arguments must have the same number of elements")
        axis = _normalize_axis_index(axis, ar.ndim)
        if ar.ndim > 1:
            return _unique_axis(ar, return_index, return_inverse, return_counts, axis)
    shape = ar.shape
    ar = ar.ravel()
    order = _tessera.argsort(ar) if return_index or return_inverse else None  # stable
    aux = _tessera.sort(ar, kind="stable") if order is None else ar[order]
    if ar.size == 0:
        mask = _tessera.zeros(0, dtype=bool)
    else:
        different = aux[1:] != aux[:-1]
        if equal_nan and _is_inexact(aux):
            different = different & ~(_tessera.isnan(aux[1:]) & _tessera.isnan(aux[:-1]))
        mask = _tessera.concatenate((_tessera.ones(1, dtype=bool), different))
    results = [aux[mask]]
    if return_index:
        results.append(order[mask])  # stable: the first of equal elements
    if return_inverse:
        inverse = _tessera.empty(ar.size, dtype=_np.intp)
        inverse[order] = _tessera.cumsum(mask) - 1  # each sorted element's group, back in place
        results.append(inverse.reshape(shape))
    if return_counts:
        starts = _tessera.nonzero(mask)[0]
        ends = _tessera.concatenate((starts[1:], _tessera.full(1, ar.size, dtype=starts.dtype)))
        results.append(ends - starts)
    return results[0] if len(results) == 1 else tuple(results)


def _unique_axis(ar, return_index, return_inverse, return_counts, axis):
    """unique of the sub-arrays along `axis`, in the lexicographic order of their elements as
    NumPy orders them (NaN last; a sub-array holding NaN equals no other), by a stable lexsort
    of the rows: the first of equal sub-arrays is the one kept."""
    moved = _tessera.moveaxis(ar, axis, 0)
    n, rest = moved.shape[0], moved.shape[1:]
    rows = moved.reshape(n, int(_np.prod(rest, dtype=_np.intp)))
    if n == 0:
        order, mask = _tessera.zeros(0, dtype=_np.intp), _tessera.zeros(0, dtype=bool)
    else:
        if rows.shape[1] == 0:  # empty sub-arrays are all equal
            order, different = _tessera.arange(n), _tessera.zeros(n - 1, dtype=bool)
        else:
            order = _lexsort([rows[:, j] for j in range(rows.shape[1] - 1, -1, -1)])
            rows = rows[order]
            different = _tessera.any(rows[1:] != rows[:-1], axis=1)
        mask = _tessera.concatenate((_tessera.ones(1, dtype=bool), different))
    values = moved[order[mask]]
    results = [_tessera.moveaxis(values, 0, axis)]
    if return_index:
        results.append(order[mask])
    if return_inverse:
        inverse = _tessera.empty(n, dtype=_np.intp)
        inverse[order] = _tessera.cumsum(mask) - 1
        results.append(inverse)
    if return_counts:
        starts = _tessera.nonzero(mask)[0]
        ends = _tessera.concatenate((starts[1:], _tessera.full(1, n, dtype=starts.dtype)))
        results.append(ends - starts)
    return results[0] if len(results) == 1 else tuple(results)


_UniqueAllResult = type(_np.unique_all(_np.zeros(1)))
_UniqueInverseResult = type(_np.unique_inverse(_np.zeros(1)))


def unique_all(x):
    """The distinct elements of `x`, their first positions, each element's position among them
    and their counts; every NaN distinct."""
    return _UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


def unique_inverse(x):
    """The distinct elements of `x` and each element's position among them; every NaN distinct."""
    return _UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


_UniqueCountsResult = type(_np.unique_counts(_np.zeros(1)))


def unique_values(x):
    """The distinct elements of `x`, every NaN distinct (sorted; NumPy's order may vary)."""
    return unique(x, equal_nan=False)


def unique_counts(x):
    """The distinct elements of `x` and how often each occurs, every NaN distinct."""
    return _UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` occurs in `test_elements` (NaN never does)."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    element = _tessera.asarray(element)
    test = _tessera.sort(_tessera.asarray(test_elements).ravel())
    found = (_tessera._searchsorted(test, element, True) > _tessera._searchsorted(test, element, False))
    if _is_inexact(element):
        found = found & ~_tessera.isnan(element)
    return ~found if invert else found


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted elements both arrays hold, and with `return_indices` the positions in the
    flattened arrays of their first occurrences."""
    if return_indices:
        return _intersect1d_indices(ar1, ar2, assume_unique)
    if assume_unique:
        a, b = _tessera.asarray(ar1).ravel(), _tessera.asarray(ar2).ravel()
    else:
        a, b = unique(ar1), unique(ar2)
    aux = _tessera.sort(_tessera.concatenate((a, b)))
    return aux[:-1][aux[1:] == aux[:-1]]


def _intersect1d_indices(ar1, ar2, assume_unique):
    """NumPy's intersect1d with return_indices: equal neighbours of the stably sorted
    concatenation, one from each array."""
    if assume_unique:
        a, b = _tessera.asarray(ar1).ravel(), _tessera.asarray(ar2).ravel()
    else:
        a, first_a = unique(ar1, return_index=True)
        b, first_b = unique(ar2, return_index=True)
    aux = _tessera.concatenate((a, b))
    order = _tessera.argsort(aux, kind="stable")
    aux = aux[order]
    mask = aux[1:] == aux[:-1]
    in_a = order[:-1][mask]
    in_b = order[1:][mask] - a.size
    if not assume_unique:
        in_a, in_b = first_a[in_a], first_b[in_b]
    return aux[:-1][mask], in_a, in_b


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted distinct elements of `ar1` that `ar2` lacks."""
    a = _tessera.asarray(ar1).ravel() if assume_unique else unique(ar1)
    return a[isin(a, ar2, assume_unique=True, invert=True)]


def union1d(ar1, ar2):
    """The sorted distinct elements of both arrays."""
    return unique(_tessera.concatenate((_tessera.asarray(ar1).ravel(), _tessera.asarray(ar2).ravel())))


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted elements in exactly one of the arrays."""
    if assume_unique:
        a, b = _tessera.asarray(ar1).ravel(), _tessera.asarray(ar2).ravel()
    else:
        a, b = unique(ar1), unique(ar2)
    aux = _tessera.sort(_tessera.concatenate((a, b)))
    if aux.size == 0:
        return aux
    edge = _tessera.ones(1, dtype=bool)
    flag = _tessera.concatenate((edge, aux[1:] != aux[:-1], edge))
    return aux[flag[1:] & flag[:-1]]


def _monotonicity(bins):
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else "object of too small depth for desired array")
    # NumPy's check: the first value unlike bins[0] sets the direction (decreasing unless it
    # is greater), then no later neighbours may go the other way (NaN compares false).
    differs = bins != bins[0] if bins.size else bins
    if not bool(_tessera.any(differs)):
        return 1
    i = int(_tessera.argmax(differs))
    rest = bins[i:]
    if bool(bins[0] < bins[i]):
        return 0 if bool(_tessera.any(rest[:-1] > rest[1:])) else 1
    return 0 if bool(_tessera.any(rest[:-1] < rest[1:])) else -1


def digitize(x, bins, right=False):
    """The index of the bin each element of `x` falls in (bins increasing or decreasing)."""
    x = _tessera.asarray(x)
    bins = _tessera.asarray(bins)
    if _np.dtype(x.dtype).kind == "c":
        raise TypeError("x may not be complex")
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"  # backwards: the arguments of searchsorted are swapped
    if mono == -1:
        return len(bins) - searchsorted(bins[::-1], x, side=side)
    return searchsorted(bins, x, side=side)


def _outer_edges(a, range):
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        scalar = _np.dtype(a.dtype).type  # NumPy's a.min(): a scalar of a's dtype
        first, last = scalar(a.min().item()), scalar(a.max().item())
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


try:  # NumPy's bin-width rules; given a tessera array they compute with tessera (through its protocols)
    from numpy.lib._histograms_impl import _hist_bin_selectors as _BIN_RULES
    from numpy.lib._histograms_impl import _unsigned_subtract
except ImportError:  # a NumPy that moved them: string bins fall back
    _BIN_RULES = None


def _bins_by_rule(a, rule, range):
    """How many equal bins NumPy's rule `rule` ('auto', 'fd', 'sturges', ...) gives `a`."""
    if rule not in _BIN_RULES:
        raise ValueError(f"{rule!r} is not a valid estimator for `bins`")
    first, last = _outer_edges(a, range)
    if range is not None:
        keep = (a >= first) & (a <= last)
        if not bool(_tessera.all(keep)):
            a = a[keep]
    if a.size == 0:
        return 1
    width = _BIN_RULES[rule](a, (first, last))
    if not width:  # e.g. fd when the data's interquartile range is 0
        return 1
    if _np.issubdtype(a.dtype, _np.integer) and width < 1:
        width = 1
    return int(_np.ceil(_unsigned_subtract(last, first) / width))


def _bin_edges(a, bins, range, weights=None):
    """The edges histogram uses, or None when NumPy must decide them."""
    if isinstance(bins, str):
        if _BIN_RULES is None:
            return None
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        bins = _bins_by_rule(a, bins, range)
    if _np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
        edge_type = _np.result_type(first, last, _np.dtype(a.dtype))
        if _np.issubdtype(edge_type, _np.integer):
            edge_type = _np.result_type(edge_type, float)
        # The few edges are computed as NumPy computes them (on the host), so they are its bits.
        return _tessera.asarray(_np.linspace(first, last, n + 1, endpoint=True, dtype=edge_type))
    if _np.ndim(bins) != 1:
        raise ValueError("`bins` must be 1d, when an array")
    edges = _tessera.asarray(bins)
    if edges.size > 1 and bool(_tessera.any(edges[:-1] > edges[1:])):
        raise ValueError("`bins` must increase monotonically, when an array")
    return edges


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The edges `histogram` would use."""
    edges = _bin_edges(_tessera.asarray(a).ravel(), bins, range, weights)
    if edges is None:
        return _fallback("histogram_bin_edges")(a, bins, range, weights)
    return edges


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts of the elements of `a` in each bin [e_i, e_i+1) (the last bin closed)."""
    a = _tessera.asarray(a).ravel()
    edges = _bin_edges(a, bins, range, weights)
    if edges is None:
        return _fallback("histogram")(a, bins, range, density, weights)
    if weights is not None:
        return _weighted_histogram(a, edges, density, weights)
    data = _tessera.sort(a)
    starts = _tessera._searchsorted(data, edges[:-1], False)
    end = _tessera._searchsorted(data, edges[-1:], True)
    counts = _diff(_tessera.concatenate((starts, end)))
    if density:
        return counts / _diff(edges).astype(float) / counts.sum(), edges
    return counts, edges


def _weighted_histogram(a, edges, density, weights):
    """The sums of the weights of the elements in each bin: each element's bin from
    searchsorted (the last bin closed, elements outside every bin in an extra one), then
    the weights added into their bins in the order of `a` (ufunc.at's scatter)."""
    weights = _tessera.asarray(weights)
    if weights.shape != (a.size,) and weights.size != a.size:
        raise ValueError("weights should have the same shape as a.")
    weights = weights.ravel()
    nbins = edges.size - 1
    inside = (a >= edges[0]) & (a <= edges[-1])
    where = _tessera._searchsorted(edges, a, True) - 1
    where = _tessera.where(a == edges[-1], nbins - 1, where)
    where = _tessera.where(inside, where, nbins)
    # Narrow floating weights add up in double precision, as NumPy's bincount adds them.
    wide = {"f": _np.float64, "c": _np.complex128}.get(weights.dtype.kind, weights.dtype)
    sums = _tessera.zeros(nbins + 1, dtype=wide)
    _tessera._index_update(sums, where, weights.astype(wide), "add", checked=True)  # every bin in [0, nbins]
    counts = sums[:-1].astype(weights.dtype)
    if density:
        return counts / _diff(edges).astype(float) / counts.sum(), edges
    return counts, edges
