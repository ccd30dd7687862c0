#include "numeric/linalg/cpu/lapack.h"

#include <lapacke.h>

#include <algorithm>
#include <type_traits>
#include <vector>

namespace tessera::detail::lapack {
namespace {

static_assert(std::is_same_v<lapack_int, int>, "tessera expects LAPACK with 32-bit integers");
static_assert(sizeof(lapack_complex_double) == sizeof(cdouble), "LAPACK's complex is not std::complex");

constexpr int kCol = LAPACK_COL_MAJOR;

lapack_complex_double* z(cdouble* p) { return reinterpret_cast<lapack_complex_double*>(p); }
const lapack_complex_double* z(const cdouble* p) { return reinterpret_cast<const lapack_complex_double*>(p); }

// The workspace size a query returned in its first element.
int size_of(double w) { return std::max(1, static_cast<int>(w)); }
int size_of(const cdouble& w) { return std::max(1, static_cast<int>(w.real())); }

}  // namespace

int gesv(int n, int nrhs, double* a, int lda, int* ipiv, double* b, int ldb) {
  return LAPACKE_dgesv_work(kCol, n, nrhs, a, lda, ipiv, b, ldb);
}
int gesv(int n, int nrhs, cdouble* a, int lda, int* ipiv, cdouble* b, int ldb) {
  return LAPACKE_zgesv_work(kCol, n, nrhs, z(a), lda, ipiv, z(b), ldb);
}

int getrf(int m, int n, double* a, int lda, int* ipiv) { return LAPACKE_dgetrf_work(kCol, m, n, a, lda, ipiv); }
int getrf(int m, int n, cdouble* a, int lda, int* ipiv) { return LAPACKE_zgetrf_work(kCol, m, n, z(a), lda, ipiv); }

int laswp(int n, double* a, int lda, int k1, int k2, const int* ipiv) {
  return LAPACKE_dlaswp_work(kCol, n, a, lda, k1, k2, ipiv, 1);
}
int laswp(int n, cdouble* a, int lda, int k1, int k2, const int* ipiv) {
  return LAPACKE_zlaswp_work(kCol, n, z(a), lda, k1, k2, ipiv, 1);
}

int potrf(char uplo, int n, double* a, int lda) { return LAPACKE_dpotrf_work(kCol, uplo, n, a, lda); }
int potrf(char uplo, int n, cdouble* a, int lda) { return LAPACKE_zpotrf_work(kCol, uplo, n, z(a), lda); }

int geqrf(int m, int n, double* a, int lda, double* tau) {
  double q = 0;
  LAPACKE_dgeqrf_work(kCol, m, n, a, lda, tau, &q, -1);
  std::vector<double> work(size_of(q));
  return LAPACKE_dgeqrf_work(kCol, m, n, a, lda, tau, work.data(), static_cast<int>(work.size()));
}
int geqrf(int m, int n, cdouble* a, int lda, cdouble* tau) {
  cdouble q = 0;
  LAPACKE_zgeqrf_work(kCol, m, n, z(a), lda, z(tau), z(&q), -1);
  std::vector<cdouble> work(size_of(q));
  return LAPACKE_zgeqrf_work(kCol, m, n, z(a), lda, z(tau), z(work.data()), static_cast<int>(work.size()));
}

int orgqr(int m, int n, int k, double* a, int lda, const double* tau) {
  double q = 0;
  LAPACKE_dorgqr_work(kCol, m, n, k, a, lda, tau, &q, -1);
  std::vector<double> work(size_of(q));
  return LAPACKE_dorgqr_work(kCol, m, n, k, a, lda, tau, work.data(), static_cast<int>(work.size()));
}
int orgqr(int m, int n, int k, cdouble* a, int lda, const cdouble* tau) {
  cdouble q = 0;
  LAPACKE_zungqr_work(kCol, m, n, k, z(a), lda, z(tau), z(&q), -1);
  std::vector<cdouble> work(size_of(q));
  return LAPACKE_zungqr_work(kCol, m, n, k, z(a), lda, z(tau), z(work.data()), static_cast<int>(work.size()));
}

int gesdd(char jobz, int m, int n, double* a, int lda, double* s, double* u, int ldu, double* vt, int ldvt) {
  std::vector<int> iwork(static_cast<size_t>(8 * std::max(1, std::min(m, n))));
  double q = 0;
  LAPACKE_dgesdd_work(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, &q, -1, iwork.data());
  std::vector<double> work(size_of(q));
  return LAPACKE_dgesdd_work(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work.data(), static_cast<int>(work.size()),
                             iwork.data());
}
int gesdd(char jobz, int m, int n, cdouble* a, int lda, double* s, cdouble* u, int ldu, cdouble* vt, int ldvt) {
  const int mn = std::min(m, n), mx = std::max(m, n);
  std::vector<int> iwork(static_cast<size_t>(8 * std::max(1, mn)));
  // LAPACK's documented real workspace for each job.
  const size_t lrwork = jobz == 'N' ? 7 * mn : std::max(5 * mn * mn + 5 * mn, 2 * mx * mn + 2 * mn * mn + mn);
  std::vector<double> rwork(std::max<size_t>(1, lrwork));
  cdouble q = 0;
  LAPACKE_zgesdd_work(kCol, jobz, m, n, z(a), lda, s, z(u), ldu, z(vt), ldvt, z(&q), -1, rwork.data(), iwork.data());
  std::vector<cdouble> work(size_of(q));
  return LAPACKE_zgesdd_work(kCol, jobz, m, n, z(a), lda, s, z(u), ldu, z(vt), ldvt, z(work.data()),
                             static_cast<int>(work.size()), rwork.data(), iwork.data());
}

int geev(int n, double* a, int lda, cdouble* w, cdouble* v) {
  const char jobvr = v ? 'V' : 'N';
  const int ldv = std::max(1, n);
  std::vector<double> wr(std::max(1, n)), wi(std::max(1, n)), vr(v ? static_cast<size_t>(ldv) * n : 1);
  double q = 0, dummy = 0;
  LAPACKE_dgeev_work(kCol, 'N', jobvr, n, a, lda, wr.data(), wi.data(), &dummy, 1, vr.data(), ldv, &q, -1);
  std::vector<double> work(size_of(q));
  const int info = LAPACKE_dgeev_work(kCol, 'N', jobvr, n, a, lda, wr.data(), wi.data(), &dummy, 1, vr.data(), ldv,
                                      work.data(), static_cast<int>(work.size()));
  if (info != 0) return info;
  for (int j = 0; j < n; ++j) w[j] = cdouble(wr[j], wi[j]);
  if (!v) return 0;
  // A complex pair (wi[j] > 0) stores its vector's real part in column j and imaginary part
  // in column j + 1; the second of the pair is the conjugate.
  for (int j = 0; j < n; ++j) {
    const double* c = vr.data() + static_cast<size_t>(j) * ldv;
    if (wi[j] != 0 && j + 1 < n) {
      const double* d = c + ldv;
      for (int i = 0; i < n; ++i) {
        v[i + static_cast<size_t>(j) * n] = cdouble(c[i], d[i]);
        v[i + static_cast<size_t>(j + 1) * n] = cdouble(c[i], -d[i]);
      }
      ++j;
    } else {
      for (int i = 0; i < n; ++i) v[i + static_cast<size_t>(j) * n] = cdouble(c[i], 0);
    }
  }
  return 0;
}
int geev(int n, cdouble* a, int lda, cdouble* w, cdouble* v) {
  const char jobvr = v ? 'V' : 'N';
  const int ldv = std::max(1, n);
  std::vector<double> rwork(static_cast<size_t>(std::max(1, 2 * n)));
  cdouble q = 0, dummy = 0, vdummy = 0;
  cdouble* vr = v ? v : &vdummy;
  LAPACKE_zgeev_work(kCol, 'N', jobvr, n, z(a), lda, z(w), z(&dummy), 1, z(vr), ldv, z(&q), -1, rwork.data());
  std::vector<cdouble> work(size_of(q));
  return LAPACKE_zgeev_work(kCol, 'N', jobvr, n, z(a), lda, z(w), z(&dummy), 1, z(vr), ldv, z(work.data()),
                            static_cast<int>(work.size()), rwork.data());
}

int heevd(char jobz, char uplo, int n, double* a, int lda, double* w) {
  double q = 0;
  int iq = 0;
  LAPACKE_dsyevd_work(kCol, jobz, uplo, n, a, lda, w, &q, -1, &iq, -1);
  std::vector<double> work(size_of(q));
  std::vector<int> iwork(std::max(1, iq));
  return LAPACKE_dsyevd_work(kCol, jobz, uplo, n, a, lda, w, work.data(), static_cast<int>(work.size()), iwork.data(),
                             static_cast<int>(iwork.size()));
}
int heevd(char jobz, char uplo, int n, cdouble* a, int lda, double* w) {
  cdouble q = 0;
  double rq = 0;
  int iq = 0;
  LAPACKE_zheevd_work(kCol, jobz, uplo, n, z(a), lda, w, z(&q), -1, &rq, -1, &iq, -1);
  std::vector<cdouble> work(size_of(q));
  std::vector<double> rwork(size_of(rq));
  std::vector<int> iwork(std::max(1, iq));
  return LAPACKE_zheevd_work(kCol, jobz, uplo, n, z(a), lda, w, z(work.data()), static_cast<int>(work.size()),
                             rwork.data(), static_cast<int>(rwork.size()), iwork.data(),
                             static_cast<int>(iwork.size()));
}

int gelsd(int m, int n, int nrhs, double* a, int lda, double* b, int ldb, double* s, double rcond, int* rank) {
  double q = 0;
  int iq = 0;
  LAPACKE_dgelsd_work(kCol, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, &q, -1, &iq);
  std::vector<double> work(size_of(q));
  std::vector<int> iwork(std::max(1, iq));
  return LAPACKE_dgelsd_work(kCol, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work.data(),
                             static_cast<int>(work.size()), iwork.data());
}
int gelsd(int m, int n, int nrhs, cdouble* a, int lda, cdouble* b, int ldb, double* s, double rcond, int* rank) {
  cdouble q = 0;
  double rq = 0;
  int iq = 0;
  LAPACKE_zgelsd_work(kCol, m, n, nrhs, z(a), lda, z(b), ldb, s, rcond, rank, z(&q), -1, &rq, &iq);
  std::vector<cdouble> work(size_of(q));
  std::vector<double> rwork(size_of(rq));
  std::vector<int> iwork(std::max(1, iq));
  return LAPACKE_zgelsd_work(kCol, m, n, nrhs, z(a), lda, z(b), ldb, s, rcond, rank, z(work.data()),
                             static_cast<int>(work.size()), rwork.data(), iwork.data());
}

}  // namespace tessera::detail::lapack
