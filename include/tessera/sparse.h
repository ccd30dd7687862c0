// Compressed sparse row (CSR) kernels: a matrix is three 1-D arrays — `indptr` (rows + 1
// offsets), `indices` (the column of each stored value) and `data` (the values). Each
// kernel is one operation cut by row blocks: the output's rows, indptr's rows bloated by one,
// indices and data the image of those offsets, a dense operand the image of the columns.
#pragma once

#include "tessera/ndarray.h"

namespace tessera {

/// y = A @ x for a CSR matrix A of `ncols` columns and a 1-D or 2-D x (ncols rows); each row
/// summed in order of its stored values, so the result does not depend on the tiling.
ndarray csr_matvec(const ndarray& indptr, const ndarray& indices, const ndarray& data, const ndarray& x);
/// The same product cut by blocks of `block` rows, a 1-D x following the image of `ranges`
/// (csr_column_ranges of the matrix for that block; without them, or for a 2-D x, x is read whole).
ndarray csr_matvec(const ndarray& indptr, const ndarray& indices, const ndarray& data, const ndarray& x,
                   const ndarray& ranges, int64_t block);
/// The [start, stop) range of the column indices of each block of `block` rows of a CSR
/// matrix ((0, 0) for a block with no stored value): an int64 (ceil(rows / block), 2) array,
/// computed once per matrix so that products move only the entries of x a block reads.
ndarray csr_column_ranges(const ndarray& indptr, const ndarray& indices, int64_t block);
/// The dense (rows, ncols) array of a CSR matrix (duplicates summed in order).
ndarray csr_todense(const ndarray& indptr, const ndarray& indices, const ndarray& data, int64_t ncols);
/// out[i] = sum of data[indptr[i]:indptr[i + 1]] in order (0 for an empty range).
ndarray segment_sum(const ndarray& indptr, const ndarray& data);
/// out[i] = src[idx[i]] for a 1-D `src` and integer `idx` (indices checked: IndexError).
ndarray take1d(const ndarray& src, const ndarray& idx);
/// C = A @ B for CSR A (rows of A) and CSR B (`ncols` columns): C's indptr, indices (int64,
/// sorted in each row) and data; values summed in order of A's then B's stored values.
std::vector<ndarray> csr_matmat(const ndarray& a_indptr, const ndarray& a_indices, const ndarray& a_data,
                                const ndarray& b_indptr, const ndarray& b_indices, const ndarray& b_data,
                                int64_t ncols);

}  // namespace tessera
