// Reductions along axes for the norms: sums of |x|, |x|^2 or |x|^p and maxima/minima of |x|.
// Each is a reduction of numeric/reduce (ReduceOp blocks reduced pairwise, the blocks joined
// by the one combine stage), so its value does not depend on the tiling; a norm is then
// such a reduction followed by an element-wise step (sqrt, a power) in norm.cc.
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
