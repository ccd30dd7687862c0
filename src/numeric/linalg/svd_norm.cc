// Matrix norms of the singular values (ord 2, -2, 'nuc'): LAPACK's gesdd on each
// matrix of a batch, one point task per block of the batch.
#include "numeric/linalg/svd_norm.h"

#include <lapacke.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <vector>

#include "data/store.h"
#include "numeric/linalg/cpu/blas.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"

namespace tessera::detail {
namespace {

// A row-major m × n buffer is the column-major n × m transpose, which has the same singular
// values: LAPACK reads it in place.
lapack_int singular_values(lapack_int m, lapack_int n, float* a, float* s) {
  return LAPACKE_sgesdd(LAPACK_COL_MAJOR, 'N', n, m, a, n, s, nullptr, 1, nullptr, 1);
}
lapack_int singular_values(lapack_int m, lapack_int n, double* a, double* s) {
  return LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', n, m, a, n, s, nullptr, 1, nullptr, 1);
}
lapack_int singular_values(lapack_int m, lapack_int n, std::complex<float>* a, float* s) {
  return LAPACKE_cgesdd(LAPACK_COL_MAJOR, 'N', n, m, reinterpret_cast<lapack_complex_float*>(a), n, s, nullptr, 1,
                        nullptr, 1);
}
lapack_int singular_values(lapack_int m, lapack_int n, std::complex<double>* a, double* s) {
  return LAPACKE_zgesdd(LAPACK_COL_MAJOR, 'N', n, m, reinterpret_cast<lapack_complex_double*>(a), n, s, nullptr, 1,
                        nullptr, 1);
}

template <class T> struct RealOf { using type = T; };
template <class T> struct RealOf<std::complex<T>> { using type = T; };

class SvdNormOp final : public Operation {
 public:
  SvdNormOp(StorePtr out, StorePtr x, SvdReduction kind) : kind_(kind) {
    name = "norm_svd";
    // The launch follows the output seen with each matrix's two axes promoted back; x is
    // aligned with it and whole along those axes.
    const Shape shape = x->shape();
    const int nd = static_cast<int>(shape.size());
    add(std::move(out), false, true, ArgView(Shape(shape.begin(), shape.end() - 2)).promote(nd - 2, shape[nd - 2]).promote(nd - 1, shape[nd - 1]));
    add_aligned(0, std::move(x), true, false);
    constraints.push_back(broadcast(1, {nd - 2, nd - 1}));
  }

  void execute(const Point& point) override {
    const Rect& tile = point.rects[1];
    switch (args[1].store->dtype()) {
      case DType::Float32: return run<float>(tile);
      case DType::Float64: return run<double>(tile);
      case DType::Complex64: return run<std::complex<float>>(tile);
      default: return run<std::complex<double>>(tile);
    }
  }

 private:
  template <class T>
  void run(const Rect& x_tile) {
    using R = typename RealOf<T>::type;
    const Rect tile(Shape(x_tile.lo.begin(), x_tile.lo.end() - 2), Shape(x_tile.hi.begin(), x_tile.hi.end() - 2));
    blas_single_threaded();
    const Store& out = *args[0].store;
    const Store& x = *args[1].store;
    if (x.size() > 0 && !x.storage()->allocated())
      throw ValueError("operation 'norm' reads an array that was never computed (an earlier error stopped it)");
    const int nb = out.ndim();
    const int64_t m = x.shape()[nb], n = x.shape()[nb + 1];
    const int64_t rs = x.strides()[nb], cs = x.strides()[nb + 1];
    std::vector<T> a(static_cast<size_t>(m * n));
    std::vector<R> s(static_cast<size_t>(std::min(m, n)));
    Shape idx = tile.lo;
    while (true) {
      int64_t off = 0, ooff = 0;
      for (int d = 0; d < nb; ++d) {
        off += idx[d] * x.strides()[d];
        ooff += idx[d] * out.strides()[d];
      }
      const T* src = reinterpret_cast<const T*>(x.base_ptr()) + off;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) a[i * n + j] = src[i * rs + j * cs];
      R r = 0;
      if (!s.empty()) {
        const lapack_int info = singular_values(static_cast<lapack_int>(m), static_cast<lapack_int>(n), a.data(),
                                                s.data());
        // info -5: LAPACKE found a NaN in the matrix, which NumPy reports as no convergence.
        if (info > 0 || info == -5) throw LinAlgError("SVD did not converge");
        TESSERA_CHECK(info == 0, "gesdd: illegal argument " + std::to_string(-info));
        if (kind_ == SvdReduction::Max) r = s.front();
        else if (kind_ == SvdReduction::Min) r = s.back();
        else for (R v : s) r += v;
      }
      std::memcpy(out.base_ptr() + ooff * sizeof(R), &r, sizeof(R));
      int d = nb - 1;
      while (d >= 0 && ++idx[d] == tile.hi[d]) {
        idx[d] = tile.lo[d];
        --d;
      }
      if (d < 0) break;
    }
  }

  SvdReduction kind_;
};

}  // namespace

ndarray svd_norm(const ndarray& x, SvdReduction kind) {
  ndarray y = x;
  if (y.dtype() == DType::Float16) y = astype(y, DType::Float32);
  const int nd = y.ndim();
  const Shape& shape = y.shape();
  if (kind == SvdReduction::Min && std::min(shape[nd - 2], shape[nd - 1]) == 0)
    throw ValueError("zero-size array to reduction operation minimum which has no identity");
  Shape batch(shape.begin(), shape.end() - 2);
  StorePtr out = new_store(real_for(y.dtype()), batch, Runtime::provenance());
  Runtime::get().submit(std::make_shared<SvdNormOp>(out, y.store(), kind));
  // Whether LAPACK converges is known only once it ran: the error surfaces here, as in NumPy.
  Runtime::get().fence();
  return ndarray(out);
}

}  // namespace tessera::detail
