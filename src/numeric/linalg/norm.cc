// linalg.norm, following NumPy's definition case by case: the flattened 2-norm is a
// deterministic dot product; other vector norms reduce along one axis; matrix norms
// reduce along two axes or take singular values.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "numeric/linalg/axis_reduce.h"
#include "numeric/linalg/svd_norm.h"
#include "numeric/linalg/views.h"
#include "tessera/elementwise.h"
#include "tessera/linalg.h"
#include "tessera/shape.h"

namespace tessera {
using namespace detail;

NormOrder NormOrder::named(const std::string& s) {
  if (s == "fro" || s == "f") return {Kind::Fro, 0, s};
  if (s == "nuc") return {Kind::Nuc, 0, s};
  return {Kind::Invalid, 0, s};
}

namespace {

using Kind = NormOrder::Kind;

bool is(const NormOrder& o, double p) { return o.kind == Kind::Number && o.p == p; }

// (conj(x) * x).real
ndarray squared_magnitude(const ndarray& x) {
  if (!is_complex(x.dtype())) return binary("multiply", x, x);
  return unary("real", binary("multiply", unary("conjugate", x), x));
}

ndarray vector_norm(const ndarray& x, int axis, const NormOrder& ord) {
  if (is(ord, INFINITY)) return reduce_axes(abs(x), {axis}, AxisReduction::Max);
  if (is(ord, -INFINITY)) return reduce_axes(abs(x), {axis}, AxisReduction::Min);
  if (is(ord, 0))
    return reduce_axes(astype(binary("not_equal", x, 0), real_for(x.dtype())), {axis}, AxisReduction::Sum);
  if (is(ord, 1)) return reduce_axes(abs(x), {axis}, AxisReduction::Sum);
  if (ord.kind == Kind::Default || is(ord, 2))
    return sqrt(reduce_axes(squared_magnitude(x), {axis}, AxisReduction::Sum));
  if (ord.kind != Kind::Number) throw ValueError("Invalid norm order '" + ord.name + "' for vectors");
  ndarray sum = reduce_axes(binary("power", abs(x), ord.p), {axis}, AxisReduction::Sum);
  // NumPy raises to reciprocal(ord, dtype=ret.dtype): 1/ord rounded to the result's dtype.
  return binary("power", sum, Scalar(1.0 / ord.p).cast(sum.dtype()));
}

ndarray matrix_norm(const ndarray& x, int row, int col, const NormOrder& ord) {
  auto singular = [&](SvdReduction kind) {
    std::vector<int> perm;
    for (int d = 0; d < x.ndim(); ++d)
      if (d != row && d != col) perm.push_back(d);
    perm.push_back(row);
    perm.push_back(col);
    return svd_norm(permuted(x, perm), kind);
  };
  // Sum |x| over `first`, then reduce the result over `second` (an axis of x, renumbered).
  auto sum_then = [&](int first, int second, AxisReduction kind) {
    return reduce_axes(reduce_axes(abs(x), {first}, AxisReduction::Sum), {second > first ? second - 1 : second}, kind);
  };
  if (is(ord, 2)) return singular(SvdReduction::Max);
  if (is(ord, -2)) return singular(SvdReduction::Min);
  if (is(ord, 1)) return sum_then(row, col, AxisReduction::Max);
  if (is(ord, INFINITY)) return sum_then(col, row, AxisReduction::Max);
  if (is(ord, -1)) return sum_then(row, col, AxisReduction::Min);
  if (is(ord, -INFINITY)) return sum_then(col, row, AxisReduction::Min);
  if (ord.kind == Kind::Default || ord.kind == Kind::Fro)
    return sqrt(reduce_axes(squared_magnitude(x), {row, col}, AxisReduction::Sum));
  if (ord.kind == Kind::Nuc) return singular(SvdReduction::Sum);
  throw ValueError("Invalid norm order for matrices.");
}

}  // namespace

ndarray norm(const ndarray& input, const NormOrder& ord, const std::optional<std::vector<int64_t>>& axis,
             bool keepdims) {
  const ndarray x = is_inexact(input.dtype()) ? input : astype(input, DType::Float64);
  const int nd = x.ndim();
  if (!axis && (ord.kind == Kind::Default || (ord.kind == Kind::Fro && nd == 2) || (is(ord, 2) && nd == 1))) {
    const ndarray f = flatten_view(x);
    ndarray sq;
    if (is_complex(f.dtype())) {
      const ndarray re = unary("real", f), im = unary("imag", f);
      sq = binary("add", dot(re, re), dot(im, im));
    } else {
      sq = dot(f, f);
    }
    ndarray r = sqrt(sq);
    if (keepdims) r = with_unit_axes(r, std::vector<int>(nd, 0));
    return r;
  }
  std::vector<int64_t> axes(nd);
  if (axis) axes = *axis;
  else std::iota(axes.begin(), axes.end(), 0);
  if (axes.size() == 1) {
    const int a = normalized_axis(axes[0], nd);
    ndarray r = vector_norm(x, a, ord);
    return keepdims ? with_unit_axes(r, {a}) : r;
  }
  if (axes.size() == 2) {
    const int row = normalized_axis(axes[0], nd), col = normalized_axis(axes[1], nd);
    if (row == col) throw ValueError("Duplicate axes given.");
    ndarray r = matrix_norm(x, row, col, ord);
    return keepdims ? with_unit_axes(r, {std::min(row, col), std::max(row, col)}) : r;
  }
  throw ValueError("Improper number of dimensions to norm.");
}

ndarray vector_norm(const ndarray& x, const std::optional<std::vector<int64_t>>& axis, bool keepdims,
                    const NormOrder& ord) {
  const int nd = x.ndim();
  ndarray v;
  int64_t along = 0;
  std::vector<int> reduced;
  if (!axis) {
    v = flatten_view(x);
    for (int d = 0; d < nd; ++d) reduced.push_back(d);
  } else if (axis->size() == 1) {
    v = x;
    along = (*axis)[0];
    reduced.push_back(normalized_axis(along, nd));
  } else {
    // NumPy: the axes moved first and seen as one, the others after in order.
    const std::vector<int> axes = normalize_axis_tuple(*axis, nd);
    std::vector<int64_t> perm(axes.begin(), axes.end());
    Shape shape{1};
    for (int a : axes) shape[0] *= x.shape()[a];
    for (int d = 0; d < nd; ++d)
      if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
        perm.push_back(d);
        shape.push_back(x.shape()[d]);
      }
    v = reshape(transpose(x, perm), shape);
    reduced.assign(axes.begin(), axes.end());
  }
  ndarray r = norm(v, ord, std::vector<int64_t>{along}, false);
  if (!keepdims) return r;
  Shape shape = x.shape();
  for (int d : reduced) shape[d] = 1;
  return reshape(r, shape);
}

ndarray matrix_norm(const ndarray& x, bool keepdims, const NormOrder& ord) {
  return norm(x, ord, std::vector<int64_t>{-2, -1}, keepdims);
}

}  // namespace tessera
