"""A drop-in replacement for NumPy: ``import tessera.numpy as np``.

Functions implemented by tessera run as deferred, parallel operations in its
runtime. Every other public NumPy function falls back to NumPy: its inputs are
converted, NumPy runs, and array results come back as tessera arrays; a
RuntimeWarning names each such function once (TESSERA_CONFIG=--fallback=silent
silences it, --fallback=error raises tessera.FallbackError instead).
docs/api-coverage.md lists how each function runs.
"""
import numpy as _np

from tessera import _tessera
from tessera._tessera import *  # noqa: F401,F403
from tessera._tessera import ndarray
from tessera.numpy._fallback import fallback_attribute as _fallback_attribute
from tessera.numpy._fallback import ndarray_attribute as _ndarray_attribute
from tessera.numpy import fft, linalg, random  # noqa: F401  native submodules
from tessera.numpy import _protocols
from tessera.numpy._ufunc import UFUNCS as _UFUNCS, ufunc  # noqa: F401
from tessera.numpy._einsum import einsum, einsum_path, kron, tensordot  # noqa: F401
from tessera.numpy._scans import (  # noqa: F401
    cumulative_prod, cumulative_sum, diff, ediff1d, nancumprod, nancumsum,
)
from tessera.numpy._sets import (  # noqa: F401
    digitize, histogram, histogram_bin_edges, intersect1d, isin, searchsorted, setdiff1d, setxor1d,
    union1d, unique, unique_all, unique_counts, unique_inverse, unique_values,
)
from tessera.numpy._shapes import (  # noqa: F401
    append, argwhere, array_split, broadcast_shapes, choose, diag, diagflat, diagonal, dsplit, extract,
    fill_diagonal, flatnonzero, flip, fliplr, flipud, geomspace, hsplit, indices, logspace, meshgrid, repeat,
    resize, roll, rot90, select, split, tile, trace, tri, tril, triu, trim_zeros, unstack, vander, vsplit,
)
from tessera.numpy._pad import pad  # noqa: F401
from tessera.numpy._gufuncs import matmul, matvec, vecdot, vecmat  # noqa: F401
from tessera.numpy._function_base import asarray_chkfinite, copy, delete, insert, piecewise  # noqa: F401
from tessera.numpy._shape_base import (  # noqa: F401
    apply_along_axis, apply_over_axes, block, rollaxis, row_stack,
)
from tessera.numpy._conversions import (  # noqa: F401
    array_equiv, asanyarray, ascontiguousarray, asfortranarray, astype, fromfunction, require,
)
from tessera.numpy._histograms import histogram2d, histogramdd  # noqa: F401
from tessera.numpy._index_tricks import (  # noqa: F401
    diag_indices, diag_indices_from, ix_, mask_indices, ravel_multi_index, tril_indices, tril_indices_from,
    triu_indices, triu_indices_from, unravel_index,
)
from tessera.numpy._bits import packbits, unpackbits  # noqa: F401
from tessera.numpy._nanfuncs import (  # noqa: F401
    average, nanargmax, nanargmin, nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar, ptp,
)
from tessera.numpy._stats import (  # noqa: F401
    corrcoef, cov, median, nanmedian, nanpercentile, nanquantile, percentile, quantile,
)
from tessera.numpy._io import (  # noqa: F401
    frombuffer, fromfile, fromiter, fromregex, fromstring, genfromtxt, load, loadtxt, save, savetxt,
    savez, savez_compressed,
)
from tessera.numpy import _io
from tessera.numpy._metadata import (  # noqa: F401
    __array_api_version__, __array_namespace_info__, array2string, array_repr, array_str, can_cast, common_type, frompyfunc, iscomplexobj, isfortran, isrealobj,
    may_share_memory, min_scalar_type, shares_memory,
)
from tessera.numpy._metadata import NUMPY_OWN as _NUMPY_OWN
from tessera.numpy import _metadata
from tessera.numpy._indexing import METHODS as _INDEXING_METHODS
from tessera.numpy._indexing import (  # noqa: F401
    argpartition, bincount, compress, lexsort, partition, place, put, put_along_axis, sort_complex, take,
    take_along_axis,
)
from tessera.numpy._numeric import (  # noqa: F401
    bartlett, blackman, convolve, correlate, cross, gradient, hamming, hanning, i0, interp, kaiser, poly,
    polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, polyval, roots, trapezoid, unwrap,
)
from tessera.numpy._mathfuncs import COMPOSED_UFUNCS as _COMPOSED_UFUNCS
from tessera.numpy._mathfuncs import clip_method as _clip_method
from tessera.numpy._mathfuncs import (  # noqa: F401
    around, clip, iscomplex, isneginf, isposinf, isreal, nan_to_num, real_if_close, round, sinc,
)

from numpy import (  # noqa: F401  dtypes, constants and type objects are NumPy's own
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64,
    complex64, complex128, intp, uintp, dtype, newaxis, pi, e, inf, nan, euler_gamma,
    generic, number, integer, signedinteger, unsignedinteger, floating, complexfloating, inexact,
    finfo, iinfo, errstate, seterr, geterr, promote_types, issubdtype,
)
globals().update({_name: getattr(_np, _name) for _name in _NUMPY_OWN})  # they touch no array data

bool = _np.bool  # noqa: A001  NumPy 2's name for the boolean dtype
double = float64
single = float32
half = float16
cdouble = complex128
csingle = complex64
int_ = int64
float_ = float64
complex_ = complex128


ndarray.__getattr__ = _ndarray_attribute
for _method in (round, repeat, diagonal, trace, choose):  # ndarray methods: the function, array first
    setattr(ndarray, _method.__name__, _method)
for _method in _io.METHODS:  # tofile, tobytes, dump, dumps
    setattr(ndarray, _method.__name__, _method)
ndarray.clip = _clip_method
_metadata.install(ndarray)  # device, to_device
for _name, _method in _INDEXING_METHODS.items():
    setattr(ndarray, _name, _method)
_protocols.install(ndarray)
_UFUNCS.update({_n: _f for _n, _f in _COMPOSED_UFUNCS.items() if _n not in _UFUNCS})  # native ones first
globals().update(_UFUNCS)  # add, sqrt, ... as ufunc objects


def shape(a):
    """The shape of `a` (no copy for tessera arrays)."""
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def ndim(a):
    """The number of dimensions of `a`."""
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


def size(a, axis=None):
    """The number of elements of `a`, or along `axis`."""
    if isinstance(a, ndarray):
        if axis is None:
            return a.size
        a = _np.broadcast_to(_np.empty((), bool), a.shape)  # NumPy reads axis= against the shape alone
    return _np.size(a, axis)


def __getattr__(name):
    return _fallback_attribute(name)
