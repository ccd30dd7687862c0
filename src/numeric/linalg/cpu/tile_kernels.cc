#include "numeric/linalg/cpu/tile_kernels.h"

#include <cblas.h>

#include <algorithm>
#include <complex>

#include "numeric/linalg/cpu/blas.h"
#include "numeric/linalg/cpu/lapack.h"
#include "tessera/errors.h"

namespace tessera::detail::tile {
namespace {

using lapack::cdouble;

CBLAS_ORDER order(const Block<double>& b) { return b.row_major ? CblasRowMajor : CblasColMajor; }
CBLAS_ORDER order(const Block<cdouble>& b) { return b.row_major ? CblasRowMajor : CblasColMajor; }

template <class T>
void same_order(const Block<T>& a, const Block<T>& b) {
  TESSERA_CHECK(a.row_major == b.row_major, "tile kernel on blocks of different orders");
}

template <class T>
void column_major(const Block<T>& a) {
  TESSERA_CHECK(!a.row_major, "LU tile kernel on a row-major block");
}

void trsm(CBLAS_ORDER o, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE tr, CBLAS_DIAG diag, int m, int n,
          const double* a, int lda, double* b, int ldb) {
  cblas_dtrsm(o, side, uplo, tr, diag, m, n, 1.0, a, lda, b, ldb);
}
void trsm(CBLAS_ORDER o, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE tr, CBLAS_DIAG diag, int m, int n,
          const cdouble* a, int lda, cdouble* b, int ldb) {
  const cdouble one(1);
  cblas_ztrsm(o, side, uplo, tr, diag, m, n, &one, a, lda, b, ldb);
}

// c := c - op(a) · op(b)
void gemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const double* a, int lda,
          const double* b, int ldb, double* c, int ldc) {
  cblas_dgemm(o, ta, tb, m, n, k, -1.0, a, lda, b, ldb, 1.0, c, ldc);
}
void gemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const cdouble* a, int lda,
          const cdouble* b, int ldb, cdouble* c, int ldc) {
  const cdouble minus_one(-1), one(1);
  cblas_zgemm(o, ta, tb, m, n, k, &minus_one, a, lda, b, ldb, &one, c, ldc);
}

// The lower triangle of c := c - a · a^H.
void herk(CBLAS_ORDER o, int n, int k, const double* a, int lda, double* c, int ldc) {
  cblas_dsyrk(o, CblasLower, CblasNoTrans, n, k, -1.0, a, lda, 1.0, c, ldc);
}
void herk(CBLAS_ORDER o, int n, int k, const cdouble* a, int lda, cdouble* c, int ldc) {
  cblas_zherk(o, CblasLower, CblasNoTrans, n, k, -1.0, a, lda, 1.0, c, ldc);
}

// b := op(a) (OpenBLAS's out-of-place copy and transpose).
void omatcopy(CBLAS_TRANSPOSE tr, int rows, int cols, const double* a, int lda, double* b, int ldb) {
  cblas_domatcopy(CblasRowMajor, tr, rows, cols, 1.0, a, lda, b, ldb);
}
void omatcopy(CBLAS_TRANSPOSE tr, int rows, int cols, const cdouble* a, int lda, cdouble* b, int ldb) {
  const double one[2] = {1, 0};
  cblas_zomatcopy(CblasRowMajor, tr, rows, cols, one, reinterpret_cast<const double*>(a), lda,
                  reinterpret_cast<double*>(b), ldb);
}

}  // namespace

template <class T>
void transpose(const Block<T>& from, const Block<T>& to) {
  TESSERA_CHECK(to.row_major, "transpose into a column-major block");
  if (from.rows == 0 || from.cols == 0) return;
  // A column-major block is the row-major one of its transpose: then a plain copy.
  if (from.row_major) omatcopy(CblasTrans, from.rows, from.cols, from.ptr, from.ld, to.ptr, to.ld);
  else omatcopy(CblasNoTrans, from.cols, from.rows, from.ptr, from.ld, to.ptr, to.ld);
}

template <class T>
int potrf_lower(const Block<T>& a) {
  blas_single_threaded();
  // A row-major block X read column-major is X^T, whose upper triangle is X's lower one:
  // potrf('U') leaves U with X^T = U^H U there, and U^T, what a row-major read sees, is
  // lower with U^T (U^T)^H = conj(X^T) = X.
  const int info = lapack::potrf(a.row_major ? 'U' : 'L', a.rows, a.ptr, a.ld);
  for (int i = 0; i < a.rows; ++i)
    for (int j = i + 1; j < a.cols; ++j)
      (a.row_major ? a.ptr[static_cast<int64_t>(i) * a.ld + j] : a.ptr[i + static_cast<int64_t>(j) * a.ld]) = T(0);
  return info;
}

template <class T>
void trsm_right_lower_conj(const Block<T>& l, const Block<T>& b) {
  same_order(l, b);
  blas_single_threaded();
  trsm(order(b), CblasRight, CblasLower, CblasConjTrans, CblasNonUnit, b.rows, b.cols, l.ptr, l.ld, b.ptr, b.ld);
}

template <class T>
void herk_lower_minus(const Block<T>& a, const Block<T>& c) {
  same_order(a, c);
  blas_single_threaded();
  herk(order(c), c.rows, a.cols, a.ptr, a.ld, c.ptr, c.ld);
}

template <class T>
void gemm_minus_conj(const Block<T>& a, const Block<T>& b, const Block<T>& c) {
  same_order(a, c);
  same_order(b, c);
  blas_single_threaded();
  gemm(order(c), CblasNoTrans, CblasConjTrans, c.rows, c.cols, a.cols, a.ptr, a.ld, b.ptr, b.ld, c.ptr, c.ld);
}

template <class T>
void zero(const Block<T>& a) {
  const int lines = a.row_major ? a.rows : a.cols, length = a.row_major ? a.cols : a.rows;
  for (int i = 0; i < lines; ++i) {
    T* line = a.ptr + static_cast<int64_t>(i) * a.ld;
    std::fill(line, line + length, T(0));
  }
}

template <class T>
int getrf(const Block<T>& a, int* ipiv) {
  column_major(a);
  blas_single_threaded();
  return lapack::getrf(a.rows, a.cols, a.ptr, a.ld, ipiv);
}

template <class T>
void laswp(const Block<T>& a, const int* ipiv, int count) {
  column_major(a);
  if (count == 0 || a.cols == 0) return;
  // laswp reads ipiv[k1 - 1 .. k2 - 1]: the rows are those of `a` when k1 = 1.
  lapack::laswp(a.cols, a.ptr, a.ld, 1, count, ipiv);
}

template <class T>
void trsm_left_unit_lower(const Block<T>& l, const Block<T>& b) {
  column_major(l);
  column_major(b);
  blas_single_threaded();
  trsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, b.rows, b.cols, l.ptr, l.ld, b.ptr, b.ld);
}

template <class T>
void gemm_minus(const Block<T>& a, const Block<T>& b, const Block<T>& c) {
  column_major(a);
  column_major(b);
  column_major(c);
  blas_single_threaded();
  gemm(CblasColMajor, CblasNoTrans, CblasNoTrans, c.rows, c.cols, a.cols, a.ptr, a.ld, b.ptr, b.ld, c.ptr, c.ld);
}

template <class T>
void lu_solve(const Block<T>& lu, const Block<T>& x) {
  column_major(lu);
  TESSERA_CHECK(x.row_major, "LU solve on column-major right-hand sides");
  blas_single_threaded();
  // Read column-major, the row-major x is x^T: L U x = b is x^T U^T L^T = b^T, two solves on the right.
  const int n = x.rows, k = x.cols;
  if (n == 0 || k == 0) return;
  trsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasUnit, k, n, lu.ptr, lu.ld, x.ptr, x.ld);
  trsm(CblasColMajor, CblasRight, CblasUpper, CblasTrans, CblasNonUnit, k, n, lu.ptr, lu.ld, x.ptr, x.ld);
}

#define TESSERA_TILE_KERNELS(T)                                                     \
  template int potrf_lower(const Block<T>&);                                        \
  template void trsm_right_lower_conj(const Block<T>&, const Block<T>&);            \
  template void herk_lower_minus(const Block<T>&, const Block<T>&);                 \
  template void gemm_minus_conj(const Block<T>&, const Block<T>&, const Block<T>&); \
  template void transpose(const Block<T>&, const Block<T>&);                        \
  template void zero(const Block<T>&);                                              \
  template int getrf(const Block<T>&, int*);                                        \
  template void laswp(const Block<T>&, const int*, int);                            \
  template void trsm_left_unit_lower(const Block<T>&, const Block<T>&);             \
  template void gemm_minus(const Block<T>&, const Block<T>&, const Block<T>&);      \
  template void lu_solve(const Block<T>&, const Block<T>&);
TESSERA_TILE_KERNELS(double)
TESSERA_TILE_KERNELS(cdouble)
#undef TESSERA_TILE_KERNELS

}  // namespace tessera::detail::tile
