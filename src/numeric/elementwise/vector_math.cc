// Vector math loops: exp, log, the trigonometric and hyperbolic functions and their
// inverses, cbrt, arctan2, hypot and power (the ufunc table's `sleef` rows), for each
// instruction set Highway targets, over the functions of vector_math-inl.h.
//
// Every element goes through the same vector function wherever it sits in a block: the
// last partial vector of a block is padded and computed like a full one, never by a
// scalar function, so a value does not depend on how an array was tiled.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "numeric/elementwise/vector_math.cc"
#include "numeric/elementwise/vector_targets.h"
// foreach_target.h includes this file again once per target.
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cmath>

#include "numeric/elementwise/vector_loops.h"
#include "numeric/elementwise/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = f(in[i * sa]) over whole vectors, then the rest (or a broadcast operand) from a
// padded copy through the same f.
template <class T, class F>
HWY_INLINE void unary_blocks(void* out, const void* in, int64_t sa, int64_t n, F f) {
  const hn::ScalableTag<T> d;
  const size_t lanes = hn::Lanes(d);
  T* o = static_cast<T*>(out);
  const T* x = static_cast<const T*>(in);
  const size_t count = static_cast<size_t>(n);
  size_t i = 0;
  if (sa != 0)
    for (; i + lanes <= count; i += lanes) hn::StoreU(f(d, hn::LoadU(d, x + i)), d, o + i);
  if (i == count) return;
  const size_t rest = sa != 0 ? count - i : 1;
  HWY_ALIGN T buf[kMaxLanes<T>];
  for (size_t k = 0; k < lanes; ++k) buf[k] = x[sa != 0 ? i + std::min(k, rest - 1) : 0];
  hn::Store(f(d, hn::Load(d, buf)), d, buf);
  if (sa != 0) std::copy(buf, buf + rest, o + i);
  else std::fill(o, o + count, buf[0]);
}

template <bool kA, bool kB, class T, class F>
HWY_INLINE void binary_strided(T* o, const T* a, const T* b, size_t count, F f) {
  const hn::ScalableTag<T> d;
  const size_t lanes = hn::Lanes(d);
  const auto va = hn::Set(d, a[0]), vb = hn::Set(d, b[0]);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes)
    hn::StoreU(f(d, kA ? hn::LoadU(d, a + i) : va, kB ? hn::LoadU(d, b + i) : vb), d, o + i);
  if (i == count) return;
  const size_t rest = count - i;
  HWY_ALIGN T bufa[kMaxLanes<T>], bufb[kMaxLanes<T>];
  for (size_t k = 0; k < lanes; ++k) {
    const size_t j = i + std::min(k, rest - 1);
    bufa[k] = kA ? a[j] : a[0];
    bufb[k] = kB ? b[j] : b[0];
  }
  hn::Store(f(d, hn::Load(d, bufa), hn::Load(d, bufb)), d, bufa);
  std::copy(bufa, bufa + rest, o + i);
}

template <class T, class F>
HWY_INLINE void binary_blocks(void* out, const void* pa, int64_t sa, const void* pb, int64_t sb, int64_t n, F f) {
  T* o = static_cast<T*>(out);
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  const size_t count = static_cast<size_t>(n);
  if (sa != 0 && sb != 0) return binary_strided<true, true>(o, a, b, count, f);
  if (sa != 0) return binary_strided<true, false>(o, a, b, count, f);
  if (sb != 0) return binary_strided<false, true>(o, a, b, count, f);
  T v;
  binary_strided<false, false>(&v, a, b, 1, f);
  std::fill(o, o + count, v);
}

template <class Fn, class T>
void unary_math_run(void* out, const void* in, int64_t sa, int64_t n) {
  unary_blocks<T>(out, in, sa, n, [](auto d, auto x) { return unary_value<Fn>(d, x); });
}

template <class Fn, class T>
void binary_math_run(void* out, const void* a, int64_t sa, const void* b, int64_t sb, int64_t n) {
  binary_blocks<T>(out, a, sa, b, sb, n, [](auto d, auto x, auto y) { return binary_value<Fn>(d, x, y); });
}

// x**3 within 1 ulp of pow: float squares exactly in double, so one rounding of the product
// and one to float; double adds the square's rounding error (by a fused multiply-add) back.
// False for a double on a target without fused multiply-add: pow serves.
template <class D>
HWY_INLINE hn::Vec<D> cube(D d, hn::Vec<D> x) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 4) {
    HWY_ALIGN float xs[kMaxLanes<float>];
    hn::Store(x, d, xs);
    for (size_t k = 0; k < hn::Lanes(d); ++k) {
      const double v = xs[k];
      xs[k] = static_cast<float>(v * v * v);
    }
    return hn::Load(d, xs);
  } else {
    const auto p = hn::Mul(x, x);
    const auto e = hn::MulSub(x, x, p);  // x*x - p, exactly
    const auto r = hn::MulAdd(p, x, hn::Mul(e, x));
    return hn::IfThenElse(hn::IsFinite(r), r, hn::Mul(p, x));  // overflow, inf and nan as x*x*x
  }
}

template <class T>
inline constexpr bool kExactCube = sizeof(T) == 4 || HWY_NATIVE_FMA;

// NumPy's power loop takes a shortcut when the exponent is one value for the whole loop
// (a scalar, a 0-d array or a broadcast element): 2 is x*x, 0.5 sqrt, -1 a reciprocal,
// 1 x itself and 0 one. Exponent 3 is a cube within 1 ulp of pow. Any other exponent is pow.
template <class T>
void power_loop(void* out, const void* a, int64_t sa, const void* b, int64_t sb, int64_t n) {
  if (sb == 0) {
    const T e = *static_cast<const T*>(b);
    if (e == T(2)) return unary_blocks<T>(out, a, sa, n, [](auto, auto x) { return hn::Mul(x, x); });
    if (e == T(0.5)) return unary_blocks<T>(out, a, sa, n, [](auto, auto x) { return hn::Sqrt(x); });
    if (e == T(-1)) return unary_blocks<T>(out, a, sa, n, [](auto d, auto x) { return hn::Div(hn::Set(d, T(1)), x); });
    if (e == T(1)) return unary_blocks<T>(out, a, sa, n, [](auto, auto x) { return x; });
    if (e == T(0)) return unary_blocks<T>(out, a, sa, n, [](auto d, auto) { return hn::Set(d, T(1)); });
    if (e == T(3) && kExactCube<T>) return unary_blocks<T>(out, a, sa, n, [](auto d, auto x) { return cube(d, x); });
  }
  binary_math_run<Power, T>(out, a, sa, b, sb, n);
}

template <class Fn>
UnaryLoop unary_for(DType t) {
  if (t == DType::Float32) return &unary_math_run<Fn, float>;
  if (t == DType::Float64) return &unary_math_run<Fn, double>;
  return nullptr;
}

// power has a loop of its own (power_loop); the others go through binary_math_run.
template <class Fn>
BinaryLoop binary_for(DType t) {
  if constexpr (std::is_same_v<Fn, Power>) {
    if (t == DType::Float32) return &power_loop<float>;
    if (t == DType::Float64) return &power_loop<double>;
  } else {
    if (t == DType::Float32) return &binary_math_run<Fn, float>;
    if (t == DType::Float64) return &binary_math_run<Fn, double>;
  }
  return nullptr;
}

UnaryLoop target_math_unary_loop(UnaryOp op, DType t) {
  switch (op) {
// clang-format off
#define TESSERA_SLEEF_UNARY_ROW(OP, fn, u) case UnaryOp::OP: return unary_for<OP>(t);
#include "numeric/elementwise/sleef_rows-inl.h"
      // clang-format on
    default: return nullptr;
  }
}

BinaryLoop target_math_binary_loop(BinaryOp op, DType t) {
  switch (op) {
// clang-format off
#define TESSERA_SLEEF_BINARY_ROW(OP, fn, u) case BinaryOp::OP: return binary_for<OP>(t);
#include "numeric/elementwise/sleef_rows-inl.h"
      // clang-format on
    default: return nullptr;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace tessera::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::detail {

HWY_EXPORT(target_math_unary_loop);
HWY_EXPORT(target_math_binary_loop);

UnaryLoop math_unary_loop(UnaryOp op, DType t) { return HWY_DYNAMIC_DISPATCH(target_math_unary_loop)(op, t); }
BinaryLoop math_binary_loop(BinaryOp op, DType t) { return HWY_DYNAMIC_DISPATCH(target_math_binary_loop)(op, t); }

}  // namespace tessera::detail
#endif  // HWY_ONCE
