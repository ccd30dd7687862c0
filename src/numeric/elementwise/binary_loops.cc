// Binary element-wise loops: the functors of binary_functors.h instantiated for the
// compute dtypes their rows of ufuncs.def accept, and `where`. Where vector_loops.h has a loop for the
// CPU's instruction set, that loop serves instead.
#include "numeric/elementwise/binary_functors.h"
#include "numeric/elementwise/ops.h"
#include "numeric/elementwise/vector_loops.h"

namespace tessera::detail {
namespace {
using namespace binary;

#include "numeric/elementwise/loop_bodies-inl.h"

template <class Op>
BinaryLoop pick(DType t, DType* out) {
  return visit_dtype(t, [&](auto tag) -> BinaryLoop {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, _Float16>) return nullptr;
    else if constexpr (has_loop<Op, T>) {
      *out = dtype_of<typename Op::template Out<T>>::value;
      return &binary_run<Op, T>;
    } else {
      return nullptr;
    }
  });
}

BinaryLoop scalar_binary_loop(BinaryOp op, DType t, DType* out) {
  switch (op) {
// clang-format off
#define TESSERA_BINARY_UFUNC(OP, ...) case BinaryOp::OP: return pick<OP>(t, out);
#include "numeric/elementwise/ufuncs.def"
      // clang-format on
    case BinaryOp::kCount: break;
  }
  return nullptr;
}

}  // namespace

BinaryLoop binary_loop(BinaryOp op, DType t, DType* out) {
  BinaryLoop scalar = scalar_binary_loop(op, t, out);
  if (!scalar) return nullptr;
  if (BinaryLoop v = vector_binary_loop(op, t)) return v;
  return scalar;
}

WhereLoop where_loop(DType t) {
  if (WhereLoop v = vector_where_loop(t)) return v;
  return visit_dtype(t, [](auto tag) -> WhereLoop { return &where_run<decltype(tag)>; });
}

}  // namespace tessera::detail
