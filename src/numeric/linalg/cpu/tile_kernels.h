// The BLAS and LAPACK calls of the tiled factorizations (tile_factorizations.h), each on blocks
// of one matrix, single-threaded on the worker that runs it. A `Block` is row-major or
// column-major; the Cholesky calls take either (cblas is told the order; LAPACK's potrf,
// which is column-major, reads a row-major block's lower triangle as its upper one), the
// LU calls take the factored matrix column-major. T is double or complex<double>.
#pragma once

#include <cstdint>

namespace tessera::detail::tile {

/// A rows × cols block whose rows (row-major) or columns (column-major) are `ld` apart.
template <class T>
struct Block {
  T* ptr;
  int rows, cols, ld;
  bool row_major;
};

/// The lower Cholesky factor of the square block `a` (from its lower triangle), in place,
/// with its strict upper triangle zeroed. LAPACK's info: > 0 when not positive definite.
template <class T>
int potrf_lower(const Block<T>& a);
/// b := b · l^-H, for the lower triangular l.
template <class T>
void trsm_right_lower_conj(const Block<T>& l, const Block<T>& b);
/// The lower triangle of c := c - a · a^H.
template <class T>
void herk_lower_minus(const Block<T>& a, const Block<T>& c);
/// c := c - a · b^H.
template <class T>
void gemm_minus_conj(const Block<T>& a, const Block<T>& b, const Block<T>& c);

/// to := from^T, for the row-major `to` (from.cols × from.rows) and `from` in either order.
template <class T>
void transpose(const Block<T>& from, const Block<T>& to);
/// Sets every element of `a` to zero.
template <class T>
void zero(const Block<T>& a);

/// LU with partial pivoting of the (tall) column-major panel `a` in place; ipiv[i] is the
/// panel row (1-based) swapped with row i + 1. LAPACK's info: > 0 for a zero pivot.
template <class T>
int getrf(const Block<T>& a, int* ipiv);
/// The row interchanges ipiv[0 .. count) (1-based rows of `a`), in order, on column-major `a`.
template <class T>
void laswp(const Block<T>& a, const int* ipiv, int count);
/// b := l^-1 · b, for the unit lower triangle of l (column-major both).
template <class T>
void trsm_left_unit_lower(const Block<T>& l, const Block<T>& b);
/// c := c - a · b (column-major all).
template <class T>
void gemm_minus(const Block<T>& a, const Block<T>& b, const Block<T>& c);
/// x := U^-1 · L^-1 · x for the factors `lu` of getrf (column-major; the rows of x already
/// permuted) and the row-major right-hand sides x.
template <class T>
void lu_solve(const Block<T>& lu, const Block<T>& x);

}  // namespace tessera::detail::tile
