#include "numeric/linalg/views.h"

#include "data/store.h"
#include "tessera/elementwise.h"

namespace tessera::detail {
namespace {
ndarray reshaped(const ndarray& x, const Shape& shape) {
  if (StorePtr v = x.store()->reshape_view(shape)) return ndarray(v);
  return ndarray(tessera::copy(x).store()->reshape_view(shape));
}
}  // namespace

ndarray flatten_view(const ndarray& x) { return reshaped(x, {x.size()}); }

ndarray as_matrix(const ndarray& x, int64_t rows, int64_t cols) { return reshaped(x, {rows, cols}); }

ndarray permuted(const ndarray& x, const std::vector<int>& perm) { return ndarray(x.store()->transpose(perm)); }

ndarray with_unit_axes(const ndarray& x, const std::vector<int>& axes) {
  StorePtr s = x.store();
  for (int a : axes) s = s->new_axis(a);
  return ndarray(s);
}

int normalized_axis(int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

}  // namespace tessera::detail
