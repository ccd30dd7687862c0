#include "numeric/linalg/axis_reduce.h"

#include "tessera/creation.h"
#include "tessera/reduce.h"

namespace tessera::detail {

ndarray reduce_axes(const ndarray& x, const std::vector<int>& axes, AxisReduction kind) {
  ReduceOptions o;
  o.axis = std::vector<int64_t>(axes.begin(), axes.end());
  switch (kind) {
    case AxisReduction::Max: o.initial = Scalar(int64_t{0}); return amax(x, o);
    case AxisReduction::Min: return amin(x, o);
    case AxisReduction::Sum: break;
  }
  // Accumulated in float64 and written in x's dtype.
  Shape kept;
  std::vector<bool> reduced(static_cast<size_t>(x.ndim()), false);
  for (int a : axes) reduced[static_cast<size_t>(a)] = true;
  for (int d = 0; d < x.ndim(); ++d)
    if (!reduced[static_cast<size_t>(d)]) kept.push_back(x.shape()[d]);
  o.dtype = DType::Float64;
  o.out = empty(kept, x.dtype());
  return sum(x, o);
}

}  // namespace tessera::detail
