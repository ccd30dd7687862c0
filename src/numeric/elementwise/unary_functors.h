// The unary element-wise functions' scalar semantics: one functor per operation,
// saying which element types it accepts (`ok<T>`), its result type (`Out<T>`) and
// its value (`f`). The scalar loops and the vector loops instantiate the same functors.
#pragma once

#include <cmath>

#include "numeric/elementwise/math.h"

namespace tessera::detail::unary {
using namespace math;

#define TESSERA_UNARY(NAME, COND, OUT, EXPR)                 \
  struct NAME {                                               \
    template <class T> static constexpr bool ok = COND;       \
    template <class T> using Out = OUT;                       \
    template <class T> static Out<T> f(T x) { return EXPR; }  \
  };

template <class T> using Same = T;
template <class T> using Bool = bool;
template <class T> using Byte = uint8_t;
template <class T> using Int32 = int32_t;
template <class T> using RealT = typename real_of<T>::type;

TESSERA_UNARY(Negative, is_num<T>, Same<T>, [&] { if constexpr (is_int<T>) return wrap_sub(T(0), x); else return T(-x); }())
TESSERA_UNARY(Positive, is_num<T>, Same<T>, x)
TESSERA_UNARY(Absolute, true, RealT<T>, [&]() -> RealT<T> {
  if constexpr (is_bool<T> || std::is_unsigned_v<T>) return x;
  else if constexpr (is_int<T>) return x < 0 ? wrap_sub(T(0), x) : x;
  else return std::abs(x); }())
TESSERA_UNARY(Sqrt, is_inexact<T>, Same<T>, std::sqrt(x))
TESSERA_UNARY(Cbrt, is_flt<T>, Same<T>, std::cbrt(x))
TESSERA_UNARY(Exp, is_inexact<T>, Same<T>, std::exp(x))
TESSERA_UNARY(Exp2, is_inexact<T>, Same<T>, [&] { if constexpr (is_cpx<T>) return std::pow(T(2), x); else return std::exp2(x); }())
TESSERA_UNARY(Log, is_inexact<T>, Same<T>, std::log(x))
TESSERA_UNARY(Log2, is_inexact<T>, Same<T>, [&] { if constexpr (is_cpx<T>) return T(std::log(x) / std::log(RealT<T>(2))); else return std::log2(x); }())
TESSERA_UNARY(Log10, is_inexact<T>, Same<T>, std::log10(x))
TESSERA_UNARY(Log1p, is_inexact<T>, Same<T>, [&] { if constexpr (is_cpx<T>) return std::log(T(1) + x); else return std::log1p(x); }())
TESSERA_UNARY(Expm1, is_inexact<T>, Same<T>, [&] { if constexpr (is_cpx<T>) return T(std::exp(x) - T(1)); else return std::expm1(x); }())
TESSERA_UNARY(Sin, is_inexact<T>, Same<T>, std::sin(x))
TESSERA_UNARY(Cos, is_inexact<T>, Same<T>, std::cos(x))
TESSERA_UNARY(Tan, is_inexact<T>, Same<T>, std::tan(x))
TESSERA_UNARY(Arcsin, is_inexact<T>, Same<T>, std::asin(x))
TESSERA_UNARY(Arccos, is_inexact<T>, Same<T>, std::acos(x))
TESSERA_UNARY(Arctan, is_inexact<T>, Same<T>, std::atan(x))
TESSERA_UNARY(Sinh, is_inexact<T>, Same<T>, std::sinh(x))
TESSERA_UNARY(Cosh, is_inexact<T>, Same<T>, std::cosh(x))
TESSERA_UNARY(Tanh, is_inexact<T>, Same<T>, std::tanh(x))
TESSERA_UNARY(Arcsinh, is_inexact<T>, Same<T>, std::asinh(x))
TESSERA_UNARY(Arccosh, is_inexact<T>, Same<T>, std::acosh(x))
TESSERA_UNARY(Arctanh, is_inexact<T>, Same<T>, std::atanh(x))
TESSERA_UNARY(Sign, is_num<T>, Same<T>, [&]() -> T {
  if constexpr (is_cpx<T>) {
    return cpx_sign(x);
  }
  else if constexpr (is_flt<T>) return std::isnan(x) ? x : T((x > 0) - (x < 0));
  else if constexpr (std::is_unsigned_v<T>) return T(x > 0);
  else return T((x > 0) - (x < 0)); }())
TESSERA_UNARY(Floor, !is_cpx<T>, Same<T>, [&] { if constexpr (is_flt<T>) return std::floor(x); else return x; }())
TESSERA_UNARY(Ceil, !is_cpx<T>, Same<T>, [&] { if constexpr (is_flt<T>) return std::ceil(x); else return x; }())
TESSERA_UNARY(Trunc, !is_cpx<T>, Same<T>, [&] { if constexpr (is_flt<T>) return std::trunc(x); else return x; }())
TESSERA_UNARY(Rint, is_inexact<T>, Same<T>, [&] {
  if constexpr (is_flt<T>) return std::nearbyint(x);
  else if constexpr (is_cpx<T>) return T(std::nearbyint(x.real()), std::nearbyint(x.imag()));
  else return x; }())
TESSERA_UNARY(IsNan, true, Bool<T>, is_nan(x))
TESSERA_UNARY(IsInf, true, Bool<T>, [&] {
  if constexpr (is_cpx<T>) return std::isinf(x.real()) || std::isinf(x.imag());
  else if constexpr (is_flt<T>) return std::isinf(x); else return false; }())
TESSERA_UNARY(IsFinite, true, Bool<T>, [&] {
  if constexpr (is_cpx<T>) return std::isfinite(x.real()) && std::isfinite(x.imag());
  else if constexpr (is_flt<T>) return std::isfinite(x); else return true; }())
TESSERA_UNARY(Signbit, is_flt<T>, Bool<T>, std::signbit(x))
TESSERA_UNARY(Square, is_num<T>, Same<T>, [&] { if constexpr (is_int<T>) return wrap_mul(x, x); else return T(x * x); }())
TESSERA_UNARY(Reciprocal, is_num<T>, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) { if (x == 0) return T(0); return T(1) / x; }
  else return T(1) / x; }())
TESSERA_UNARY(Conjugate, !is_bool<T>, Same<T>, [&] { if constexpr (is_cpx<T>) return std::conj(x); else return x; }())
TESSERA_UNARY(Real, true, RealT<T>, [&] { if constexpr (is_cpx<T>) return x.real(); else return x; }())
TESSERA_UNARY(Imag, true, RealT<T>, [&] { if constexpr (is_cpx<T>) return x.imag(); else return RealT<T>(0); }())
TESSERA_UNARY(Angle, is_inexact<T>, RealT<T>, [&] { if constexpr (is_cpx<T>) return std::arg(x); else return std::atan2(T(0), x); }())
TESSERA_UNARY(LogicalNot, true, Bool<T>, [&] { if constexpr (is_cpx<T>) return x == T(0); else return !x; }())
TESSERA_UNARY(Invert, is_bool<T> || is_int<T>, Same<T>, [&] { if constexpr (is_bool<T>) return !x; else return T(~x); }())
TESSERA_UNARY(Deg2Rad, is_flt<T>, Same<T>, T(x * T(M_PI / 180.0)))
TESSERA_UNARY(Rad2Deg, is_flt<T>, Same<T>, T(x * T(180.0 / M_PI)))

TESSERA_UNARY(Spacing, is_flt<T>, Same<T>, flt_spacing(x))
TESSERA_UNARY(SpacingHalf, (std::is_same_v<T, float>), Same<T>, half_spacing(x))  // float16 values held in float32
TESSERA_UNARY(BitwiseCount, is_int<T>, Byte<T>, popcount_magnitude(x))
TESSERA_UNARY(FrexpMantissa, is_flt<T>, Same<T>, [&] { int e; return std::frexp(x, &e); }())
TESSERA_UNARY(FrexpExponent, is_flt<T>, Int32<T>, [&] { int e = 0; std::frexp(x, &e); return int32_t(e); }())
TESSERA_UNARY(ModfFraction, is_flt<T>, Same<T>, [&] { T i; return std::modf(x, &i); }())
TESSERA_UNARY(ModfIntegral, is_flt<T>, Same<T>, [&] { T i; std::modf(x, &i); return i; }())

#undef TESSERA_UNARY

}  // namespace tessera::detail::unary
