// Scalar semantics of NumPy's element-wise functions, one functor per operation.
// Each functor says which element types it accepts (`ok<T>`) and its result type.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "data/convert.h"

namespace tessera::detail::math {

template <class T>
inline constexpr bool is_bool = std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_int = std::is_integral_v<T> && !is_bool<T>;
template <class T>
inline constexpr bool is_flt = std::is_floating_point_v<T>;
template <class T>
inline constexpr bool is_cpx = is_complex_v<T>;
template <class T>
inline constexpr bool is_num = !is_bool<T>;
template <class T>
inline constexpr bool is_inexact = is_flt<T> || is_cpx<T>;

// Integer arithmetic wraps like NumPy's, computed on unsigned to avoid undefined overflow.
template <class T>
T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) + U(b));
}
template <class T>
T wrap_sub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) - U(b));
}
template <class T>
T wrap_mul(T a, T b) {
  using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(int)), unsigned, T>>;
  return T(U(a) * U(b));
}

// NumPy's divmod for floats (npy_divmod).
template <class T>
T float_floordiv(T a, T b, T* mod_out) {
  T mod = std::fmod(a, b);
  if (b == 0) {
    if (mod_out) *mod_out = mod;
    return a / b;
  }
  T div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
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

template <class T>
T int_floordiv(T a, T b) {
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

template <class T>
T int_remainder(T a, T b) {
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

template <class T>
bool cpx_less(T a, T b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}
template <class T>
bool is_nan(T a) {
  if constexpr (is_cpx<T>) return std::isnan(a.real()) || std::isnan(a.imag());
  else if constexpr (is_flt<T>) return std::isnan(a);
  else return false;
}

// NumPy's complex multiply and (Smith's) divide, without C's Annex G infinity rescue.
template <class T>
T cpx_mul(T a, T b) {
  return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}
template <class T>
T cpx_div(T a, T b) {
  using R = typename T::value_type;
  const R br = b.real(), bi = b.imag(), abs_br = std::abs(br), abs_bi = std::abs(bi);
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return T(a.real() / abs_br, a.imag() / abs_bi);
    const R rat = bi / br, scl = R(1) / (br + bi * rat);
    return T((a.real() + a.imag() * rat) * scl, (a.imag() - a.real() * rat) * scl);
  }
  const R rat = br / bi, scl = R(1) / (bi + br * rat);
  return T((a.real() * rat + a.imag()) * scl, (a.imag() * rat - a.real()) * scl);
}

// NumPy's complex power: exact small integer exponents by repeated multiplication.
template <class T>
T cpx_power(T a, T b) {
  using R = typename T::value_type;
  if (b.real() == 0 && b.imag() == 0) return T(1);
  if (a.real() == 0 && a.imag() == 0) {
    if (b.real() > 0) return T(0);
    return T(NAN, NAN);
  }
  if (b.imag() == 0 && b.real() == std::trunc(b.real()) && std::abs(b.real()) < 100) {
    const int n = static_cast<int>(b.real());
    if (n == 1) return a;
    if (n == 2) return cpx_mul(a, a);
    if (n == 3) return cpx_mul(cpx_mul(a, a), a);
    T r(1, 0), p = a;
    for (int m = n < 0 ? -n : n, mask = 1; mask <= m; mask <<= 1) {
      if (m & mask) r = cpx_mul(r, p);
      p = cpx_mul(p, p);
    }
    return n < 0 ? cpx_div(T(R(1), R(0)), r) : r;
  }
  return std::pow(a, b);
}

// NumPy's sign of a complex number: z/|z|, and the direction of its infinite components.
template <class T>
T cpx_sign(T x) {
  using R = typename T::value_type;
  if (is_nan(x)) return T(NAN, NAN);
  const bool ir = std::isinf(x.real()), ii = std::isinf(x.imag());
  if (ir || ii) {
    const R s = ir && ii ? R(M_SQRT1_2) : R(1);
    return T(ir ? std::copysign(s, x.real()) : R(0), ii ? std::copysign(s, x.imag()) : R(0));
  }
  const R a = std::abs(x);
  return a == 0 ? T(0) : T(x.real() / a, x.imag() / a);
}

template <class T>
T int_power(T base, T exp) {
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

// NumPy's gcd and lcm: Euclid on the magnitudes (the most negative value keeps its bit
// pattern), and lcm = |a| / gcd * |b| with wrapping; types narrower than int compute in int,
// as NumPy's loops do.
template <class T>
T int_gcd(T a, T b) {
  using W = std::conditional_t<(sizeof(T) < sizeof(int)), std::conditional_t<std::is_signed_v<T>, int, unsigned>, T>;
  using U = std::make_unsigned_t<W>;
  auto magnitude = [](W v) -> U {
    if constexpr (std::is_signed_v<W>) {
      if (v < 0) return U(0) - U(v);
    }
    return U(v);
  };
  U x = magnitude(W(a)), y = magnitude(W(b));
  while (x != 0) {
    const U c = x;
    x = y % x;
    y = c;
  }
  return T(W(y));
}
template <class T>
T int_lcm(T a, T b) {
  using W = std::conditional_t<(sizeof(T) < sizeof(int)), std::conditional_t<std::is_signed_v<T>, int, unsigned>, T>;
  const W g = W(int_gcd<W>(W(a), W(b)));
  if (g == 0) return 0;
  auto magnitude = [](W v) -> W {
    if constexpr (std::is_signed_v<W>) {
      if (v < 0) return wrap_sub(W(0), v);
    }
    return v;
  };
  return T(wrap_mul(W(magnitude(W(a)) / g), magnitude(W(b))));
}

// NumPy's spacing: the distance to the next value away from zero (its sign), the smallest
// subnormal at both zeros, NaN at infinities.
template <class T>
T flt_spacing(T x) {
  if (std::isinf(x)) return std::numeric_limits<T>::quiet_NaN();
  if (x == 0) return std::numeric_limits<T>::denorm_min();
  return std::nextafter(x, std::copysign(std::numeric_limits<T>::infinity(), x)) - x;
}

// float16's nextafter and spacing, on values held in float32 (exact for float16 values):
// NumPy's npy_half_nextafter and npy_half_spacing on the bit patterns.
inline uint16_t half_bits(float x) {
  _Float16 h = static_cast<_Float16>(x);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline float half_value(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return static_cast<float>(h);
}
inline float half_nextafter(float xf, float yf) {
  if (std::isnan(xf) || std::isnan(yf)) return half_value(0x7e00u);
  if (xf == yf) return xf;
  const uint16_t x = half_bits(xf), y = half_bits(yf);
  if (xf == 0) return half_value(uint16_t((y & 0x8000u) + 1));
  if (!(x & 0x8000u)) return half_value(int16_t(x) > int16_t(y) ? uint16_t(x - 1) : uint16_t(x + 1));
  if (!(y & 0x8000u) || (x & 0x7fffu) > (y & 0x7fffu)) return half_value(uint16_t(x - 1));
  return half_value(uint16_t(x + 1));
}
inline float half_spacing(float hf) {
  const uint16_t h = half_bits(hf), e = h & 0x7c00u, sig = h & 0x03ffu;
  uint16_t r;
  if (e == 0x7c00u) r = 0x7e00u;
  else if (h == 0x7bffu) r = 0x7c00u;
  else if ((h & 0x8000u) && sig == 0)
    r = e > 0x2c00u ? uint16_t(e - 0x2c00u) : e > 0x0400u ? uint16_t(1u << ((e >> 10) - 2)) : 1;
  else r = e > 0x2800u ? uint16_t(e - 0x2800u) : e > 0x0400u ? uint16_t(1u << ((e >> 10) - 1)) : 1;
  return half_value(r);
}

// ldexp with the exponent held in the mantissa's float type: exponents beyond any float's
// range give the same 0 or infinity as the clamped ones.
template <class T>
T flt_ldexp(T x, T e) {
  if (std::isnan(e)) return x;
  const T c = std::fmax(T(-100000), std::fmin(T(100000), e));
  return std::ldexp(x, static_cast<int>(c));
}

template <class T>
uint8_t popcount_magnitude(T x) {
  using U = std::make_unsigned_t<T>;
  U u = U(x);
  if constexpr (std::is_signed_v<T>) {
    if (x < 0) u = U(U(0) - u);
  }
  return static_cast<uint8_t>(__builtin_popcountll(static_cast<unsigned long long>(u)));
}

}  // namespace tessera::detail::math
