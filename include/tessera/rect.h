// An N-D box of indices [lo, hi): a tile of an array, what a point of a launch touches of an
// argument (tessera/task.h), the unit of partitioning and dependence analysis.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera {

using Shape = std::vector<int64_t>;

/// The box [lo, hi) of an array's indices: lo[d] <= i[d] < hi[d] along each axis d.
struct Rect {
  Shape lo, hi;

  Rect() = default;
  Rect(Shape l, Shape h) : lo(std::move(l)), hi(std::move(h)) {}
  /// The whole index space of `shape`.
  static Rect of(const Shape& shape) { return Rect(Shape(shape.size(), 0), shape); }
  bool operator==(const Rect& o) const { return lo == o.lo && hi == o.hi; }
  bool operator!=(const Rect& o) const { return !(*this == o); }

  int ndim() const { return static_cast<int>(lo.size()); }
  int64_t volume() const {
    int64_t v = 1;
    for (int d = 0; d < ndim(); ++d) v *= hi[d] > lo[d] ? hi[d] - lo[d] : 0;
    return v;
  }
  bool empty() const { return volume() == 0; }
  bool overlaps(const Rect& o) const {
    for (int d = 0; d < ndim(); ++d)
      if (lo[d] >= o.hi[d] || o.lo[d] >= hi[d]) return false;
    return true;
  }
  bool contains(const Rect& o) const {
    for (int d = 0; d < ndim(); ++d)
      if (o.lo[d] < lo[d] || o.hi[d] > hi[d]) return false;
    return true;
  }
};

}  // namespace tessera
