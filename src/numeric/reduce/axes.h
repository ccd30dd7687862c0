// The `axis` argument of the reductions: which axes of an array a reduction removes.
#pragma once

#include <vector>

#include "tessera/reduce.h"

namespace tessera::detail {

/// For each of `ndim` axes, whether `axis` reduces it. AxisError for an axis out of range,
/// ValueError for a repeated one (NumPy's messages).
std::vector<bool> reduced_axes(int ndim, const Axes& axis);
/// The number of elements reduced into each output.
int64_t reduced_count(const Shape& shape, const std::vector<bool>& reduced);

}  // namespace tessera::detail
