// Reductions along axes for the norms: each element of the result is reduced by
// one point task in a fixed order, so results do not depend on the tiling.
// (The general reductions family lives in numeric/reduce; this is linalg's own.)
#pragma once

#include <vector>

#include "tessera/ndarray.h"

namespace tessera::detail {

enum class AxisReduction {
  Sum,
  Max,  // with initial value 0 (the norms reduce absolute values)
  Min,  // ValueError on an empty reduction, as NumPy's `min`
};

/// `x` (float16/32/64) reduced over `axes` (distinct, normalised): an array of x's dtype with
/// those axes removed. Sums accumulate in float64; NaN propagates through max and min.
ndarray reduce_axes(const ndarray& x, const std::vector<int>& axes, AxisReduction kind);

}  // namespace tessera::detail
