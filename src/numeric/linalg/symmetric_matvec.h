// Products of a large symmetric matrix by vectors, reading half of the matrix.
//
// An iterative solver (conjugate gradient, Lanczos, power iteration) multiplies one large
// matrix by a vector again and again; each product reads the whole matrix from memory, so
// memory speed bounds it. Most such matrices are symmetric. When the same values of a
// square float matrix are multiplied a second time, that product reads the matrix by blocks
// and compares each block A[I,J] with the transpose of A[J,I] as it goes, bit for bit (the
// comparisons stop at the first difference, the product does not). Once it has found the
// matrix symmetric, and while nothing writes the matrix, products read each block A[I,J]
// with I <= J only: by rows it gives row band I's sums over column block J, and by columns
// row band J's sums over column block I. A second operation adds each row's block sums in
// order.
//
// matvec_kernels.h sums every product in one order, whichever way the matrix is read, so
// these products have the bits of the ordinary ones: the result does not depend on when the
// check finished. One rank only: ranks hold row bands and would need each other's blocks.
#pragma once

#include "tessera/ndarray.h"

namespace tessera::detail {

/// c (m, 1) = a (m, m) · b (m, 1), issued as a half read of `a` when `a` is known to be
/// symmetric with its current values, or as the product that checks it (the second with the
/// same values); true when issued. False: the caller issues the ordinary product.
bool issue_symmetric_matvec(const ndarray& c, const ndarray& a, const ndarray& b);

}  // namespace tessera::detail
