// The binary element-wise functions' scalar semantics: one functor per operation,
// with NumPy's results for integer division by zero (0), floor division and
// remainder of negative operands, NaN-propagating maximum/minimum, and the
// lexicographic ordering of complex numbers. The scalar loops and the vector
// loops instantiate the same functors.
#pragma once

#include <cmath>

#include "numeric/elementwise/math.h"

namespace tessera::detail::binary {
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
  if constexpr (is_bool<T>) return a && b; else if constexpr (is_int<T>) return wrap_mul(a, b);
  else if constexpr (is_cpx<T>) return cpx_mul(a, b); else return a * b; }())
TESSERA_BINARY(TrueDivide, is_inexact<T>, Same<T>, [&]() -> T { if constexpr (is_cpx<T>) return cpx_div(a, b); else return a / b; }())
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

TESSERA_BINARY(Gcd, is_int<T>, Same<T>, int_gcd(a, b))
TESSERA_BINARY(Lcm, is_int<T>, Same<T>, int_lcm(a, b))
TESSERA_BINARY(Nextafter, is_flt<T>, Same<T>, std::nextafter(a, b))
TESSERA_BINARY(NextafterHalf, (std::is_same_v<T, float>), Same<T>, half_nextafter(a, b))  // float16 values held in float32
TESSERA_BINARY(Ldexp, is_flt<T>, Same<T>, flt_ldexp(a, b))
TESSERA_BINARY(FloatPower, (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>), Same<T>, [&]() -> T {
  if constexpr (is_cpx<T>) return cpx_power(a, b); else return std::pow(a, b); }())

#undef TESSERA_BINARY

}  // namespace tessera::detail::binary
