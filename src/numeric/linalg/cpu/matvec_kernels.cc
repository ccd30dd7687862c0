// The matrix-vector kernels of matvec_kernels.h, compiled once per instruction set
// Highway targets. Where a target's vectors hold W elements, partial sum l is lane l of a
// vector; elsewhere it is an array element. Either way each partial sum sees the same
// products in the same order, so every target gives the same bits (built with
// -ffp-contract=off, so the scalar code keeps its multiplications and additions apart).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "numeric/linalg/cpu/matvec_kernels.cc"
#include "numeric/elementwise/vector_targets.h"
// foreach_target.h includes this file again once per target.
#include "hwy/cache_control.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "numeric/elementwise/ops.h"
#include "numeric/linalg/cpu/matvec_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Partial sums per block: 32 bytes of elements.
template <class T>
inline constexpr int kW = static_cast<int>(32 / sizeof(T));

// s[0] + ... + s[(N - 1) * stride], halves first: (s0 + s1) + (s2 + s3) for N = 4.
template <int N, class T>
HWY_INLINE T tree(const T* s, int64_t stride) {
  if constexpr (N == 1) {
    return s[0];
  } else {
    const T low = tree<N / 2>(s, stride);
    const T high = tree<N - N / 2>(s + (N / 2) * stride, stride);
    return low + high;
  }
}

// out[r] (r < R) = the block sum of the row at a + r * lda with x, over c ≤ kMatvecBlock elements.
template <int R, class T>
HWY_INLINE void row_sums(const T* a, int64_t lda, const T* x, int64_t c, T* out) {
  constexpr int W = kW<T>;
  const hn::CappedTag<T, W> d;
  HWY_ALIGN T s[R][W];
  int64_t k = 0;
  if (hn::Lanes(d) == W) {
    using V = hn::Vec<decltype(d)>;
    V acc[R];
    for (int r = 0; r < R; ++r) acc[r] = hn::Zero(d);
    for (; k + W <= c; k += W) {
      const V xv = hn::LoadU(d, x + k);
      for (int r = 0; r < R; ++r) acc[r] = hn::Add(acc[r], hn::Mul(hn::LoadU(d, a + r * lda + k), xv));
    }
    for (int r = 0; r < R; ++r) hn::Store(acc[r], d, s[r]);
  } else {
    for (int r = 0; r < R; ++r)
      for (int l = 0; l < W; ++l) s[r][l] = T(0);
    for (; k + W <= c; k += W)
      for (int r = 0; r < R; ++r)
        for (int l = 0; l < W; ++l) s[r][l] = s[r][l] + a[r * lda + k + l] * x[k + l];
  }
  for (; k < c; ++k)
    for (int r = 0; r < R; ++r) s[r][k % W] = s[r][k % W] + a[r * lda + k] * x[k];
  for (int r = 0; r < R; ++r) out[r] = tree<W>(s[r], 1);
}

// acc[(k % W) * stride + j] += a[k * lda + j] * x[k] for k < r and j < c: the partial sums of
// the columns of an r × c block, each element on its own.
template <class T>
HWY_INLINE void column_sums(const T* a, int64_t lda, const T* x, int64_t r, int64_t c, T* acc, int64_t stride) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t k = 0; k < r; ++k) {
    const T* row = a + k * lda;
    T* s = acc + (k % kW<T>)*stride;
    const T xk = x[k];
    const auto xv = hn::Set(d, xk);
    int64_t j = 0;
    for (; j + lanes <= c; j += lanes)
      hn::StoreU(hn::Add(hn::LoadU(d, s + j), hn::Mul(hn::LoadU(d, row + j), xv)), d, s + j);
    for (; j < c; ++j) s[j] = s[j] + row[j] * xk;
  }
}

template <class T>
void rows_run(T* y, int64_t ys, const T* a, int64_t lda, const T* x, int64_t rows, int64_t cols) {
  constexpr int R = 8;  // rows at once: a sum per row in flight, one load of x for all
  T out[R];
  int64_t i = 0;
  for (; i + R <= rows; i += R)
    for (int64_t k0 = 0; k0 < cols; k0 += kMatvecBlock) {
      row_sums<R>(a + i * lda + k0, lda, x + k0, std::min(kMatvecBlock, cols - k0), out);
      for (int r = 0; r < R; ++r) y[(i + r) * ys] = k0 == 0 ? out[r] : y[(i + r) * ys] + out[r];
    }
  for (; i < rows; ++i)
    for (int64_t k0 = 0; k0 < cols; k0 += kMatvecBlock) {
      row_sums<1>(a + i * lda + k0, lda, x + k0, std::min(kMatvecBlock, cols - k0), out);
      y[i * ys] = k0 == 0 ? out[0] : y[i * ys] + out[0];
    }
}

template <class T>
void columns_run(T* y, int64_t ys, const T* a, int64_t lda, const T* x, int64_t rows, int64_t cols) {
  constexpr int W = kW<T>;
  constexpr int64_t kChunk = 512;  // rows at once: W partial sums of each stay in the L1 cache
  HWY_ALIGN T acc[W * kChunk];
  for (int64_t i0 = 0; i0 < rows; i0 += kChunk) {
    const int64_t n = std::min(kChunk, rows - i0);
    for (int64_t k0 = 0; k0 < cols; k0 += kMatvecBlock) {
      std::fill(acc, acc + W * kChunk, T(0));
      column_sums(a + k0 * lda + i0, lda, x + k0, std::min(kMatvecBlock, cols - k0), n, acc, kChunk);
      for (int64_t j = 0; j < n; ++j) {
        const T b = tree<W>(acc + j, kChunk);
        y[(i0 + j) * ys] = k0 == 0 ? b : y[(i0 + j) * ys] + b;
      }
    }
  }
}

// Keeps `v` in a register: a compiler would otherwise read memory once for each use of a
// loaded vector (both products of an element of a band), and loads bound that loop.
template <class V>
HWY_INLINE void in_register(V& v) {
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_SSE4)
  asm("" : "+x"(v.raw));
#else
  (void)v;
#endif
}

// Rows k .. k + G W - 1 of a band over the n columns from j0, read once, left to right:
// their sums with xc into by_rows, and their products with xr added into the columns'
// partial sums (row k + l is partial sum l mod W; k is a multiple of W, so rows of one
// partial sum come in order). G = 2 only where vectors hold W elements.
template <int G, class T>
HWY_INLINE void band_rows(const T* a, int64_t lda, int64_t k, int64_t j0, int64_t n, const T* xr, const T* xc,
                          T* by_rows, T* acc, int64_t stride) {
  constexpr int W = kW<T>, R = G * W;
  const hn::CappedTag<T, W> d;
  if (hn::Lanes(d) != W) {  // no vectors of W elements: the rows read once for each sum
    row_sums<R>(a + k * lda + j0, lda, xc + j0, n, by_rows + k);
    column_sums(a + k * lda + j0, lda, xr + k, R, n, acc + j0, stride);
    return;
  }
  using V = hn::Vec<decltype(d)>;
  V racc[R], xb[R];  // xr's elements loaded once: the stores into acc might alias xr
  for (int l = 0; l < R; ++l) {
    racc[l] = hn::Zero(d);
    xb[l] = hn::Set(d, xr[k + l]);
  }
  int64_t j = 0;
  for (; j + W <= n; j += W) {
    // Each row 512 bytes ahead, a cache line at a time: R runs at once are more than the
    // hardware prefetcher follows well by itself (measured on 4000² float64, two threads:
    // 2.7 against 3.4 ms; prefetching the next rows instead, as this did before, was no better
    // than not prefetching).
    if ((j & (2 * W - 1)) == 0)
      for (int l = 0; l < R; ++l) hwy::Prefetch(a + (k + l) * lda + j0 + j + 512 / sizeof(T));
    const V xv = hn::LoadU(d, xc + j0 + j);
    for (int l = 0; l < W; ++l) {
      T* p = acc + l * stride + j0 + j;
      V sum = hn::LoadU(d, p);
      for (int g = 0; g < G; ++g) {
        V av = hn::LoadU(d, a + (k + g * W + l) * lda + j0 + j);
        in_register(av);
        racc[g * W + l] = hn::Add(racc[g * W + l], hn::Mul(av, xv));
        sum = hn::Add(sum, hn::Mul(av, xb[g * W + l]));
      }
      hn::StoreU(sum, d, p);
    }
  }
  HWY_ALIGN T s[R][W];
  for (int l = 0; l < R; ++l) hn::Store(racc[l], d, s[l]);
  for (; j < n; ++j)
    for (int l = 0; l < R; ++l) {
      const T av = a[(k + l) * lda + j0 + j];
      s[l][j % W] = s[l][j % W] + av * xc[j0 + j];
      acc[(l % W) * stride + j0 + j] = acc[(l % W) * stride + j0 + j] + av * xr[k + l];
    }
  for (int l = 0; l < R; ++l) by_rows[k + l] = tree<W>(s[l], 1);
}

template <class T>
void band_run(const T* a, int64_t lda, int64_t r, int64_t c, const T* xr, const T* xc, T* const* by_rows,
              T* const* by_columns) {
  constexpr int W = kW<T>;
  const int64_t blocks = (c + kMatvecBlock - 1) / kMatvecBlock, stride = blocks * kMatvecBlock;
  thread_local std::vector<T> partial;  // W partial sums per column
  partial.assign(static_cast<size_t>(W * stride), T(0));
  T* acc = partial.data();
  const bool vectors = hn::Lanes(hn::CappedTag<T, W>()) == W;
  int64_t k = 0;
  // 2 W rows at once where vectors allow (eight runs in flight, and each partial sum loaded
  // and stored once for two rows), else W.
  while (k + W <= r) {
    const int g = vectors && k + 2 * W <= r ? 2 : 1;
    for (int64_t q = 0; q < blocks; ++q) {
      const int64_t j0 = q * kMatvecBlock, n = std::min(kMatvecBlock, c - j0);
      if (!by_columns[q]) {  // a block on the diagonal: its rows' sums only
        for (int h = 0; h < g; ++h) row_sums<W>(a + (k + h * W) * lda + j0, lda, xc + j0, n, by_rows[q] + k + h * W);
        continue;
      }
      if (g == 2) band_rows<2>(a, lda, k, j0, n, xr, xc, by_rows[q], acc, stride);
      else band_rows<1>(a, lda, k, j0, n, xr, xc, by_rows[q], acc, stride);
    }
    k += g * W;
  }
  for (; k < r; ++k)
    for (int64_t q = 0; q < blocks; ++q) {
      const int64_t j0 = q * kMatvecBlock, n = std::min(kMatvecBlock, c - j0);
      row_sums<1>(a + k * lda + j0, lda, xc + j0, n, by_rows[q] + k);
      if (by_columns[q]) column_sums(a + k * lda + j0, lda, xr + k, 1, n, acc + (k % W) * stride + j0, stride);
    }
  for (int64_t q = 0; q < blocks; ++q)
    if (by_columns[q])
      for (int64_t j = 0; j < std::min(kMatvecBlock, c - q * kMatvecBlock); ++j)
        by_columns[q][j] = tree<W>(acc + q * kMatvecBlock + j, stride);
}

// Whether a[i * lda + j] and b[j * lda + i] hold the same bits for i < r, j < c: in 32 × 32
// tiles (both stay in the L1 cache), 4 × 4 at a time transposed in registers where a target
// has vectors of four 64-bit lanes.
template <class U>
bool transposed_run(const char* pa, const char* pb, int64_t lda, int64_t r, int64_t c) {
  constexpr int64_t kTile = 32;
  const U* a = reinterpret_cast<const U*>(pa);
  const U* b = reinterpret_cast<const U*>(pb);
#if HWY_TARGET != HWY_SCALAR
  const hn::CappedTag<uint64_t, 4> d;
  const bool vectors = sizeof(U) == 8 && hn::Lanes(d) == 4;
#endif
  for (int64_t i0 = 0; i0 < r; i0 += kTile)
    for (int64_t j0 = 0; j0 < c; j0 += kTile) {
      const int64_t i1 = std::min(r, i0 + kTile), j1 = std::min(c, j0 + kTile);
      int64_t i = i0;
#if HWY_TARGET != HWY_SCALAR
      if constexpr (sizeof(U) == 8) {
        if (vectors && j1 - j0 >= 4) {
          const uint64_t* a64 = reinterpret_cast<const uint64_t*>(a);
          const uint64_t* b64 = reinterpret_cast<const uint64_t*>(b);
          auto differs = hn::Zero(d);
          for (; i + 4 <= i1; i += 4) {
            int64_t j = j0;
            for (; j + 4 <= j1; j += 4) {
              // Rows j .. j + 3 of b at columns i .. i + 3, transposed: columns of b as rows.
              const auto r0 = hn::LoadU(d, b64 + j * lda + i), r1 = hn::LoadU(d, b64 + (j + 1) * lda + i);
              const auto r2 = hn::LoadU(d, b64 + (j + 2) * lda + i), r3 = hn::LoadU(d, b64 + (j + 3) * lda + i);
              const auto t0 = hn::InterleaveLower(d, r0, r1), t1 = hn::InterleaveUpper(d, r0, r1);
              const auto t2 = hn::InterleaveLower(d, r2, r3), t3 = hn::InterleaveUpper(d, r2, r3);
              const auto c0 = hn::ConcatLowerLower(d, t2, t0), c1 = hn::ConcatLowerLower(d, t3, t1);
              const auto c2 = hn::ConcatUpperUpper(d, t2, t0), c3 = hn::ConcatUpperUpper(d, t3, t1);
              differs = hn::Or(differs, hn::Xor(c0, hn::LoadU(d, a64 + i * lda + j)));
              differs = hn::Or(differs, hn::Xor(c1, hn::LoadU(d, a64 + (i + 1) * lda + j)));
              differs = hn::Or(differs, hn::Xor(c2, hn::LoadU(d, a64 + (i + 2) * lda + j)));
              differs = hn::Or(differs, hn::Xor(c3, hn::LoadU(d, a64 + (i + 3) * lda + j)));
            }
            for (int64_t q = i; q < i + 4; ++q)
              for (int64_t e = j; e < j1; ++e)
                if (a[q * lda + e] != b[e * lda + q]) return false;
          }
          if (!hn::AllTrue(d, hn::Eq(differs, hn::Zero(d)))) return false;
        }
      }
#endif
      for (; i < i1; ++i)
        for (int64_t j = j0; j < j1; ++j)
          if (a[i * lda + j] != b[j * lda + i]) return false;
    }
  return true;
}

// Calls f with a value of `t`'s element type (float64 or float32).
template <class F>
HWY_INLINE void with_element(DType t, F f) {
  if (t == DType::Float64) f(double{});
  else f(float{});
}

template <class T>
const T* elements(const char* p) {
  return reinterpret_cast<const T*>(p);
}

void target_matvec_rows(DType t, char* y, int64_t ys, const char* a, int64_t lda, const char* x, int64_t rows,
                        int64_t cols) {
  with_element(t, [&](auto e) {
    using T = decltype(e);
    rows_run(reinterpret_cast<T*>(y), ys, elements<T>(a), lda, elements<T>(x), rows, cols);
  });
}

void target_matvec_columns(DType t, char* y, int64_t ys, const char* a, int64_t lda, const char* x, int64_t rows,
                           int64_t cols) {
  with_element(t, [&](auto e) {
    using T = decltype(e);
    columns_run(reinterpret_cast<T*>(y), ys, elements<T>(a), lda, elements<T>(x), rows, cols);
  });
}

void target_matvec_band(DType t, const char* a, int64_t lda, int64_t r, int64_t c, const char* xr, const char* xc,
                        char* const* by_rows, char* const* by_columns) {
  with_element(t, [&](auto e) {
    using T = decltype(e);
    band_run(elements<T>(a), lda, r, c, elements<T>(xr), elements<T>(xc), reinterpret_cast<T* const*>(by_rows),
             reinterpret_cast<T* const*>(by_columns));
  });
}

void target_add_block_sums(DType t, char* y, int64_t ys, const char* const* sums, int64_t blocks, int64_t n) {
  with_element(t, [&](auto e) {
    using T = decltype(e);
    T* out = reinterpret_cast<T*>(y);
    for (int64_t i = 0; i < n; ++i) out[i * ys] = elements<T>(sums[0])[i];
    for (int64_t q = 1; q < blocks; ++q) {
      const T* b = elements<T>(sums[q]);
      for (int64_t i = 0; i < n; ++i) out[i * ys] = out[i * ys] + b[i];
    }
  });
}

// Compared as unsigned integers: equal bits (NaN equals itself, -0 differs from +0).
bool target_blocks_transposed(DType t, const char* a, const char* b, int64_t lda, int64_t r, int64_t c) {
  return t == DType::Float64 ? transposed_run<uint64_t>(a, b, lda, r, c) : transposed_run<uint32_t>(a, b, lda, r, c);
}

}  // namespace HWY_NAMESPACE
}  // namespace tessera::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::detail {

HWY_EXPORT(target_matvec_rows);
HWY_EXPORT(target_matvec_columns);
HWY_EXPORT(target_matvec_band);
HWY_EXPORT(target_blocks_transposed);
HWY_EXPORT(target_add_block_sums);

bool matvec_dtype(DType t) { return t == DType::Float32 || t == DType::Float64; }

void matvec_rows(DType t, char* y, int64_t ys, const char* a, int64_t lda, const char* x, int64_t rows, int64_t cols) {
  HWY_DYNAMIC_DISPATCH(target_matvec_rows)(t, y, ys, a, lda, x, rows, cols);
}

void matvec_columns(DType t, char* y, int64_t ys, const char* a, int64_t lda, const char* x, int64_t rows,
                    int64_t cols) {
  HWY_DYNAMIC_DISPATCH(target_matvec_columns)(t, y, ys, a, lda, x, rows, cols);
}

void matvec_band(DType t, const char* a, int64_t lda, int64_t r, int64_t c, const char* xr, const char* xc,
                 char* const* by_rows, char* const* by_columns) {
  HWY_DYNAMIC_DISPATCH(target_matvec_band)(t, a, lda, r, c, xr, xc, by_rows, by_columns);
}

bool blocks_transposed(DType t, const char* a, const char* b, int64_t lda, int64_t r, int64_t c) {
  return HWY_DYNAMIC_DISPATCH(target_blocks_transposed)(t, a, b, lda, r, c);
}

void add_block_sums(DType t, char* y, int64_t ys, const char* const* sums, int64_t blocks, int64_t n) {
  HWY_DYNAMIC_DISPATCH(target_add_block_sums)(t, y, ys, sums, blocks, n);
}

const char* contiguous_vector(DType t, const char* x, int64_t stride, int64_t n, std::vector<char>& buf) {
  if (stride == 1 || n <= 1) return x;
  buf.resize(static_cast<size_t>(n * itemsize(t)));
  cast_loop(t, t)(buf.data(), x, stride, n);
  return buf.data();
}

}  // namespace tessera::detail
#endif  // HWY_ONCE
