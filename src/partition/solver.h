// The partitioner: solves an operation's constraints into a launch — the tiles its point
// tasks run on and, for each point, the rect of every argument (DESIGN §5).
//
// Aligned arguments form classes (union-find). One class is the key: the class of the
// first argument written (outputs drive a launch, so data stays with its writer), or else
// the largest; its shape is tiled by the data's tile count (partition/tiling.h: its work and
// the minimum chunk, nothing of the machine) into tiles of at least `min_chunk` work,
// never along an axis one of its members broadcasts, nor below a member's minimum extents
// — or cut as `preferred` says when that tiling is still valid (the key store's partition
// from an earlier operation: data stays where it is). Arguments derived from others (bloat,
// scale, image) follow their source's rect point by point; every other argument is whole
// for every point. A launch of one point gives every argument whole.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "data/rect.h"
#include "partition/constraint.h"

namespace tessera::detail {

/// The values an image constraint reads: the smallest and one past the largest index that
/// argument `arg` holds in `rect` (with `ranges`, of its [start, stop) pairs; `rect` then
/// spans the pairs' axis whole). False when the values cannot be read here; the image is
/// then the whole argument it constrains.
using ImageReader = std::function<bool(int arg, const Rect& rect, bool ranges, int64_t& lo, int64_t& hi)>;

struct PartitionRequest {
  std::vector<Shape> shapes;  // each argument's shape as constraints see it (ArgView::shape)
  std::vector<bool> written;  // per argument: written (outputs drive the launch)
  std::vector<Constraint> constraints;
  /// 0: as many tiles as the data gives (tile_count of the key class's work); n > 0: at most
  /// n tiles (1: one point over every argument whole).
  int64_t pieces = 0;
  int64_t min_chunk = 1;  // work per tile at least this, unless the launch is one tile
  int64_t weight = 1;     // work per element of the key class
  /// Tiles argument `i` was cut into before (its key partition), or null; the key class
  /// reuses the first valid one among its members.
  std::function<const std::vector<Rect>*(int i)> preferred;
  ImageReader image;
  /// Positions along axis 0 of argument `i`'s shape where tiles must be cut, in increasing
  /// order (with several ranks: where one rank's part of the array it views ends), or empty.
  /// Used for the key class's argument when its axis 0 may be cut anywhere; each part between
  /// cuts is tiled alone, with its share of the pieces.
  std::function<std::vector<int64_t>(int i)> cuts;
};

struct Launch {
  std::vector<Rect> tiles;               // per point: the key class's rect
  std::vector<std::vector<Rect>> rects;  // [point][argument], in the argument's view space
  int key = -1;                          // an argument of the key class (-1: none)
  /// With several ranks: the rank that runs each point, when the launch says (an operation cut
  /// at the ranks' parts, or one whose points must run where another launch's ran); empty:
  /// the points are dealt to the ranks in blocks.
  std::vector<int> owners;
  size_t points() const { return tiles.size(); }
};

/// How many tiles a domain of `shape` is cut into (tiling.h's tile_count of its elements): an
/// operation with more work per element (`weight`) lowers the minimum chunk by as much, so a
/// small but costly operation is still cut, while every operation over one large array is cut
/// alike — its tiles, and so the rank that holds each, are the same for all of them.
int64_t tiles_of(const Shape& shape, int64_t weight, int64_t min_chunk);
/// An upper bound on the points of `request`'s launch, from its shapes alone (the key class
/// is one of them): what per-point buffers are sized for before the launch is solved.
int64_t max_points(const PartitionRequest& request);
/// Checks `request.constraints` against the shapes; throws ValueError naming the constraint.
void check_constraints(const PartitionRequest& request);
/// Solves `request` (call check_constraints first for a clear error on bad constraints).
Launch solve(const PartitionRequest& request);
/// The launch of one point over every argument whole.
Launch whole_launch(const std::vector<Shape>& shapes);

}  // namespace tessera::detail
