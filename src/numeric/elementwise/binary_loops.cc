// Binary element-wise loops: one functor per operation, instantiated for the
// compute dtypes it accepts. NumPy's semantics for integer division by zero
// (0), floor division and remainder of negative operands, NaN-propagating
// maximum/minimum, and lexicographic ordering of complex numbers.
#include <cmath>

#include "numeric/elementwise/math.h"
#include "numeric/elementwise/ops.h"

namespace tessera::detail {
namespace {
using namespace math;

#define TESSERA_BINARY(NAME, COND, OUT, EXPR)                         \
  struct NAME {                                                        \
    template <class T> static constexpr bool ok = COND;                \
    template <class T> using Out = OUT;                                \
    template <class T> static Out<T> f(T a, T b) { return EXPR; }      \
  };

template <class T> using Same = T;
template <class T> using Bool = bool;

template <class T> bool less(T a, T b) { if constexpr (is_cpx<T>) return cpx_less(a, b); else return a < b; }

TESSERA_BINARY(Add, true, Same<T>, [&]() -> T {
  if constexpr (is_bool<T>) return a || b; else if constexpr (is_int<T>) return wrap_add(a, b); else return a + b; }())
TESSERA_BINARY(Subtract, is_num<T>, Same<T>, [&]() -> T { if constexpr (is_int<T>) return wrap_sub(a, b); else return a - b; }())
TESSERA_BINARY(Multiply, true, Same<T>, [&]() -> T {
  if constexpr (is_bool<T>) return a && b; else if constexpr (is_int<T>) return wrap_mul(a, b); else return a * b; }())
TESSERA_BINARY(TrueDivide, is_inexact<T>, Same<T>, a / b)
TESSERA_BINARY(FloorDivide, is_num<T> && !is_cpx<T>, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) return int_floordiv(a, b); else return float_floordiv(a, b, static_cast<T*>(nullptr)); }())
TESSERA_BINARY(Remainder, is_num<T> && !is_cpx<T>, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) return int_remainder(a, b);
  else { if (b == 0) return std::fmod(a, b); T m; float_floordiv(a, b, &m); return m; } }())
TESSERA_BINARY(FMod, is_num<T> && !is_cpx<T>, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) { if (b == 0) return 0; if constexpr (std::is_signed_v<T>) { if (b == -1) return 0; } return a % b; }
  else return std::fmod(a, b); }())
TESSERA_BINARY(Power, is_num<T>, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) return int_power(a, b);
  else if constexpr (is_cpx<T>) return cpx_power(a, b);
  else return std::pow(a, b); }())
TESSERA_BINARY(Maximum, true, Same<T>, [&]() -> T {
  if (is_nan(a)) return a; if (is_nan(b)) return b; return less(a, b) ? b : a; }())
TESSERA_BINARY(Minimum, true, Same<T>, [&]() -> T {
  if (is_nan(a)) return a; if (is_nan(b)) return b; return less(b, a) ? b : a; }())
TESSERA_BINARY(FMax, true, Same<T>, [&]() -> T {
  if (is_nan(b)) return a; if (is_nan(a)) return b; return less(a, b) ? b : a; }())
TESSERA_BINARY(FMin, true, Same<T>, [&]() -> T {
  if (is_nan(b)) return a; if (is_nan(a)) return b; return less(b, a) ? b : a; }())
TESSERA_BINARY(Hypot, is_flt<T>, Same<T>, std::hypot(a, b))
TESSERA_BINARY(Arctan2, is_flt<T>, Same<T>, std::atan2(a, b))
TESSERA_BINARY(Copysign, is_flt<T>, Same<T>, std::copysign(a, b))
TESSERA_BINARY(LogicalAnd, true, Bool<T>, a != T(0) && b != T(0))
TESSERA_BINARY(LogicalOr, true, Bool<T>, a != T(0) || b != T(0))
TESSERA_BINARY(LogicalXor, true, Bool<T>, (a != T(0)) != (b != T(0)))
TESSERA_BINARY(BitwiseAnd, is_bool<T> || is_int<T>, Same<T>, T(a & b))
TESSERA_BINARY(BitwiseOr, is_bool<T> || is_int<T>, Same<T>, T(a | b))
TESSERA_BINARY(BitwiseXor, is_bool<T> || is_int<T>, Same<T>, T(a ^ b))
TESSERA_BINARY(LeftShift, is_int<T>, Same<T>, [&]() -> T {
  using U = std::make_unsigned_t<T>;
  if (U(b) >= sizeof(T) * 8) return 0;
  return T(U(a) << U(b)); }())
TESSERA_BINARY(RightShift, is_int<T>, Same<T>, [&]() -> T {
  using U = std::make_unsigned_t<T>;
  if (U(b) >= sizeof(T) * 8) { if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0); else return 0; }
  return T(a >> U(b)); }())
TESSERA_BINARY(Equal, true, Bool<T>, a == b)
TESSERA_BINARY(NotEqual, true, Bool<T>, a != b)
TESSERA_BINARY(Less, true, Bool<T>, less(a, b))
TESSERA_BINARY(LessEqual, true, Bool<T>, [&] { if constexpr (is_cpx<T>) return less(a, b) || a == b; else return a <= b; }())
TESSERA_BINARY(Greater, true, Bool<T>, less(b, a))
TESSERA_BINARY(GreaterEqual, true, Bool<T>, [&] { if constexpr (is_cpx<T>) return less(b, a) || a == b; else return a >= b; }())

template <class Op, class T>
void run(void* out, const void* pa, int64_t sa, const void* pb, int64_t sb, int64_t n) {
  using O = typename Op::template Out<T>;
  O* o = static_cast<O*>(out);
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  // Separate loops for the stride patterns so each one vectorises.
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(a[i], b[i]);
  } else if (sa == 1) {
    const T bv = b[0];
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(a[i], bv);
  } else if (sb == 1) {
    const T av = a[0];
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(av, b[i]);
  } else {
    const O v = Op::f(a[0], b[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  }
}

template <class Op>
BinaryLoop pick(DType t, DType* out) {
  return visit_dtype(t, [&](auto tag) -> BinaryLoop {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, _Float16>) return nullptr;
    else if constexpr (Op::template ok<T>) {
      *out = dtype_of<typename Op::template Out<T>>::value;
      return &run<Op, T>;
    } else {
      return nullptr;
    }
  });
}

template <class T>
void where_run(void* out, const void* pc, int64_t sc, const void* pa, int64_t sa, const void* pb, int64_t sb,
               int64_t n) {
  T* o = static_cast<T*>(out);
  const bool* c = static_cast<const bool*>(pc);
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  for (int64_t i = 0; i < n; ++i) o[i] = c[i * sc] ? a[i * sa] : b[i * sb];
}

}  // namespace

BinaryLoop binary_loop(BinaryOp op, DType t, DType* out) {
  switch (op) {
#define CASE(N) case BinaryOp::N: return pick<N>(t, out);
    CASE(Add) CASE(Subtract) CASE(Multiply) CASE(TrueDivide) CASE(FloorDivide) CASE(Remainder) CASE(FMod)
    CASE(Power) CASE(Maximum) CASE(Minimum) CASE(FMax) CASE(FMin) CASE(Hypot) CASE(Arctan2) CASE(Copysign)
    CASE(LogicalAnd) CASE(LogicalOr) CASE(LogicalXor) CASE(BitwiseAnd) CASE(BitwiseOr) CASE(BitwiseXor)
    CASE(LeftShift) CASE(RightShift) CASE(Equal) CASE(NotEqual) CASE(Less) CASE(LessEqual) CASE(Greater)
    CASE(GreaterEqual)
#undef CASE
    case BinaryOp::kCount: break;
  }
  return nullptr;
}

WhereLoop where_loop(DType t) {
  return visit_dtype(t, [](auto tag) -> WhereLoop { return &where_run<decltype(tag)>; });
}

const char* binary_name(BinaryOp op) {
  static const char* names[] = {
      "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power",
      "maximum", "minimum", "fmax", "fmin", "hypot", "arctan2", "copysign",
      "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
      "left_shift", "right_shift", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"};
  return names[static_cast<int>(op)];
}

}  // namespace tessera::detail
