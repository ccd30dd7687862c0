"""Tensor contractions on tessera's native operations: einsum, einsum_path, tensordot, kron.

einsum contracts its operands pairwise in the order of a contraction path. Each pair becomes
a transpose and reshape of both operands into (batch, rows, inner) and (batch, inner,
columns) and one native matmul (BLAS), or a broadcast multiply when no index is summed
between them. Repeated indices within one operand are diagonal views, indices that only one
operand carries and the result does not keep are summed away first with tessera's sum.

The subscripts are parsed, and the path is found, by NumPy's own einsum code run on stand-ins
of the operands' shapes and dtypes (zero-strided arrays holding one element), never on the
data. Results keep NumPy's dtype rules: the operands' common dtype (or `dtype=`), so integer
contractions stay integer and wrap as NumPy's do; only the order of the additions differs
from NumPy's, so floating results agree to rounding.
"""
import math
import operator

import numpy as _np
from numpy._core.einsumfunc import _parse_einsum_input

from tessera import _tessera
from tessera.numpy._fallback import fallback_attribute
from tessera.numpy._shapes import diagonal

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # the labels 0..51 of the sublist form
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_ORDERS = ("C", "F", "A", "K")
_UNLIMITED = 2 ** 62  # a memory limit of einsum_path that never applies


def _stand_in(x):
    """A NumPy array of `x`'s shape and dtype that holds one element (for NumPy's path code)."""
    return _np.broadcast_to(_np.empty((), x.dtype), x.shape)


def _sublist_text(sublist):
    """The subscripts string of one sublist of the interleaved form (labels 0..51, one Ellipsis)."""
    text = ""
    for label in sublist:
        if label is Ellipsis:
            if "..." in text:
                raise ValueError("each subscripts list may have only one ellipsis")
            text += "..."
            continue
        try:
            label = operator.index(label)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") from None
        if not 0 <= label < len(_LETTERS):
            raise ValueError(f"subscript is not within the valid range [0, {len(_LETTERS)})")
        text += _LETTERS[label]
    return text


def _split(operands):
    """(subscripts string, operands) of either calling form of einsum."""
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string and at least one operand")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    if len(operands) < 2:
        raise ValueError("must provide at least an operand and a subscripts list to einsum")
    pairs = len(operands) // 2
    arrays = list(operands[0:2 * pairs:2])
    subscripts = ",".join(_sublist_text(s) for s in operands[1:2 * pairs:2])
    if len(operands) % 2:
        subscripts += "->" + _sublist_text(operands[-1])
    return subscripts, arrays


def _stand_in_operands(operands):
    """`operands` (either form) with every tessera array replaced by its stand-in."""
    return [_stand_in(x) if isinstance(x, _tessera.ndarray) else x for x in operands]


def _parse(subscripts, arrays, optimize):
    """(input terms, output term, sizes): NumPy's parse with the ellipses spelled out as
    letters, checked as NumPy's einsum checks it; sizes maps each letter to its length.
    Without `optimize`, NumPy refuses an explicit output without '...' when an input's '...'
    stands for axes; with it, NumPy sums those axes away (so does this)."""
    text = subscripts.replace(" ", "")
    for char in text:
        if char not in _LETTERS and char not in ".,->":
            raise ValueError(f"invalid subscript '{char}' in einstein sum subscripts string, "
                             "subscripts must be letters")
    explicit = "->" in text
    written = text.split("->")[0].split(",")
    if len(written) < len(arrays):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts string")
    if len(written) > len(arrays):
        raise ValueError("fewer operands provided to einstein sum function than specified in the subscripts string")
    for number, (term, x) in enumerate(zip(written, arrays)):
        labels = len(term.replace("...", ""))
        if labels > x.ndim or ("..." not in term and labels != x.ndim):
            raise ValueError(f"einstein sum subscripts string contains too many subscripts for operand {number}"
                             if labels > x.ndim else
                             f"operand has more dimensions than subscripts given in einstein sum, but no '...' "
                             f"ellipsis provided to broadcast the extra dimensions (operand {number}).")
        if optimize is False and explicit and "..." in term and labels < x.ndim and "..." not in text.split("->")[1]:
            raise ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions.")
    inputs, output, _ = _parse_einsum_input((text, *[_stand_in(x) for x in arrays]))
    terms = inputs.split(",")
    sizes = {}
    for number, (term, x) in enumerate(zip(terms, arrays)):
        own = {}
        for char, length in zip(term, x.shape):
            if own.setdefault(char, length) != length:
                raise ValueError(f"dimensions in operand {number} for collapsing index '{char}' "
                                 f"don't match ({own[char]} != {length})")
            if sizes.get(char, 1) == 1:
                sizes[char] = length
            elif length not in (1, sizes[char]):
                raise ValueError(f"operands could not be broadcast together: label '{char}' has length "
                                 f"{length} in operand {number} and {sizes[char]} before")
    return terms, output, sizes


def _permuted(x, term, order):
    """`x` (labelled by `term`) with its axes in the order of the letters `order`."""
    axes = [term.index(c) for c in order]
    return x if axes == sorted(axes) else _tessera.transpose(x, axes)


def _reduced(x, term, keep):
    """`x` with each repeated letter of `term` taken as a diagonal and the letters not in
    `keep` summed away; returns (array, term of distinct letters)."""
    for char in term:
        while term.count(char) > 1:
            first = term.index(char)
            second = term.index(char, first + 1)
            x = diagonal(x, 0, first, second)
            term = term[:first] + term[first + 1:second] + term[second + 1:] + char
    summed = tuple(i for i, c in enumerate(term) if c not in keep)
    if not summed:
        return x, term
    if x.dtype.kind in "iu" and x.dtype.itemsize < 8:
        # Summed in 64 bits and wrapped back: the same modular result as NumPy's narrow sum.
        x = _tessera.sum(x, axis=summed).astype(x.dtype)
    else:
        x = _tessera.sum(x, axis=summed, dtype=x.dtype)
    return x, "".join(c for c in term if c in keep)


def _pair(a, ta, b, tb, keep, sizes):
    """The contraction of `a` and `b` (distinct letters each) over their shared letters not in
    `keep`; returns (array, term): the batch letters, then a's own, then b's own."""
    batch = [c for c in ta if c in tb and c in keep]
    inner = [c for c in ta if c in tb and c not in keep]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]
    a = _permuted(a, ta, batch + left + inner)
    b = _permuted(b, tb, batch + inner + right)
    a_batch, b_batch = a.shape[:len(batch)], b.shape[:len(batch)]
    left_shape = a.shape[len(batch):len(batch) + len(left)]
    right_shape = b.shape[len(batch) + len(inner):]
    term = "".join(batch + left + right)
    if not inner:  # an element-wise or outer product: a broadcast multiply
        a = a.reshape(a.shape + (1,) * len(right))
        b = b.reshape(b_batch + (1,) * len(left) + right_shape)
        return _tessera.multiply(a, b), term
    inner_shape = tuple(sizes[c] for c in inner)
    if a.shape[len(a.shape) - len(inner):] != inner_shape:  # a length-1 axis broadcast against b's
        a = _tessera.broadcast_to(a, a.shape[:len(a.shape) - len(inner)] + inner_shape)
    if b.shape[len(batch):len(batch) + len(inner)] != inner_shape:
        b = _tessera.broadcast_to(b, b_batch + inner_shape + right_shape)
    rows, columns, depth = math.prod(left_shape), math.prod(right_shape), math.prod(inner_shape)
    if (a_batch + (rows, depth)) != a.shape:
        a = a.reshape(a_batch + (rows, depth))
    if (b_batch + (depth, columns)) != b.shape:
        b = b.reshape(b_batch + (depth, columns))
    product = _tessera.matmul(a, b)
    shape = product.shape[:len(batch)] + left_shape + right_shape
    return (product if product.shape == shape else product.reshape(shape)), term


def _follow(arrays, terms, output, path, sizes):
    """Contract `arrays` (labelled by `terms`) step by step along `path` (NumPy's form: the
    positions each step takes from the list, its result going to the end) into one array
    labelled by the letters of `output`; returns (array, term)."""
    arrays, terms = list(arrays), list(terms)
    for positions in path:
        positions = sorted(positions, reverse=True)
        taken = [arrays.pop(p) for p in positions]
        taken_terms = [terms.pop(p) for p in positions]
        x, term = _contract(taken, taken_terms, set(output).union(*terms), sizes)
        arrays.append(x)
        terms.append(term)
    return arrays[0], terms[0]


def _contract(arrays, terms, needed, sizes):
    """Contract `arrays` (labelled by `terms`) into one array keeping the letters in `needed`;
    returns (array, term). More than two go pairwise in the order of a greedy path without
    memory limit (a path step may take several operands), or from the left where that path
    is one step (nothing is summed: every order gives the same products)."""
    if len(arrays) > 2:
        output = "".join(sorted(needed & set("".join(terms))))
        path = _np.einsum_path(",".join(terms) + "->" + output, *[_stand_in(x) for x in arrays],
                               optimize=("greedy", _UNLIMITED))[0][1:]
        if len(path) > 1:
            return _follow(arrays, terms, output, path, sizes)
    later = [set("".join(terms[i + 1:])) for i in range(len(terms))]
    x, term = _reduced(arrays[0], terms[0], needed | later[0])
    for i in range(1, len(arrays)):
        keep = needed | later[i]
        y, other = _reduced(arrays[i], terms[i], keep | set(term))
        x, term = _reduced(x, term, keep | set(other))
        x, term = _pair(x, term, y, other, keep, sizes)
    return x, term


def _view(x, term, output):
    """The result of a single operand whose letters all stay: a strided view of `x` (a
    diagonal for repeated letters), writeable where `x` is, as NumPy's einsum returns it."""
    shape = tuple(x.shape[term.index(c)] for c in output)
    if 0 in shape:
        return _tessera.empty(shape, x.dtype)
    first, strides, _ = _tessera._storage_layout(x)
    grid = [sum(int(s) for s, t in zip(strides, term) if t == c) for c in output]
    return _tessera._strided_view(x, int(first), list(shape), grid, bool(x.flags.writeable))


def einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    """The Einstein summation of the operands, as numpy.einsum: subscripts and operands, or
    operands interleaved with sublists of labels; `optimize` picks the contraction order."""
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got {casting!r})")
    if order not in _ORDERS:  # the memory order of the result: tessera chooses its own layout
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if out is not None and not isinstance(out, _tessera.ndarray):
        raise TypeError("keyword parameter out must be an array for einsum")
    subscripts, arrays = _split(operands)
    arrays = [_tessera.asarray(x) for x in arrays]
    terms, output, sizes = _parse(subscripts, arrays, optimize)
    if optimize is not False:  # NumPy's checks of `optimize`, and the path it asks for
        path = einsum_path(",".join(terms) + "->" + output, *arrays, optimize=optimize)[0][1:]
    elif len(arrays) > 2:
        path = einsum_path(",".join(terms) + "->" + output, *arrays, optimize="greedy")[0][1:]
    else:
        path = [tuple(range(len(arrays)))]
    if len(arrays) == 1 and out is None and set(terms[0]) == set(output):
        return _view(arrays[0], terms[0], output)  # NumPy's view ignores `dtype` too
    result_type = _np.result_type(*[x.dtype for x in arrays]) if dtype is None else _np.dtype(dtype)
    for number, x in enumerate(arrays):
        if not _np.can_cast(x.dtype, result_type, casting):
            raise TypeError(f"Iterator operand {number} dtype could not be cast from {x.dtype!r} to "
                            f"{result_type!r} according to the rule '{casting}'")
    shape = tuple(sizes[c] for c in output)
    if out is not None:
        if not _np.can_cast(result_type, out.dtype, casting):
            raise TypeError(f"Iterator requested dtype could not be cast from {result_type!r} to {out.dtype!r}, "
                            f"the operand {len(arrays)} dtype, according to the rule '{casting}'")
        if out.shape != shape:
            raise ValueError(f"einsum: the output has shape {out.shape}, the result {shape}")
    arrays = [x if x.dtype == result_type else x.astype(result_type) for x in arrays]
    result = _permuted(*_follow(arrays, terms, output, path, sizes), output)
    if out is None:
        return result
    _tessera.copyto(out, result, casting="unsafe")
    return out


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path: the contraction order (['einsum_path', (i, j), ...]) and NumPy's report
    of it; the path depends only on the shapes, which NumPy is given in stand-in arrays.
    `einsum_call` (NumPy's own einsum asks for the operands and contraction list) runs NumPy's."""
    if einsum_call:
        return fallback_attribute("einsum_path")(*operands, optimize=optimize, einsum_call=True)
    return _np.einsum_path(*_stand_in_operands(operands), optimize=optimize)


def tensordot(a, b, axes=2):
    """The sum of products of `a` and `b` over `axes` (an int N: a's last N and b's first N
    axes; or a pair of axis sequences), as numpy.tensordot: one matmul of the two reshaped."""
    try:
        iter(axes)
    except Exception:  # an integer: NumPy's own test, which any non-iterable passes
        axes_a, axes_b = list(range(-axes, 0)), list(range(axes))
    else:
        axes_a, axes_b = axes
    axes_a = list(axes_a) if hasattr(axes_a, "__len__") else [axes_a]
    axes_b = list(axes_b) if hasattr(axes_b, "__len__") else [axes_b]
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("duplicate axes are not allowed in tensordot")
    a, b = _tessera.asarray(a), _tessera.asarray(b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    for k in range(len(axes_a)):
        if a.shape[axes_a[k]] != b.shape[axes_b[k]]:
            raise ValueError("shape-mismatch for sum")
        axes_a[k] += a.ndim if axes_a[k] < 0 else 0
        axes_b[k] += b.ndim if axes_b[k] < 0 else 0
    rest_a = [k for k in range(a.ndim) if k not in axes_a]
    rest_b = [k for k in range(b.ndim) if k not in axes_b]
    depth = math.prod(a.shape[k] for k in axes_a)
    left = [a.shape[k] for k in rest_a]
    right = [b.shape[k] for k in rest_b]
    at = _tessera.transpose(a, rest_a + axes_a).reshape((math.prod(left), depth))
    bt = _tessera.transpose(b, axes_b + rest_b).reshape((depth, math.prod(right)))
    return _tessera.dot(at, bt).reshape(tuple(left + right))


def kron(a, b):
    """The Kronecker product of `a` and `b`: blocks of b scaled by the elements of a, as
    numpy.kron (the shorter shape padded with leading 1s)."""
    a, b = _tessera.asarray(a), _tessera.asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return _tessera.multiply(a, b)
    nd = max(a.ndim, b.ndim)
    a_shape = (1,) * (nd - a.ndim) + a.shape
    b_shape = (1,) * (nd - b.ndim) + b.shape
    # Interleave the axes: a's at even positions, b's at odd ones, then merge each pair.
    a = a.reshape(tuple(x for s in a_shape for x in (s, 1)))
    b = b.reshape(tuple(x for s in b_shape for x in (1, s)))
    return _tessera.multiply(a, b).reshape(tuple(x * y for x, y in zip(a_shape, b_shape)))
