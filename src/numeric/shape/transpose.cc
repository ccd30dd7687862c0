// Axis permutations: transpose, matrix_transpose, swapaxes, moveaxis. All are views.
#include <algorithm>
#include <numeric>

#include "data/store.h"
#include "tessera/shape.h"

namespace tessera {

ndarray transpose(const ndarray& x) {
  std::vector<int> perm(static_cast<size_t>(x.ndim()));
  std::iota(perm.rbegin(), perm.rend(), 0);
  return ndarray(x.store()->transpose(perm));
}

ndarray transpose(const ndarray& x, const std::vector<int64_t>& axes) {
  const int n = x.ndim();
  if (static_cast<int>(axes.size()) != n) throw ValueError("axes don't match array");
  std::vector<int> perm = normalize_axis_tuple(axes, n, {}, /*allow_duplicate=*/true);
  std::vector<bool> seen(static_cast<size_t>(n), false);
  for (int a : perm) {
    if (seen[a]) throw ValueError("repeated axis in transpose");
    seen[a] = true;
  }
  return ndarray(x.store()->transpose(perm));
}

ndarray matrix_transpose(const ndarray& x) {
  if (x.ndim() < 2) throw ValueError("matrix transpose with ndim < 2 is undefined");
  return swapaxes(x, -1, -2);
}

ndarray swapaxes(const ndarray& x, int64_t axis1, int64_t axis2) {
  const int a = normalize_axis_index(axis1, x.ndim(), "axis1");
  const int b = normalize_axis_index(axis2, x.ndim(), "axis2");
  std::vector<int> perm(static_cast<size_t>(x.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[a], perm[b]);
  return ndarray(x.store()->transpose(perm));
}

ndarray moveaxis(const ndarray& x, const std::vector<int64_t>& source, const std::vector<int64_t>& destination) {
  const int n = x.ndim();
  std::vector<int> src = normalize_axis_tuple(source, n, "source");
  std::vector<int> dst = normalize_axis_tuple(destination, n, "destination");
  if (src.size() != dst.size())
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  std::vector<int> order;
  for (int d = 0; d < n; ++d)
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  std::vector<std::pair<int, int>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (auto [to, from] : moves) order.insert(order.begin() + to, from);
  return ndarray(x.store()->transpose(order));
}

}  // namespace tessera
