// Constraints: what a task demands of the partitions of its arguments. Arguments are
// named by their position in the launch (the library's operations see each argument through
// a view of a shape of their choosing, so `align` relates views of one shape).
//
//   align(a, b)               a and b are cut into the same tiles (same shape).
//   broadcast(a, axes)        a is not cut along `axes` (every axis when empty): each point
//                             sees a whole along them.
//   bloat(a, b, low, high)    a's tile is b's tile grown by a halo: `low[d]` below and
//                             `high[d]` above. When a has b's shape plus the halo (a framed
//                             array), b's [lo, hi) comes with a's [lo, hi + low + high); when a
//                             has b's shape, the grown tile is clipped at a's edges.
//   image(a, b)               a's tile (along a's first axis) is what the values in b's tile
//                             point at: the smallest box holding every index b holds, or, with
//                             `ranges`, every [start, stop) pair b holds along its last axis.
//                             With `sorted` (b's values never decrease along its first axis,
//                             as CSR offsets) only the tile's first and last values are read.
//   scale(a, b, factors)      a's tile is b's tile times `factors`, clipped to a's shape.
//   min_extents(a, extents)   a's tiles span at least `extents[d]` along each axis d (or
//                             the whole axis when it is shorter).
#pragma once

#include <string>
#include <vector>

#include <cstdint>

namespace tessera {

using Shape = std::vector<int64_t>;

enum class ConstraintKind { Align, Broadcast, Bloat, Image, Scale, MinExtents };

struct Constraint {
  ConstraintKind kind = ConstraintKind::Align;
  int a = -1, b = -1;     // argument positions (b: the argument `a` follows)
  std::vector<int> axes;  // Broadcast (empty: every axis)
  Shape low, high;        // Bloat: the halo; MinExtents: `low` holds the extents
  Shape factors;          // Scale
  bool ranges = false;    // Image: b holds [start, stop) pairs along its last axis
  bool sorted = false;    // Image: b's values never decrease along its first axis

  /// "bloat(2, 0)" for error messages.
  std::string describe() const;
};

Constraint align(int a, int b);
Constraint broadcast(int a, std::vector<int> axes = {});
Constraint bloat(int a, int b, Shape low, Shape high);
Constraint image(int a, int b, bool ranges = false, bool sorted = false);
Constraint scale(int a, int b, Shape factors);
Constraint min_extents(int a, Shape extents);

}  // namespace tessera
