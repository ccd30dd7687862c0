#include "numeric/linalg/cpu/factor_kernels.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "numeric/linalg/cpu/lapack.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

using lapack::cdouble;

template <class U>
U& at(const MatrixRef& m, int64_t i, int64_t j) {
  return *reinterpret_cast<U*>(m.ptr + (i * m.rs + j * m.cs) * static_cast<int64_t>(sizeof(U)));
}

int ld(int64_t rows) { return static_cast<int>(std::max<int64_t>(1, rows)); }
int as_int(int64_t v) { return static_cast<int>(v); }

// `m` as a column-major buffer of `ldim` (>= m.rows) rows and at least `min_cols` columns.
template <class T>
std::vector<T> load(const MatrixRef& m, int64_t ldim, int64_t min_cols = 0) {
  std::vector<T> buf(static_cast<size_t>(std::max<int64_t>(1, ldim * std::max(m.cols, min_cols))), T(0));
  for (int64_t j = 0; j < m.cols; ++j)
    for (int64_t i = 0; i < m.rows; ++i) buf[i + j * ldim] = at<T>(m, i, j);
  return buf;
}

// Writes the first m.rows × m.cols of a column-major buffer into `m`.
template <class T>
void store(const T* buf, int64_t ldim, const MatrixRef& m) {
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j) at<T>(m, i, j) = buf[i + j * ldim];
}

template <class T>
void fill(const MatrixRef& m, T value) {
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j) at<T>(m, i, j) = value;
}

template <class T>
void identity(const MatrixRef& m) {
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j) at<T>(m, i, j) = T(i == j ? 1 : 0);
}

double magnitude(double v) { return std::abs(v); }
double magnitude(const cdouble& v) { return std::abs(v); }
bool finite(double v) { return std::isfinite(v); }
bool finite(const cdouble& v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); }
cdouble conj_of(const cdouble& v) { return std::conj(v); }
double conj_of(double v) { return v; }

// Calls f(T{}) for the type `t` computes in.
template <class F>
MatrixKernel typed(DType t, F&& f) {
  if (t == DType::Complex128) return f(cdouble{});
  TESSERA_CHECK(t == DType::Float64, "linalg kernels compute in float64 or complex128");
  return f(double{});
}

template <class T>
void solve_one(const std::vector<MatrixRef>& b) {
  const int64_t n = b[0].rows, k = b[1].cols;
  if (n == 0) return;
  std::vector<T> a = load<T>(b[0], n);
  std::vector<T> x = load<T>(b[1], n);
  std::vector<int> ipiv(static_cast<size_t>(n));
  const int info = lapack::gesv(as_int(n), as_int(k), a.data(), ld(n), ipiv.data(), x.data(), ld(n));
  if (info > 0) throw LinAlgError("Singular matrix");
  TESSERA_CHECK(info == 0, "gesv: illegal argument " + std::to_string(-info));
  store(x.data(), n, b[2]);
}

template <class T>
void inv_one(const std::vector<MatrixRef>& b, bool raise) {
  const int64_t n = b[0].rows;
  if (n == 0) return;
  std::vector<T> a = load<T>(b[0], n);
  std::vector<T> x(static_cast<size_t>(n * n), T(0));
  for (int64_t i = 0; i < n; ++i) x[i + i * n] = T(1);
  std::vector<int> ipiv(static_cast<size_t>(n));
  const int info = lapack::gesv(as_int(n), as_int(n), a.data(), ld(n), ipiv.data(), x.data(), ld(n));
  if (info > 0) {
    if (raise) throw LinAlgError("Singular matrix");
    return fill(b[1], T(std::numeric_limits<double>::quiet_NaN()));
  }
  TESSERA_CHECK(info == 0, "gesv: illegal argument " + std::to_string(-info));
  store(x.data(), n, b[1]);
}

// NumPy's slogdet: the LU factors' diagonal, the sign from the pivots and each element.
template <class T>
void det_one(const std::vector<MatrixRef>& b, bool log) {
  const int64_t n = b[0].rows;
  T sign = T(1);
  double logdet = 0;
  if (n > 0) {
    std::vector<T> a = load<T>(b[0], n);
    std::vector<int> ipiv(static_cast<size_t>(n));
    const int info = lapack::getrf(as_int(n), as_int(n), a.data(), ld(n), ipiv.data());
    TESSERA_CHECK(info >= 0, "getrf: illegal argument " + std::to_string(-info));
    if (info == 0) {
      int changes = 0;
      for (int64_t i = 0; i < n; ++i) changes += ipiv[i] != i + 1;
      sign = T(changes % 2 ? -1 : 1);
      for (int64_t i = 0; i < n; ++i) {
        const T e = a[i + i * n];
        const double m = magnitude(e);
        if constexpr (std::is_same_v<T, double>) {
          if (e < 0) sign = -sign;
        } else {
          sign *= e / m;
        }
        logdet += std::log(m);
      }
    } else {
      sign = T(0);
      logdet = -std::numeric_limits<double>::infinity();
    }
  }
  if (log) {
    at<T>(b[1], 0, 0) = sign;
    at<double>(b[2], 0, 0) = logdet;
  } else {
    at<T>(b[1], 0, 0) = sign * std::exp(logdet);
  }
}

template <class T>
void cholesky_one(const std::vector<MatrixRef>& b, bool upper) {
  const int64_t n = b[0].rows;
  if (n == 0) return;
  std::vector<T> a = load<T>(b[0], n);
  const int info = lapack::potrf(upper ? 'U' : 'L', as_int(n), a.data(), ld(n));
  if (info > 0) throw LinAlgError("Matrix is not positive definite");
  TESSERA_CHECK(info == 0, "potrf: illegal argument " + std::to_string(-info));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (upper ? i > j : i < j) a[i + j * n] = T(0);
  store(a.data(), n, b[1]);
}

template <class T>
void qr_one(const std::vector<MatrixRef>& b, QrMode mode) {
  const int64_t m = b[0].rows, n = b[0].cols, k = std::min(m, n);
  std::vector<T> a = load<T>(b[0], ld(m));
  std::vector<T> tau(static_cast<size_t>(std::max<int64_t>(1, k)), T(0));
  if (k > 0) {
    const int info = lapack::geqrf(as_int(m), as_int(n), a.data(), ld(m), tau.data());
    if (info != 0) throw LinAlgError("Incorrect argument found while performing QR factorization");
  }
  // R: the upper triangle of the factored matrix's first rows.
  auto upper = [&](const MatrixRef& r) {
    for (int64_t i = 0; i < r.rows; ++i)
      for (int64_t j = 0; j < r.cols; ++j) at<T>(r, i, j) = j >= i ? a[i + j * ld(m)] : T(0);
  };
  if (mode == QrMode::R) return upper(b[1]);
  if (mode == QrMode::Raw) {
    const MatrixRef& h = b[1];  // (n, m): the factored matrix transposed
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) at<T>(h, j, i) = a[i + j * ld(m)];
    for (int64_t i = 0; i < k; ++i) at<T>(b[2], i, 0) = tau[i];
    return;
  }
  const int64_t mc = b[1].cols;
  std::vector<T> q(static_cast<size_t>(std::max<int64_t>(1, m * mc)), T(0));
  for (int64_t j = 0; j < std::min(n, mc); ++j)
    for (int64_t i = 0; i < m; ++i) q[i + j * m] = a[i + j * ld(m)];
  if (m > 0 && mc > 0) {
    const int info = lapack::orgqr(as_int(m), as_int(mc), as_int(k), q.data(), ld(m), tau.data());
    if (info != 0) throw LinAlgError("Incorrect argument found while performing QR factorization");
  }
  store(q.data(), m, b[1]);
  upper(b[2]);
}

template <class T>
void svd_one(const std::vector<MatrixRef>& b, char jobz) {
  const int64_t m = b[0].rows, n = b[0].cols, k = std::min(m, n);
  const bool uv = jobz != 'N';
  const MatrixRef& s_out = uv ? b[2] : b[1];
  if (k == 0) {
    if (uv) {
      identity<T>(b[1]);
      identity<T>(b[3]);
    }
    return;
  }
  std::vector<T> a = load<T>(b[0], m);
  std::vector<double> s(static_cast<size_t>(k));
  const int64_t ucols = uv ? b[1].cols : 1, vrows = uv ? b[3].rows : 1;
  std::vector<T> u(static_cast<size_t>(uv ? m * ucols : 1)), vt(static_cast<size_t>(uv ? vrows * n : 1));
  const int info = lapack::gesdd(jobz, as_int(m), as_int(n), a.data(), ld(m), s.data(), u.data(), uv ? ld(m) : 1,
                                 vt.data(), uv ? ld(vrows) : 1);
  if (info != 0) throw LinAlgError("SVD did not converge");
  for (int64_t i = 0; i < k; ++i) at<double>(s_out, i, 0) = s[i];
  if (uv) {
    store(u.data(), m, b[1]);
    store(vt.data(), vrows, b[3]);
  }
}

// NumPy's svd(hermitian=True): eigh, then |w| in descending order (argsort ascending,
// reversed; a stable sort, as NumPy's for the sizes it sorts by insertion), the signs into vh.
template <class T>
void hermitian_svd_one(const std::vector<MatrixRef>& b, bool uv) {
  const int64_t n = b[0].rows;
  if (n == 0) return;
  std::vector<T> a = load<T>(b[0], n);
  std::vector<double> w(static_cast<size_t>(n));
  const int info = lapack::heevd(uv ? 'V' : 'N', 'L', as_int(n), a.data(), ld(n), w.data());
  if (info != 0) throw LinAlgError("Eigenvalues did not converge");
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return std::abs(w[x]) < std::abs(w[y]); });
  std::reverse(order.begin(), order.end());
  const MatrixRef& s_out = uv ? b[2] : b[1];
  for (int64_t i = 0; i < n; ++i) at<double>(s_out, i, 0) = std::abs(w[order[i]]);
  if (!uv) return;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t c = order[j];
    const double sgn = std::copysign(1.0, w[c]);
    for (int64_t i = 0; i < n; ++i) {
      at<T>(b[1], i, j) = a[i + c * n];
      at<T>(b[3], j, i) = conj_of(a[i + c * n] * sgn);
    }
  }
}

template <class T>
void eig_one(const std::vector<MatrixRef>& b, bool vectors) {
  const int64_t n = b[0].rows;
  if (n == 0) return;
  std::vector<T> a = load<T>(b[0], n);
  for (const T& v : a)
    if (!finite(v)) throw LinAlgError("Array must not contain infs or NaNs");
  std::vector<cdouble> w(static_cast<size_t>(n)), v(vectors ? static_cast<size_t>(n * n) : 0);
  const int info = lapack::geev(as_int(n), a.data(), ld(n), w.data(), vectors ? v.data() : nullptr);
  if (info != 0) throw LinAlgError("Eigenvalues did not converge");
  store(w.data(), n, b[1]);
  if (vectors) store(v.data(), n, b[2]);
}

template <class T>
void eigh_one(const std::vector<MatrixRef>& b, char uplo, bool vectors) {
  const int64_t n = b[0].rows;
  if (n == 0) return;
  std::vector<T> a = load<T>(b[0], n);
  std::vector<double> w(static_cast<size_t>(n));
  const int info = lapack::heevd(vectors ? 'V' : 'N', uplo, as_int(n), a.data(), ld(n), w.data());
  if (info != 0) throw LinAlgError("Eigenvalues did not converge");
  store(w.data(), n, b[1]);
  if (vectors) store(a.data(), n, b[2]);
}

template <class T>
void lstsq_one(const std::vector<MatrixRef>& b, double rcond) {
  const int64_t m = b[0].rows, n = b[0].cols, nrhs = b[1].cols, k = std::min(m, n);
  const int64_t ldb = std::max<int64_t>({1, m, n});
  std::vector<T> a = load<T>(b[0], ld(m));
  // A right-hand side of no columns is solved as one column of zeros, as NumPy does.
  std::vector<T> x = load<T>(b[1], ldb, 1);
  std::vector<double> s(static_cast<size_t>(std::max<int64_t>(1, k)));
  int rank = 0;
  const int info = lapack::gelsd(as_int(m), as_int(n), as_int(std::max<int64_t>(1, nrhs)), a.data(), ld(m), x.data(),
                                 as_int(ldb), s.data(), rcond, &rank);
  if (info != 0) throw LinAlgError("SVD did not converge in Linear Least Squares");
  if (m == 0) std::fill(x.begin(), x.end(), T(0));
  store(x.data(), ldb, b[2]);
  for (int64_t c = 0; c < nrhs; ++c) {
    double r = 0;
    if (m > n && rank == n)
      for (int64_t i = n; i < m; ++i) r += std::norm(x[i + c * ldb]);
    at<double>(b[3], c, 0) = r;
  }
  at<int32_t>(b[4], 0, 0) = rank;
  for (int64_t i = 0; i < k; ++i) at<double>(b[5], i, 0) = s[i];
}

}  // namespace

MatrixKernel solve_kernel(DType t) {
  return typed(
      t, [](auto tag) -> MatrixKernel { return [](const std::vector<MatrixRef>& b) { solve_one<decltype(tag)>(b); }; });
}

MatrixKernel inv_kernel(DType t, bool raise) {
  return typed(t, [raise](auto tag) -> MatrixKernel {
    return [raise](const std::vector<MatrixRef>& b) { inv_one<decltype(tag)>(b, raise); };
  });
}

MatrixKernel det_kernel(DType t, bool log) {
  return typed(t, [log](auto tag) -> MatrixKernel {
    return [log](const std::vector<MatrixRef>& b) { det_one<decltype(tag)>(b, log); };
  });
}

MatrixKernel cholesky_kernel(DType t, bool upper) {
  return typed(t, [upper](auto tag) -> MatrixKernel {
    return [upper](const std::vector<MatrixRef>& b) { cholesky_one<decltype(tag)>(b, upper); };
  });
}

MatrixKernel qr_kernel(DType t, QrMode mode) {
  return typed(t, [mode](auto tag) -> MatrixKernel {
    return [mode](const std::vector<MatrixRef>& b) { qr_one<decltype(tag)>(b, mode); };
  });
}

MatrixKernel svd_kernel(DType t, char jobz, bool hermitian) {
  return typed(t, [jobz, hermitian](auto tag) -> MatrixKernel {
    if (hermitian) return [jobz](const std::vector<MatrixRef>& b) { hermitian_svd_one<decltype(tag)>(b, jobz != 'N'); };
    return [jobz](const std::vector<MatrixRef>& b) { svd_one<decltype(tag)>(b, jobz); };
  });
}

MatrixKernel eig_kernel(DType t, bool vectors) {
  return typed(t, [vectors](auto tag) -> MatrixKernel {
    return [vectors](const std::vector<MatrixRef>& b) { eig_one<decltype(tag)>(b, vectors); };
  });
}

MatrixKernel eigh_kernel(DType t, char uplo, bool vectors) {
  return typed(t, [uplo, vectors](auto tag) -> MatrixKernel {
    return [uplo, vectors](const std::vector<MatrixRef>& b) { eigh_one<decltype(tag)>(b, uplo, vectors); };
  });
}

MatrixKernel lstsq_kernel(DType t, double rcond) {
  return typed(t, [rcond](auto tag) -> MatrixKernel {
    return [rcond](const std::vector<MatrixRef>& b) { lstsq_one<decltype(tag)>(b, rcond); };
  });
}

}  // namespace tessera::detail
