// max, min, argmax and argmin with NumPy's rules: the first NaN wins, complex values
// compare lexicographically, argmax/argmin keep the first best position.
//
// Real values take a fast path: eight running extremes that the compiler turns into
// vector max/min instructions, plus a running sum that turns NaN if any value is NaN
// (or inf: then the block is searched for a NaN). Without NaN the result does not depend
// on the order of comparisons: ties of +0 and -0 give +0 for max and -0 for min. So the
// block loops, the row loops and the tree across blocks agree bit for bit.
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "data/convert.h"
#include "numeric/reduce/pairwise.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
using namespace reduction;

template <class T>
constexpr bool kReal = !is_complex_v<T> && !std::is_same_v<T, bool>;

template <bool kMax, class T>
bool beats(T x, T m) {
  return kMax ? x > m : x < m;
}

// Equal values of different bits are +0 and -0: max gives +0, min gives -0, in any order.
template <bool kMax, class T>
T settle_tie(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (a == 0 && std::signbit(a) != std::signbit(b)) return kMax ? T(0) : -T(0);
  }
  return a;
}

// NumPy's maximum/minimum as a fold `acc = op(acc, x)`.
template <bool kMax>
struct ExtremeOp {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_complex_v<T>) {
      const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
      const bool keep = kMax ? ((ar > br && !std::isnan(ai) && !std::isnan(bi)) || (ar == br && ai >= bi))
                             : ((ar < br && !std::isnan(ai) && !std::isnan(bi)) || (ar == br && ai <= bi));
      return keep || std::isnan(ar) || std::isnan(ai) ? a : b;
    } else {
      if (is_nan(a)) return a;
      if (is_nan(b)) return b;
      if (beats<kMax>(a, b)) return a;
      if (beats<kMax>(b, a)) return b;
      return settle_tie<kMax>(a, b);
    }
  }
};

// The extreme of a[0], a[stride], ... (n >= 1 real values) once NaN and signed zeros are
// settled: the first NaN if there is one; a zero extreme gets max's or min's sign.
template <bool kMax, class T>
T settle(T m, bool maybe_nan, const T* a, int64_t n, int64_t stride) {
  if constexpr (is_floating_v<T>) {
    if (maybe_nan)
      for (int64_t j = 0; j < n; ++j)
        if (a[j * stride] != a[j * stride]) return a[j * stride];
    if (m == 0) {
      bool other = false;  // is there a zero of the sign the extreme prefers?
      for (int64_t j = 0; j < n && !other; ++j) other = a[j * stride] == 0 && std::signbit(a[j * stride]) != kMax;
      return other ? (kMax ? T(0) : -T(0)) : (kMax ? -T(0) : T(0));
    }
  }
  return m;
}

// extreme_of's eight running extremes and sums over a[0, 8 * (n / 8)) (n >= 16) for float and
// double, kept in named 16-byte vectors: lane k sees the same values in the same order as
// m[k] and sum[k] would (an array of them would live on the stack). Returns the index reached.
template <bool kMax, class T>
int64_t extreme_lanes(const T* a, int64_t n, T* m, T* sum) {
  using V = typename Vec16<T>::type;
  constexpr int kLanes = 16 / sizeof(T);
  auto load = load16<T>;
  auto keep = [](V x, V best) { return (kMax ? x > best : x < best) ? x : best; };
  V m0 = load(a), m1 = load(a + kLanes), m2{}, m3{};
  if constexpr (kLanes == 2) m2 = load(a + 4), m3 = load(a + 6);
  V s0 = m0, s1 = m1, s2 = m2, s3 = m3;
  int64_t i = 8;
  for (; i + 8 <= n; i += 8) {
    const V x0 = load(a + i), x1 = load(a + i + kLanes);
    m0 = keep(x0, m0), s0 += x0;
    m1 = keep(x1, m1), s1 += x1;
    if constexpr (kLanes == 2) {
      const V x2 = load(a + i + 4), x3 = load(a + i + 6);
      m2 = keep(x2, m2), s2 += x2;
      m3 = keep(x3, m3), s3 += x3;
    }
  }
  const V ms[4] = {m0, m1, m2, m3}, ss[4] = {s0, s1, s2, s3};
  std::memcpy(m, ms, 8 * sizeof(T));
  std::memcpy(sum, ss, 8 * sizeof(T));
  return i;
}

template <bool kMax, class T>
T extreme_of(const T* a, int64_t n) {
  T m[8], sum[8];
  int64_t i = 0;
  T r = a[0], total = a[0] - a[0];
  if (n >= 16) {
    if constexpr (kHasVec16<T>) {
      i = extreme_lanes<kMax>(a, n, m, sum);
    } else {
      for (int k = 0; k < 8; ++k) {
        m[k] = a[k];
        sum[k] = a[k];
      }
      for (i = 8; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; ++k) {
          const T x = a[i + k];
          m[k] = beats<kMax>(x, m[k]) ? x : m[k];
          if constexpr (is_floating_v<T>) sum[k] += x;
        }
    }
    r = m[0];
    for (int k = 0; k < 8; ++k) {
      r = beats<kMax>(m[k], r) ? m[k] : r;
      if constexpr (is_floating_v<T>) total += sum[k];
    }
  }
  for (; i < n; ++i) {
    r = beats<kMax>(a[i], r) ? a[i] : r;
    if constexpr (is_floating_v<T>) total += a[i];
  }
  return settle<kMax>(r, total != total, a, n, 1);
}

// The first position of `v` (of a NaN when v is NaN) among n values.
template <class T>
int64_t first_of(const T* a, int64_t n, T v) {
  if (is_nan(v)) {
    for (int64_t i = 0; i < n; ++i)
      if (is_nan(a[i])) return i;
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (a[i] == v) return i;
  }
  TESSERA_CHECK(false, "the extreme of a block is one of its values");
  return 0;
}

template <bool kMax, class T>
void block_kernel(void* out, const void* in, int64_t n) {
  const T* a = static_cast<const T*>(in);
  if constexpr (kReal<T>) {
    *static_cast<T*>(out) = extreme_of<kMax>(a, n);
  } else {
    T res = a[0];
    for (int64_t i = 1; i < n; ++i) res = ExtremeOp<kMax>::apply(res, a[i]);
    *static_cast<T*>(out) = res;
  }
}

// Column by column, with the same result per column as block_kernel.
template <bool kMax, class T>
void rows_kernel(void* out, const RowSource& src, int64_t n, int64_t w) {
  RowReader<T> row{src, w, rows_scratch<T>(w)};
  T* acc = static_cast<T*>(out);
  std::copy_n(row(0), w, acc);
  if constexpr (!kReal<T>) {
    for (int64_t i = 1; i < n; ++i) {
      const T* x = row(i);
      for (int64_t c = 0; c < w; ++c) acc[c] = ExtremeOp<kMax>::apply(acc[c], x[c]);
    }
  } else {
    thread_local std::vector<T> sums;
    sums.assign(acc, acc + w);
    T* sum = sums.data();
    for (int64_t i = 1; i < n; ++i) {
      const T* x = row(i);
      for (int64_t c = 0; c < w; ++c) {
        acc[c] = beats<kMax>(x[c], acc[c]) ? x[c] : acc[c];
        if constexpr (is_floating_v<T>) sum[c] += x[c];
      }
    }
    if constexpr (is_floating_v<T>) {
      // Columns that may hold a NaN (or an inf) or whose extreme is zero fold again, in order.
      thread_local std::vector<int64_t> redo;
      redo.clear();
      for (int64_t c = 0; c < w; ++c)
        if (sum[c] != sum[c] || acc[c] == 0) redo.push_back(c);
      if (!redo.empty()) {
        const T* first = row(0);
        for (int64_t c : redo) acc[c] = first[c];
        for (int64_t i = 1; i < n; ++i) {
          const T* x = row(i);
          for (int64_t c : redo) acc[c] = ExtremeOp<kMax>::apply(acc[c], x[c]);
        }
      }
    }
  }
}

template <bool kMax, class T>
void combine_kernel(void* out, const void* a, const void* b) {
  *static_cast<T*>(out) = ExtremeOp<kMax>::apply(*static_cast<const T*>(a), *static_cast<const T*>(b));
}

// argmax/argmin: whether `x` beats `best` that comes before it (NaN beats all; ties keep best).
template <bool kMax, class T>
bool better(const T& x, const T& best) {
  const bool bn = is_nan(best), xn = is_nan(x);
  if constexpr (is_complex_v<T>) {
    const bool wins = kMax ? (x.real() > best.real() || (x.real() == best.real() && x.imag() > best.imag()))
                           : (x.real() < best.real() || (x.real() == best.real() && x.imag() < best.imag()));
    return !bn && (xn || wins);
  } else {
    return (!bn) & (xn | beats<kMax>(x, best));
  }
}

template <bool kMax, class T>
void arg_block_kernel(void* value, int64_t* index, const void* in, int64_t n) {
  const T* a = static_cast<const T*>(in);
  if constexpr (kReal<T>) {
    // The extreme, then its first position: two fast passes over a block in cache.
    const T best = extreme_of<kMax>(a, n);
    *static_cast<T*>(value) = best;
    *index = first_of(a, n, best);
  } else {
    T best = a[0];
    int64_t at = 0;
    for (int64_t i = 1; i < n && !is_nan(best); ++i)
      if (better<kMax>(a[i], best)) {
        best = a[i];
        at = i;
      }
    *static_cast<T*>(value) = best;
    *index = at;
  }
}

template <bool kMax, class T>
void arg_rows_kernel(void* value, int64_t* index, const RowSource& src, int64_t n, int64_t w) {
  T* best = static_cast<T*>(value);
  if constexpr (kReal<T>) {
    // Each column's extreme, then the first row holding it (or a NaN), stopping once all are found.
    rows_kernel<kMax, T>(value, src, n, w);
    RowReader<T> row{src, w, rows_scratch<T>(w)};
    std::fill_n(index, w, int64_t{-1});
    int64_t left = w;
    for (int64_t i = 0; i < n && left > 0; ++i) {
      const T* x = row(i);
      for (int64_t c = 0; c < w; ++c) {
        const bool hit = index[c] < 0 && (x[c] == best[c] || (is_nan(best[c]) && is_nan(x[c])));
        index[c] = hit ? i : index[c];
        left -= hit;
      }
    }
  } else {
    RowReader<T> row{src, w, rows_scratch<T>(w)};
    std::copy_n(row(0), w, best);
    std::fill_n(index, w, int64_t{0});
    for (int64_t i = 1; i < n; ++i) {
      const T* x = row(i);
      for (int64_t c = 0; c < w; ++c)
        if (better<kMax>(x[c], best[c])) {
          best[c] = x[c];
          index[c] = i;
        }
    }
  }
}

template <bool kMax, class T>
bool arg_better(const void* candidate, const void* best) {
  return better<kMax>(*static_cast<const T*>(candidate), *static_cast<const T*>(best));
}

template <bool kMax, class T>
ReduceKernels kernels_for(bool arg) {
  ReduceKernels k;
  if (arg) {
    k.arg_block = &arg_block_kernel<kMax, T>;
    k.arg_rows = &arg_rows_kernel<kMax, T>;
    k.arg_better = &arg_better<kMax, T>;
  } else {
    k.block = &block_kernel<kMax, T>;
    k.rows = &rows_kernel<kMax, T>;
    k.combine = &combine_kernel<kMax, T>;
  }
  return k;
}

}  // namespace

ReduceKernels extreme_kernels(ReduceKind kind, DType acc) {
  const bool max = kind == ReduceKind::Max || kind == ReduceKind::ArgMax;
  const bool arg = is_arg_reduction(kind);
  // bool values are the bytes 0 and 1: their extremes are those of uint8.
  if (acc == DType::Bool) acc = DType::UInt8;
  return visit_dtype(acc, [&](auto tag) -> ReduceKernels {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, _Float16> || std::is_same_v<T, bool>) return {};
    else return max ? kernels_for<true, T>(arg) : kernels_for<false, T>(arg);
  });
}

}  // namespace tessera::detail
