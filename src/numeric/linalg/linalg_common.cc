#include "numeric/linalg/linalg_common.h"

#include "tessera/elementwise.h"
#include "tessera/runtime.h"
#include "tessera/task.h"

namespace tessera::detail {

LinalgTypes linalg_types(const std::vector<ndarray>& arrays) {
  bool dbl = false, cplx = false;
  for (const ndarray& a : arrays) {
    const DType t = a.dtype();
    if (t == DType::Float16) throw TypeError("array type float16 is unsupported in linalg");
    if (is_complex(t)) cplx = true;
    if (t != DType::Float32 && t != DType::Complex64) dbl = true;
  }
  if (cplx) return {DType::Complex128, dbl ? DType::Complex128 : DType::Complex64};
  return {DType::Float64, dbl ? DType::Float64 : DType::Float32};
}

void assert_stacked_2d(const ndarray& a) {
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
}

void assert_stacked_square(const ndarray& a) {
  assert_stacked_2d(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw LinAlgError("Last 2 dimensions of the array must be square");
}

StorePtr batch_input(const ndarray& a, DType t, const Shape& shape) {
  StorePtr s = a.dtype() == t ? a.store() : astype(a, t).store();
  return s->shape() == shape ? s : s->broadcast_to(shape);
}

StorePtr batch_output(DType dtype, const Shape& batch, const Shape& core) {
  Shape shape = batch;
  shape.insert(shape.end(), core.begin(), core.end());
  return new_array(shape, dtype).store();
}

ndarray as_result(const StorePtr& s, DType t) {
  ndarray r(s);
  return s->dtype() == t ? r : astype(r, t);
}

Shape batch_shape(const Shape& shape, int core) { return Shape(shape.begin(), shape.end() - core); }

void wait_for_errors() { tessera::fence(); }

}  // namespace tessera::detail
