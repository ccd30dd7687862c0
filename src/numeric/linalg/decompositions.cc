// numpy.linalg's factorizations and solvers: shape checks and NumPy's types here, one
// batched launch (batched_op.h) per call (factor_kernels.h has what runs on each matrix);
// solve and cholesky of one large matrix run as tasks on its tiles instead
// (tile_factorizations.h).
#include <algorithm>
#include <cctype>
#include <cfloat>

#include "numeric/linalg/batched_op.h"
#include "numeric/linalg/cpu/blas.h"
#include "numeric/linalg/cpu/factor_kernels.h"
#include "numeric/linalg/linalg_common.h"
#include "numeric/linalg/tile_factorizations.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/linalg.h"
#include "tessera/reduce.h"

namespace tessera {

using namespace detail;

namespace {

Shape with_core(const Shape& batch, const Shape& core) {
  Shape s = batch;
  s.insert(s.end(), core.begin(), core.end());
  return s;
}

int64_t cube(int64_t m, int64_t n) { return std::max<int64_t>(1, m * n * std::max<int64_t>(1, std::min(m, n))); }

char uplo_of(std::string_view uplo) {
  std::string u(uplo);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u != "L" && u != "U") throw ValueError("UPLO argument must be 'L' or 'U'");
  return u[0];
}

// One matrix (no batch) large enough to factor by tiles.
bool by_tiles(const Shape& batch, int64_t n) { return batch.empty() && factor_by_tiles(n); }

// A new C-ordered copy of `a` in dtype `t`, for a factorization to overwrite.
StorePtr work_copy(const ndarray& a, DType t) { return (a.dtype() == t ? copy(a) : astype(a, t)).store(); }

// The real eigen-results of a real matrix when every eigenvalue is real, else complex (NumPy).
bool all_real(const ndarray& w) { return !any(binary("not_equal", unary("imag", w), 0.0)).item().as_bool(); }

}  // namespace

ndarray solve(const ndarray& a, const ndarray& b) {
  assert_stacked_square(a);
  const LinalgTypes t = linalg_types({a, b});
  const int64_t n = a.shape().back();
  const bool vector = b.ndim() == 1;
  const char* sig = vector ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)";
  if (!vector && b.ndim() < 2)
    throw ValueError("solve: Input operand 1 does not have enough dimensions (has " + std::to_string(b.ndim()) +
                     ", gufunc core with signature " + sig + " requires 2)");
  const int64_t bn = vector ? b.shape()[0] : b.shape()[b.ndim() - 2];
  if (bn != n)
    throw ValueError(
        std::string("solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature ") + sig +
        " (size " + std::to_string(bn) + " is different from " + std::to_string(n) + ")");
  const ndarray bm = vector ? ndarray(b.store()->new_axis(1)) : b;
  const int64_t k = bm.shape().back();
  Shape batch;
  try {
    batch = broadcast_shapes({batch_shape(a.shape()), vector ? Shape{} : batch_shape(b.shape())});
  } catch (const ValueError&) {
    throw ValueError("solve: operands could not be broadcast together with shapes " + shape_text(a.shape(), ",") + " " +
                     shape_text(b.shape(), ","));
  }
  if (by_tiles(batch, n) && k > 0) {
    StorePtr x = work_copy(bm, t.work);
    // `a` itself (or its cast) when BLAS reads it as it is (rows or columns contiguous).
    StorePtr in = batch_input(a, t.work, a.shape());
    if (!blas_layout(n, n, in->strides()[0], in->strides()[1])) in = copy(ndarray(in)).store();
    if (!solve_by_tiles(ndarray(in), ndarray(x))) throw LinAlgError("Singular matrix");
    ndarray r = as_result(x, t.result);
    return vector ? ndarray(r.store()->index(r.ndim() - 1, 0)) : r;
  }
  StorePtr x = batch_output(t.work, batch, {n, k});
  issue_batched("solve", static_cast<int>(batch.size()),
                {{batch_input(a, t.work, with_core(batch, {n, n}))},
                 {batch_input(bm, t.work, with_core(batch, {n, k}))},
                 {x, true}},
                solve_kernel(t.work), cube(n, n) + n * k * n);
  wait_for_errors();
  ndarray r = as_result(x, t.result);
  return vector ? ndarray(r.store()->index(r.ndim() - 1, 0)) : r;
}

ndarray inv(const ndarray& a) {
  assert_stacked_square(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t n = a.shape().back();
  const Shape batch = batch_shape(a.shape());
  StorePtr x = batch_output(t.work, batch, {n, n});
  issue_batched("inv", static_cast<int>(batch.size()), {{batch_input(a, t.work, a.shape())}, {x, true}},
                inv_kernel(t.work, true), cube(n, n));
  wait_for_errors();
  return as_result(x, t.result);
}

std::pair<ndarray, ndarray> slogdet(const ndarray& a) {
  assert_stacked_square(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t n = a.shape().back();
  const Shape batch = batch_shape(a.shape());
  StorePtr sign = batch_output(t.work, batch, {}), logdet = batch_output(DType::Float64, batch, {});
  issue_batched("slogdet", static_cast<int>(batch.size()),
                {{batch_input(a, t.work, a.shape())}, {sign, true}, {logdet, true}}, det_kernel(t.work, true),
                cube(n, n));
  return {as_result(sign, t.result), as_result(logdet, real_for(t.result))};
}

ndarray det(const ndarray& a) {
  assert_stacked_square(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t n = a.shape().back();
  const Shape batch = batch_shape(a.shape());
  StorePtr d = batch_output(t.work, batch, {});
  issue_batched("det", static_cast<int>(batch.size()), {{batch_input(a, t.work, a.shape())}, {d, true}},
                det_kernel(t.work, false), cube(n, n));
  return as_result(d, t.result);
}

ndarray cholesky(const ndarray& a, bool upper) {
  assert_stacked_square(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t n = a.shape().back();
  const Shape batch = batch_shape(a.shape());
  if (by_tiles(batch, n)) {
    StorePtr w = work_copy(a, t.work);
    if (!cholesky_by_tiles(ndarray(w), upper)) throw LinAlgError("Matrix is not positive definite");
    return as_result(w, t.result);
  }
  StorePtr l = batch_output(t.work, batch, {n, n});
  issue_batched("cholesky", static_cast<int>(batch.size()), {{batch_input(a, t.work, a.shape())}, {l, true}},
                cholesky_kernel(t.work, upper), cube(n, n));
  wait_for_errors();
  return as_result(l, t.result);
}

std::vector<ndarray> qr(const ndarray& a, std::string_view mode) {
  QrMode kind;
  if (mode == "reduced") kind = QrMode::Reduced;
  else if (mode == "complete") kind = QrMode::Complete;
  else if (mode == "r") kind = QrMode::R;
  else if (mode == "raw") kind = QrMode::Raw;
  else throw ValueError("Unrecognized mode '" + std::string(mode) + "'");
  assert_stacked_2d(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const Shape batch = batch_shape(a.shape());
  const int nb = static_cast<int>(batch.size());
  std::vector<BatchArg> args{{batch_input(a, t.work, a.shape())}};
  std::vector<StorePtr> outs;
  if (kind == QrMode::R) {
    outs = {batch_output(t.work, batch, {k, n})};
  } else if (kind == QrMode::Raw) {
    outs = {batch_output(t.work, batch, {n, m}), batch_output(t.work, batch, {k})};
  } else {
    const int64_t mc = kind == QrMode::Complete && m > n ? m : k;
    outs = {batch_output(t.work, batch, {m, mc}), batch_output(t.work, batch, {mc, n})};
  }
  for (const StorePtr& s : outs) args.push_back({s, true});
  issue_batched("qr", nb, std::move(args), qr_kernel(t.work, kind), cube(m, n));
  std::vector<ndarray> r;
  for (const StorePtr& s : outs) r.push_back(as_result(s, t.result));
  return r;
}

std::vector<ndarray> svd(const ndarray& a, bool full_matrices, bool compute_uv, bool hermitian) {
  if (hermitian) assert_stacked_square(a);
  else assert_stacked_2d(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const Shape batch = batch_shape(a.shape());
  const int nb = static_cast<int>(batch.size());
  StorePtr s = batch_output(DType::Float64, batch, {k});
  const char jobz = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  std::vector<BatchArg> args{{batch_input(a, t.work, a.shape())}};
  StorePtr u, vh;
  if (compute_uv) {
    const bool full = full_matrices && !hermitian;
    u = batch_output(t.work, batch, {m, full ? m : k});
    vh = batch_output(t.work, batch, {full ? n : k, n});
    args.insert(args.end(), {{u, true}, {s, true}, {vh, true}});
  } else {
    args.push_back({s, true});
  }
  issue_batched("svd", nb, std::move(args), svd_kernel(t.work, jobz, hermitian), cube(m, n));
  wait_for_errors();
  if (!compute_uv) return {as_result(s, real_for(t.result))};
  return {as_result(u, t.result), as_result(s, real_for(t.result)), as_result(vh, t.result)};
}

ndarray svdvals(const ndarray& x) { return svd(x, false, false, false)[0]; }

namespace {

std::pair<ndarray, ndarray> eig_impl(const ndarray& a, bool vectors) {
  assert_stacked_square(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t n = a.shape().back();
  const Shape batch = batch_shape(a.shape());
  StorePtr w = batch_output(DType::Complex128, batch, {n});
  StorePtr v = vectors ? batch_output(DType::Complex128, batch, {n, n}) : nullptr;
  std::vector<BatchArg> args{{batch_input(a, t.work, a.shape())}, {w, true}};
  if (vectors) args.push_back({v, true});
  issue_batched("eig", static_cast<int>(batch.size()), std::move(args), eig_kernel(t.work, vectors), cube(n, n) * 4);
  wait_for_errors();
  DType rt = complex_for(t.result);
  ndarray wr(w), vr = vectors ? ndarray(v) : ndarray();
  if (!is_complex(t.result) && all_real(wr)) {
    rt = t.result;
    wr = ndarray(w->component(0));
    if (vectors) vr = ndarray(v->component(0));
  }
  wr = wr.dtype() == rt ? wr : astype(wr, rt);
  if (vectors && vr.dtype() != rt) vr = astype(vr, rt);
  return {wr, vr};
}

std::pair<ndarray, ndarray> eigh_impl(const ndarray& a, std::string_view uplo, bool vectors) {
  const char u = uplo_of(uplo);
  assert_stacked_square(a);
  const LinalgTypes t = linalg_types({a});
  const int64_t n = a.shape().back();
  const Shape batch = batch_shape(a.shape());
  StorePtr w = batch_output(DType::Float64, batch, {n});
  StorePtr v = vectors ? batch_output(t.work, batch, {n, n}) : nullptr;
  std::vector<BatchArg> args{{batch_input(a, t.work, a.shape())}, {w, true}};
  if (vectors) args.push_back({v, true});
  issue_batched("eigh", static_cast<int>(batch.size()), std::move(args), eigh_kernel(t.work, u, vectors), cube(n, n));
  wait_for_errors();
  return {as_result(w, real_for(t.result)), vectors ? as_result(v, t.result) : ndarray()};
}

}  // namespace

std::pair<ndarray, ndarray> eig(const ndarray& a) { return eig_impl(a, true); }
ndarray eigvals(const ndarray& a) { return eig_impl(a, false).first; }
std::pair<ndarray, ndarray> eigh(const ndarray& a, std::string_view uplo) { return eigh_impl(a, uplo, true); }
ndarray eigvalsh(const ndarray& a, std::string_view uplo) { return eigh_impl(a, uplo, false).first; }

LstsqResult lstsq(const ndarray& a, const ndarray& b, std::optional<double> rcond) {
  const bool vector = b.ndim() == 1;
  const ndarray bm = vector ? ndarray(b.store()->new_axis(1)) : b;
  for (const ndarray* x : {&a, &bm})
    if (x->ndim() != 2)
      throw LinAlgError(std::to_string(x->ndim()) + "-dimensional array given. Array must be two-dimensional");
  const int64_t m = a.shape()[0], n = a.shape()[1], nrhs = bm.shape()[1], k = std::min(m, n);
  if (bm.shape()[0] != m) throw LinAlgError("Incompatible dimensions");
  const LinalgTypes t = linalg_types({a, b});
  const DType real_t = real_for(t.result);
  const double rc = rcond ? *rcond : DBL_EPSILON * static_cast<double>(std::max(m, n));
  StorePtr x = batch_output(t.work, {}, {n, nrhs}), res = batch_output(DType::Float64, {}, {nrhs});
  StorePtr rank = batch_output(DType::Int32, {}, {}), s = batch_output(DType::Float64, {}, {k});
  issue_batched("lstsq", 0,
                {{batch_input(a, t.work, a.shape())},
                 {batch_input(bm, t.work, bm.shape())},
                 {x, true},
                 {res, true},
                 {rank, true},
                 {s, true}},
                lstsq_kernel(t.work, rc), cube(m, n) + m * nrhs);
  wait_for_errors();
  LstsqResult r;
  r.rank = static_cast<int32_t>(ndarray(rank).item().as_int());
  r.x = copy(as_result(x, t.result));
  if (vector) r.x = ndarray(r.x.store()->index(1, 0));
  r.residuals = (r.rank != n || m <= n) ? empty({0}, real_t) : as_result(res, real_t);
  r.s = as_result(s, real_t);
  return r;
}

}  // namespace tessera
