#include "task/reduction.h"

#include <complex>
#include <limits>
#include <type_traits>

namespace tessera::detail {
namespace {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};

template <class T>
T identity_of(Reduction::Kind k) {
  if constexpr (std::is_same_v<T, bool>) {
    return k == Reduction::Kind::Prod || k == Reduction::Kind::Min;
  } else if constexpr (is_complex<T>::value) {
    return k == Reduction::Kind::Prod ? T(1) : T(0);
  } else {
    constexpr bool floating = std::is_floating_point_v<T> || std::is_same_v<T, _Float16>;
    switch (k) {
      case Reduction::Kind::Prod: return T(1);
      case Reduction::Kind::Min:
        if constexpr (floating) return static_cast<T>(std::numeric_limits<double>::infinity());
        else return std::numeric_limits<T>::max();
      case Reduction::Kind::Max:
        if constexpr (floating) return static_cast<T>(-std::numeric_limits<double>::infinity());
        else return std::numeric_limits<T>::lowest();
      default: return T(0);
    }
  }
}

// Integer sums and products wrap, as NumPy's do (computed unsigned: no signed overflow).
template <class T>
T wrapped(Reduction::Kind k, T a, T b) {
  const uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
  return static_cast<T>(k == Reduction::Kind::Prod ? x * y : x + y);
}

template <class T>
void fold_as(Reduction::Kind k, T* acc, const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, bool>) {
    const bool any = k == Reduction::Kind::Sum || k == Reduction::Kind::Max;
    for (int64_t i = 0; i < n; ++i) acc[i] = any ? (acc[i] || x[i]) : (acc[i] && x[i]);
  } else if constexpr (is_complex<T>::value) {
    for (int64_t i = 0; i < n; ++i) acc[i] = k == Reduction::Kind::Prod ? acc[i] * x[i] : acc[i] + x[i];
  } else {
    if constexpr (std::is_integral_v<T>) {
      if (k == Reduction::Kind::Sum || k == Reduction::Kind::Prod) {
        for (int64_t i = 0; i < n; ++i) acc[i] = wrapped(k, acc[i], x[i]);
        return;
      }
    }
    switch (k) {
      case Reduction::Kind::Sum:
        for (int64_t i = 0; i < n; ++i) acc[i] = static_cast<T>(acc[i] + x[i]);
        break;
      case Reduction::Kind::Prod:
        for (int64_t i = 0; i < n; ++i) acc[i] = static_cast<T>(acc[i] * x[i]);
        break;
      // NaN wins, as in NumPy's minimum/maximum.
      case Reduction::Kind::Min:
        for (int64_t i = 0; i < n; ++i) acc[i] = (x[i] < acc[i] || x[i] != x[i]) ? x[i] : acc[i];
        break;
      case Reduction::Kind::Max:
        for (int64_t i = 0; i < n; ++i) acc[i] = (x[i] > acc[i] || x[i] != x[i]) ? x[i] : acc[i];
        break;
      default: break;
    }
  }
}

}  // namespace

void check_reduction(const Reduction& r, DType t, const std::string& task) {
  if (r.kind == Reduction::Kind::Custom) {
    if (!r.identity || !r.fold)
      throw ValueError("task '" + task + "': a custom reduction needs an identity and a fold");
    return;
  }
  if ((r.kind == Reduction::Kind::Min || r.kind == Reduction::Kind::Max) &&
      (t == DType::Complex64 || t == DType::Complex128))
    throw TypeError("task '" + task + "': min/max reductions do not apply to complex arrays");
}

void reduction_identity(const Reduction& r, DType t, void* acc, int64_t n) {
  if (r.kind == Reduction::Kind::Custom) return r.identity(acc, n);
  visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    const T id = identity_of<T>(r.kind);
    for (int64_t i = 0; i < n; ++i) static_cast<T*>(acc)[i] = id;
  });
}

void reduction_fold(const Reduction& r, DType t, void* acc, const void* x, int64_t n) {
  if (r.kind == Reduction::Kind::Custom) return r.fold(acc, x, n);
  visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    fold_as<T>(r.kind, static_cast<T*>(acc), static_cast<const T*>(x), n);
  });
}

Combiner reduction_combiner(const Reduction& r, DType t, bool into) {
  Combiner c;
  c.itemsize = itemsize(t);
  c.into = into;
  if (r.kind == Reduction::Kind::Custom) c.fold = r.fold;
  else c.fold = [r, t](void* acc, const void* x, int64_t n) { reduction_fold(r, t, acc, x, n); };
  return c;
}

}  // namespace tessera::detail
