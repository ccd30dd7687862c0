// The sort family's cpu kernels: Highway's vectorised quicksort (NaN moved after the
// numbers first), or std::sort / std::stable_sort for the types it lacks and for stable
// sorts; positions (argsort) sort stably as (key, position) pairs, ties keeping the earlier
// position, so the result does not depend on the chunks; merges by the merge path.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "data/convert.h"
#include "hwy/contrib/sort/vqsort.h"
#include "numeric/sort/kernels.h"
#include "tessera/dtype.h"

namespace tessera::detail {
namespace {

template <class T>
bool is_nan(const T& x) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, _Float16>) return x != x;
  else return false;
}

// NumPy's order: NaN after every number; complex numbers by real part, then imaginary part.
template <class T>
bool less(const T& a, const T& b) {
  if constexpr (is_complex<T>::value) {
    const bool an = is_nan(a.real()), bn = is_nan(b.real());
    if (an != bn) return bn;
    if (!an && a.real() != b.real()) return a.real() < b.real();
    return less(a.imag(), b.imag());
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, _Float16>) {
    return a < b || (is_nan(b) && !is_nan(a));
  } else {
    return a < b;
  }
}

// Ties of `less` between different bits: -0.0 and 0.0, NaNs, complex numbers made of them.
template <class T>
constexpr bool kBitTies = is_complex_v<T> || is_floating_v<T>;

// The bits of `x` as a signed number (-0.0 before 0.0, negative NaNs before the others).
template <class T>
auto tie_bits(const T& x) {
  if constexpr (is_complex<T>::value) {
    return std::make_pair(tie_bits(x.real()), tie_bits(x.imag()));
  } else {
    using I = std::conditional_t<sizeof(T) == 2, int16_t, std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>;
    I b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }
}

// `less` with its ties between different bits broken by the bits: a strict total order on
// bit patterns, so an unstable sort by it has one result whatever the chunks were.
template <class T>
bool before(const T& a, const T& b) {
  if constexpr (kBitTies<T>) {
    if constexpr (!is_complex<T>::value) {
      if (a < b) return true;
      if (b < a) return false;
    }
    if (less(a, b)) return true;
    if (less(b, a)) return false;
    return tie_bits(a) < tie_bits(b);
  } else {
    return less(a, b);
  }
}

template <class T>
constexpr bool kVectorSort = std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int16_t> ||
                             std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, uint16_t> ||
                             std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>;

template <class T>
void sort_values(T* v, int64_t n, bool stable) {
  if (stable) {
    std::stable_sort(v, v + n, less<T>);
  } else if constexpr (kVectorSort<T>) {
    thread_local hwy::Sorter sorter;
    if constexpr (std::is_floating_point_v<T>) {
      // The vectorised sort gets the finite values but zeros only: it does not keep infinities,
      // nor the signs of zeros (its min/max steps may return either of -0.0 and 0.0 twice).
      // NaN go last, the zeros (-0.0 first, as `before` orders them) and the infinities are
      // put back around the others.
      T* end = std::partition(v, v + n, [](T x) { return x == x; });
      const T inf = std::numeric_limits<T>::infinity();
      int64_t below = 0, above = 0, zeros = 0, negative_zeros = 0;
      T* w = v;
      for (T* p = v; p < end; ++p) {
        if (*p == -inf) ++below;
        else if (*p == inf) ++above;
        else if (*p == 0) ++zeros, negative_zeros += std::signbit(*p);
        else *w++ = *p;
      }
      const int64_t finite = w - v;
      sorter(v, static_cast<size_t>(finite), hwy::SortAscending());
      const int64_t negatives = std::lower_bound(v, v + finite, T(0)) - v;
      std::memmove(v + below + negatives + zeros, v + negatives, static_cast<size_t>(finite - negatives) * sizeof(T));
      std::memmove(v + below, v, static_cast<size_t>(negatives) * sizeof(T));
      std::fill(v, v + below, -inf);
      std::fill(v + below + negatives, v + below + negatives + negative_zeros, -T(0));
      std::fill(v + below + negatives + negative_zeros, v + below + negatives + zeros, T(0));
      std::fill(v + below + finite + zeros, end, inf);
      std::sort(end, v + n, before<T>);  // the NaNs, by their bits
    } else {
      sorter(v, static_cast<size_t>(n), hwy::SortAscending());
    }
  } else {
    std::sort(v, v + n, before<T>);
  }
}

// `x` as an unsigned 64-bit number in NumPy's order: -0.0 as 0.0, every NaN last and equal.
template <class T>
uint64_t ordered_bits(T x) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, _Float16>) {
    double d = static_cast<double>(x);
    if (d != d) return ~uint64_t{0};
    if (d == 0) d = 0;
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return (b >> 63) ? ~b : b | (uint64_t{1} << 63);
  } else if constexpr (std::is_same_v<T, uint64_t> || std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
    return static_cast<uint64_t>(x);
  } else {
    return static_cast<uint64_t>(static_cast<int64_t>(x)) ^ (uint64_t{1} << 63);
  }
}

// Positions first .. first + n of `key` (stride s), sorted stably by key: (key, position)
// pairs as 128-bit numbers through the vectorised sort, ties ordered by position.
template <class T>
void sort_positions(const T* key, int64_t s, int64_t first, int64_t n, int64_t* pos) {
  if constexpr (is_complex<T>::value) {
    std::iota(pos, pos + n, first);
    std::stable_sort(pos, pos + n, [&](int64_t x, int64_t y) { return less(key[x * s], key[y * s]); });
  } else {
    thread_local std::vector<hwy::uint128_t> pairs;
    pairs.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      pairs[static_cast<size_t>(i)] = {static_cast<uint64_t>(first + i), ordered_bits(key[(first + i) * s])};
    thread_local hwy::Sorter sorter;
    sorter(pairs.data(), pairs.size(), hwy::SortAscending());
    for (int64_t i = 0; i < n; ++i) pos[i] = static_cast<int64_t>(pairs[static_cast<size_t>(i)].lo);
  }
}

// How many of A are among the first d elements of the merge of A (m elements) and B (nb) in
// the order `first` (B's element before A's).
template <class T, class First>
int64_t merge_split(const T* A, int64_t m, const T* B, int64_t nb, int64_t d, First first) {
  int64_t l = std::max<int64_t>(0, d - nb), h = std::min(d, m);
  while (l < h) {
    const int64_t i = (l + h) / 2;
    if (first(B[d - i - 1], A[i])) h = i;
    else l = i + 1;
  }
  return l;
}

void sort_values_of(DType t, void* v, int64_t n, bool stable) {
  visit_dtype(t, [&](auto tag) { sort_values(static_cast<decltype(tag)*>(v), n, stable); });
}

void sort_positions_of(DType t, const void* key, int64_t s, int64_t first, int64_t n, int64_t* pos) {
  visit_dtype(t, [&](auto tag) { sort_positions(static_cast<const decltype(tag)*>(key), s, first, n, pos); });
}

void merge_range(DType t, const void* from_v, void* to_v, const int64_t* pfrom, int64_t* pto, int64_t a0, int64_t a1,
                 int64_t b1, int64_t lo, int64_t hi, bool by_bits) {
  visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    const T* from = static_cast<const T*>(from_v);
    T* to = static_cast<T*>(to_v);
    const T* A = from + a0;
    const T* B = from + a1;
    const int64_t m = a1 - a0, nb = b1 - a1;
    // The runs' order: `less` (A first on ties: stable), or `before` for an unstable sort.
    auto first = [by_bits](const T& b, const T& a) { return by_bits ? before(b, a) : less(b, a); };
    int64_t i = merge_split(A, m, B, nb, lo - a0, first), j = lo - a0 - i;
    for (int64_t k = lo; k < hi; ++k) {
      const bool take_b = j < nb && (i >= m || first(B[j], A[i]));
      const int64_t src = take_b ? a1 + j++ : a0 + i++;
      to[k] = from[src];
      if (pto) pto[k] = pfrom[src];
    }
  });
}

void insertion_points(DType t, const void* sorted_v, int64_t n, int64_t s, const void* xv, int64_t xs, int64_t count,
                      int64_t* out, int64_t os, bool right) {
  visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    const T* sorted = static_cast<const T*>(sorted_v);
    const T* values = static_cast<const T*>(xv);
    for (int64_t i = 0; i < count; ++i) {
      const T x = values[i * xs];
      int64_t lo = 0, hi = n;
      while (lo < hi) {  // the first position whose element is past x (right) or not before it
        const int64_t mid = lo + (hi - lo) / 2;
        if (right ? !less(x, sorted[mid * s]) : less(sorted[mid * s], x)) lo = mid + 1;
        else hi = mid;
      }
      out[i * os] = lo;
    }
  });
}

const SortKernels kCpuKernels{sort_values_of, sort_positions_of, merge_range, insertion_points};

}  // namespace

const SortKernels* cpu_sort_kernels() { return &kCpuKernels; }

}  // namespace tessera::detail
