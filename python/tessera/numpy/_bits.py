"""Bit packing (NumPy's packbits and unpackbits) on tessera's native arithmetic and reshapes."""
import operator

import numpy as _np

from tessera import _tessera

_normalize_axis = _np.lib.array_utils.normalize_axis_index


def _bitorder(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder


def packbits(a, /, axis=None, bitorder="big"):
    """The elements of `a` (true or false) packed 8 to a uint8 along `axis` (of the flattened `a`
    if None), zero-padded to a multiple of 8."""
    a = _tessera.asarray(a)
    if _np.dtype(a.dtype).kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    bitorder = _bitorder(bitorder)
    if axis is None or a.ndim == 0:
        a, axis = a.ravel(), 0
    axis = _normalize_axis(axis, a.ndim)
    bits = _tessera.moveaxis(_tessera.not_equal(a, 0).astype(_np.uint8), axis, -1)
    n = bits.shape[-1]
    groups = -(-n // 8)
    if groups * 8 != n:
        bits = _tessera.concatenate((bits, _tessera.zeros(bits.shape[:-1] + (groups * 8 - n,), _np.uint8)), axis=-1)
    weights = _tessera.asarray(_np.array([128, 64, 32, 16, 8, 4, 2, 1] if bitorder == "big"
                                         else [1, 2, 4, 8, 16, 32, 64, 128], dtype=_np.uint8))
    grouped = bits.reshape(bits.shape[:-1] + (groups, 8))
    packed = _tessera.sum(_tessera.multiply(grouped, weights), axis=-1, dtype=_np.uint8)
    return _tessera.moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of the uint8 `a` as uint8 0s and 1s along `axis` (of the flattened `a` if None);
    `count` keeps that many (negative: drops that many, more: pads with zeros)."""
    a = _tessera.asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    bitorder = _bitorder(bitorder)
    if axis is None or a.ndim == 0:
        a, axis = a.ravel(), 0
    axis = _normalize_axis(axis, a.ndim)
    moved = _tessera.moveaxis(a, axis, -1)
    n = moved.shape[-1] * 8
    if count is None:
        count = n
    else:
        count = operator.index(count)
        if count < 0:
            if -count > n:
                raise ValueError("-count larger than number of elements")
            count += n
    shifts = _tessera.asarray(_np.array([7, 6, 5, 4, 3, 2, 1, 0] if bitorder == "big"
                                        else [0, 1, 2, 3, 4, 5, 6, 7], dtype=_np.uint8))
    bits = _tessera.bitwise_and(_tessera.right_shift(moved[..., None], shifts), _np.uint8(1))
    bits = bits.reshape(moved.shape[:-1] + (n,))
    if count <= n:
        bits = bits[..., :count]
    else:
        bits = _tessera.concatenate((bits, _tessera.zeros(bits.shape[:-1] + (count - n,), _np.uint8)), axis=-1)
    return _tessera.moveaxis(bits, -1, axis)
