// Element conversion with NumPy's results and no undefined behaviour: a float
// that does not fit an integer type converts to that type's minimum (what NumPy
// gives on x86), a complex converts to a real by taking its real part.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tessera::detail {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<std::complex<T>> {
  using type = T;
};

template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || std::is_same_v<T, _Float16>;

template <class D, class S>
inline D convert(S s) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (is_complex_v<S>) {
    if constexpr (is_complex_v<D>)
      return D(static_cast<typename D::value_type>(s.real()), static_cast<typename D::value_type>(s.imag()));
    else if constexpr (std::is_same_v<D, bool>) return s.real() != 0 || s.imag() != 0;
    else return convert<D>(s.real());
  } else if constexpr (std::is_same_v<D, bool>) {
    return s != S(0);
  } else if constexpr (is_complex_v<D>) {
    return D(static_cast<typename D::value_type>(s), 0);
  } else if constexpr (std::is_integral_v<D> && is_floating_v<S>) {
    // Out-of-range and NaN are undefined in C++; NumPy (x86) yields the minimum for signed
    // targets. Unsigned targets go through int64 like NumPy's casts do.
    // NumPy's results are those of x86's cvttsd2si: types narrower than 32 bits go through
    // int32 and wrap; an out-of-range or NaN input yields the "integer indefinite" value.
    double v = static_cast<double>(s);
    auto via_i32 = [](double x) -> int32_t {
      return (x > -2147483649.0 && x < 2147483648.0) ? static_cast<int32_t>(x) : INT32_MIN;
    };
    auto via_i64 = [](double x) -> int64_t {
      return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? static_cast<int64_t>(x) : INT64_MIN;
    };
    if constexpr (sizeof(D) < 4) {
      return static_cast<D>(via_i32(v));
    } else if constexpr (sizeof(D) == 4 && std::is_signed_v<D>) {
      return via_i32(v);
    } else if constexpr (sizeof(D) == 4) {
      return static_cast<D>(via_i64(v));
    } else if constexpr (std::is_signed_v<D>) {
      return via_i64(v);
    } else {
      // At 2**63 and beyond, x86 converts v - 2**63 and flips the top bit: 2**64 and beyond
      // (and +inf) give the indefinite value flipped, 0. NaN and the rest go through int64.
      if (v >= 9223372036854775808.0) return v < 18446744073709551616.0 ? static_cast<D>(v) : D(0);
      return static_cast<D>(via_i64(v));
    }
  } else {
    return static_cast<D>(s);
  }
}

}  // namespace tessera::detail
