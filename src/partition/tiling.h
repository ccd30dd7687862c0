// The default partition: cut a launch domain into about `pieces` near-equal
// rects, never smaller than `min_chunk` elements. Cuts go along the outermost
// dims first so a tile of a C-ordered store is a contiguous band of rows.
#pragma once

#include <cstdint>
#include <vector>

#include "data/rect.h"

namespace tessera::detail {

/// Tiles `domain` into at most `pieces` rects of at least `min_chunk` elements each.
std::vector<Rect> tile_domain(const Shape& domain, int pieces, int64_t min_chunk);
/// The same, cutting axis d into at most `max_cuts[d]` parts (1: never cut).
std::vector<Rect> tile_domain(const Shape& domain, int pieces, int64_t min_chunk, const Shape& max_cuts);

}  // namespace tessera::detail
