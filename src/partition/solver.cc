#include "partition/solver.h"

#include <algorithm>
#include <climits>
#include <numeric>

#include "partition/tiling.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

[[noreturn]] void refuse(const Constraint& c, const std::string& why) {
  throw ValueError("constraint " + c.describe() + ": " + why);
}

struct Classes {
  std::vector<int> parent;
  explicit Classes(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the lowest argument names the class
  }
};

bool valid_tiling(const std::vector<Rect>& tiles, const Shape& shape, const Shape& max_cuts, const Shape& min_extents,
                  int64_t pieces, int64_t min_chunk, int64_t weight) {
  if (tiles.empty() || static_cast<int64_t>(tiles.size()) > pieces) return false;
  int64_t covered = 0;
  for (const Rect& t : tiles) {
    if (t.ndim() != static_cast<int>(shape.size()) || t.empty()) return false;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (t.lo[d] < 0 || t.hi[d] > shape[d]) return false;
      if (max_cuts[d] == 1 && (t.lo[d] != 0 || t.hi[d] != shape[d])) return false;
      if (t.hi[d] - t.lo[d] < std::min(min_extents[d], shape[d])) return false;
    }
    if (tiles.size() > 1 && t.volume() * weight < min_chunk) return false;
    covered += t.volume();
  }
  // Tiles from a tiler never overlap, so covering the volume means covering the shape.
  return covered == volume(shape);
}

// Whether no tile spans one of `cuts` (positions along axis 0).
bool respects_cuts(const std::vector<Rect>& tiles, const std::vector<int64_t>& cuts) {
  for (const Rect& t : tiles)
    for (int64_t c : cuts)
      if (t.lo[0] < c && c < t.hi[0]) return false;
  return true;
}

// `domain` cut at `cuts` along axis 0, each part tiled alone into its share of `pieces`
// (by its rows, at least one): the default tiling within each part, whose tiles span at least
// `min_rows` rows where the part has them.
std::vector<Rect> tile_between_cuts(const Shape& domain, const std::vector<int64_t>& cuts, int64_t pieces,
                                    int64_t chunk, const Shape& max_cuts, int64_t min_rows) {
  std::vector<int64_t> edges{0};
  for (int64_t c : cuts)
    if (c > edges.back() && c < domain[0]) edges.push_back(c);
  edges.push_back(domain[0]);
  std::vector<Rect> tiles;
  for (size_t s = 0; s + 1 < edges.size(); ++s) {
    Shape part = domain, part_cuts = max_cuts;
    part[0] = edges[s + 1] - edges[s];
    part_cuts[0] = std::max<int64_t>(1, std::min(part_cuts[0], part[0] / std::max<int64_t>(1, min_rows)));
    const int64_t share = std::max<int64_t>(1, (pieces * part[0] + domain[0] / 2) / domain[0]);
    for (Rect& t : tile_domain(part, share, chunk, part_cuts)) {
      t.lo[0] += edges[s];
      t.hi[0] += edges[s];
      tiles.push_back(std::move(t));
    }
  }
  return tiles;
}

}  // namespace

int64_t tiles_of(const Shape& shape, int64_t weight, int64_t min_chunk) {
  return tile_count(volume(shape), std::max<int64_t>(1, min_chunk / std::max<int64_t>(1, weight)));
}

int64_t max_points(const PartitionRequest& q) {
  if (q.pieces > 0) return q.pieces;
  int64_t most = 1;
  for (const Shape& s : q.shapes) most = std::max(most, tiles_of(s, q.weight, q.min_chunk));
  return most;
}

void check_constraints(const PartitionRequest& q) {
  const int n = static_cast<int>(q.shapes.size());
  auto arg = [&](const Constraint& c, int i) {
    if (i < 0 || i >= n)
      refuse(c, "no argument " + std::to_string(i) + " (the operation has " + std::to_string(n) + ")");
    return q.shapes[static_cast<size_t>(i)];
  };
  for (const Constraint& c : q.constraints) {
    const Shape& a = arg(c, c.a);
    const size_t nd = a.size();
    switch (c.kind) {
      case ConstraintKind::Align:
        if (arg(c, c.b) != a)
          refuse(c, "aligned arguments need one shape, not " + shape_text(a) + " and " + shape_text(q.shapes[c.b]));
        break;
      case ConstraintKind::Broadcast:
        for (int x : c.axes)
          if (x < 0 || x >= static_cast<int>(nd))
            refuse(c, "axis " + std::to_string(x) + " is out of bounds for an argument of " + std::to_string(nd) +
                          " dimensions");
        break;
      case ConstraintKind::Bloat: {
        const Shape& b = arg(c, c.b);
        if (b.size() != nd || c.low.size() != nd || c.high.size() != nd)
          refuse(c, "needs arguments of one rank and one halo extent per axis below and above");
        for (size_t d = 0; d < nd; ++d) {
          if (c.low[d] < 0 || c.high[d] < 0) refuse(c, "halo extents must be non-negative");
          if (a[d] != b[d] && a[d] != b[d] + c.low[d] + c.high[d])
            refuse(c, "the bloated argument of shape " + shape_text(a) + " is neither the shape " + shape_text(b) +
                          " nor that shape plus the halo");
        }
        break;
      }
      case ConstraintKind::Image: {
        const Shape& b = arg(c, c.b);
        if (nd == 0) refuse(c, "the image needs an argument with at least one axis");
        if (c.ranges && (b.empty() || b.back() != 2))
          refuse(c, "ranges need [start, stop) pairs along the last axis, not shape " + shape_text(b));
        break;
      }
      case ConstraintKind::Scale:
        if (arg(c, c.b).size() != nd || c.factors.size() != nd)
          refuse(c, "needs one factor per axis of two arguments of one rank");
        for (int64_t f : c.factors)
          if (f < 1) refuse(c, "factors must be positive");
        break;
      case ConstraintKind::MinExtents:
        if (c.low.size() != nd) refuse(c, "needs one extent per axis");
        break;
    }
  }
}

Launch whole_launch(const std::vector<Shape>& shapes) {
  Launch launch;
  std::vector<Rect> rects;
  rects.reserve(shapes.size());
  for (const Shape& s : shapes) rects.push_back(Rect::of(s));
  launch.tiles.push_back(shapes.empty() ? Rect() : rects.front());
  launch.rects.push_back(std::move(rects));
  launch.key = shapes.empty() ? -1 : 0;
  return launch;
}

Launch solve(const PartitionRequest& q) {
  const int n = static_cast<int>(q.shapes.size());
  TESSERA_CHECK(q.written.size() == q.shapes.size(), "a partition request needs one written flag per argument");
  Classes classes(static_cast<size_t>(n));
  for (const Constraint& c : q.constraints)
    if (c.kind == ConstraintKind::Align) classes.join(c.a, c.b);
  // The constraint each class derives from (bloat, scale, image), if any.
  std::vector<int> source(static_cast<size_t>(n), -1);
  for (size_t k = 0; k < q.constraints.size(); ++k) {
    const Constraint& c = q.constraints[k];
    if (c.kind != ConstraintKind::Bloat && c.kind != ConstraintKind::Scale && c.kind != ConstraintKind::Image) continue;
    const int cls = classes.find(c.a);
    if (source[cls] >= 0) refuse(c, "argument " + std::to_string(c.a) + " already follows another argument");
    source[cls] = static_cast<int>(k);
  }
  // Derived classes in an order where each source comes first (a cycle is refused).
  std::vector<int> order;
  std::vector<int> state(static_cast<size_t>(n), 0);  // 0 new, 1 visiting, 2 done
  std::function<void(int)> visit = [&](int cls) {
    if (state[cls] == 2) return;
    if (state[cls] == 1) refuse(q.constraints[source[cls]], "the arguments follow each other in a cycle");
    state[cls] = 1;
    if (source[cls] >= 0) visit(classes.find(q.constraints[source[cls]].b));
    state[cls] = 2;
    order.push_back(cls);
  };
  for (int i = 0; i < n; ++i) visit(classes.find(i));

  // Per class: the axes never cut (broadcast, minimum extents) and whether it is whole.
  std::vector<Shape> max_cuts(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) max_cuts[i] = q.shapes[i];
  std::vector<Shape> min_extents(static_cast<size_t>(n));  // per class: what a tile spans at least
  for (int i = 0; i < n; ++i) min_extents[i].assign(q.shapes[i].size(), 0);
  std::vector<std::vector<bool>> whole_axes(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) whole_axes[i].assign(q.shapes[i].size(), false);
  for (const Constraint& c : q.constraints) {
    const int cls = classes.find(c.a);
    if (c.kind == ConstraintKind::Broadcast) {
      if (c.axes.empty()) std::fill(whole_axes[c.a].begin(), whole_axes[c.a].end(), true);
      for (int x : c.axes) whole_axes[c.a][x] = true;
      for (size_t d = 0; d < q.shapes[c.a].size(); ++d)
        if (whole_axes[c.a][d]) max_cuts[cls][d] = 1;
    } else if (c.kind == ConstraintKind::MinExtents) {
      for (size_t d = 0; d < c.low.size(); ++d) min_extents[cls][d] = std::max(min_extents[cls][d], c.low[d]);
      for (size_t d = 0; d < c.low.size(); ++d)
        if (c.low[d] > 1)
          max_cuts[cls][d] = std::min(max_cuts[cls][d], std::max<int64_t>(1, q.shapes[c.a][d] / c.low[d]));
    }
  }
  // The key class: that of the first argument written, else the largest; never a derived
  // class, nor one that cannot be cut at all.
  auto cuttable = [&](int cls) {
    for (size_t d = 0; d < q.shapes[cls].size(); ++d)
      if (max_cuts[cls][d] > 1 && q.shapes[cls][d] > 1) return true;
    return false;
  };
  int key = -1;
  for (int i = 0; i < n && key < 0; ++i) {
    const int cls = classes.find(i);
    if (q.written[i] && source[cls] < 0 && cuttable(cls)) key = cls;
  }
  if (key < 0)
    for (int i = 0; i < n; ++i) {
      const int cls = classes.find(i);
      if (source[cls] < 0 && cuttable(cls) && (key < 0 || volume(q.shapes[cls]) > volume(q.shapes[key]))) key = cls;
    }
  if (key < 0 || q.pieces == 1) {
    Launch launch = whole_launch(q.shapes);
    if (key >= 0) {
      launch.key = key;
      launch.tiles[0] = Rect::of(q.shapes[key]);
    }
    return launch;
  }
  const int64_t weight = std::max<int64_t>(1, q.weight);
  const int64_t chunk = std::max<int64_t>(1, q.min_chunk / weight);
  const int64_t pieces = q.pieces > 0 ? q.pieces : tiles_of(q.shapes[key], weight, q.min_chunk);
  std::vector<Rect> tiles;
  const Shape& domain = q.shapes[key];
  std::vector<int64_t> cuts;
  if (q.cuts && q.pieces == 0 && !domain.empty() && max_cuts[key][0] > 1) cuts = q.cuts(key);
  if (q.preferred)
    for (int i = 0; i < n && tiles.empty(); ++i) {
      if (classes.find(i) != key) continue;
      const std::vector<Rect>* p = q.preferred(i);
      if (p && valid_tiling(*p, domain, max_cuts[key], min_extents[key], pieces, q.min_chunk, q.weight) &&
          respects_cuts(*p, cuts))
        tiles = *p;
    }
  if (tiles.empty() && !cuts.empty())
    tiles = tile_between_cuts(domain, cuts, pieces, chunk, max_cuts[key], min_extents[key][0]);
  if (tiles.empty()) tiles = tile_domain(domain, pieces, chunk, max_cuts[key]);
  if (tiles.size() <= 1) {
    Launch launch = whole_launch(q.shapes);
    launch.key = key;
    launch.tiles[0] = Rect::of(q.shapes[key]);
    return launch;
  }
  Launch launch;
  launch.key = key;
  launch.rects.assign(tiles.size(), std::vector<Rect>(static_cast<size_t>(n)));
  for (size_t t = 0; t < tiles.size(); ++t) {
    std::vector<Rect> by_class(static_cast<size_t>(n));
    for (int cls : order) {
      if (cls == key) {
        by_class[cls] = tiles[t];
        continue;
      }
      if (source[cls] < 0) {
        by_class[cls] = Rect::of(q.shapes[cls]);  // not partitioned: whole for every point
        continue;
      }
      const Constraint& c = q.constraints[source[cls]];
      const Rect& from = by_class[classes.find(c.b)];
      const Shape& shape = q.shapes[c.a];
      Rect r = Rect::of(shape);
      if (c.kind == ConstraintKind::Bloat) {
        for (size_t d = 0; d < shape.size(); ++d) {
          const bool framed = shape[d] != q.shapes[c.b][d];
          r.lo[d] = framed ? from.lo[d] : std::max<int64_t>(0, from.lo[d] - c.low[d]);
          r.hi[d] = framed ? from.hi[d] + c.low[d] + c.high[d] : std::min(shape[d], from.hi[d] + c.high[d]);
          if (from.hi[d] <= from.lo[d]) r.hi[d] = r.lo[d];
        }
      } else if (c.kind == ConstraintKind::Scale) {
        for (size_t d = 0; d < shape.size(); ++d) {
          r.lo[d] = std::min(shape[d], from.lo[d] * c.factors[d]);
          r.hi[d] = std::min(shape[d], from.hi[d] * c.factors[d]);
        }
      } else {  // image: along a's first axis
        int64_t lo = 0, hi = shape[0];
        Rect pairs = from;
        if (c.ranges) {
          pairs.lo.back() = 0;
          pairs.hi.back() = 2;
        }
        if (from.empty()) {
          lo = hi = 0;
        } else if (c.sorted && !c.ranges) {  // the first and the last values bound the rest
          Rect first = pairs, last = pairs;
          first.hi[0] = first.lo[0] + 1;
          last.lo[0] = last.hi[0] - 1;
          int64_t unused = 0;
          if (!q.image || !q.image(c.b, first, false, lo, unused) || !q.image(c.b, last, false, unused, hi)) {
            lo = 0;
            hi = shape[0];
          }
        } else if (!q.image || !q.image(c.b, pairs, c.ranges, lo, hi)) {
          lo = 0;
          hi = shape[0];
        }
        r.lo[0] = std::clamp<int64_t>(lo, 0, shape[0]);
        r.hi[0] = std::clamp<int64_t>(hi, r.lo[0], shape[0]);
      }
      by_class[cls] = std::move(r);
    }
    for (int i = 0; i < n; ++i) {
      Rect r = by_class[classes.find(i)];
      // A broadcast member of a derived or whole class sees its broadcast axes whole.
      for (size_t d = 0; d < whole_axes[i].size(); ++d)
        if (whole_axes[i][d] && !r.empty()) {
          r.lo[d] = 0;
          r.hi[d] = q.shapes[i][d];
        }
      launch.rects[t][i] = std::move(r);
    }
  }
  launch.tiles = std::move(tiles);
  return launch;
}

}  // namespace tessera::detail
