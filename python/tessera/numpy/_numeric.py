"""NumPy's numeric functions built on tessera's native operations: convolution and
correlation (one matrix-vector product over a sliding-window view), cross products,
interpolation (on the native searchsorted), unwrap, trapezoid, gradient, the window
functions, i0, and the polynomial functions of numpy.lib.polynomial. Each follows NumPy's
arithmetic step by step, so results agree to rounding."""
import functools
import operator
import warnings

import numpy as _np

from tessera import _tessera
from tessera.numpy import linalg as _linalg
from tessera.numpy._fallback import fallback_attribute
from tessera.numpy._scans import diff as _diff
from tessera.numpy._shapes import diag as _diag, vander as _vander

_asarray = _tessera.asarray


def _normalize_axis(axis, ndim, prefix=None):
    return _np.lib.array_utils.normalize_axis_index(axis, ndim, msg_prefix=prefix)


def _element(a, i):
    """The element `i` of 1-D `a` as a 0-d tessera array (no transfer to the host)."""
    i = operator.index(i) % a.shape[0]
    return a[i:i + 1].reshape(())


# -- convolution and correlation ---------------------------------------------------------

_MODES = {"valid": 0, "same": 1, "full": 2, "v": 0, "s": 1, "f": 2}


def _mode(mode):
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
        return _MODES[mode]
    if mode not in (0, 1, 2):
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return int(mode)


def _vector(x):
    x = _asarray(x)
    if x.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if x.ndim > 1:
        raise ValueError("setting an array element with a sequence. The requested array would exceed the "
                         "maximum number of dimension of 1.")
    return x


# Elements of the window matrices one product reads at most (their copy bounds the memory).
_WINDOW_ELEMENTS = 1 << 22
# Kernels up to this length are summed as shifted slices instead.
_SHORT_KERNEL = 32


def _windows_times(x, kernel, start, length):
    """Rows start .. start + length of r -> sum_j xpad[r + j] * kernel[j], where xpad is `x`
    with len(kernel) - 1 zeros on each side: each row a dot product, as NumPy computes it."""
    m = kernel.shape[0]
    zeros = _tessera.zeros(m - 1, x.dtype)
    padded = _tessera.concatenate((zeros, x, zeros))
    if m <= _SHORT_KERNEL:
        # A short kernel: a sum of shifted slices, one fused element-wise expression.
        total = None
        for j in range(m):
            term = _tessera.multiply(padded[start + j:start + j + length], kernel[j:j + 1])
            total = term if total is None else _tessera.add(total, term)
        return total
    step = max(1, _WINDOW_ELEMENTS // m)
    parts = []
    for first in range(start, start + length, step):
        rows = min(step, start + length - first)
        windows = _tessera._strided_view(padded, first, [rows, m], [1, 1], False)
        parts.append(_tessera.matmul(windows, kernel))
    if len(parts) == 1:
        return parts[0]
    return _tessera.concatenate(parts) if parts else _tessera.zeros(0, x.dtype)


def _sliding_product(a, v, mode, swapped):
    """c[k] = sum_n a[n + k] * v[n] for the lags of `mode`, as NumPy's correlate places them
    (`swapped`: NumPy computed it with the operands exchanged and reversed the result). The
    shorter sequence is the kernel that slides."""
    n, m = a.shape[0], v.shape[0]
    dtype = _np.result_type(a.dtype, v.dtype)
    a = a.astype(dtype, copy=False)
    v = v.astype(dtype, copy=False)
    short, full = min(n, m), n + m - 1
    if mode == 0:
        start, length = short - 1, max(n, m) - short + 1
    elif mode == 1:
        start, length = (short // 2 if swapped else short - 1 - short // 2), max(n, m)
    else:
        start, length = 0, full
    if m <= n:
        return _windows_times(a, v, start, length)
    # Row r of the full product is row full - 1 - r of the product with v sliding under a.
    return _windows_times(v, a, full - start - length, length)[::-1]


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D sequences: c[k] = sum_n a[n + k] * conj(v[n])."""
    mode = _mode(mode)
    a, v = _vector(a), _vector(v)
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    if _np.dtype(v.dtype).kind == "c":
        v = _tessera.conjugate(v)
    return _sliding_product(a, v, mode, v.shape[0] > a.shape[0])


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D sequences."""
    a, v = _asarray(a), _asarray(v)
    if a.ndim == 0:
        a = a.reshape(1)
    if v.ndim == 0:
        v = v.reshape(1)
    if v.ndim == 1 and a.ndim == 1 and v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.ndim == 1 and a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.ndim == 1 and v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    mode = _mode(mode)
    a, v = _vector(a), _vector(v)
    return _sliding_product(a, v[::-1], mode, False)


# -- cross product -----------------------------------------------------------------------

def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of (arrays of) 2- or 3-element vectors, NumPy's arithmetic."""
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a, b = _asarray(a), _asarray(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = _tessera.moveaxis(a, _normalize_axis(axisa, a.ndim, "axisa"), -1)
    b = _tessera.moveaxis(b, _normalize_axis(axisb, b.ndim, "axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    shape = _np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    three = a.shape[-1] == 3 or b.shape[-1] == 3
    if three:
        axisc = _normalize_axis(axisc, len(shape) + 1, "axisc")
    dtype = _np.promote_types(a.dtype, b.dtype)
    a = a.astype(dtype, copy=False)
    b = b.astype(dtype, copy=False)
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    mul, sub, neg = _tessera.multiply, _tessera.subtract, _tessera.negative
    if not three:
        return _tessera.broadcast_to(sub(mul(a0, b1), mul(a1, b0)), shape).astype(dtype, copy=False)
    if a.shape[-1] == 2:
        b2 = b[..., 2]
        parts = (mul(a1, b2), neg(mul(a0, b2)), sub(mul(a0, b1), mul(a1, b0)))
    elif b.shape[-1] == 2:
        a2 = a[..., 2]
        parts = (neg(mul(a2, b1)), mul(a2, b0), sub(mul(a0, b1), mul(a1, b0)))
    else:
        a2, b2 = a[..., 2], b[..., 2]
        parts = (sub(mul(a1, b2), mul(a2, b1)), sub(mul(a2, b0), mul(a0, b2)), sub(mul(a0, b1), mul(a1, b0)))
    cp = _tessera.stack([_tessera.broadcast_to(p, shape).astype(dtype, copy=False) for p in parts], axis=-1)
    return _tessera.moveaxis(cp, -1, axisc)


# -- interpolation -----------------------------------------------------------------------

def _interp_real(x, xp, fp, j, left, right, reciprocal_slope):
    """NumPy's arr_interp for one real component: fp[j] + slope * (x - xp[j]), with its
    fallbacks where that is NaN, the sample values at sample points and the edge values."""
    n = xp.shape[0]
    jc = _tessera.clip(j, 0, n - 2)
    x0, x1 = xp[jc], xp[jc + 1]
    y0, y1 = fp[jc], fp[jc + 1]
    dy, dx = _tessera.subtract(y1, y0), _tessera.subtract(x1, x0)
    slope = _tessera.multiply(dy, _tessera.divide(1.0, dx)) if reciprocal_slope else _tessera.divide(dy, dx)
    r = _tessera.add(_tessera.multiply(slope, _tessera.subtract(x, x0)), y0)
    back = _tessera.add(_tessera.multiply(slope, _tessera.subtract(x, x1)), y1)
    r = _tessera.where(_tessera.isnan(r), _tessera.where(_tessera.isnan(back) & (y0 == y1), y0, back), r)
    r = _tessera.where(x == x0, y0, r)
    last = _element(fp, -1)
    r = _tessera.where(j == n - 1, last, r)
    r = _tessera.where(x < _element(xp, 0), _element(fp, 0) if left is None else left, r)
    r = _tessera.where(x > _element(xp, -1), last if right is None else right, r)
    return r


def _interp_one_point(x, xp, fp, left, right):
    x0, y0 = _element(xp, 0), _element(fp, 0)
    above = _tessera.where(x > x0, y0 if right is None else right, y0)
    return _tessera.where(x < x0, y0 if left is None else left, above)


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise linear interpolation of (xp, fp) at `x`, NumPy's arithmetic."""
    fp = _asarray(fp)
    is_complex = _np.dtype(fp.dtype).kind == "c"
    work = _np.complex128 if is_complex else _np.float64
    x, xp = _asarray(x), _asarray(xp)
    if period is None:
        for a, to in ((x, _np.float64), (xp, _np.float64), (fp, work)):
            if not _np.can_cast(a.dtype, to, "safe"):
                raise TypeError(f"Cannot cast array data from {_np.dtype(a.dtype)!r} to {_np.dtype(to)!r} "
                                "according to the rule 'safe'")
    x = x.astype(_np.float64, copy=False)
    xp = xp.astype(_np.float64, copy=False)
    fp = fp.astype(work, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = _tessera.remainder(x, period)
        xp = _tessera.remainder(xp, period)
        order = _tessera.argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = _tessera.concatenate((_tessera.subtract(xp[-1:], period), xp, _tessera.add(xp[0:1], period)))
        fp = _tessera.concatenate((fp[-1:], fp, fp[0:1]))
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if left is not None:
        left = complex(left) if is_complex else float(left)
    if right is not None:
        right = complex(right) if is_complex else float(right)
    if is_complex:
        parts = [_interp_component(x, xp, _tessera.real(fp), None if left is None else left.real,
                                   None if right is None else right.real, True),
                 _interp_component(x, xp, _tessera.imag(fp), None if left is None else left.imag,
                                   None if right is None else right.imag, True)]
        one_point = xp.shape[0] == 1
        result = (parts[0] if one_point else _tessera.where(_tessera.isnan(x), x, parts[0])).astype(_np.complex128)
        # isnan(x) once per use: under --test on several ranks, one mask read both by the
        # conversion above and by this write through the .imag view loses elements (a runtime issue).
        result.imag[...] = parts[1] if one_point else _tessera.where(_tessera.isnan(x), 0.0, parts[1])
        return result
    r = _interp_component(x, xp, fp, left, right, False)
    return _tessera.where(_tessera.isnan(x), x, r) if xp.shape[0] > 1 else r


def _interp_component(x, xp, fp, left, right, reciprocal_slope):
    if xp.shape[0] == 1:
        return _interp_one_point(x, xp, fp, left, right)
    j = _tessera.subtract(_tessera._searchsorted(xp, x, True), 1)
    return _interp_real(x, xp, fp, j, left, right, reciprocal_slope)


# -- unwrap, trapezoid, gradient ---------------------------------------------------------

def unwrap(p, discont=None, axis=-1, *, period=2 * _np.pi):
    """`p` with jumps larger than `discont` replaced by their `period` complement, NumPy's steps."""
    p = _asarray(p)
    nd = p.ndim
    dd = _diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = _np.result_type(_np.empty(0, dd.dtype), period)
    if _np.issubdtype(dtype, _np.integer):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _tessera.add(_tessera.remainder(_tessera.subtract(dd, interval_low), period), interval_low)
    if boundary_ambiguous:
        ddmod = _tessera.where((ddmod == interval_low) & (dd > 0), interval_high, ddmod).astype(ddmod.dtype, copy=False)
    ph_correct = _tessera.subtract(ddmod, dd)
    ph_correct = _tessera.where(_tessera.absolute(dd) < discont, 0, ph_correct).astype(ph_correct.dtype, copy=False)
    up = p.astype(dtype, copy=True)
    up[slice1] = _tessera.add(p[slice1], _tessera.cumsum(ph_correct, axis=axis))
    return up


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of `y` along `axis` by the trapezoidal rule, at sample points `x` or spacing `dx`."""
    y = _asarray(y)
    if x is None:
        d = dx
    else:
        x = _asarray(x)
        if x.ndim == 1:
            d = _diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = _diff(x, axis=axis)
    nd = y.ndim
    slice1, slice2 = [slice(None)] * nd, [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    total = _tessera.add(y[tuple(slice1)], y[tuple(slice2)])
    return _tessera.sum(_tessera.divide(_tessera.multiply(d, total), 2.0), axis=axis)


def _spacings(f, axes, varargs):
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and _np.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, distances in enumerate(dx):
        if _np.ndim(distances) == 0:
            continue
        distances = _asarray(distances)
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if distances.shape[0] != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        if _np.issubdtype(distances.dtype, _np.integer):
            distances = distances.astype(_np.float64)
        diffx = _diff(distances)
        if diffx.shape[0] == 0:
            raise IndexError("index 0 is out of bounds for axis 0 with size 0")
        if bool(_tessera.all(diffx == _element(diffx, 0))):
            diffx = _element(diffx, 0)  # constant spacing: the scalar formulas, as NumPy
        dx[i] = diffx
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of `f` by second-order central differences inside and first- or
    second-order one-sided differences at the edges, NumPy's formulas."""
    f = _asarray(f)
    N = f.ndim
    axes = tuple(range(N)) if axis is None else _np.lib.array_utils.normalize_axis_tuple(axis, N)
    dx = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = _np.dtype(f.dtype)
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(_np.float64)
        otype = _np.dtype(_np.float64)
    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                             "(edge_order + 1) elements are required.")

        def at(s):
            index = [slice(None)] * N
            index[ax] = s
            return tuple(index)

        out = _tessera.empty(f.shape, otype)
        uniform = _np.ndim(ax_dx) == 0
        # Operators, not functions: Python scalars stay weak, as in NumPy's expressions.
        if uniform:
            out[at(slice(1, -1))] = (f[at(slice(2, None))] - f[at(slice(None, -2))]) / (2. * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            shape = [1] * N
            shape[ax] = -1
            a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[at(slice(1, -1))] = a * f[at(slice(None, -2))] + b * f[at(slice(1, -1))] + c * f[at(slice(2, None))]
        if edge_order == 1:
            dx_0 = ax_dx if uniform else _element(ax_dx, 0)
            out[at(0)] = (f[at(1)] - f[at(0)]) / dx_0
            dx_n = ax_dx if uniform else _element(ax_dx, -1)
            out[at(-1)] = (f[at(-1)] - f[at(-2)]) / dx_n
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = _element(ax_dx, 0), _element(ax_dx, 1)
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[at(0)] = a * f[at(0)] + b * f[at(1)] + c * f[at(2)]
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = _element(ax_dx, -2), _element(ax_dx, -1)
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[at(-1)] = a * f[at(-3)] + b * f[at(-2)] + c * f[at(-1)]
        outvals.append(out)
    if len(axes) == 1:
        return outvals[0]
    return tuple(outvals)


# -- i0 and the window functions ---------------------------------------------------------

# NumPy's Chebyshev coefficients of exp(-x) I0(x) on [0, 8] (A) and of exp(-x) sqrt(x) I0(x)
# on (8, inf] in 8/x (B) (Cephes).
_I0A = [
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1]
_I0B = [
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1]


def _chbevl(x, vals):
    b0, b1, b2 = vals[0], 0.0, 0.0
    for v in vals[1:]:
        b2 = b1
        b1 = b0
        b0 = _tessera.add(_tessera.subtract(_tessera.multiply(x, b1), b2), v)
    return _tessera.multiply(0.5, _tessera.subtract(b0, b2))


def i0(x):
    """The modified Bessel function of the first kind, order 0, by NumPy's Chebyshev series."""
    x = _asarray(x)
    kind = _np.dtype(x.dtype).kind
    if kind == "c":
        raise TypeError("i0 not supported for complex values")
    if kind != "f":
        x = x.astype(_np.float64)
    x = _tessera.absolute(x)
    small = x <= 8.0
    xs = _tessera.where(small, x, 0.0).astype(x.dtype, copy=False)
    xl = _tessera.where(small, 32.0, x).astype(x.dtype, copy=False)
    low = _tessera.multiply(_tessera.exp(xs), _chbevl(_tessera.subtract(_tessera.divide(xs, 2.0), 2), _I0A))
    series = _chbevl(_tessera.subtract(_tessera.divide(32.0, xl), 2.0), _I0B)
    high = _tessera.divide(_tessera.multiply(_tessera.exp(xl), series), _tessera.sqrt(xl))
    return _tessera.where(small, low, high).astype(x.dtype, copy=False)


def _window_length(M):
    values = _np.array([0.0, M])  # NumPy's float conversion (and its errors) for M
    return values[1]


def _cosine_window(M, terms):
    M = _window_length(M)
    if M < 1:
        return _tessera.zeros(0, _np.float64)
    if M == 1:
        return _tessera.ones(1, _np.float64)
    n = _tessera.arange(1 - M, M, 2)
    result = None
    for k, weight in terms:
        term = weight if k == 0 else weight * _tessera.cos(k * _np.pi * n / (M - 1))
        result = term if result is None else result + term
    return result


def bartlett(M):
    """The Bartlett (triangular) window of M points."""
    M = _window_length(M)
    if M < 1:
        return _tessera.zeros(0, _np.float64)
    if M == 1:
        return _tessera.ones(1, _np.float64)
    n = _tessera.arange(1 - M, M, 2)
    ratio = _tessera.divide(n, M - 1)
    return _tessera.where(n <= 0, _tessera.add(1, ratio), _tessera.subtract(1, ratio))


def blackman(M):
    """The Blackman window of M points."""
    return _cosine_window(M, ((0, 0.42), (1, 0.5), (2, 0.08)))


def hamming(M):
    """The Hamming window of M points."""
    return _cosine_window(M, ((0, 0.54), (1, 0.46)))


def hanning(M):
    """The Hann window of M points."""
    return _cosine_window(M, ((0, 0.5), (1, 0.5)))


def kaiser(M, beta):
    """The Kaiser window of M points with shape parameter beta."""
    values = _np.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return _tessera.ones(1, _np.float64)
    n = _tessera.arange(0, M)
    alpha = (M - 1) / 2.0
    ratio = _tessera.divide(_tessera.subtract(n, alpha), alpha)
    arg = _tessera.multiply(beta, _tessera.sqrt(_tessera.subtract(1, _tessera.power(ratio, 2.0))))
    return _tessera.divide(i0(arg), i0(_tessera.full((), beta)))


# -- polynomials -------------------------------------------------------------------------

def _not_iterable(a):
    """NumPy's TypeError for a 0-d argument its function iterates over (its dispatcher or loop)."""
    if _np.ndim(a) == 0:
        raise TypeError("iteration over a 0-d array")


def _unsized(p):
    if p.ndim == 0:
        raise TypeError("len() of unsized object")


def _atleast_1d(a):
    a = _asarray(a)
    return a.reshape(1) if a.ndim == 0 else a


def _coefficients(p):
    """A numpy.poly1d as the tessera array of its coefficients (a handful of numbers); anything
    else as it is."""
    return _tessera.asarray(p.coeffs) if isinstance(p, _np.poly1d) else p


def _poly1d_results(fn):
    """`fn` on poly1d arguments as NumPy has it: on their coefficients, the results (each of a
    tuple) poly1d, NumPy objects holding the coefficients."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not any(isinstance(a, _np.poly1d) for a in args):
            return fn(*args, **kwargs)
        result = fn(*[_coefficients(a) for a in args], **kwargs)
        if isinstance(result, tuple):
            return tuple(_np.poly1d(_np.asarray(r)) for r in result)
        return _np.poly1d(_np.asarray(result))
    return wrapper


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots (or a square matrix's
    characteristic polynomial)."""
    _not_iterable(seq_of_zeros)
    seq_of_zeros = _atleast_1d(seq_of_zeros)
    sh = seq_of_zeros.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        seq_of_zeros = _linalg.eigvals(seq_of_zeros)
    elif len(sh) == 1:
        seq_of_zeros = seq_of_zeros.astype(_np.mintypecode(_np.dtype(seq_of_zeros.dtype).char), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if seq_of_zeros.shape[0] == 0:
        return 1.0
    dt = seq_of_zeros.dtype
    a = _tessera.ones(1, dt)
    zero = _tessera.zeros(1, dt)
    for k in range(seq_of_zeros.shape[0]):
        # convolve(a, [1, -z]): each new coefficient is a[i] + a[i-1] * (-z), exactly
        shifted = _tessera.multiply(_tessera.concatenate((zero, a)), _tessera.negative(seq_of_zeros[k:k + 1]))
        a = _tessera.add(_tessera.concatenate((a, zero)), shifted)
    if _np.dtype(a.dtype).kind == "c":
        roots = seq_of_zeros.astype(_np.complex128, copy=False)
        if bool(_tessera.all(_tessera.sort(roots) == _tessera.sort(_tessera.conjugate(roots)))):
            a = _tessera.real(a).copy()
    return a


def _pad_front(a, count):
    return _tessera.concatenate((_tessera.zeros(count, a.dtype), a))


def _poly_combine(a1, a2, op):
    a1, a2 = _atleast_1d(a1), _atleast_1d(a2)
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = _pad_front(a1, diff)
    elif diff < 0:
        a2 = _pad_front(a2, -diff)
    return op(a1, a2)


@_poly1d_results
def polyadd(a1, a2):
    """The sum of two polynomials (coefficients, highest power first)."""
    return _poly_combine(a1, a2, _tessera.add)


@_poly1d_results
def polysub(a1, a2):
    """The difference of two polynomials."""
    return _poly_combine(a1, a2, _tessera.subtract)


@_poly1d_results
def polymul(a1, a2):
    """The product of two polynomials."""
    return convolve(_atleast_1d(a1), _atleast_1d(a2))


@_poly1d_results
def polyder(p, m=1):
    """The m-th derivative of a polynomial."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _asarray(p)
    _unsized(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = _tessera.multiply(p[:-1], _tessera.arange(n, 0, -1))
    return p


@_poly1d_results
def polyint(p, m=1, k=None):
    """The m-th antiderivative of a polynomial, with integration constants k."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = _tessera.zeros(m, _np.float64) if k is None else _atleast_1d(k)
    if k.shape[0] == 1 and m > 1:
        k = _tessera.multiply(k[0:1], _tessera.ones(m, _np.float64))
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = _asarray(p)
    if m:
        _unsized(p)
    for i in range(m):
        p = _tessera.concatenate((_tessera.divide(p, _tessera.arange(p.shape[0], 0, -1)), k[i:i + 1]))
    return p


def polyval(p, x):
    """The polynomial p evaluated at x by Horner's scheme."""
    if isinstance(x, _np.poly1d):  # a composition of polynomials: NumPy's poly1d arithmetic
        return fallback_attribute("polyval")(p, x)
    p = _asarray(_coefficients(p))  # values at x, as NumPy (which reads a poly1d's coefficients)
    _not_iterable(p)
    x = _asarray(x)
    y = _tessera.zeros_like(x)
    for i in range(p.shape[0]):
        y = _tessera.add(_tessera.multiply(y, x), p[i:i + 1].reshape(()))
    return y


@_poly1d_results
def polydiv(u, v):
    """The quotient and remainder of the polynomial division u / v."""
    u = _tessera.add(_atleast_1d(u), 0.0)
    v = _tessera.add(_atleast_1d(v), 0.0)
    w = _np.result_type(u.dtype, v.dtype)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = _tessera.divide(1.0, v[0:1].reshape(()))
    q = _tessera.zeros(max(m - n + 1, 1), w)
    r = u.astype(w)
    for k in range(0, m - n + 1):
        d = _tessera.multiply(scale, r[k:k + 1].reshape(()))
        q[k:k + 1] = d
        r[k:k + n + 1] = _tessera.subtract(r[k:k + n + 1], _tessera.multiply(d, v))
    while r.shape[-1] > 1 and bool(_tessera.allclose(r[0:1], 0, rtol=1e-14)):
        r = r[1:]
    return q, r


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares fit of a polynomial of degree `deg` to the points (x, y)."""
    order = int(deg) + 1
    x = _tessera.add(_asarray(x), 0.0)
    y = _tessera.add(_asarray(y), 0.0)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * _np.finfo(x.dtype).eps
    lhs = _vander(x, order)
    rhs = y
    if w is not None:
        w = _tessera.add(_asarray(w), 0.0)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = _tessera.multiply(lhs, w[:, None])
        rhs = _tessera.multiply(rhs, w[:, None] if rhs.ndim == 2 else w)
    scale = _tessera.sqrt(_tessera.sum(_tessera.multiply(lhs, lhs), axis=0))
    lhs = _tessera.divide(lhs, scale)
    c, resids, rank, s = _linalg.lstsq(lhs, rhs, rcond)
    c = _tessera.divide(c.T, scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = _linalg.inv(_tessera.matmul(lhs.T, lhs))
        vbase = _tessera.divide(vbase, _tessera.outer(scale, scale))
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = _tessera.divide(resids, x.shape[0] - order)
        if y.ndim == 1:
            return c, _tessera.multiply(vbase, fac)
        return c, _tessera.multiply(vbase[:, :, None], fac)
    return c


def roots(p):
    """The roots of a polynomial: the eigenvalues of its companion matrix."""
    _not_iterable(p)
    p = _atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    non_zero = _tessera.nonzero(_tessera.ravel(p))[0]
    if non_zero.shape[0] == 0:
        return _tessera.zeros(0, _np.float64)
    first, last = int(non_zero[0]), int(non_zero[-1])
    trailing_zeros = p.shape[0] - last - 1
    p = p[first:last + 1]
    if _np.dtype(p.dtype).kind not in "fc":
        p = p.astype(_np.float64)
    N = p.shape[0]
    if N > 1:
        A = _diag(_tessera.ones(N - 2, p.dtype), -1)
        A[0, :] = _tessera.divide(_tessera.negative(p[1:]), p[0:1])
        found = _linalg.eigvals(A)
    else:
        found = _tessera.zeros(0, _np.float64)
    return _tessera.concatenate((found, _tessera.zeros(trailing_zeros, found.dtype)))
