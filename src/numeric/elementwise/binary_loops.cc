// Binary element-wise loops: the functors of binary_functors.h instantiated for the
// compute dtypes they accept, and `where`. Where vector_loops.h has a loop for the
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
    else if constexpr (Op::template ok<T>) {
      *out = dtype_of<typename Op::template Out<T>>::value;
      return &binary_run<Op, T>;
    } else {
      return nullptr;
    }
  });
}

BinaryLoop scalar_binary_loop(BinaryOp op, DType t, DType* out) {
  switch (op) {
#define CASE(N) case BinaryOp::N: return pick<N>(t, out);
    CASE(Add) CASE(Subtract) CASE(Multiply) CASE(TrueDivide) CASE(FloorDivide) CASE(Remainder) CASE(FMod)
    CASE(Power) CASE(Maximum) CASE(Minimum) CASE(FMax) CASE(FMin) CASE(Hypot) CASE(Arctan2) CASE(Copysign)
    CASE(LogicalAnd) CASE(LogicalOr) CASE(LogicalXor) CASE(BitwiseAnd) CASE(BitwiseOr) CASE(BitwiseXor)
    CASE(LeftShift) CASE(RightShift) CASE(Equal) CASE(NotEqual) CASE(Less) CASE(LessEqual) CASE(Greater)
    CASE(GreaterEqual) CASE(Gcd) CASE(Lcm) CASE(Nextafter) CASE(NextafterHalf) CASE(Ldexp) CASE(FloatPower)
#undef CASE
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

const char* binary_name(BinaryOp op) {
  static const char* names[] = {
      "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power",
      "maximum", "minimum", "fmax", "fmin", "hypot", "arctan2", "copysign",
      "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
      "left_shift", "right_shift", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
      "gcd", "lcm", "nextafter", "nextafter_float16", "ldexp", "float_power"};
  return names[static_cast<int>(op)];
}

}  // namespace tessera::detail
