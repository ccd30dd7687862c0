// Rect (tessera/rect.h) inside the runtime, and the index helpers that go with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/rect.h"

namespace tessera::detail {

using Shape = std::vector<int64_t>;

using tessera::Rect;

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
