// The default partition: cut a launch domain into near-equal rects. How many is a property
// of the data alone (DESIGN §5): `tile_count` depends on the work of the domain (elements
// times work per element) and the minimum chunk, never on the number of cpus or ranks, so
// every per-tile computation gives the same bits on any machine. The runtime then deals the
// tiles to its workers (dynamically) and to the ranks (a contiguous block each, in order).
// Cuts go along the outermost dims first so a tile of a C-ordered store is a band of rows.
#pragma once

#include <cstdint>
#include <vector>

#include "data/rect.h"

namespace tessera::detail {

/// The tile-count rule, for `work` units of work (elements × work per element):
///
///     count = min(kMaxTiles, work / min_chunk, max(kMinTiles, work / kTileWork)), at least 1
///
/// - kTileWork: the work one tile is sized for once an array is large. Measured on the
///   benchmarks: the cost of a point task (analysis, scheduling, a cold start of the kernel)
///   is a few microseconds, so a tile of kTileWork keeps it around 1% of an element-wise
///   tile's time, while arrays of a few million elements still get enough tiles for the
///   workers of a large machine.
/// - kMaxTiles: the count stops growing here (the per-point costs of analysis and of reductions'
///   per-point partial results grow with it); larger arrays get larger tiles. Enough for
///   several tiles per worker on a 64-core node, which balances their load.
/// - kMinTiles: an array of at least kMinTiles minimum chunks is cut into at least this many
///   tiles. In test mode (minimum chunk 2) this is what cuts tiny arrays; it is no larger than
///   work / --min-cpu-chunk of the sizes that matter, so above kMinTiles × --min-cpu-chunk
///   (262,144 elements with the default) test mode tiles exactly as a normal run does.
/// - min_chunk (--min-cpu-chunk): no tile holds less work, unless there is one tile.
inline constexpr int64_t kTileWork = int64_t{1} << 18;
inline constexpr int64_t kMaxTiles = 256;
inline constexpr int64_t kMinTiles = 4;

/// How many tiles `work` units of work are cut into (the rule above).
int64_t tile_count(int64_t work, int64_t min_chunk);

/// Tiles `domain` into at most `pieces` rects of at least `min_chunk` elements each (fewer
/// when the cuts do not divide the dims evenly).
std::vector<Rect> tile_domain(const Shape& domain, int64_t pieces, int64_t min_chunk);
/// The same, cutting axis d into at most `max_cuts[d]` parts (1: never cut).
std::vector<Rect> tile_domain(const Shape& domain, int64_t pieces, int64_t min_chunk, const Shape& max_cuts);

}  // namespace tessera::detail
