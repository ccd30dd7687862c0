#include "partition/tiling.h"

#include <algorithm>

#include "data/strided_rows.h"

namespace tessera::detail {

int64_t tile_count(int64_t work, int64_t min_chunk) {
  const int64_t chunk = std::max<int64_t>(min_chunk, 1);
  const int64_t count = std::min({kMaxTiles, work / chunk, std::max(kMinTiles, work / kTileWork)});
  return std::max<int64_t>(count, 1);
}

std::vector<Rect> tile_domain(const Shape& domain, int64_t pieces, int64_t min_chunk) {
  return tile_domain(domain, pieces, min_chunk, domain);
}

std::vector<Rect> tile_domain(const Shape& domain, int64_t pieces, int64_t min_chunk, const Shape& max_cuts) {
  const int64_t total = volume(domain);
  if (total == 0) return {};
  const int64_t chunk = std::max<int64_t>(min_chunk, 1);
  int64_t want = std::min<int64_t>(pieces, std::max<int64_t>(1, total / chunk));
  if (domain.empty() || want <= 1) return {Rect::of(domain)};
  // Cut the outer dims first (a tile of a C-ordered store is then a band of rows): each dim
  // takes the largest divisor of the cuts still wanted that it can hold. Fewer tiles when
  // the cuts do not fit exactly or the smallest tile would fall below the minimum chunk.
  const int nd = static_cast<int>(domain.size());
  std::vector<int64_t> cuts(nd, 1);
  for (; want > 1; --want) {
    int64_t left = want, smallest = 1;
    for (int d = 0; d < nd; ++d) {
      int64_t c = std::max<int64_t>(1, std::min({left, domain[d], max_cuts[d]}));
      while (c > 1 && left % c != 0) --c;
      cuts[d] = c;
      left /= c;
      smallest *= domain[d] / c;
    }
    if (left == 1 && smallest >= chunk) break;
  }
  if (want <= 1) return {Rect::of(domain)};
  std::vector<Rect> tiles;
  // The grid of cuts in C order: each row of it is the last axis's cuts.
  StridedRows(cuts, std::vector<const int64_t*>{}).for_each([&](const int64_t* pos, const int64_t*) {
    for (int64_t j = 0; j < cuts[nd - 1]; ++j) {
      Rect r{Shape(nd), Shape(nd)};
      for (int d = 0; d < nd; ++d) {
        const int64_t at = d == nd - 1 ? j : pos[d];
        r.lo[d] = domain[d] * at / cuts[d];
        r.hi[d] = domain[d] * (at + 1) / cuts[d];
      }
      if (!r.empty()) tiles.push_back(std::move(r));
    }
  });
  return tiles;
}

}  // namespace tessera::detail
