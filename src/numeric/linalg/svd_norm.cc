// Matrix norms of the singular values (ord 2, -2, 'nuc'): LAPACK's gesdd on each
// matrix of a batch, one point task per block of the batch.
#include "numeric/linalg/svd_norm.h"

#include <lapacke.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <vector>

#include "data/convert.h"
#include "data/strided_rows.h"
#include "numeric/linalg/cpu/blas.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/runtime.h"
#include "tessera/task.h"

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

// Array 0 receives, for each matrix of array 1 in its tile (the last two axes whole), the
// reduction (scalar 0: an SvdReduction) of its singular values.
template <class T>
void svd_norm_tile(TaskContext& ctx) {
  using R = typename real_of<T>::type;
  const Tile &out = ctx.array(0), &x = ctx.array(1);
  if (out.size() == 0) return;
  const auto kind = static_cast<SvdReduction>(ctx.scalar(0).as_int());
  blas_single_threaded();
  const int nb = out.ndim();
  const int64_t m = x.array_shape()[nb], n = x.array_shape()[nb + 1];
  const int64_t rs = x.strides()[nb], cs = x.strides()[nb + 1];
  std::vector<T> a(static_cast<size_t>(m * n));
  std::vector<R> s(static_cast<size_t>(std::min(m, n)));
  // Every matrix of the tile (a unit row axis last: one "row" per matrix).
  Shape batch = out.extents(), xs(x.strides().begin(), x.strides().begin() + nb), os = out.strides();
  batch.push_back(1);
  xs.push_back(0);
  os.push_back(0);
  StridedRows matrices(batch, {xs.data(), os.data()});
  matrices.for_each([&](const int64_t*, const int64_t* off) {
    R r = 0;
    if (!s.empty()) {
      const T* src = static_cast<const T*>(x.data()) + off[0];
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) a[i * n + j] = src[i * rs + j * cs];
      const lapack_int info =
          singular_values(static_cast<lapack_int>(m), static_cast<lapack_int>(n), a.data(), s.data());
      // info -5: LAPACKE found a NaN in the matrix, which NumPy reports as no convergence.
      if (info > 0 || info == -5) throw LinAlgError("SVD did not converge");
      TESSERA_CHECK(info == 0, "gesdd: illegal argument " + std::to_string(-info));
      if (kind == SvdReduction::Max) r = s.front();
      else if (kind == SvdReduction::Min) r = s.back();
      else
        for (R v : s) r += v;
    }
    std::memcpy(static_cast<R*>(out.data()) + off[1], &r, sizeof(R));
  });
}

void svd_norm_body(TaskContext& ctx) {
  switch (ctx.array(1).dtype()) {
    case DType::Float32: return svd_norm_tile<float>(ctx);
    case DType::Float64: return svd_norm_tile<double>(ctx);
    case DType::Complex64: return svd_norm_tile<std::complex<float>>(ctx);
    default: return svd_norm_tile<std::complex<double>>(ctx);
  }
}

}  // namespace

ndarray svd_norm(const ndarray& x, SvdReduction kind) {
  static const Task task("linalg.svd_norm", &svd_norm_body);
  ndarray y = x;
  if (y.dtype() == DType::Float16) y = astype(y, DType::Float32);
  const int nd = y.ndim();
  const Shape& shape = y.shape();
  if (kind == SvdReduction::Min && std::min(shape[nd - 2], shape[nd - 1]) == 0)
    throw ValueError("zero-size array to reduction operation minimum which has no identity");
  Shape batch(shape.begin(), shape.end() - 2);
  ndarray out = new_array(batch, real_for(y.dtype()));
  // The launch follows the output seen with each matrix's two axes promoted back; x is
  // aligned with it and whole along those axes.
  launch(
      task,
      {viewed(tessera::out(out), ArgView(batch).promote(nd - 2, shape[nd - 2]).promote(nd - 1, shape[nd - 1])), in(y)},
      {Scalar(static_cast<int64_t>(kind))}, {align(1, 0), broadcast(1, {nd - 2, nd - 1})}, {.name = "norm_svd"});
  // Whether LAPACK converges is known only once it ran: the error surfaces here, as in NumPy.
  fence();
  return out;
}

}  // namespace tessera::detail
