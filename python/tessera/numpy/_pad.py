"""pad, as NumPy pads: an empty array of the padded shape gets the original in its middle, then
each axis in turn has its two pad areas written by slice assignments (constants, edges, linear
ramps, statistics of the edge regions, reflections and wraps of the area already filled), so
every mode is a few deferred copies of views. A callable mode is called on each 1-D slice."""
import numpy as _np

from tessera import _tessera
from tessera.numpy._shapes import _linspace
from tessera.numpy._stats import median as _median


def _host(x):
    """Pad widths, lengths and values (metadata) on the host."""
    return _tessera._to_numpy(x) if isinstance(x, _tessera.ndarray) else x


def _slice_at_axis(sl, axis):
    return (slice(None),) * axis + (sl,) + (...,)


def _view_roi(array, original_area_slice, axis):
    """The part of `array` padded along `axis`: earlier axes' pad areas excluded (their corners
    are filled when the later axes are padded)."""
    axis += 1
    return array[(slice(None),) * axis + original_area_slice[axis:]]


def _set_pad_area(padded, axis, width_pair, value_pair):
    padded[_slice_at_axis(slice(None, width_pair[0]), axis)] = value_pair[0]
    padded[_slice_at_axis(slice(padded.shape[axis] - width_pair[1], None), axis)] = value_pair[1]


def _get_edges(padded, axis, width_pair):
    left = width_pair[0]
    right = padded.shape[axis] - width_pair[1]
    return (padded[_slice_at_axis(slice(left, left + 1), axis)],
            padded[_slice_at_axis(slice(right - 1, right), axis)])


def _ramp(end_value, edge, width, dtype, axis):
    """NumPy's linspace(end_value, edge, width, endpoint=False, dtype=dtype, axis=axis)."""
    y = _linspace(end_value, edge, width, False, axis)
    if _np.issubdtype(dtype, _np.integer):
        y = _tessera.floor(y)
    return y.astype(dtype, copy=False)


def _get_linear_ramps(padded, axis, width_pair, end_value_pair):
    edges = _get_edges(padded, axis, width_pair)
    left, right = (_ramp(value, _tessera.squeeze(edge, axis), width, padded.dtype, axis)
                   for value, edge, width in zip(end_value_pair, edges, width_pair))
    return left, right[_slice_at_axis(slice(None, None, -1), axis)]


def _rounded(stat, dtype):
    if _np.issubdtype(dtype, _np.integer) and _np.dtype(stat.dtype).kind in "fc":
        return _tessera.rint(stat)
    return stat


def _get_stats(padded, axis, width_pair, length_pair, stat_func):
    left_index = width_pair[0]
    right_index = padded.shape[axis] - width_pair[1]
    max_length = right_index - left_index
    left_length, right_length = length_pair
    if left_length is None or max_length < left_length:
        left_length = max_length
    if right_length is None or max_length < right_length:
        right_length = max_length
    if (left_length == 0 or right_length == 0) and stat_func in (_tessera.max, _tessera.min):
        raise ValueError("stat_length of 0 yields no value for padding")
    left_chunk = padded[_slice_at_axis(slice(left_index, left_index + left_length), axis)]
    left_stat = _rounded(stat_func(left_chunk, axis=axis, keepdims=True), padded.dtype)
    if left_length == right_length == max_length:
        return left_stat, left_stat
    right_chunk = padded[_slice_at_axis(slice(right_index - right_length, right_index), axis)]
    right_stat = _rounded(stat_func(right_chunk, axis=axis, keepdims=True), padded.dtype)
    return left_stat, right_stat


def _set_reflect_both(padded, axis, width_pair, method, original_period, include_edge=False):
    """One round of reflection into both pad areas; returns the widths still to fill."""
    left_pad, right_pad = width_pair
    old_length = padded.shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // original_period * original_period
        edge_offset = 1
    else:
        old_length = (old_length - 1) // (original_period - 1) * (original_period - 1) + 1
        edge_offset = 0
        old_length -= 1  # the edge is the mirror, not part of the chunk
    if left_pad > 0:
        chunk_length = min(old_length, left_pad)
        stop = left_pad - edge_offset
        start = stop + chunk_length
        left_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            edge = padded[_slice_at_axis(slice(left_pad, left_pad + 1), axis)]
            left_chunk = 2 * edge - left_chunk
        padded[_slice_at_axis(slice(left_pad - chunk_length, left_pad), axis)] = left_chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        stop = start - chunk_length
        right_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            edge = padded[_slice_at_axis(slice(-right_pad - 1, -right_pad), axis)]
            right_chunk = 2 * edge - right_chunk
        start = padded.shape[axis] - right_pad
        padded[_slice_at_axis(slice(start, start + chunk_length), axis)] = right_chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _set_wrap_both(padded, axis, width_pair, original_period):
    """One round of wrapping into both pad areas; returns the widths still to fill."""
    left_pad, right_pad = width_pair
    period = padded.shape[axis] - right_pad - left_pad
    period = period // original_period * original_period
    new_left_pad = new_right_pad = 0
    if left_pad > 0:
        slice_end = left_pad + period
        slice_start = slice_end - min(period, left_pad)
        right_chunk = padded[_slice_at_axis(slice(slice_start, slice_end), axis)]
        if left_pad > period:
            pad_area = _slice_at_axis(slice(left_pad - period, left_pad), axis)
            new_left_pad = left_pad - period
        else:
            pad_area = _slice_at_axis(slice(None, left_pad), axis)
        padded[pad_area] = right_chunk
    if right_pad > 0:
        slice_start = -right_pad - period
        slice_end = slice_start + min(period, right_pad)
        left_chunk = padded[_slice_at_axis(slice(slice_start, slice_end), axis)]
        if right_pad > period:
            pad_area = _slice_at_axis(slice(-right_pad, -right_pad + period), axis)
            new_right_pad = right_pad - period
        else:
            pad_area = _slice_at_axis(slice(-right_pad, None), axis)
        padded[pad_area] = left_chunk
    return new_left_pad, new_right_pad


def _as_pairs(x, ndim, as_index=False):
    """`x` (widths, lengths or values: host metadata) as `ndim` pairs."""
    if x is None:
        return ((None, None),) * ndim
    x = _np.array(_host(x))
    if as_index:
        x = _np.round(x).astype(_np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return _np.broadcast_to(x, (ndim, 2)).tolist()


def _pad_with_function(array, pad_width, function, kwargs):
    """NumPy's callable mode: `function(vector, width_pair, axis, kwargs)` fills the pad areas of
    each 1-D slice (a writable tessera view) of the zero-padded array, axis after axis."""
    shape = tuple(left + size + right for size, (left, right) in zip(array.shape, pad_width))
    padded = _tessera.zeros(shape, dtype=array.dtype)
    padded[tuple(slice(left, left + size) for size, (left, _) in zip(array.shape, pad_width))] = array
    for axis in range(padded.ndim):
        view = _tessera.moveaxis(padded, axis, -1)
        for ind in _np.ndindex(view.shape[:-1]):
            function(view[ind + (Ellipsis,)], pad_width[axis], axis, kwargs)
    return padded


_PAD_KWARGS = {
    "empty": [], "edge": [], "wrap": [], "constant": ["constant_values"], "linear_ramp": ["end_values"],
    "maximum": ["stat_length"], "mean": ["stat_length"], "median": ["stat_length"], "minimum": ["stat_length"],
    "reflect": ["reflect_type"], "symmetric": ["reflect_type"],
}


def pad(array, pad_width, mode="constant", **kwargs):
    """`array` padded by `pad_width` elements on each side of each axis, filled as `mode` says
    (a callable `mode` is called once per 1-D slice along each axis)."""
    array = _tessera.asarray(array)
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * array.ndim
        for axis, width in pad_width.items():
            seq[axis] = (width, width) if isinstance(width, int) else tuple(width)
        pad_width = seq
    pad_width = _np.asarray(_host(pad_width))
    if not pad_width.dtype.kind == "i":
        raise TypeError("`pad_width` must be of integral type.")
    pad_width = _as_pairs(pad_width, array.ndim, as_index=True)
    if callable(mode):
        return _pad_with_function(array, pad_width, mode, kwargs)
    try:
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")

    new_shape = tuple(left + size + right for size, (left, right) in zip(array.shape, pad_width))
    padded = _tessera.empty(new_shape, dtype=array.dtype)
    original_area_slice = tuple(slice(left, left + size) for size, (left, right) in zip(array.shape, pad_width))
    padded[original_area_slice] = array
    axes = range(padded.ndim)
    stat_functions = {"maximum": _tessera.max, "minimum": _tessera.min, "mean": _tessera.mean, "median": _median}
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, values):
            _set_pad_area(_view_roi(padded, original_area_slice, axis), axis, width_pair, value_pair)
    elif mode == "empty":
        pass
    elif array.size == 0:
        for axis, width_pair in zip(axes, pad_width):
            if array.shape[axis] == 0 and any(width_pair):
                raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'")
    elif mode == "edge":
        for axis, width_pair in zip(axes, pad_width):
            roi = _view_roi(padded, original_area_slice, axis)
            _set_pad_area(roi, axis, width_pair, _get_edges(roi, axis, width_pair))
    elif mode == "linear_ramp":
        end_values = _as_pairs(kwargs.get("end_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, end_values):
            roi = _view_roi(padded, original_area_slice, axis)
            _set_pad_area(roi, axis, width_pair, _get_linear_ramps(roi, axis, width_pair, value_pair))
    elif mode in stat_functions:
        func = stat_functions[mode]
        length = _as_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True)
        for axis, width_pair, length_pair in zip(axes, pad_width, length):
            roi = _view_roi(padded, original_area_slice, axis)
            _set_pad_area(roi, axis, width_pair, _get_stats(roi, axis, width_pair, length_pair, func))
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        include_edge = mode == "symmetric"
        for axis, (left_index, right_index) in zip(axes, pad_width):
            if array.shape[axis] == 1 and (left_index > 0 or right_index > 0):
                _set_pad_area(padded, axis, (left_index, right_index),
                              _get_edges(padded, axis, (left_index, right_index)))
                continue
            roi = _view_roi(padded, original_area_slice, axis)
            while left_index > 0 or right_index > 0:
                left_index, right_index = _set_reflect_both(
                    roi, axis, (left_index, right_index), method, array.shape[axis], include_edge)
    elif mode == "wrap":
        for axis, (left_index, right_index) in zip(axes, pad_width):
            roi = _view_roi(padded, original_area_slice, axis)
            original_period = padded.shape[axis] - right_index - left_index
            while left_index > 0 or right_index > 0:
                left_index, right_index = _set_wrap_both(roi, axis, (left_index, right_index), original_period)
    return padded
