// Scalar semantics of NumPy's element-wise functions, one functor per operation.
// Each functor says which element types it accepts (`ok<T>`) and its result type.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "data/convert.h"

namespace tessera::detail::math {

template <class T> inline constexpr bool is_bool = std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_int = std::is_integral_v<T> && !is_bool<T>;
template <class T> inline constexpr bool is_flt = std::is_floating_point_v<T>;
template <class T> inline constexpr bool is_cpx = is_complex_v<T>;
template <class T> inline constexpr bool is_num = !is_bool<T>;
template <class T> inline constexpr bool is_inexact = is_flt<T> || is_cpx<T>;

// Integer arithmetic wraps like NumPy's, computed on unsigned to avoid undefined overflow.
template <class T> T wrap_add(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) + U(b)); }
template <class T> T wrap_sub(T a, T b) { using U = std::make_unsigned_t<T>; return T(U(a) - U(b)); }
template <class T> T wrap_mul(T a, T b) {
  using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(int)), unsigned, T>>;
  return T(U(a) * U(b));
}

// NumPy's divmod for floats (npy_divmod).
template <class T> T float_floordiv(T a, T b, T* mod_out) {
  T mod = std::fmod(a, b);
  if (b == 0) { if (mod_out) *mod_out = mod; return a / b; }
  T div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) { mod += b; div -= T(1); }
  } else {
    mod = std::copysign(T(0), b);
  }
  T floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = std::copysign(T(0), a / b);
  }
  if (mod_out) *mod_out = mod;
  return floordiv;
}

template <class T> T int_floordiv(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return wrap_sub(T(0), a);
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return a / b;
  }
}

template <class T> T int_remainder(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  } else {
    return a % b;
  }
}

template <class T> bool cpx_less(T a, T b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}
template <class T> bool is_nan(T a) {
  if constexpr (is_cpx<T>) return std::isnan(a.real()) || std::isnan(a.imag());
  else if constexpr (is_flt<T>) return std::isnan(a);
  else return false;
}

template <class T> T int_power(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) throw std::domain_error("Integers to negative integer powers are not allowed.");
  }
  T result = 1;
  while (exp) {
    if (exp & 1) result = wrap_mul(result, base);
    exp >>= 1;
    base = wrap_mul(base, base);
  }
  return result;
}

}  // namespace tessera::detail::math
