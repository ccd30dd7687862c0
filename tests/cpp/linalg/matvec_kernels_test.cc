// The matrix-vector kernels: one summation order by rows, by columns and by bands read once,
// on sizes around the block and vector widths, against a plain loop in that order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "numeric/linalg/cpu/matvec_kernels.h"

namespace tessera::detail {
namespace {

// The order of matvec_kernels.h, written plainly: partial sums k mod W per block of
// kMatvecBlock columns, added pairwise, the blocks in order.
template <class T>
T reference_sum(const T* row, int64_t stride, const T* x, int64_t n) {
  constexpr int W = 32 / sizeof(T);
  T total = 0;
  for (int64_t k0 = 0; k0 < n; k0 += kMatvecBlock) {
    T s[W] = {};
    for (int64_t k = k0; k < std::min(n, k0 + kMatvecBlock); ++k)
      s[(k - k0) % W] = s[(k - k0) % W] + row[k * stride] * x[k];
    T b;
    if constexpr (W == 4) {
      b = (s[0] + s[1]) + (s[2] + s[3]);
    } else {
      b = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    }
    total = k0 == 0 ? b : total + b;
  }
  return total;
}

template <class T>
std::vector<T> values(int64_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::normal_distribution<double> d;
  std::vector<T> v(static_cast<size_t>(n));
  for (T& e : v) e = static_cast<T>(d(g));
  return v;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
void check_rows_and_columns(DType t) {
  for (int64_t rows : {1, 2, 5, 9, 300, 513}) {
    for (int64_t cols : {1, 3, 4, 7, 8, 255, 256, 257, 600}) {
      const auto a = values<T>(rows * cols, 1), x = values<T>(cols, 2);
      std::vector<T> at(static_cast<size_t>(rows * cols));  // the same matrix stored by columns
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t k = 0; k < cols; ++k) at[k * rows + i] = a[i * cols + k];
      std::vector<T> by_rows(rows), by_columns(rows);
      matvec_rows(t, reinterpret_cast<char*>(by_rows.data()), 1, reinterpret_cast<const char*>(a.data()), cols,
                  reinterpret_cast<const char*>(x.data()), rows, cols);
      matvec_columns(t, reinterpret_cast<char*>(by_columns.data()), 1, reinterpret_cast<const char*>(at.data()), rows,
                     reinterpret_cast<const char*>(x.data()), rows, cols);
      for (int64_t i = 0; i < rows; ++i) {
        const T want = reference_sum(a.data() + i * cols, 1, x.data(), cols);
        ASSERT_TRUE(same_bits(by_rows[i], want)) << rows << "x" << cols << " row " << i;
        ASSERT_TRUE(same_bits(by_columns[i], want)) << rows << "x" << cols << " row " << i;
      }
    }
  }
}

TEST(MatvecKernels, RowsAndColumnsSumInOneOrder) {
  check_rows_and_columns<double>(DType::Float64);
  check_rows_and_columns<float>(DType::Float32);
}

template <class T>
void check_band(DType t) {
  // A band of r rows over c columns of a wider matrix: its row sums per block, and its column
  // sums per block (the sums the transposed blocks would give by rows).
  for (int64_t r : {1, 3, 4, 8, 100, 256}) {
    for (int64_t c : {1, 7, 256, 300, 1030}) {
      const int64_t lda = c + 5;
      const auto a = values<T>(r * lda, 3), xr = values<T>(r, 4), xc = values<T>(c, 5);
      const int64_t blocks = (c + kMatvecBlock - 1) / kMatvecBlock;
      std::vector<std::vector<T>> rows_out(blocks, std::vector<T>(r)), cols_out(blocks, std::vector<T>(kMatvecBlock));
      std::vector<char*> by_rows, by_columns;
      for (int64_t q = 0; q < blocks; ++q) {
        by_rows.push_back(reinterpret_cast<char*>(rows_out[q].data()));
        by_columns.push_back(q == 1 ? nullptr : reinterpret_cast<char*>(cols_out[q].data()));  // one block without
      }
      matvec_band(t, reinterpret_cast<const char*>(a.data()), lda, r, c, reinterpret_cast<const char*>(xr.data()),
                  reinterpret_cast<const char*>(xc.data()), by_rows.data(), by_columns.data());
      for (int64_t q = 0; q < blocks; ++q) {
        const int64_t j0 = q * kMatvecBlock, n = std::min(kMatvecBlock, c - j0);
        for (int64_t i = 0; i < r; ++i)
          ASSERT_TRUE(same_bits(rows_out[q][i], reference_sum(a.data() + i * lda + j0, 1, xc.data() + j0, n)))
              << r << "x" << c << " block " << q << " row " << i;
        if (q == 1) continue;
        for (int64_t j = 0; j < n; ++j)
          ASSERT_TRUE(same_bits(cols_out[q][j], reference_sum(a.data() + j0 + j, lda, xr.data(), r)))
              << r << "x" << c << " block " << q << " column " << j;
      }
    }
  }
}

TEST(MatvecKernels, BandsGiveRowAndColumnSumsInOneOrder) {
  check_band<double>(DType::Float64);
  check_band<float>(DType::Float32);
}

TEST(MatvecKernels, TransposedBlocksCompareBits) {
  const int64_t n = 40;
  auto a = values<double>(n * n, 6);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < i; ++j) a[i * n + j] = a[j * n + i];
  const char* p = reinterpret_cast<const char*>(a.data());
  EXPECT_TRUE(blocks_transposed(DType::Float64, p, p, n, n, n));
  // Block (rows 0-9, columns 20-34) against block (rows 20-34, columns 0-9).
  EXPECT_TRUE(blocks_transposed(DType::Float64, p + 20 * 8, p + 20 * n * 8, n, 10, 15));
  a[3 * n + 25] = -a[3 * n + 25];
  EXPECT_FALSE(blocks_transposed(DType::Float64, p + 20 * 8, p + 20 * n * 8, n, 10, 15));
  a[3 * n + 25] = -a[3 * n + 25];
  a[5 * n + 5] = 0.0;  // the diagonal compares with itself
  EXPECT_TRUE(blocks_transposed(DType::Float64, p, p, n, n, n));
  a[7 * n + 1] = 0.0;
  a[1 * n + 7] = -0.0;  // equal values, other bits: a product could differ in the sign of a zero
  EXPECT_FALSE(blocks_transposed(DType::Float64, p, p, n, n, n));
}

}  // namespace
}  // namespace tessera::detail
