// The routines a batched launch (batched_op.h) runs on each matrix of a stack: LAPACK's factorizations,
// with NumPy's outputs and errors. `t` is the type computed in (Float64 or Complex128);
// real outputs (singular values, eigenvalues of Hermitian matrices, log-determinants) are
// Float64. The arguments each kernel takes are listed beside it.
#pragma once

#include "numeric/linalg/batched_op.h"
#include "tessera/dtype.h"

namespace tessera::detail {

/// [a (n, n), b (n, k), x (n, k)]: gesv; LinAlgError "Singular matrix".
MatrixKernel solve_kernel(DType t);
/// [a (n, n), inverse (n, n)]: gesv on the identity; a singular matrix raises "Singular
/// matrix", or when `raise` is false gives an inverse of NaNs (what NumPy's cond uses).
MatrixKernel inv_kernel(DType t, bool raise);
/// [a, sign, logdet (real)] when `log`, else [a, det]: getrf, as NumPy (det = sign * exp(logdet)).
MatrixKernel det_kernel(DType t, bool log);
/// [a, factor]: potrf, the other triangle zeroed; LinAlgError "Matrix is not positive definite".
MatrixKernel cholesky_kernel(DType t, bool upper);

enum class QrMode { Reduced, Complete, R, Raw };
/// geqrf, then orgqr/ungqr for Q. Reduced and complete: [a, q (m, mc), r (mc, n)];
/// r: [a, r (k, n)]; raw: [a, h (n, m), tau (k)].
MatrixKernel qr_kernel(DType t, QrMode mode);
/// gesdd with jobz 'A' or 'S': [a, u, s, vh]; jobz 'N': [a, s]. With `hermitian`, from the
/// eigen-decomposition of the lower triangle as NumPy does (singular values are |eigenvalues|,
/// sorted descending, the signs moved into vh). LinAlgError "SVD did not converge".
MatrixKernel svd_kernel(DType t, char jobz, bool hermitian);
/// [a, w, v] (or [a, w] without vectors), both Complex128: geev. LinAlgError for non-finite
/// entries ("Array must not contain infs or NaNs") and "Eigenvalues did not converge".
MatrixKernel eig_kernel(DType t, bool vectors);
/// [a, w (real), v] (or [a, w]): syevd / heevd on the `uplo` triangle.
MatrixKernel eigh_kernel(DType t, char uplo, bool vectors);
/// [a (m, n), b (m, k), x (n, k), residuals (k, real), rank (Int32), s (min(m, n), real)]: gelsd.
MatrixKernel lstsq_kernel(DType t, double rcond);

}  // namespace tessera::detail
