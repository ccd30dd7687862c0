// The CSR kernels on the cpu: what a point of a CSR task (csr.cc, which cuts the rows and
// states the constraints) computes on its tiles — rows [lo, hi) of the result, each
// row in the order of its stored values, so no result depends on the tiling. Index arrays
// are int32 or int64; values any dtype.
#pragma once

#include <cstdint>

#include "tessera/task.h"

namespace tessera::detail {

/// A point's tile of an argument, indexed by the whole array's indices (the kernels work with
/// rows, offsets and columns of the whole matrix). Only the tile's elements may be touched.
class Indexed {
 public:
  explicit Indexed(const Tile& tile);
  DType dtype() const { return dtype_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  /// The whole array's shape, and its strides in elements.
  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }
  /// Element `idx` of the whole array (inside the tile).
  char* ptr(const Shape& idx) const {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides_[d];
    return base_ + off * itemsize(dtype_);
  }

 private:
  char* base_;  // where element (0, ..., 0) would be; null for an empty tile
  DType dtype_;
  Shape shape_, strides_;
};

/// A CSR matrix's three arrays: row offsets, column indices and values.
struct CsrArrays {
  const Indexed& indptr;
  const Indexed& indices;
  const Indexed& data;
};

/// Rows [lo, hi) of y = A @ x (y and x 1-D, or rows × k and columns × k).
void csr_matvec_rows(const Indexed& y, const CsrArrays& a, const Indexed& x, int64_t lo, int64_t hi);
/// For blocks [lo, hi) of `block` rows, the [start, stop) range of their column indices into
/// out (blocks × 2), (0, 0) for a block with no stored value.
void csr_column_ranges_blocks(const Indexed& out, const Indexed& indptr, const Indexed& indices, int64_t block,
                              int64_t lo, int64_t hi);
/// Rows [lo, hi) of A as dense rows of out (rows × ncols).
void csr_todense_rows(const Indexed& out, const CsrArrays& a, int64_t lo, int64_t hi);
/// out[r] = sum of data[indptr[r]:indptr[r + 1]] for r in [lo, hi).
void segment_sum_rows(const Indexed& out, const Indexed& indptr, const Indexed& data, int64_t lo, int64_t hi);
/// out[i] = src[idx[i]] for i in [lo, hi).
void take_range(const Indexed& out, const Indexed& idx, const Indexed& src, int64_t lo, int64_t hi);
/// The first pass of C = A @ B (B with `ncols` columns): counts[r] = how many values row r
/// of C has, for r in [lo, hi).
void csr_matmat_count_rows(const Indexed& counts, const CsrArrays& a, const CsrArrays& b, int64_t ncols, int64_t lo,
                           int64_t hi);
/// The second pass: rows [lo, hi) of C into c_indices and c_data, row r from the offset
/// pairs[r, 0] on, its columns in increasing order.
void csr_matmat_fill_rows(const Indexed& pairs, const Indexed& c_indices, const Indexed& c_data, const CsrArrays& a,
                          const CsrArrays& b, int64_t ncols, int64_t lo, int64_t hi);

}  // namespace tessera::detail
