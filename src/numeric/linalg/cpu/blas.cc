#include "numeric/linalg/cpu/blas.h"

#include <cblas.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "tessera/errors.h"

namespace tessera::detail {
namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

// Integer products wrap like NumPy's (which accumulates in a wide integer and truncates):
// accumulate in the unsigned type of the same width, where overflow is defined.
template <class T>
struct AccOf {
  using type = std::make_unsigned_t<T>;
};
template <>
struct AccOf<bool> {
  using type = bool;
};
template <class T>
using Acc = typename AccOf<T>::type;

template <class T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
void matmul_loop(const MatrixRef& a, const MatrixRef& b, const MatrixRef& c) {
  const int64_t m = c.rows, n = c.cols, k = a.cols;
  constexpr int64_t sz = sizeof(T);
  std::vector<Acc<T>> row(static_cast<size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), Acc<T>{});
    for (int64_t p = 0; p < k; ++p) {
      const Acc<T> av = static_cast<Acc<T>>(load<T>(a.ptr + (i * a.rs + p * a.cs) * sz));
      if constexpr (std::is_same_v<T, bool>) {
        if (!av) continue;
      }
      const char* brow = b.ptr + p * b.rs * sz;
      if (b.cs == 1) {
        const T* bp = reinterpret_cast<const T*>(brow);
        for (int64_t j = 0; j < n; ++j) {
          if constexpr (std::is_same_v<T, bool>) row[j] = row[j] || bp[j];
          else row[j] += av * static_cast<Acc<T>>(bp[j]);
        }
      } else {
        for (int64_t j = 0; j < n; ++j) {
          const T bv = load<T>(brow + j * b.cs * sz);
          if constexpr (std::is_same_v<T, bool>) row[j] = row[j] || bv;
          else row[j] += av * static_cast<Acc<T>>(bv);
        }
      }
    }
    for (int64_t j = 0; j < n; ++j) {
      const T v = static_cast<T>(row[j]);
      std::memcpy(c.ptr + (i * c.rs + j * c.cs) * sz, &v, sz);
    }
  }
}

template <class T>
void dot_loop(const char* x, int64_t sx, const char* y, int64_t sy, int64_t n, void* out) {
  constexpr int64_t sz = sizeof(T);
  Acc<T> acc{};
  for (int64_t i = 0; i < n; ++i) {
    const T xv = load<T>(x + i * sx * sz), yv = load<T>(y + i * sy * sz);
    if constexpr (std::is_same_v<T, bool>) {
      if (xv && yv) {
        acc = true;
        break;
      }
    } else {
      acc += static_cast<Acc<T>>(xv) * static_cast<Acc<T>>(yv);
    }
  }
  const T v = static_cast<T>(acc);
  std::memcpy(out, &v, sz);
}

// Calls f(T{}) for the integer and bool dtypes the exact loops cover (the rest go to BLAS).
template <class F>
void visit_loop_dtype(DType t, F&& f) {
  visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) f(tag);
    else TESSERA_CHECK(false, std::string("no product loop for ") + dtype_name(t));
  });
}

CBLAS_TRANSPOSE op(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

// y = M · x for the BLAS dtypes, where M is rows × cols in `layout` (row-major storage order).
void gemv(DType t, const BlasLayout& l, int64_t rows, int64_t cols, const char* m, const char* x, int64_t incx, char* y,
          int64_t incy) {
  // A column-major rows × cols matrix is a row-major cols × rows one, transposed.
  const CBLAS_TRANSPOSE tr = op(l.trans);
  const blasint r = static_cast<blasint>(l.trans ? cols : rows), c = static_cast<blasint>(l.trans ? rows : cols);
  const blasint ld = static_cast<blasint>(l.ld), ix = static_cast<blasint>(incx), iy = static_cast<blasint>(incy);
  switch (t) {
    case DType::Float32:
      cblas_sgemv(CblasRowMajor, tr, r, c, 1.0f, reinterpret_cast<const float*>(m), ld,
                  reinterpret_cast<const float*>(x), ix, 0.0f, reinterpret_cast<float*>(y), iy);
      break;
    case DType::Float64:
      cblas_dgemv(CblasRowMajor, tr, r, c, 1.0, reinterpret_cast<const double*>(m), ld,
                  reinterpret_cast<const double*>(x), ix, 0.0, reinterpret_cast<double*>(y), iy);
      break;
    case DType::Complex64: {
      const c64 one(1), zero(0);
      cblas_cgemv(CblasRowMajor, tr, r, c, &one, m, ld, x, ix, &zero, y, iy);
      break;
    }
    case DType::Complex128: {
      const c128 one(1), zero(0);
      cblas_zgemv(CblasRowMajor, tr, r, c, &one, m, ld, x, ix, &zero, y, iy);
      break;
    }
    default: TESSERA_CHECK(false, "gemv: not a BLAS dtype");
  }
}

void gemm(DType t, const BlasLayout& la, const BlasLayout& lb, int64_t m, int64_t n, int64_t k, const char* a,
          const char* b, char* c, int64_t ldc) {
  const blasint M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
  const blasint lda = static_cast<blasint>(la.ld), ldb = static_cast<blasint>(lb.ld), ldC = static_cast<blasint>(ldc);
  switch (t) {
    case DType::Float32:
      cblas_sgemm(CblasRowMajor, op(la.trans), op(lb.trans), M, N, K, 1.0f, reinterpret_cast<const float*>(a), lda,
                  reinterpret_cast<const float*>(b), ldb, 0.0f, reinterpret_cast<float*>(c), ldC);
      break;
    case DType::Float64:
      cblas_dgemm(CblasRowMajor, op(la.trans), op(lb.trans), M, N, K, 1.0, reinterpret_cast<const double*>(a), lda,
                  reinterpret_cast<const double*>(b), ldb, 0.0, reinterpret_cast<double*>(c), ldC);
      break;
    case DType::Complex64: {
      const c64 one(1), zero(0);
      cblas_cgemm(CblasRowMajor, op(la.trans), op(lb.trans), M, N, K, &one, a, lda, b, ldb, &zero, c, ldC);
      break;
    }
    case DType::Complex128: {
      const c128 one(1), zero(0);
      cblas_zgemm(CblasRowMajor, op(la.trans), op(lb.trans), M, N, K, &one, a, lda, b, ldb, &zero, c, ldC);
      break;
    }
    default: TESSERA_CHECK(false, "gemm: not a BLAS dtype");
  }
}

void zero_block(DType t, const MatrixRef& c) {
  const int sz = itemsize(t);
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.cols; ++j) std::memset(c.ptr + (i * c.rs + j * c.cs) * sz, 0, sz);
}

}  // namespace

std::optional<BlasLayout> blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  // A length-1 axis may have any stride; BLAS still wants a leading dimension >= 1.
  if ((cols == 1 || cs == 1) && (rows == 1 || rs >= std::max<int64_t>(1, cols)))
    return BlasLayout{false, rows == 1 ? std::max<int64_t>(1, cols) : rs};
  if ((rows == 1 || rs == 1) && (cols == 1 || cs >= std::max<int64_t>(1, rows)))
    return BlasLayout{true, cols == 1 ? std::max<int64_t>(1, rows) : cs};
  return std::nullopt;
}

bool is_blas_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Complex64 || t == DType::Complex128;
}

void blas_single_threaded() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}

void matmul_block(DType t, const MatrixRef& a, const MatrixRef& b, const MatrixRef& c) {
  const int64_t m = c.rows, n = c.cols, k = a.cols;
  if (m == 0 || n == 0) return;
  if (k == 0) return zero_block(t, c);
  if (!is_blas_dtype(t)) {
    visit_loop_dtype(t, [&](auto v) { matmul_loop<decltype(v)>(a, b, c); });
    return;
  }
  blas_single_threaded();
  const auto la = blas_layout(m, k, a.rs, a.cs), lb = blas_layout(k, n, b.rs, b.cs);
  TESSERA_CHECK(la && lb, "matmul operand without a BLAS layout");
  if (n == 1) {
    // c[:, 0] = a · b[:, 0]
    gemv(t, *la, m, k, a.ptr, b.ptr, k == 1 ? 1 : b.rs, c.ptr, m == 1 ? 1 : c.rs);
  } else if (m == 1) {
    // c[0, :] = b^T · a[0, :]: b's layout, transposed.
    gemv(t, BlasLayout{!lb->trans, lb->ld}, n, k, b.ptr, a.ptr, k == 1 ? 1 : a.cs, c.ptr, c.cs);
  } else {
    TESSERA_CHECK(c.cs == 1 && c.rs >= n, "matmul output is not row-major");
    gemm(t, *la, *lb, m, n, k, a.ptr, b.ptr, c.ptr, c.rs);
  }
}

void dot_block(DType t, const char* x, int64_t sx, const char* y, int64_t sy, int64_t n, bool conj, void* out) {
  if (!is_blas_dtype(t)) {
    visit_loop_dtype(t, [&](auto v) { dot_loop<decltype(v)>(x, sx, y, sy, n, out); });
    return;
  }
  blas_single_threaded();
  if (n == 0) {
    std::memset(out, 0, itemsize(t));
    return;
  }
  const blasint N = static_cast<blasint>(n), ix = static_cast<blasint>(sx), iy = static_cast<blasint>(sy);
  switch (t) {
    case DType::Float32: {
      const float r = cblas_sdot(N, reinterpret_cast<const float*>(x), ix, reinterpret_cast<const float*>(y), iy);
      std::memcpy(out, &r, sizeof r);
      break;
    }
    case DType::Float64: {
      const double r = cblas_ddot(N, reinterpret_cast<const double*>(x), ix, reinterpret_cast<const double*>(y), iy);
      std::memcpy(out, &r, sizeof r);
      break;
    }
    case DType::Complex64:
      if (conj) cblas_cdotc_sub(N, x, ix, y, iy, out);
      else cblas_cdotu_sub(N, x, ix, y, iy, out);
      break;
    case DType::Complex128:
      if (conj) cblas_zdotc_sub(N, x, ix, y, iy, out);
      else cblas_zdotu_sub(N, x, ix, y, iy, out);
      break;
    default: break;
  }
}

}  // namespace tessera::detail
