// Adding and removing axes without touching data: squeeze, expand_dims, broadcast_to,
// broadcast_arrays and atleast_1d/2d/3d. All are views.
#include <algorithm>
#include <string>

#include "data/store.h"
#include "tessera/elementwise.h"
#include "tessera/shape.h"

namespace tessera {
namespace {

std::string shape_repr(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  if (s.size() == 1) r += ",";
  return r + ")";
}

}  // namespace

ndarray squeeze(const ndarray& x) {
  auto s = x.store();
  for (int d = x.ndim() - 1; d >= 0; --d)
    if (s->shape()[d] == 1) s = s->index(d, 0);
  return ndarray(s);
}

ndarray squeeze(const ndarray& x, const std::vector<int64_t>& axes) {
  const int n = x.ndim();
  std::vector<int> ax;
  std::vector<bool> seen(static_cast<size_t>(n), false);
  for (int64_t a : axes) {
    int d = normalize_axis_index(a, n);
    if (seen[d]) throw ValueError("duplicate value in 'axis'");
    seen[d] = true;
    ax.push_back(d);
  }
  for (int d : ax)
    if (x.shape()[d] != 1) throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
  std::sort(ax.rbegin(), ax.rend());
  auto s = x.store();
  for (int d : ax) s = s->index(d, 0);
  return ndarray(s);
}

ndarray expand_dims(const ndarray& x, const std::vector<int64_t>& axes) {
  const int out_ndim = x.ndim() + static_cast<int>(axes.size());
  std::vector<int> ax = normalize_axis_tuple(axes, out_ndim);
  std::sort(ax.begin(), ax.end());
  // Ascending positions refer to the final array: each insertion leaves later ones valid.
  auto s = x.store();
  for (int d : ax) s = s->new_axis(d);
  return ndarray(s);
}

ndarray broadcast_to(const ndarray& x, const Shape& shape) {
  if (std::any_of(shape.begin(), shape.end(), [](int64_t v) { return v < 0; }))
    throw ValueError("all elements of broadcast shape must be non-negative");
  const int extra = static_cast<int>(shape.size()) - x.ndim();
  if (extra < 0) throw ValueError("input operand has more dimensions than allowed by the axis remapping");
  for (int d = 0; d < x.ndim(); ++d) {
    const int64_t have = x.shape()[d];
    if (have != 1 && have != shape[d + extra])
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       shape_repr(x.shape()) + "  and requested shape " + shape_repr(shape));
  }
  return ndarray(x.store()->broadcast_to(shape));
}

std::vector<ndarray> broadcast_arrays(const std::vector<ndarray>& arrays) {
  std::vector<Shape> shapes;
  for (const auto& a : arrays) shapes.push_back(a.shape());
  const Shape shape = broadcast_shapes(shapes);
  std::vector<ndarray> out;
  for (const auto& a : arrays) out.push_back(a.shape() == shape ? a : ndarray(a.store()->broadcast_to(shape)));
  return out;
}

ndarray atleast_1d(const ndarray& x) { return x.ndim() >= 1 ? x : ndarray(x.store()->new_axis(0)); }

ndarray atleast_2d(const ndarray& x) {
  auto s = x.store();
  while (s->ndim() < 2) s = s->new_axis(0);
  return ndarray(s);
}

ndarray atleast_3d(const ndarray& x) {
  auto s = x.store();
  switch (x.ndim()) {
    case 0: return ndarray(s->new_axis(0)->new_axis(0)->new_axis(0));
    case 1: return ndarray(s->new_axis(0)->new_axis(2));
    case 2: return ndarray(s->new_axis(2));
    default: return x;
  }
}

}  // namespace tessera
