// The default partition: cut a launch domain into near-equal rects. How many is a property
// of the data alone (DESIGN §5): `tile_count` depends on the elements of the domain and the
// minimum chunk (which an operation's work per element lowers: solver.h, tiles_of), never on
// the number of cpus or ranks, so
// every per-tile computation gives the same bits on any machine. The runtime then deals the
// tiles to its workers (dynamically) and to the ranks (a contiguous block each, in order).
// Cuts go along the outermost dims first so a tile of a C-ordered store is a band of rows.
#pragma once

#include <cstdint>
#include <vector>

#include "data/rect.h"

namespace tessera::detail {

/// The tile-count rule, for a domain of `work` elements (the minimum chunk divided by the
/// operation's work per element, so every operation over one large array is cut alike):
///
///     count = min(kMaxTiles, work / min_chunk, max(kMinTiles, work / kTileWork)), at least 1
///
/// - kTileWork (65,536, the default --min-cpu-chunk): the work a tile is sized for. A point
///   task costs well under a microsecond of CPU time beyond its kernel (measured: 16 Mi
///   element-wise updates take the same CPU time in 4 and in 256 tiles), against some 50 us
///   for an element-wise tile of 65,536 doubles; small tiles let the workers of a large
///   machine share arrays of a few million elements (the count is never below what one tile
///   per worker of 64 gave before for such arrays).
/// - kMaxTiles (256): the count stops growing here — four or more tiles per worker on 64
///   cores; larger arrays (16 Mi elements and up) get larger tiles. Per-point costs that grow
///   with the count (analysis, per-point partial results of task reductions) stay bounded.
/// - kMinTiles (4): an array of at least kMinTiles minimum chunks is cut into at least this
///   many tiles. With the default minimum chunk this changes nothing; in test mode (minimum
///   chunk 2) it is what cuts tiny arrays. Since kTileWork >= the default minimum chunk, test
///   mode cuts every array of at least kMinTiles x 65,536 elements exactly as a normal run.
/// - min_chunk (--min-cpu-chunk): no tile holds less work, unless there is one tile.
///
/// Nothing of the machine enters: workers take the tiles as they come, ranks a contiguous
/// block each. An operation whose tiles cost more near their edges (fused stencil sweeps
/// recompute a halo) asks for thicker tiles with a minimum-extents constraint.
inline constexpr int64_t kTileWork = int64_t{1} << 16;
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
