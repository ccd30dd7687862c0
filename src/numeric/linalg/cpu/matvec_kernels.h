// Matrix-vector kernels with one summation order, whichever way the matrix is read.
//
// y[i] = Σ_k A[i,k] x[k] is summed the same way by every kernel here: the columns are cut
// into blocks of kMatvecBlock from column 0; in a block, products with k ≡ l (mod W) (W =
// 32 bytes of elements: 4 doubles, 8 floats) are added in order of k into partial sum l,
// starting from +0; the W partial sums are added pairwise ((s0 + s1) + (s2 + s3) for W = 4);
// and the blocks' sums are added in order, starting from the first. No fused multiply-add.
//
// So a product has the same bits whether A is read by rows or by columns, on any target,
// for any tiling of the rows. A symmetric A can then be read half: the block A[I,J] (I < J)
// gives row band I's sums over column block J by rows and, read as columns, row band J's
// sums over column block I, bitwise what A[J,I] would give by rows.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/dtype.h"

namespace tessera::detail {

/// The width of the column blocks whose sums are added in order.
inline constexpr int64_t kMatvecBlock = 256;

/// Whether the kernels serve dtype `t` (float32 and float64).
bool matvec_dtype(DType t);

/// y[i * ys] = Σ_k A[i,k] x[k] for i < rows, A[i,k] at a + i * lda + k (elements of `t`),
/// x contiguous, cols ≥ 1.
void matvec_rows(DType t, char* y, int64_t ys, const char* a, int64_t lda, const char* x, int64_t rows, int64_t cols);

/// The same, A[i,k] at a + k * lda + i (a matrix stored by columns).
void matvec_columns(DType t, char* y, int64_t ys, const char* a, int64_t lda, const char* x, int64_t rows,
                    int64_t cols);

/// A band of a matrix (r ≤ kMatvecBlock rows lda apart, c columns cut into blocks of
/// kMatvecBlock from its first) read once, row by row: for each block q, by_rows[q][i] = the
/// block sum of row i with `xc` (c elements) and, when by_columns[q] is not null,
/// by_columns[q][j] = the block sum of the block's column j with `xr` (r elements).
void matvec_band(DType t, const char* a, int64_t lda, int64_t r, int64_t c, const char* xr, const char* xc,
                 char* const* by_rows, char* const* by_columns);

/// y[i * ys] = sums[0][i] + sums[1][i] + ... + sums[blocks - 1][i], in that order, for i < n:
/// a row's block sums (each from any of the kernels above) added as the kernels add them.
void add_block_sums(DType t, char* y, int64_t ys, const char* const* sums, int64_t blocks, int64_t n);

/// The n elements of `t` at x, `stride` elements apart, as contiguous memory: x itself when
/// they are, else a copy in `buf`.
const char* contiguous_vector(DType t, const char* x, int64_t stride, int64_t n, std::vector<char>& buf);

/// Whether the r × c block at `a` equals, bit for bit, the transpose of the c × r block at
/// `b` (both with rows lda apart).
bool blocks_transposed(DType t, const char* a, const char* b, int64_t lda, int64_t r, int64_t c);

}  // namespace tessera::detail
