// What the factorizations share: NumPy's type rules and shape checks for linalg, and
// stacks of matrices as arguments of a batched launch (batched_op.h).
#pragma once

#include <string>
#include <vector>

#include "data/store.h"
#include "tessera/ndarray.h"

namespace tessera::detail {

/// NumPy's `_commonType`: the type computed in (Float64 or Complex128) and the type returned
/// (single precision only when every input is). float16 is a TypeError, as in NumPy.
struct LinalgTypes {
  DType work, result;
};
LinalgTypes linalg_types(const std::vector<ndarray>& arrays);

/// LinAlgError unless `a` has at least two dimensions (and, for the second, square matrices).
void assert_stacked_2d(const ndarray& a);
void assert_stacked_square(const ndarray& a);

/// `a` as dtype `t`, broadcast to `shape` (a view when it already has dtype `t`).
StorePtr batch_input(const ndarray& a, DType t, const Shape& shape);
/// A new store of `dtype` and shape `batch` + `core`.
StorePtr batch_output(DType dtype, const Shape& batch, const Shape& core);
/// `s` as dtype `t` (deferred cast when it differs).
ndarray as_result(const StorePtr& s, DType t);
/// The leading axes of `shape` before its last `core` ones.
Shape batch_shape(const Shape& shape, int core = 2);
/// Waits for what was issued, so an error LAPACK reported surfaces at the call.
void wait_for_errors();

}  // namespace tessera::detail
