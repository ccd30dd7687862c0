// NumPy's pairwise order of combining values, for any associative operation: over a
// contiguous block of values, and column by column over the rows of a block (the same
// operations in the same order per column, so both give bitwise the same results).
// Shared by the reduction kernels (numeric/reduce only).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "data/convert.h"
#include "numeric/reduce/kernels.h"

namespace tessera::detail::reduction {

template <class T>
inline bool is_nan(const T& v) {
  if constexpr (is_complex_v<T>) return std::isnan(v.real()) || std::isnan(v.imag());
  else if constexpr (is_floating_v<T>) return v != v;
  else return false;
}

// A 16-byte GCC vector of float or double (its operators work lane by lane), and an
// unaligned load of one: what the leaf loops below keep their eight accumulators in.
template <class T>
constexpr bool kHasVec16 = std::is_same_v<T, double> || std::is_same_v<T, float>;
template <class T>
struct Vec16;
template <>
struct Vec16<double> {
  typedef double type __attribute__((vector_size(16)));
};
template <>
struct Vec16<float> {
  typedef float type __attribute__((vector_size(16)));
};
template <class T>
inline typename Vec16<T>::type load16(const T* p) {
  typename Vec16<T>::type v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// `pairwise`'s leaf (8 <= n <= 128) for float and double with an operation that applies lane
// by lane to GCC vectors (`Op::vectorizes`): the eight accumulators are the lanes of 16-byte
// vectors, so each is the same sequence of operations on the same values (bitwise the scalar
// leaf's results) in a quarter or an eighth of the instructions. The compiler does not find
// this itself: the scalar leaf keeps its accumulators on the stack (a 128 MB sum on 2 cpus
// took 10-15 % longer with it).
template <class T, class Op>
inline T pairwise_leaf(const T* a, int64_t n) {
  using V = typename Vec16<T>::type;
  constexpr int kLanes = 16 / sizeof(T);
  auto load = load16<T>;
  // Named accumulators (an array of them would live on the stack): r0 holds r[0..kLanes).
  V r0 = load(a), r1 = load(a + kLanes), r2{}, r3{};
  if constexpr (kLanes == 2) r2 = load(a + 4), r3 = load(a + 6);
  int64_t i = 8;
  for (; i < n - n % 8; i += 8) {
    r0 = Op::apply(r0, load(a + i));
    r1 = Op::apply(r1, load(a + i + kLanes));
    if constexpr (kLanes == 2) {
      r2 = Op::apply(r2, load(a + i + 4));
      r3 = Op::apply(r3, load(a + i + 6));
    }
  }
  T lane[8];
  std::memcpy(lane, &r0, sizeof r0);
  std::memcpy(lane + kLanes, &r1, sizeof r1);
  if constexpr (kLanes == 2) {
    std::memcpy(lane + 4, &r2, sizeof r2);
    std::memcpy(lane + 6, &r3, sizeof r3);
  }
  T res = Op::apply(Op::apply(Op::apply(lane[0], lane[1]), Op::apply(lane[2], lane[3])),
                    Op::apply(Op::apply(lane[4], lane[5]), Op::apply(lane[6], lane[7])));
  for (; i < n; ++i) res = Op::apply(res, a[i]);
  return res;
}

// NumPy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src), for any operation:
// eight interleaved accumulators up to 128 values, halves (multiples of 8) above.
template <class T, class Op>
inline T pairwise(const T* a, int64_t n) {
  // Integers wrap (and bools saturate): any order gives NumPy's result, so they fold in one
  // pass. (GCC 12 at -O3 also miscompiles the eight int8 accumulators below: 24 sevens made 63.)
  if constexpr (std::is_integral_v<T>) {
    T res = a[0];
    for (int64_t i = 1; i < n; ++i) res = Op::apply(res, a[i]);
    return res;
  }
  if (n < 8) {
    T res = a[0];
    for (int64_t i = 1; i < n; ++i) res = Op::apply(res, a[i]);
    return res;
  }
  if constexpr (kHasVec16<T> && requires { Op::vectorizes; }) {
    if (n <= 128) return pairwise_leaf<T, Op>(a, n);
  }
  if (n <= 128) {
    T r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    int64_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (int k = 0; k < 8; ++k) r[k] = Op::apply(r[k], a[i + k]);
    T res = Op::apply(Op::apply(Op::apply(r[0], r[1]), Op::apply(r[2], r[3])),
                      Op::apply(Op::apply(r[4], r[5]), Op::apply(r[6], r[7])));
    for (; i < n; ++i) res = Op::apply(res, a[i]);
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  // The halves in memory order (the arguments of one call could be evaluated right to left:
  // a block read backwards, leaf by leaf, defeats the prefetcher and runs at half speed).
  const T low = pairwise<T, Op>(a, n2);
  const T high = pairwise<T, Op>(a + n2, n - n2);
  return Op::apply(low, high);
}

// Row i of a block as w contiguous accumulation values (loaded into `buf` when needed).
template <class T>
struct RowReader {
  const RowSource& src;
  int64_t w;
  T* buf;

  const T* operator()(int64_t i) const {
    const char* p = src.base + src.offsets[i] * src.isize;
    if (!src.load) return reinterpret_cast<const T*>(p);
    src.load(buf, p, src.col_stride, w);
    if (src.mask) {
      const char* m = src.mask + src.mask_offsets[i];
      const T fill = *static_cast<const T*>(src.fill);
      for (int64_t c = 0; c < w; ++c)
        if (!m[c * src.mask_col_stride]) buf[c] = fill;
    }
    return buf;
  }
};

// `pairwise` applied to every column of rows [lo, lo + n): the same operations in the
// same order per column. `stack` holds 8 accumulator rows plus one row per recursion level.
template <class T, class Op>
inline void pairwise_rows(T* out, const RowReader<T>& row, int64_t lo, int64_t n, T* stack) {
  const int64_t w = row.w;
  auto fold = [w](T* acc, const T* x) {
    for (int64_t c = 0; c < w; ++c) acc[c] = Op::apply(acc[c], x[c]);
  };
  if (n < 8 || std::is_integral_v<T>) {  // integers: in one pass, as in `pairwise`
    std::copy_n(row(lo), w, out);
    for (int64_t i = 1; i < n; ++i) fold(out, row(lo + i));
    return;
  }
  if (n <= 128) {
    T* r = stack;
    for (int k = 0; k < 8; ++k) std::copy_n(row(lo + k), w, r + k * w);
    int64_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (int k = 0; k < 8; ++k) fold(r + k * w, row(lo + i + k));
    for (int64_t c = 0; c < w; ++c)
      out[c] = Op::apply(Op::apply(Op::apply(r[c], r[w + c]), Op::apply(r[2 * w + c], r[3 * w + c])),
                         Op::apply(Op::apply(r[4 * w + c], r[5 * w + c]), Op::apply(r[6 * w + c], r[7 * w + c])));
    for (; i < n; ++i) fold(out, row(lo + i));
    return;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  pairwise_rows<T, Op>(out, row, lo, n2, stack);
  T* right = stack;
  pairwise_rows<T, Op>(right, row, lo + n2, n - n2, stack + w);
  fold(out, right);
}

// Scratch of the rows kernels: a loaded row plus the pairwise stack (8 + 6 levels for 4096 rows).
template <class T>
inline T* rows_scratch(int64_t w) {
  thread_local std::vector<unsigned char> scratch;
  const size_t need = static_cast<size_t>(w) * 24 * sizeof(T);
  if (scratch.size() < need) scratch.resize(need);
  return reinterpret_cast<T*>(scratch.data());
}

}  // namespace tessera::detail::reduction
