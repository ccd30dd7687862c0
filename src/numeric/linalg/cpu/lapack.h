// Typed LAPACK calls for the two types the factorizations compute in, as NumPy's do:
// double for real inputs (float32, integers and bool are converted first) and
// complex<double> for complex ones. Matrices are column-major; each call queries and
// allocates its own workspace and returns LAPACK's `info`.
#pragma once

#include <complex>

namespace tessera::detail::lapack {

using cdouble = std::complex<double>;

int gesv(int n, int nrhs, double* a, int lda, int* ipiv, double* b, int ldb);
int gesv(int n, int nrhs, cdouble* a, int lda, int* ipiv, cdouble* b, int ldb);
int getrf(int m, int n, double* a, int lda, int* ipiv);
int getrf(int m, int n, cdouble* a, int lda, int* ipiv);
/// Row interchanges ipiv[k1 - 1 .. k2 - 1] (1-based, as getrf gives them) applied in order to
/// the n columns of `a`.
int laswp(int n, double* a, int lda, int k1, int k2, const int* ipiv);
int laswp(int n, cdouble* a, int lda, int k1, int k2, const int* ipiv);
int potrf(char uplo, int n, double* a, int lda);
int potrf(char uplo, int n, cdouble* a, int lda);
int geqrf(int m, int n, double* a, int lda, double* tau);
int geqrf(int m, int n, cdouble* a, int lda, cdouble* tau);
/// Q's first `n` columns from geqrf's `k` reflectors (orgqr, or ungqr for complex).
int orgqr(int m, int n, int k, double* a, int lda, const double* tau);
int orgqr(int m, int n, int k, cdouble* a, int lda, const cdouble* tau);
int gesdd(char jobz, int m, int n, double* a, int lda, double* s, double* u, int ldu, double* vt, int ldvt);
int gesdd(char jobz, int m, int n, cdouble* a, int lda, double* s, cdouble* u, int ldu, cdouble* vt, int ldvt);
/// Eigenvalues `w` and, when `v` is not null, right eigenvectors (n × n, ld n) of a general
/// matrix; for a real one, conjugate pairs are unpacked into complex vectors as NumPy does.
int geev(int n, double* a, int lda, cdouble* w, cdouble* v);
int geev(int n, cdouble* a, int lda, cdouble* w, cdouble* v);
/// Eigenvalues (ascending) and, with jobz 'V', eigenvectors in `a` of a symmetric / Hermitian
/// matrix read from its `uplo` triangle (syevd / heevd).
int heevd(char jobz, char uplo, int n, double* a, int lda, double* w);
int heevd(char jobz, char uplo, int n, cdouble* a, int lda, double* w);
int gelsd(int m, int n, int nrhs, double* a, int lda, double* b, int ldb, double* s, double rcond, int* rank);
int gelsd(int m, int n, int nrhs, cdouble* a, int lda, cdouble* b, int ldb, double* s, double rcond, int* rank);

}  // namespace tessera::detail::lapack
