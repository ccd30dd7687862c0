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

// A functor: its result type `Out<T>` and value `f`; the element types it has loops for
// (`has_loop<NAME, T>`) are its row's in ufuncs.def.
#define TESSERA_BINARY(NAME, OUT, EXPR) \
  struct NAME {                         \
    template <class T>                  \
    using Out = OUT;                    \
    template <class T>                  \
    static Out<T> f(T a, T b) {         \
      return EXPR;                      \
    }                                   \
  };

template <class T>
using Same = T;
template <class T>
using Bool = bool;

template <class T>
bool less(T a, T b) {
  if constexpr (is_cpx<T>) return cpx_less(a, b);
  else return a < b;
}

TESSERA_BINARY(Add, Same<T>, [&]() -> T {
  if constexpr (is_bool<T>) return a || b;
  else if constexpr (is_int<T>) return wrap_add(a, b);
  else return a + b;
}())
TESSERA_BINARY(Subtract, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) return wrap_sub(a, b);
  else return a - b;
}())
TESSERA_BINARY(Multiply, Same<T>, [&]() -> T {
  if constexpr (is_bool<T>) return a && b;
  else if constexpr (is_int<T>) return wrap_mul(a, b);
  else if constexpr (is_cpx<T>) return cpx_mul(a, b);
  else return a * b;
}())
TESSERA_BINARY(TrueDivide, Same<T>, [&]() -> T {
  if constexpr (is_cpx<T>) return cpx_div(a, b);
  else return a / b;
}())
TESSERA_BINARY(FloorDivide, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) return int_floordiv(a, b);
  else return float_floordiv(a, b, static_cast<T*>(nullptr));
}())
TESSERA_BINARY(Remainder, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) return int_remainder(a, b);
  else {
    if (b == 0) return std::fmod(a, b);
    T m;
    float_floordiv(a, b, &m);
    return m;
  }
}())
TESSERA_BINARY(FMod, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;
    }
    return a % b;
  } else return std::fmod(a, b);
}())
TESSERA_BINARY(Power, Same<T>, [&]() -> T {
  if constexpr (is_int<T>) return int_power(a, b);
  else if constexpr (is_cpx<T>) return cpx_power(a, b);
  else return std::pow(a, b);
}())
TESSERA_BINARY(Maximum, Same<T>, [&]() -> T {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return less(a, b) ? b : a;
}())
TESSERA_BINARY(Minimum, Same<T>, [&]() -> T {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return less(b, a) ? b : a;
}())
TESSERA_BINARY(FMax, Same<T>, [&]() -> T {
  if (is_nan(b)) return a;
  if (is_nan(a)) return b;
  return less(a, b) ? b : a;
}())
TESSERA_BINARY(FMin, Same<T>, [&]() -> T {
  if (is_nan(b)) return a;
  if (is_nan(a)) return b;
  return less(b, a) ? b : a;
}())
TESSERA_BINARY(Hypot, Same<T>, std::hypot(a, b))
TESSERA_BINARY(Arctan2, Same<T>, std::atan2(a, b))
TESSERA_BINARY(Copysign, Same<T>, std::copysign(a, b))
TESSERA_BINARY(LogicalAnd, Bool<T>, a != T(0) && b != T(0))
TESSERA_BINARY(LogicalOr, Bool<T>, a != T(0) || b != T(0))
TESSERA_BINARY(LogicalXor, Bool<T>, (a != T(0)) != (b != T(0)))
TESSERA_BINARY(BitwiseAnd, Same<T>, T(a& b))
TESSERA_BINARY(BitwiseOr, Same<T>, T(a | b))
TESSERA_BINARY(BitwiseXor, Same<T>, T(a ^ b))
TESSERA_BINARY(LeftShift, Same<T>, [&]() -> T {
  using U = std::make_unsigned_t<T>;
  if (U(b) >= sizeof(T) * 8) return 0;
  return T(U(a) << U(b));
}())
TESSERA_BINARY(RightShift, Same<T>, [&]() -> T {
  using U = std::make_unsigned_t<T>;
  if (U(b) >= sizeof(T) * 8) {
    if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
    else return 0;
  }
  return T(a >> U(b));
}())
TESSERA_BINARY(Equal, Bool<T>, a == b)
TESSERA_BINARY(NotEqual, Bool<T>, a != b)
TESSERA_BINARY(Less, Bool<T>, less(a, b))
TESSERA_BINARY(LessEqual, Bool<T>, [&] {
  if constexpr (is_cpx<T>) return less(a, b) || a == b;
  else return a <= b;
}())
TESSERA_BINARY(Greater, Bool<T>, less(b, a))
TESSERA_BINARY(GreaterEqual, Bool<T>, [&] {
  if constexpr (is_cpx<T>) return less(b, a) || a == b;
  else return a >= b;
}())

TESSERA_BINARY(Gcd, Same<T>, int_gcd(a, b))
TESSERA_BINARY(Lcm, Same<T>, int_lcm(a, b))
TESSERA_BINARY(Nextafter, Same<T>, std::nextafter(a, b))
TESSERA_BINARY(NextafterHalf, Same<T>, half_nextafter(a, b))  // float16 values held in float32
TESSERA_BINARY(Ldexp, Same<T>, flt_ldexp(a, b))
TESSERA_BINARY(FloatPower, Same<T>, [&]() -> T {
  if constexpr (is_cpx<T>) return cpx_power(a, b);
  else return std::pow(a, b);
}())
TESSERA_BINARY(Logaddexp, Same<T>, [&]() -> T {  // NumPy's npy_logaddexp
  if (a == b) return a + T(M_LN2);               // infinities of one sign included
  const T d = a - b;
  if (d > 0) return a + std::log1p(std::exp(-d));
  if (d <= 0) return b + std::log1p(std::exp(d));
  return d;
}())  // NaN

#undef TESSERA_BINARY

// has_loop<Op, T>: whether Op has a loop for elements of type T.
template <class Op, class T>
inline constexpr bool has_loop = false;
#define TESSERA_BINARY_UFUNC(OP, NAME, ALIASES, LOOPS, ...) \
  template <class T>                                        \
  inline constexpr bool has_loop<OP, T> = LOOPS;
#include "numeric/elementwise/ufuncs.def"

}  // namespace tessera::detail::binary
