// The products: dot, matmul, vdot, inner and outer. Each maps its operands onto
// one batched matrix product (matmul_op.h) or one vector dot product, viewing the
// operands without copying where their layout allows, and NumPy's result dtype:
// operands are cast to it first; float16 is computed in float32 and rounded once.
#include <numeric>

#include "data/store.h"
#include "numeric/elementwise/ufunc_impl.h"
#include "numeric/linalg/block_reduce.h"
#include "numeric/linalg/matmul_op.h"
#include "numeric/linalg/symmetric_matvec.h"
#include "numeric/linalg/views.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/linalg.h"
#include "tessera/task.h"

namespace tessera {
using namespace detail;

namespace {

const char* kMatmulSignature = "(n?,k),(k,m?)->(n?,m?)";

DType compute_dtype(DType t) { return t == DType::Float16 ? DType::Float32 : t; }

// `s` as a matrix product's operand of dtype `t`: cast or copied when its dtype or layout does not fit.
StorePtr operand(const StorePtr& s, DType t) {
  if (s->dtype() != t) return astype(ndarray(s), t).store();
  if (!matmul_usable_operand(ndarray(s))) return tessera::copy(ndarray(s)).store();
  return s;
}

// The vector `x` as dtype `t`.
ndarray vector_as(const ndarray& x, DType t) { return x.dtype() == t ? x : astype(x, t); }

// c = a · b, where c is (batch..., M, N) and a, b are already operands broadcast to the batch.
void issue_matmul(const StorePtr& c, const StorePtr& a, const StorePtr& b) {
  const ndarray ca(c), aa(a), ba(b);
  if (issue_symmetric_matvec(ca, aa, ba)) return;
  launch_matmul(ca, aa, ba);
}

// The result `r` (computed in `ct`) as dtype `t`, written into `out` when given.
ndarray finish(ndarray r, DType t, const ndarray* out) {
  if (r.dtype() != t) r = astype(r, t);
  if (!out) return r;
  assign(*out, r);
  return *out;
}

// NumPy's dot requires `out` to be exactly what it would return.
void check_dot_out(const ndarray* out, const Shape& shape, DType t) {
  if (!out) return;
  if (out->shape() != shape || out->dtype() != t || !out->store()->is_c_contiguous())
    throw ValueError(
        "output array is not acceptable (must have the right datatype, number of dimensions, and be a C-Array)");
}

ndarray vector_product(const ndarray& a, const ndarray& b, bool conj, const ndarray* out) {
  const DType t = promote_types(a.dtype(), b.dtype()), ct = compute_dtype(t);
  check_dot_out(out, {}, t);
  return finish(vector_dot(vector_as(a, ct), vector_as(b, ct), conj), t, out);
}

// Rows of `a` (..., K) times the vector `b` (K,): a result of shape a.shape[:-1].
ndarray matrix_vector(const ndarray& a, const ndarray& b, const ndarray* out) {
  const DType t = promote_types(a.dtype(), b.dtype()), ct = compute_dtype(t);
  Shape rshape(a.shape().begin(), a.shape().end() - 1);
  check_dot_out(out, rshape, t);
  const int64_t k = a.shape().back();
  StorePtr am = operand(as_matrix(a, volume(rshape), k).store(), ct);
  StorePtr bm = operand(b.store()->new_axis(1), ct);
  StorePtr c = new_array({volume(rshape), 1}, ct).store();
  issue_matmul(c, am, bm);
  return finish(ndarray(c->reshape_view(rshape)), t, out);
}

void not_aligned(const ndarray& a, const ndarray& b, int da, int db) {
  throw ValueError("shapes " + shape_text(a.shape(), ",") + " and " + shape_text(b.shape(), ",") +
                   " not aligned: " + std::to_string(a.shape()[da]) + " (dim " + std::to_string(da) +
                   ") != " + std::to_string(b.shape()[db]) + " (dim " + std::to_string(db) + ")");
}

}  // namespace

ndarray matmul(const ndarray& a, const ndarray& b, const ndarray* out) {
  for (int i = 0; i < 2; ++i)
    if ((i ? b : a).ndim() == 0)
      throw ValueError("matmul: Input operand " + std::to_string(i) +
                       " does not have enough dimensions (has 0, gufunc core with signature " + kMatmulSignature +
                       " requires 1)");
  const DType t = promote_types(a.dtype(), b.dtype()), ct = compute_dtype(t);
  const bool va = a.ndim() == 1, vb = b.ndim() == 1;
  StorePtr as = va ? a.store()->new_axis(0) : a.store();
  StorePtr bs = vb ? b.store()->new_axis(1) : b.store();
  const int na = as->ndim(), nb = bs->ndim();
  const int64_t m = as->shape()[na - 2], k = as->shape()[na - 1], n = bs->shape()[nb - 1];
  if (bs->shape()[nb - 2] != k)
    throw ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
                     std::string(kMatmulSignature) + " (size " + std::to_string(bs->shape()[nb - 2]) +
                     " is different from " + std::to_string(k) + ")");
  Shape batch = broadcast_shapes(
      {Shape(as->shape().begin(), as->shape().end() - 2), Shape(bs->shape().begin(), bs->shape().end() - 2)});
  Shape full = batch, rshape = batch;
  full.insert(full.end(), {m, n});
  if (!va) rshape.push_back(m);
  if (!vb) rshape.push_back(n);

  StorePtr direct;  // `out` itself, when the product can be written straight into it
  if (out) {
    if (out->ndim() != static_cast<int>(rshape.size()))
      throw ValueError("matmul: Output operand 0 does not have enough dimensions (has " + std::to_string(out->ndim()) +
                       ", gufunc core with signature " + kMatmulSignature + " requires " +
                       std::to_string(rshape.size()) + ")");
    for (size_t d = 0; d < rshape.size(); ++d) {
      if (out->shape()[d] == rshape[d]) continue;
      if (d < batch.size())
        throw ValueError("non-broadcastable output operand with shape " + shape_text(out->shape(), ",") +
                         " doesn't match the broadcast shape " + shape_text(rshape, ","));
      throw ValueError("matmul: Output operand 0 has a mismatch in its core dimension " +
                       std::to_string(d - batch.size()) + ", with gufunc signature " + kMatmulSignature + " (size " +
                       std::to_string(out->shape()[d]) + " is different from " + std::to_string(rshape[d]) + ")");
    }
    if (!can_cast_same_kind(t, out->dtype()))
      throw TypeError("Cannot cast ufunc 'matmul' output from " + dtype_repr(t) + " to " + dtype_repr(out->dtype()) +
                      " with casting rule 'same_kind'");
    // An output that aliases an operand is written after the product, from a temporary.
    if (out->dtype() == ct && t == ct && !out->shares_storage(a) && !out->shares_storage(b)) {
      StorePtr v = out->store()->reshape_view(full);
      if (v && matmul_usable_output(ndarray(v))) direct = v;
    }
  }
  StorePtr ao = operand(as, ct), bo = operand(bs, ct);
  Shape ashape = batch, bshape = batch;
  ashape.insert(ashape.end(), {m, k});
  bshape.insert(bshape.end(), {k, n});
  StorePtr c = direct ? direct : new_array(full, ct).store();
  issue_matmul(c, ao->broadcast_to(ashape), bo->broadcast_to(bshape));
  if (direct) return *out;
  return finish(ndarray(c->reshape_view(rshape)), t, out);
}

ndarray dot(const ndarray& a, const ndarray& b, const ndarray* out) {
  if (a.ndim() == 0 || b.ndim() == 0) return binary("multiply", a, b, out);
  const int kb = b.ndim() == 1 ? 0 : b.ndim() - 2;
  if (a.shape().back() != b.shape()[kb]) not_aligned(a, b, a.ndim() - 1, kb);
  if (a.ndim() == 1 && b.ndim() == 1) return vector_product(a, b, false, out);
  if (b.ndim() == 1) return matrix_vector(a, b, out);
  // result[i..., j..., n] = Σ_k a[i..., k] · b[j..., k, n]: a batched product over b's leading
  // axes, written into a C-ordered (P, j..., N) result through a transposed view.
  const DType t = promote_types(a.dtype(), b.dtype()), ct = compute_dtype(t);
  const int64_t k = a.shape().back(), n = b.shape().back();
  Shape lead(a.shape().begin(), a.shape().end() - 1), batch(b.shape().begin(), b.shape().end() - 2);
  const int64_t p = volume(lead);
  Shape rshape = lead;
  rshape.insert(rshape.end(), batch.begin(), batch.end());
  rshape.push_back(n);
  check_dot_out(out, rshape, t);
  Shape cshape{p};
  cshape.insert(cshape.end(), batch.begin(), batch.end());
  cshape.push_back(n);
  StorePtr c = new_array(cshape, ct).store();
  const int nbatch = static_cast<int>(batch.size());
  std::vector<int> perm(nbatch + 2);
  std::iota(perm.begin(), perm.begin() + nbatch, 1);
  perm[nbatch] = 0;
  perm[nbatch + 1] = nbatch + 1;
  Shape ashape = batch;
  ashape.insert(ashape.end(), {p, k});
  StorePtr am = operand(as_matrix(a, p, k).store(), ct)->broadcast_to(ashape);
  issue_matmul(c->transpose(perm), am, operand(b.store(), ct));
  return finish(ndarray(c->reshape_view(rshape)), t, out);
}

ndarray vdot(const ndarray& a, const ndarray& b) {
  if (a.size() != b.size())
    throw ValueError("vdot: the arrays have different sizes (" + std::to_string(a.size()) + " and " +
                     std::to_string(b.size()) + ")");
  return vector_product(flatten_view(a), flatten_view(b), true, nullptr);
}

ndarray inner(const ndarray& a, const ndarray& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return binary("multiply", a, b);
  if (a.shape().back() != b.shape().back()) not_aligned(a, b, a.ndim() - 1, b.ndim() - 1);
  if (a.ndim() == 1 && b.ndim() == 1) return vector_product(a, b, false, nullptr);
  const DType t = promote_types(a.dtype(), b.dtype()), ct = compute_dtype(t);
  const int64_t k = a.shape().back();
  Shape la(a.shape().begin(), a.shape().end() - 1), lb(b.shape().begin(), b.shape().end() - 1);
  const int64_t p = volume(la), q = volume(lb);
  StorePtr am = operand(as_matrix(a, p, k).store(), ct);
  StorePtr bm = operand(as_matrix(b, q, k).store()->transpose({1, 0}), ct);
  StorePtr c = new_array({p, q}, ct).store();
  issue_matmul(c, am, bm);
  Shape rshape = la;
  rshape.insert(rshape.end(), lb.begin(), lb.end());
  return finish(ndarray(c->reshape_view(rshape)), t, nullptr);
}

ndarray outer(const ndarray& a, const ndarray& b, const ndarray* out) {
  ndarray col(flatten_view(a).store()->new_axis(1)), row(flatten_view(b).store()->new_axis(0));
  return binary("multiply", col, row, out);
}

}  // namespace tessera
