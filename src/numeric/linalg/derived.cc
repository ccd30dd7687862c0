// numpy.linalg's functions built on the factorizations and products, step by step as
// NumPy defines them: pinv, matrix_rank, cond, matrix_power, multi_dot, tensorsolve,
// tensorinv.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>

#include "numeric/linalg/batched_op.h"
#include "numeric/linalg/cpu/factor_kernels.h"
#include "numeric/linalg/linalg_common.h"
#include "numeric/linalg/views.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/linalg.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"

namespace tessera {
using namespace detail;

namespace {

// The last two axes of `x` swapped (a view).
ndarray swap_last(const ndarray& x) { return matrix_transpose(x); }

// `x` with a new last axis of length 1 (a view).
ndarray last_axis(const ndarray& x) { return ndarray(x.store()->new_axis(x.ndim())); }

double eps_of(DType t) { return real_for(t) == DType::Float32 ? FLT_EPSILON : DBL_EPSILON; }

bool empty_2d(const ndarray& a) { return a.size() == 0 && a.shape()[a.ndim() - 1] * a.shape()[a.ndim() - 2] == 0; }

}  // namespace

ndarray pinv(const ndarray& a, const std::optional<Operand>& rcond, bool hermitian) {
  assert_stacked_2d(a);
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
  if (empty_2d(a)) {
    Shape shape(a.shape().begin(), a.shape().end() - 2);
    shape.insert(shape.end(), {n, m});
    return empty(shape, a.dtype());
  }
  // NumPy makes rcond an array: a strong float64 unless it is one already.
  Operand rc = rcond ? *rcond : Operand(Scalar(static_cast<double>(std::max(m, n)) * eps_of(a.dtype())));
  if (!rc.is_array()) rc = Operand(Scalar(rc.scalar()).cast(rc.scalar().dtype()));
  const ndarray conj = is_complex(a.dtype()) ? unary("conjugate", a) : a;
  const std::vector<ndarray> usv = svd(conj, false, true, hermitian);
  const ndarray& u = usv[0];
  const ndarray& s = usv[1];
  const ndarray& vt = usv[2];
  ReduceOptions last;
  last.axis = std::vector<int64_t>{-1};
  last.keepdims = true;
  const ndarray cutoff = binary("multiply", rc.is_array() ? Operand(last_axis(rc.array())) : rc, amax(s, last));
  const ndarray large = binary("greater", s, cutoff);
  const ndarray inv_s =
      where(large, binary("divide", Operand(Scalar(1).cast(s.dtype())), s), Scalar(0).cast(s.dtype()));
  return matmul(swap_last(vt), binary("multiply", last_axis(inv_s), swap_last(u)));
}

ndarray matrix_rank(const ndarray& a, const std::optional<ndarray>& tol, bool hermitian,
                    const std::optional<ndarray>& rtol) {
  if (tol && rtol) throw ValueError("`tol` and `rtol` can't be both set.");
  if (a.ndim() < 2) return astype(any(binary("not_equal", a, 0)), DType::Int64);
  const ndarray s = svd(a, false, false, hermitian)[0];
  ndarray limit;
  if (tol) {
    limit = last_axis(*tol);
  } else {
    ReduceOptions last;
    last.axis = std::vector<int64_t>{-1};
    last.keepdims = true;
    last.initial = Scalar(0);
    const int64_t mn = std::max(a.shape()[a.ndim() - 2], a.shape().back());
    const Operand r = rtol ? Operand(last_axis(*rtol)) : Operand(static_cast<double>(mn) * eps_of(s.dtype()));
    limit = binary("multiply", amax(s, last), r);
  }
  return count_nonzero(binary("greater", s, limit), std::vector<int64_t>{-1});
}

ndarray cond(const ndarray& x, const NormOrder& p) {
  if (x.ndim() >= 2 && empty_2d(x)) throw LinAlgError("cond is not defined on empty arrays");
  ndarray r;
  const bool by_svd =
      p.kind == NormOrder::Kind::Default || (p.kind == NormOrder::Kind::Number && (p.p == 2 || p.p == -2));
  if (by_svd) {
    const ndarray s = svd(x, false, false, false)[0];
    const int last = s.ndim() - 1;
    const ndarray first = ndarray(s.store()->index(last, 0)),
                  final = ndarray(s.store()->index(last, s.shape()[last] - 1));
    r = p.kind == NormOrder::Kind::Number && p.p == -2 ? binary("divide", final, first)
                                                       : binary("divide", first, final);
  } else {
    assert_stacked_square(x);
    const LinalgTypes t = linalg_types({x});
    const int64_t n = x.shape().back();
    const Shape batch = batch_shape(x.shape());
    // NumPy's inverse with errors ignored: NaNs where a matrix is singular.
    StorePtr ix = batch_output(t.work, batch, {n, n});
    issue_batched("inv", static_cast<int>(batch.size()), {{batch_input(x, t.work, x.shape())}, {ix, true}},
                  inv_kernel(t.work, false), n * n * n);
    const std::vector<int64_t> axes{-2, -1};
    r = binary("multiply", norm(x, p, axes), norm(ndarray(ix), p, axes));
    r = astype(r, real_for(t.result));
  }
  // NaN where no input was NaN (a singular matrix) is an infinite condition number.
  ReduceOptions mat;
  mat.axis = std::vector<int64_t>{-2, -1};
  const ndarray nan_mask = binary("logical_and", unary("isnan", r), unary("logical_not", any(unary("isnan", x), mat)));
  return where(nan_mask, Scalar(std::numeric_limits<double>::infinity()).cast(r.dtype()), r);
}

ndarray matrix_power(const ndarray& input, int64_t n) {
  assert_stacked_square(input);
  ndarray a = input;
  if (n == 0) {
    const int64_t m = a.shape().back();
    return copy(broadcast_to(eye(m, m, 0, a.dtype()), a.shape()));
  }
  if (n < 0) {
    a = inv(a);
    n = -n;
  }
  if (n == 1) return a;
  if (n == 2) return matmul(a, a);
  if (n == 3) return matmul(matmul(a, a), a);
  // Binary decomposition, from the lowest bit, as NumPy multiplies.
  ndarray z, result;
  bool have_z = false, have_result = false;
  while (n > 0) {
    z = have_z ? matmul(z, z) : a;
    have_z = true;
    const bool bit = n % 2;
    n /= 2;
    if (bit) {
      result = have_result ? matmul(result, z) : z;
      have_result = true;
    }
  }
  return result;
}

namespace {

void assert_2d(const ndarray& a) {
  if (a.ndim() != 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be two-dimensional");
}

ndarray chain(const std::vector<ndarray>& arrays, const std::vector<std::vector<size_t>>& order, size_t i, size_t j,
              const ndarray* out) {
  if (i == j) return arrays[i];
  return dot(chain(arrays, order, i, order[i][j], nullptr), chain(arrays, order, order[i][j] + 1, j, nullptr), out);
}

}  // namespace

ndarray multi_dot(const std::vector<ndarray>& input, const ndarray* out) {
  const size_t n = input.size();
  if (n < 2) throw ValueError("Expecting at least two arrays.");
  if (n == 2) return dot(input[0], input[1], out);
  std::vector<ndarray> arrays = input;
  const bool first_1d = arrays[0].ndim() == 1, last_1d = arrays[n - 1].ndim() == 1;
  if (first_1d) arrays[0] = ndarray(arrays[0].store()->new_axis(0));
  if (last_1d) arrays[n - 1] = ndarray(arrays[n - 1].store()->new_axis(1));
  for (const ndarray& a : arrays) assert_2d(a);
  ndarray result;
  if (n == 3) {
    const double a0 = arrays[0].shape()[0], a1b0 = arrays[0].shape()[1];
    const double b1c0 = arrays[2].shape()[0], c1 = arrays[2].shape()[1];
    const double cost1 = a0 * b1c0 * (a1b0 + c1), cost2 = a1b0 * c1 * (a0 + b1c0);
    result =
        cost1 < cost2 ? dot(dot(arrays[0], arrays[1]), arrays[2], out) : dot(arrays[0], dot(arrays[1], arrays[2]), out);
  } else {
    // NumPy's matrix-chain order (Cormen), ties resolved the same way.
    std::vector<double> p;
    for (const ndarray& a : arrays) p.push_back(static_cast<double>(a.shape()[0]));
    p.push_back(static_cast<double>(arrays[n - 1].shape()[1]));
    std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0));
    std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
    for (size_t l = 1; l < n; ++l)
      for (size_t i = 0; i + l < n; ++i) {
        const size_t j = i + l;
        cost[i][j] = std::numeric_limits<double>::infinity();
        for (size_t k = i; k < j; ++k) {
          const double q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
          if (q < cost[i][j]) {
            cost[i][j] = q;
            split[i][j] = k;
          }
        }
      }
    result = chain(arrays, split, 0, n - 1, out);
  }
  if (first_1d && last_1d) return ndarray(result.store()->index(0, 0)->index(0, 0));
  if (first_1d || last_1d) return flatten_view(result);
  return result;
}

ndarray tensorsolve(const ndarray& input, const ndarray& b, const std::optional<std::vector<int64_t>>& axes) {
  ndarray a = input;
  const int an = a.ndim();
  if (axes) {
    std::vector<int64_t> all(an);
    std::iota(all.begin(), all.end(), 0);
    for (int64_t k : *axes) {
      auto it = std::find(all.begin(), all.end(), k);
      if (it == all.end()) throw ValueError("list.remove(x): x not in list");
      all.erase(it);
      all.push_back(k);
    }
    a = transpose(a, all);
  }
  const int tail = an - b.ndim();
  const Shape old = tail == 0 ? a.shape() : Shape(a.shape().end() - std::min(tail, an), a.shape().end());
  int64_t prod = 1;
  for (int64_t k : old) prod *= k;
  if (a.size() != prod * prod)
    throw LinAlgError(
        "Input arrays must satisfy the requirement             prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
  const ndarray res = solve(reshape(a, {prod, prod}), flatten_view(b));
  return reshape(res, old);
}

ndarray tensorinv(const ndarray& a, int64_t ind) {
  if (ind <= 0) throw ValueError("Invalid ind argument.");
  const Shape& old = a.shape();
  if (ind > static_cast<int64_t>(old.size())) ind = static_cast<int64_t>(old.size());
  Shape inv_shape(old.begin() + ind, old.end());
  inv_shape.insert(inv_shape.end(), old.begin(), old.begin() + ind);
  int64_t prod = 1;
  for (auto it = old.begin() + ind; it != old.end(); ++it) prod *= *it;
  if (prod == 0 || a.size() % prod != 0)
    throw ValueError("cannot reshape array of size " + std::to_string(a.size()) + " into shape (" +
                     std::to_string(prod) + ",newaxis)");
  return reshape(inv(reshape(a, {prod, a.size() / prod})), inv_shape);
}

}  // namespace tessera
