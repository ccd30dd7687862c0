#include "partition/tiling.h"

#include <algorithm>

namespace tessera::detail {

std::vector<Rect> tile_domain(const Shape& domain, int pieces, int64_t min_chunk) {
  const int64_t total = volume(domain);
  if (total == 0) return {};
  int64_t want = std::min<int64_t>(pieces, std::max<int64_t>(1, total / std::max<int64_t>(min_chunk, 1)));
  if (domain.empty() || want <= 1) return {Rect::of(domain)};
  // Split the outer dims: as many cuts as dim 0 allows, the rest along dim 1, and so on.
  const int nd = static_cast<int>(domain.size());
  std::vector<int64_t> cuts(nd, 1);
  int64_t left = want;
  for (int d = 0; d < nd && left > 1; ++d) {
    cuts[d] = std::min(left, domain[d]);
    left = (left + cuts[d] - 1) / cuts[d];
  }
  std::vector<Rect> tiles;
  Shape idx(nd, 0);
  while (true) {
    Rect r{Shape(nd), Shape(nd)};
    for (int d = 0; d < nd; ++d) {
      r.lo[d] = domain[d] * idx[d] / cuts[d];
      r.hi[d] = domain[d] * (idx[d] + 1) / cuts[d];
    }
    if (!r.empty()) tiles.push_back(std::move(r));
    int d = nd - 1;
    while (d >= 0 && ++idx[d] == cuts[d]) idx[d--] = 0;
    if (d < 0) break;
  }
  return tiles;
}

}  // namespace tessera::detail
