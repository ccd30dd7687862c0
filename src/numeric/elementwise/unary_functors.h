// The unary element-wise functions' scalar semantics: one functor per operation,
// saying its result type (`Out<T>`) and its value (`f`); the element types it accepts
// (`has_loop<Op, T>`) are its row's in ufuncs.def. The scalar loops and the vector loops instantiate the same functors.
#pragma once

#include <cmath>

#include "numeric/elementwise/math.h"

namespace tessera::detail::unary {
using namespace math;

// A functor: its result type `Out<T>` and value `f`; the element types it has loops for
// (`has_loop<NAME, T>`) are its row's in ufuncs.def.
#define TESSERA_UNARY(NAME, OUT, EXPR) \
  struct NAME {                        \
    template <class T>                 \
    using Out = OUT;                   \
    template <class T>                 \
    static Out<T> f(T x) {             \
      return EXPR;                     \
    }                                  \
  };

template <class T>
using Same = T;
template <class T>
using Bool = bool;
template <class T>
using Byte = uint8_t;
template <class T>
using Int32 = int32_t;
template <class T>
using RealT = typename real_of<T>::type;

TESSERA_UNARY(Negative, Same<T>, [&] {
  if constexpr (is_int<T>) return wrap_sub(T(0), x);
  else return T(-x);
}())
TESSERA_UNARY(Positive, Same<T>, x)
TESSERA_UNARY(Absolute, RealT<T>, [&]() -> RealT<T> {
  if constexpr (is_bool<T> || std::is_unsigned_v<T>) return x;
  else if constexpr (is_int<T>) return x < 0 ? wrap_sub(T(0), x) : x;
  else return std::abs(x);
}())
TESSERA_UNARY(Sqrt, Same<T>, std::sqrt(x))
TESSERA_UNARY(Cbrt, Same<T>, std::cbrt(x))
TESSERA_UNARY(Exp, Same<T>, std::exp(x))
TESSERA_UNARY(Exp2, Same<T>, [&] {
  if constexpr (is_cpx<T>) return std::pow(T(2), x);
  else return std::exp2(x);
}())
TESSERA_UNARY(Log, Same<T>, std::log(x))
TESSERA_UNARY(Log2, Same<T>, [&] {
  if constexpr (is_cpx<T>) return T(std::log(x) / std::log(RealT<T>(2)));
  else return std::log2(x);
}())
TESSERA_UNARY(Log10, Same<T>, std::log10(x))
TESSERA_UNARY(Log1p, Same<T>, [&] {
  if constexpr (is_cpx<T>) return std::log(T(1) + x);
  else return std::log1p(x);
}())
TESSERA_UNARY(Expm1, Same<T>, [&] {
  if constexpr (is_cpx<T>) return T(std::exp(x) - T(1));
  else return std::expm1(x);
}())
TESSERA_UNARY(Sin, Same<T>, std::sin(x))
TESSERA_UNARY(Cos, Same<T>, std::cos(x))
TESSERA_UNARY(Tan, Same<T>, std::tan(x))
TESSERA_UNARY(Arcsin, Same<T>, std::asin(x))
TESSERA_UNARY(Arccos, Same<T>, std::acos(x))
TESSERA_UNARY(Arctan, Same<T>, std::atan(x))
TESSERA_UNARY(Sinh, Same<T>, std::sinh(x))
TESSERA_UNARY(Cosh, Same<T>, std::cosh(x))
TESSERA_UNARY(Tanh, Same<T>, std::tanh(x))
TESSERA_UNARY(Arcsinh, Same<T>, std::asinh(x))
TESSERA_UNARY(Arccosh, Same<T>, std::acosh(x))
TESSERA_UNARY(Arctanh, Same<T>, std::atanh(x))
TESSERA_UNARY(Sign, Same<T>, [&]() -> T {
  if constexpr (is_cpx<T>) {
    return cpx_sign(x);
  } else if constexpr (is_flt<T>) return std::isnan(x) ? x : T((x > 0) - (x < 0));
  else if constexpr (std::is_unsigned_v<T>) return T(x > 0);
  else return T((x > 0) - (x < 0));
}())
TESSERA_UNARY(Floor, Same<T>, [&] {
  if constexpr (is_flt<T>) return std::floor(x);
  else return x;
}())
TESSERA_UNARY(Ceil, Same<T>, [&] {
  if constexpr (is_flt<T>) return std::ceil(x);
  else return x;
}())
TESSERA_UNARY(Trunc, Same<T>, [&] {
  if constexpr (is_flt<T>) return std::trunc(x);
  else return x;
}())
TESSERA_UNARY(Rint, Same<T>, [&] {
  if constexpr (is_flt<T>) return std::nearbyint(x);
  else if constexpr (is_cpx<T>) return T(std::nearbyint(x.real()), std::nearbyint(x.imag()));
  else return x;
}())
TESSERA_UNARY(IsNan, Bool<T>, is_nan(x))
TESSERA_UNARY(IsInf, Bool<T>, [&] {
  if constexpr (is_cpx<T>) return std::isinf(x.real()) || std::isinf(x.imag());
  else if constexpr (is_flt<T>) return std::isinf(x);
  else return false;
}())
TESSERA_UNARY(IsFinite, Bool<T>, [&] {
  if constexpr (is_cpx<T>) return std::isfinite(x.real()) && std::isfinite(x.imag());
  else if constexpr (is_flt<T>) return std::isfinite(x);
  else return true;
}())
TESSERA_UNARY(Signbit, Bool<T>, std::signbit(x))
TESSERA_UNARY(Square, Same<T>, [&] {
  if constexpr (is_int<T>) return wrap_mul(x, x);
  else return T(x * x);
}())
TESSERA_UNARY(Reciprocal, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) {
    if (x == 0) return T(0);
    return T(1) / x;
  } else return T(1) / x;
}())
TESSERA_UNARY(Conjugate, Same<T>, [&] {
  if constexpr (is_cpx<T>) return std::conj(x);
  else return x;
}())
TESSERA_UNARY(Real, RealT<T>, [&] {
  if constexpr (is_cpx<T>) return x.real();
  else return x;
}())
TESSERA_UNARY(Imag, RealT<T>, [&] {
  if constexpr (is_cpx<T>) return x.imag();
  else return RealT<T>(0);
}())
TESSERA_UNARY(Angle, RealT<T>, [&] {
  if constexpr (is_cpx<T>) return std::arg(x);
  else return std::atan2(T(0), x);
}())
TESSERA_UNARY(LogicalNot, Bool<T>, [&] {
  if constexpr (is_cpx<T>) return x == T(0);
  else return !x;
}())
TESSERA_UNARY(Invert, Same<T>, [&] {
  if constexpr (is_bool<T>) return !x;
  else return T(~x);
}())
TESSERA_UNARY(Deg2Rad, Same<T>, T(x* T(M_PI / 180.0)))
TESSERA_UNARY(Rad2Deg, Same<T>, T(x* T(180.0 / M_PI)))

TESSERA_UNARY(Spacing, Same<T>, flt_spacing(x))
TESSERA_UNARY(SpacingHalf, Same<T>, half_spacing(x))  // float16 values held in float32
TESSERA_UNARY(BitwiseCount, Byte<T>, popcount_magnitude(x))
TESSERA_UNARY(FrexpMantissa, Same<T>, [&] {
  int e;
  return std::frexp(x, &e);
}())
TESSERA_UNARY(FrexpExponent, Int32<T>, [&] {
  int e = 0;
  std::frexp(x, &e);
  return int32_t(e);
}())
TESSERA_UNARY(ModfFraction, Same<T>, [&] {
  T i;
  return std::modf(x, &i);
}())
TESSERA_UNARY(ModfIntegral, Same<T>, [&] {
  T i;
  std::modf(x, &i);
  return i;
}())

#undef TESSERA_UNARY

// has_loop<Op, T>: whether Op has a loop for elements of type T.
template <class Op, class T>
inline constexpr bool has_loop = false;
#define TESSERA_UNARY_UFUNC(OP, NAME, ALIASES, LOOPS, ...) \
  template <class T>                                       \
  inline constexpr bool has_loop<OP, T> = LOOPS;
#include "numeric/elementwise/ufuncs.def"

}  // namespace tessera::detail::unary
