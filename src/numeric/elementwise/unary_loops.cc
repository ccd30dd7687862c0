// Unary element-wise loops: the functors of unary_functors.h instantiated for the
// compute dtypes their rows of ufuncs.def accept (float16 computes in float32, so it has
// no loops). Where vector_loops.h has a loop for the CPU's instruction set, that loop
// serves instead.
#include "numeric/elementwise/ops.h"
#include "numeric/elementwise/unary_functors.h"
#include "numeric/elementwise/vector_loops.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
using namespace unary;

#include "numeric/elementwise/loop_bodies-inl.h"

template <class Op>
UnaryLoop pick(DType t, DType* out) {
  if (t == DType::Float16) return nullptr;
  return visit_dtype(t, [&](auto tag) -> UnaryLoop {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, _Float16>) return nullptr;
    else if constexpr (has_loop<Op, T>) {
      *out = dtype_of<typename Op::template Out<T>>::value;
      return &unary_run<Op, T>;
    } else {
      return nullptr;
    }
  });
}

UnaryLoop scalar_unary_loop(UnaryOp op, DType t, DType* out) {
  switch (op) {
// clang-format off
#define TESSERA_UNARY_UFUNC(OP, ...) case UnaryOp::OP: return pick<OP>(t, out);
#include "numeric/elementwise/ufuncs.def"
      // clang-format on
    case UnaryOp::kCount: break;
  }
  return nullptr;
}

}  // namespace

UnaryLoop unary_loop(UnaryOp op, DType t, DType* out) {
  UnaryLoop scalar = scalar_unary_loop(op, t, out);
  if (!scalar) return nullptr;
  if (UnaryLoop v = vector_unary_loop(op, t)) return v;
  return scalar;
}

}  // namespace tessera::detail
