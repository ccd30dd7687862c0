// Kernels of the products on one tile: OpenBLAS (cblas) for the float and complex
// dtypes, plain loops for the integer and boolean dtypes, which BLAS does not cover.
// Each call runs on one worker thread; OpenBLAS is kept single-threaded because
// tessera parallelises over tiles.
#pragma once

#include <cstdint>
#include <optional>

#include "tessera/dtype.h"

namespace tessera::detail {

/// A strided 2-D block: element (i, j) is at ptr + (i * rs + j * cs) * itemsize (strides in elements).
struct MatrixRef {
  char* ptr;
  int64_t rows, cols, rs, cs;
};

/// How BLAS reads a matrix: row-major (`trans` false, rows `ld` elements apart) or
/// column-major (`trans` true, columns `ld` apart).
struct BlasLayout {
  bool trans;
  int64_t ld;
};

/// The BLAS layout of a rows × cols matrix with strides (rs, cs), if it has one.
std::optional<BlasLayout> blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs);
/// True for the dtypes BLAS computes (float32/64, complex64/128).
bool is_blas_dtype(DType t);
/// Sets OpenBLAS to one thread, once per process.
void blas_single_threaded();

/// c = a · b for one block (a: m × k, b: k × n, c: m × n), all of dtype `t`. For BLAS dtypes `a`
/// and `b` need a BLAS layout and `c` must be row-major; the loops take any strides.
void matmul_block(DType t, const MatrixRef& a, const MatrixRef& b, const MatrixRef& c);
/// *out = Σ x[i * sx] · y[i * sy] over n elements of dtype `t`, conjugating x when `conj`
/// (or any(x & y) for bool). Strides in elements; BLAS dtypes need positive strides.
void dot_block(DType t, const char* x, int64_t sx, const char* y, int64_t sy, int64_t n, bool conj, void* out);

}  // namespace tessera::detail
