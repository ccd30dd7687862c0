// The Array API functions of numpy.linalg over the last axes: diagonal and trace of stacked
// matrices, cross products of 3-vectors, and the stacked products vecdot, matvec and vecmat
// (batched matrix products, so each element is one BLAS dot whatever the tiling).
#include "data/store.h"
#include "numeric/linalg/views.h"
#include "tessera/elementwise.h"
#include "tessera/linalg.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"

namespace tessera {
using namespace detail;

namespace {

void need_matrices(const ndarray& x) {
  if (x.ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
}

// `x` with its axis `axis` moved last (a view).
ndarray axis_last(const ndarray& x, int axis) { return moveaxis(x, {axis}, {-1}); }

ndarray conj_if_complex(const ndarray& x) { return is_complex(x.dtype()) ? unary("conjugate", x) : x; }

ndarray unit_axis(const ndarray& x, int pos) { return ndarray(x.store()->new_axis(pos)); }
ndarray drop_axis(const ndarray& x, int pos) { return ndarray(x.store()->index(pos, 0)); }

std::string core_mismatch(const char* fn, const char* sig, int operand, int dim, int64_t got, int64_t want) {
  return std::string(fn) + ": Input operand " + std::to_string(operand) + " has a mismatch in its core dimension " +
         std::to_string(dim) + ", with gufunc signature " + sig + " (size " + std::to_string(got) +
         " is different from " + std::to_string(want) + ")";
}

void need_ndim(const char* fn, const char* sig, const ndarray& x, int operand, int want) {
  if (x.ndim() < want)
    throw ValueError(std::string(fn) + ": Input operand " + std::to_string(operand) +
                     " does not have enough dimensions (has " + std::to_string(x.ndim()) +
                     ", gufunc core with signature " + sig + " requires " + std::to_string(want) + ")");
}

}  // namespace

ndarray diagonal(const ndarray& x, int64_t offset) {
  need_matrices(x);
  const Store& s = *x.store();
  const int nd = x.ndim();
  const int64_t rows = s.shape()[nd - 2], cols = s.shape()[nd - 1];
  const int64_t rs = s.strides()[nd - 2], cs = s.strides()[nd - 1];
  const int64_t len = std::max<int64_t>(0, offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols));
  Shape shape(s.shape().begin(), s.shape().end() - 2), strides(s.strides().begin(), s.strides().end() - 2);
  shape.push_back(len);
  strides.push_back(rs + cs);
  const int64_t start = len == 0 ? 0 : (offset >= 0 ? offset * cs : -offset * rs);
  StorePtr v = s.strided(s.offset() + start, shape, strides);
  v->lock_read_only();  // NumPy's diagonal is a read-only view
  return ndarray(std::move(v));
}

ndarray trace(const ndarray& x, int64_t offset, std::optional<DType> dtype) {
  ReduceOptions o;
  o.axis = std::vector<int64_t>{-1};
  o.dtype = dtype;
  return sum(diagonal(x, offset), o);
}

ndarray cross(const ndarray& x1, const ndarray& x2, int64_t axis) {
  const int a1 = normalize_axis_index(axis, x1.ndim()), a2 = normalize_axis_index(axis, x2.ndim());
  if (x1.shape()[a1] != 3 || x2.shape()[a2] != 3)
    throw ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                     std::to_string(x1.shape()[a1]) + " and " + std::to_string(x2.shape()[a2]) +
                     " dimensional instead.");
  const ndarray a = axis_last(x1, a1), b = axis_last(x2, a2);
  auto part = [](const ndarray& v, int64_t i) { return ndarray(v.store()->index(v.ndim() - 1, i)); };
  // NumPy's order of operations: each component is one product minus another.
  auto component = [&](int i, int j) {
    return binary("subtract", binary("multiply", part(a, i), part(b, j)), binary("multiply", part(a, j), part(b, i)));
  };
  const ndarray c = stack({component(1, 2), component(2, 0), component(0, 1)}, -1);
  return moveaxis(c, {-1}, {normalize_axis_index(axis, c.ndim())});
}

ndarray vecdot(const ndarray& x1, const ndarray& x2, int64_t axis) {
  const char* sig = "(n),(n)->()";
  need_ndim("vecdot", sig, x1, 0, 1);
  need_ndim("vecdot", sig, x2, 1, 1);
  const ndarray a = axis_last(x1, normalize_axis_index(axis, x1.ndim()));
  const ndarray b = axis_last(x2, normalize_axis_index(axis, x2.ndim()));
  if (a.shape().back() != b.shape().back())
    throw ValueError(core_mismatch("vecdot", sig, 1, 0, b.shape().back(), a.shape().back()));
  const ndarray r = matmul(unit_axis(conj_if_complex(a), a.ndim() - 1), unit_axis(b, b.ndim()));
  return drop_axis(drop_axis(r, r.ndim() - 1), r.ndim() - 2);
}

ndarray matvec(const ndarray& x1, const ndarray& x2) {
  const char* sig = "(m,n),(n)->(m)";
  need_ndim("matvec", sig, x1, 0, 2);
  need_ndim("matvec", sig, x2, 1, 1);
  if (x1.shape().back() != x2.shape().back())
    throw ValueError(core_mismatch("matvec", sig, 1, 0, x2.shape().back(), x1.shape().back()));
  const ndarray r = matmul(x1, unit_axis(x2, x2.ndim()));
  return drop_axis(r, r.ndim() - 1);
}

ndarray vecmat(const ndarray& x1, const ndarray& x2) {
  const char* sig = "(n),(n,m)->(m)";
  need_ndim("vecmat", sig, x1, 0, 1);
  need_ndim("vecmat", sig, x2, 1, 2);
  if (x2.shape()[x2.ndim() - 2] != x1.shape().back())
    throw ValueError(core_mismatch("vecmat", sig, 1, 0, x2.shape()[x2.ndim() - 2], x1.shape().back()));
  const ndarray r = matmul(unit_axis(conj_if_complex(x1), x1.ndim() - 1), x2);
  return drop_axis(r, r.ndim() - 2);
}

}  // namespace tessera
