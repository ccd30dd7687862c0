// The ufunc table (ufuncs.def) as the element-wise library reads it: the flags of its
// `methods` column and the lookup of a ufunc by any of its names.
#pragma once

#include <string_view>

#include "numeric/elementwise/ops.h"

namespace tessera::detail {

/// The `methods` flags of a binary row of ufuncs.def.
inline constexpr int kReorderable = 1 << 0;    // commutative and associative
inline constexpr int kFold = 1 << 1;           // reduce, accumulate and reduceat by ufunc_fold
inline constexpr int kHalfInFloat = 1 << 2;    // float16 folds in float32
inline constexpr int kAt = 1 << 3;             // ufunc.at as an in-place scatter update
inline constexpr int kReduceDtype = 1 << 4;    // the native reduction takes dtype=
inline constexpr int kReduceInitial = 1 << 5;  // the native reduction takes initial=

/// A ufunc found by name: its arity (1: `op` is a UnaryOp, 2: a BinaryOp; 0: no ufunc has
/// that name) and its code.
struct UfuncCode {
  int arity = 0;
  int op = 0;
};
/// The ufunc with NumPy name or alias `name` (internal functions by their own names).
UfuncCode find_ufunc(std::string_view name);

}  // namespace tessera::detail
