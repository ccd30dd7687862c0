// Unary element-wise loops: the functors of unary_functors.h instantiated for the
// compute dtypes they accept (float16 computes in float32, so it has no loops). Where
// vector_loops.h has a loop for the CPU's instruction set, that loop serves instead.
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
    else if constexpr (Op::template ok<T>) {
      *out = dtype_of<typename Op::template Out<T>>::value;
      return &unary_run<Op, T>;
    } else {
      return nullptr;
    }
  });
}

UnaryLoop scalar_unary_loop(UnaryOp op, DType t, DType* out) {
  switch (op) {
#define CASE(N) case UnaryOp::N: return pick<N>(t, out);
    CASE(Negative) CASE(Positive) CASE(Absolute) CASE(Sqrt) CASE(Cbrt) CASE(Exp) CASE(Exp2) CASE(Log)
    CASE(Log2) CASE(Log10) CASE(Log1p) CASE(Expm1) CASE(Sin) CASE(Cos) CASE(Tan) CASE(Arcsin)
    CASE(Arccos) CASE(Arctan) CASE(Sinh) CASE(Cosh) CASE(Tanh) CASE(Arcsinh) CASE(Arccosh)
    CASE(Arctanh) CASE(Sign) CASE(Floor) CASE(Ceil) CASE(Rint) CASE(Trunc) CASE(IsNan) CASE(IsInf)
    CASE(IsFinite) CASE(Signbit) CASE(Square) CASE(Reciprocal) CASE(Conjugate) CASE(Real) CASE(Imag)
    CASE(Angle) CASE(LogicalNot) CASE(Invert) CASE(Deg2Rad) CASE(Rad2Deg) CASE(Spacing) CASE(SpacingHalf)
    CASE(BitwiseCount) CASE(FrexpMantissa) CASE(FrexpExponent) CASE(ModfFraction) CASE(ModfIntegral)
#undef CASE
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

const char* unary_name(UnaryOp op) {
  static const char* names[] = {
      "negative", "positive", "absolute", "sqrt", "cbrt", "exp", "exp2", "log", "log2", "log10", "log1p",
      "expm1", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
      "arccosh", "arctanh", "sign", "floor", "ceil", "rint", "trunc", "isnan", "isinf", "isfinite",
      "signbit", "square", "reciprocal", "conjugate", "real", "imag", "angle", "logical_not", "invert",
      "deg2rad", "rad2deg", "spacing", "spacing_float16", "bitwise_count", "frexp_mantissa", "frexp_exponent",
      "modf_fraction", "modf_integral"};
  return names[static_cast<int>(op)];
}

}  // namespace tessera::detail
