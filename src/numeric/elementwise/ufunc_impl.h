// Type resolution shared by the element-wise library's entry points.
#pragma once

#include <string>
#include <string_view>

#include "numeric/elementwise/ops.h"
#include "tessera/ndarray.h"

namespace tessera::detail {

/// The loop chosen for a ufunc call: the dtype it computes in and the dtype it yields.
struct Resolved {
  DType compute;
  DType out;
  void* loop;
  DType loop_in;  // the inputs' dtype in NumPy's loop (float16 where tessera computes in float32)
};

Resolved resolve_unary(std::string_view name, UnaryOp op, DType t);
Resolved resolve_binary(std::string_view name, BinaryOp op, DType ta, DType tb);
/// NumPy's `can_cast(from, to, 'same_kind')`.
bool can_cast_same_kind(DType from, DType to);
/// "dtype('float64')", as NumPy's messages print dtypes.
std::string dtype_repr(DType t);
/// OverflowError when a Python integer does not fit the dtype it meets.
void check_scalar_fits(const Operand& o, DType t);

}  // namespace tessera::detail
