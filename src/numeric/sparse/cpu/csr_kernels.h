// The CSR kernels on the cpu: what a point of a CSR operation (csr.cc, which cuts the rows
// and states the constraints) computes on its memory — rows [lo, hi) of the result, each
// row in the order of its stored values, so no result depends on the tiling. Index arrays
// are int32 or int64; values any dtype.
#pragma once

#include <cstdint>

#include "data/store.h"

namespace tessera::detail {

/// A CSR matrix's three arrays: row offsets, column indices and values.
struct CsrArrays {
  const Store& indptr;
  const Store& indices;
  const Store& data;
};

/// Rows [lo, hi) of y = A @ x (y and x 1-D, or rows × k and columns × k).
void csr_matvec_rows(const Store& y, const CsrArrays& a, const Store& x, int64_t lo, int64_t hi);
/// For blocks [lo, hi) of `block` rows, the [start, stop) range of their column indices into
/// out (blocks × 2), (0, 0) for a block with no stored value.
void csr_column_ranges_blocks(const Store& out, const Store& indptr, const Store& indices, int64_t block, int64_t lo,
                              int64_t hi);
/// Rows [lo, hi) of A as dense rows of out (rows × ncols).
void csr_todense_rows(const Store& out, const CsrArrays& a, int64_t lo, int64_t hi);
/// out[r] = sum of data[indptr[r]:indptr[r + 1]] for r in [lo, hi).
void segment_sum_rows(const Store& out, const Store& indptr, const Store& data, int64_t lo, int64_t hi);
/// out[i] = src[idx[i]] for i in [lo, hi).
void take_range(const Store& out, const Store& idx, const Store& src, int64_t lo, int64_t hi);
/// The first pass of C = A @ B (B with `ncols` columns): counts[r] = how many values row r
/// of C has, for r in [lo, hi).
void csr_matmat_count_rows(const Store& counts, const CsrArrays& a, const CsrArrays& b, int64_t ncols, int64_t lo,
                           int64_t hi);
/// The second pass: rows [lo, hi) of C into c_indices and c_data, row r from the offset
/// pairs[r, 0] on, its columns in increasing order.
void csr_matmat_fill_rows(const Store& pairs, const Store& c_indices, const Store& c_data, const CsrArrays& a,
                          const CsrArrays& b, int64_t ncols, int64_t lo, int64_t hi);

}  // namespace tessera::detail
