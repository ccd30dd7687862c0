// Views the linear-algebra routines take of their operands: flattened and
// matrix-shaped, without copying when the layout allows (else a deferred copy).
#pragma once

#include <vector>

#include "tessera/ndarray.h"

namespace tessera::detail {

/// `x` as a 1-D array of x.size() elements in C order.
ndarray flatten_view(const ndarray& x);
/// `x` (whose size is rows * cols) as a rows × cols array in C order.
ndarray as_matrix(const ndarray& x, int64_t rows, int64_t cols);
/// `x` with its axes permuted: axis i of the result is axis perm[i] of x (a view).
ndarray permuted(const ndarray& x, const std::vector<int>& perm);
/// `x` (of shape `shape` with axes removed) with length-1 axes re-inserted at `axes` (sorted).
ndarray with_unit_axes(const ndarray& x, const std::vector<int>& axes);
/// NumPy's normalize_axis_index: `axis` in [0, ndim), else AxisError.
int normalized_axis(int64_t axis, int ndim);

}  // namespace tessera::detail
