// The vector math functions of one instruction set, for the loops of vector_math.cc and
// the register chains of vector_loops.cc (included once per Highway target, inside no
// namespace): SLEEF's 1-ulp vector functions for that set (AVX-512, AVX2+FMA and SSE4;
// the portable target calls SLEEF's C code lane by lane), exp and log inline.
//
// The only scalar calls depend on an element's value alone: SLEEF overflows to ±inf
// slightly early at the edges of some ranges (sinh and cosh near 710, arcsinh and arccosh
// beyond 1e154, log1p and power near the largest double), so an infinite result of finite
// arguments is computed again by libm, which NumPy uses.

// Highway's per-target include guard: once for each target foreach_target.h compiles.
#if defined(TESSERA_VECTOR_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TESSERA_VECTOR_MATH_INL_H_
#undef TESSERA_VECTOR_MATH_INL_H_
#else
#define TESSERA_VECTOR_MATH_INL_H_
#endif

#include <cmath>
#include <limits>
#include <type_traits>

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "numeric/elementwise/sleef_functions.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// SLEEF's function `fn` for this target's vectors of double and of float.
#undef TESSERA_SLEEF_D
#undef TESSERA_SLEEF_F
#undef TESSERA_SLEEF_LANEWISE
#if HWY_TARGET == HWY_AVX3
#define TESSERA_SLEEF_D(fn, u) Sleef_##fn##d8_##u##avx512f
#define TESSERA_SLEEF_F(fn, u) Sleef_##fn##f16_##u##avx512f
#define TESSERA_SLEEF_LANEWISE 0
#elif HWY_TARGET == HWY_AVX2
#define TESSERA_SLEEF_D(fn, u) Sleef_##fn##d4_##u##avx2
#define TESSERA_SLEEF_F(fn, u) Sleef_##fn##f8_##u##avx2
#define TESSERA_SLEEF_LANEWISE 0
#elif HWY_TARGET == HWY_SSE4
#define TESSERA_SLEEF_D(fn, u) Sleef_##fn##d2_##u##sse4
#define TESSERA_SLEEF_F(fn, u) Sleef_##fn##f4_##u##sse4
#define TESSERA_SLEEF_LANEWISE 0
#else
#define TESSERA_SLEEF_D(fn, u) Sleef_##fn##d1_##u##purec
#define TESSERA_SLEEF_F(fn, u) Sleef_##fn##f1_##u##purec
#define TESSERA_SLEEF_LANEWISE 1
#endif

// Room for the widest vector of T (AVX-512).
template <class T>
inline constexpr size_t kMaxLanes = 64 / sizeof(T);

// f(v) for SLEEF's function f of this target's raw vector type (or of one lane).
template <class D, class F>
HWY_INLINE hn::Vec<D> apply(D d, hn::Vec<D> v, F f) {
#if TESSERA_SLEEF_LANEWISE
  using T = hn::TFromD<D>;
  HWY_ALIGN T x[kMaxLanes<T>];
  hn::Store(v, d, x);
  for (size_t k = 0; k < hn::Lanes(d); ++k) x[k] = f(x[k]);
  return hn::Load(d, x);
#else
  (void)d;
  hn::Vec<D> r;
  r.raw = f(v.raw);
  return r;
#endif
}

template <class D, class F>
HWY_INLINE hn::Vec<D> apply(D d, hn::Vec<D> a, hn::Vec<D> b, F f) {
#if TESSERA_SLEEF_LANEWISE
  using T = hn::TFromD<D>;
  HWY_ALIGN T x[kMaxLanes<T>], y[kMaxLanes<T>];
  hn::Store(a, d, x);
  hn::Store(b, d, y);
  for (size_t k = 0; k < hn::Lanes(d); ++k) x[k] = f(x[k], y[k]);
  return hn::Load(d, x);
#else
  (void)d;
  hn::Vec<D> r;
  r.raw = f(a.raw, b.raw);
  return r;
#endif
}

// One struct per function: `vec` calls SLEEF, `libm` computes one element as NumPy does.
#define TESSERA_SLEEF_UNARY_ROW(OP, fn, u)                                                                            \
  struct OP {                                                                                                         \
    template <class D>                                                                                                \
    static HWY_INLINE hn::Vec<D> vec(D d, hn::Vec<D> v) {                                                             \
      if constexpr (sizeof(hn::TFromD<D>) == 8) return apply(d, v, [](auto x) { return TESSERA_SLEEF_D(fn, u)(x); }); \
      else return apply(d, v, [](auto x) { return TESSERA_SLEEF_F(fn, u)(x); });                                      \
    }                                                                                                                 \
    template <class T>                                                                                                \
    static T libm(T x) {                                                                                              \
      return std::fn(x);                                                                                              \
    }                                                                                                                 \
  };
#define TESSERA_SLEEF_BINARY_ROW(OP, fn, u)                                                    \
  struct OP {                                                                                  \
    template <class D>                                                                         \
    static HWY_INLINE hn::Vec<D> vec(D d, hn::Vec<D> a, hn::Vec<D> b) {                        \
      if constexpr (sizeof(hn::TFromD<D>) == 8)                                                \
        return apply(d, a, b, [](auto x, auto y) { return TESSERA_SLEEF_D(fn, u)(x, y); });    \
      else return apply(d, a, b, [](auto x, auto y) { return TESSERA_SLEEF_F(fn, u)(x, y); }); \
    }                                                                                          \
    template <class T>                                                                         \
    static T libm(T x, T y) {                                                                  \
      return std::fn(x, y);                                                                    \
    }                                                                                          \
  };
#include "numeric/elementwise/sleef_rows-inl.h"

// SLEEF's value of Fn with the overflow edges fixed (see the top of the file).
template <class Fn, class D>
HWY_INLINE hn::Vec<D> sleef_value(D d, hn::Vec<D> x) {
  hn::Vec<D> r = Fn::vec(d, x);
  if (HWY_UNLIKELY(!hn::AllFalse(d, hn::And(hn::IsInf(r), hn::IsFinite(x))))) {
    using T = hn::TFromD<D>;
    HWY_ALIGN T xs[kMaxLanes<T>], rs[kMaxLanes<T>];
    hn::Store(x, d, xs);
    hn::Store(r, d, rs);
    for (size_t k = 0; k < hn::Lanes(d); ++k)
      if (std::isinf(rs[k]) && std::isfinite(xs[k])) rs[k] = Fn::libm(xs[k]);
    r = hn::Load(d, rs);
  }
  return r;
}

// exp and log, the functions of Black-Scholes and of most statistics, are Highway's inline
// ones on the arguments where these are within 1 ulp of the correctly rounded value (as
// SLEEF's are; measured over millions of arguments of either width): they are inlined
// and have shorter dependency chains, so a vector costs about half of SLEEF's call (log a
// third). Any other argument (exp beyond ±700 or ±87, log of zero, a subnormal, a negative,
// an infinity or NaN) takes SLEEF's function. Each lane's choice depends on its own value
// alone, so the result does not depend on its neighbours.

template <class Fn, class D>
HWY_INLINE hn::Vec<D> unary_value(D d, hn::Vec<D> x) {
  if constexpr (std::is_same_v<Fn, Exp> || std::is_same_v<Fn, Log>) {
    using T = hn::TFromD<D>;
    hn::Mask<D> inside;
    hn::Vec<D> r;
    if constexpr (std::is_same_v<Fn, Exp>) {
      inside = hn::Le(hn::Abs(x), hn::Set(d, T(sizeof(T) == 8 ? 700 : 87)));
      r = hn::Exp(d, x);
    } else {
      inside = hn::And(hn::Ge(x, hn::Set(d, std::numeric_limits<T>::min())),
                       hn::Le(x, hn::Set(d, std::numeric_limits<T>::max())));
      r = hn::Log(d, x);
    }
    if (HWY_LIKELY(hn::AllTrue(d, inside))) return r;
    return hn::IfThenElse(inside, r, sleef_value<Fn>(d, x));
  } else {
    return sleef_value<Fn>(d, x);
  }
}

template <class Fn, class D>
HWY_INLINE hn::Vec<D> binary_value(D d, hn::Vec<D> a, hn::Vec<D> b) {
  hn::Vec<D> r = Fn::vec(d, a, b);
  if (HWY_UNLIKELY(!hn::AllFalse(d, hn::And(hn::IsInf(r), hn::And(hn::IsFinite(a), hn::IsFinite(b)))))) {
    using T = hn::TFromD<D>;
    HWY_ALIGN T as[kMaxLanes<T>], bs[kMaxLanes<T>], rs[kMaxLanes<T>];
    hn::Store(a, d, as);
    hn::Store(b, d, bs);
    hn::Store(r, d, rs);
    for (size_t k = 0; k < hn::Lanes(d); ++k)
      if (std::isinf(rs[k]) && std::isfinite(as[k]) && std::isfinite(bs[k])) rs[k] = Fn::libm(as[k], bs[k]);
    r = hn::Load(d, rs);
  }
  return r;
}

}  // namespace HWY_NAMESPACE
}  // namespace tessera::detail
HWY_AFTER_NAMESPACE();

#endif  // TESSERA_VECTOR_MATH_INL_H_
