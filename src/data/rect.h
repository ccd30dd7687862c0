// An N-D box of indices [lo, hi): the unit of partitioning and dependence analysis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::detail {

using Shape = std::vector<int64_t>;

struct Rect {
  Shape lo, hi;

  Rect() = default;
  Rect(Shape l, Shape h) : lo(std::move(l)), hi(std::move(h)) {}
  /// The whole index space of `shape`.
  static Rect of(const Shape& shape) { return Rect(Shape(shape.size(), 0), shape); }

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

/// Steps `idx` to the next index of `rect` in C order over its first `axes` axes (the others
/// are left alone); false, with `idx` back at rect.lo on them, after the last.
inline bool next_index(Shape& idx, const Rect& rect, int axes) {
  for (int d = axes - 1; d >= 0; --d) {
    if (++idx[static_cast<size_t>(d)] < rect.hi[static_cast<size_t>(d)]) return true;
    idx[static_cast<size_t>(d)] = rect.lo[static_cast<size_t>(d)];
  }
  return false;
}

/// `s` as Python writes a tuple — (2, 3), (3,), () — or with `sep` "," as NumPy's terser
/// error messages do: (2,3).
inline std::string shape_text(const Shape& s, const char* sep = ", ") {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? sep : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

inline int64_t volume(const Shape& s) {
  int64_t v = 1;
  for (auto e : s) v *= e;
  return v;
}

}  // namespace tessera::detail
