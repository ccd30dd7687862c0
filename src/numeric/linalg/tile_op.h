// The steps of a tiled factorization (tile_factorizations.h) as launches whose points the
// launch names itself: each point is one call on tiles (tile_kernels.h), and states the box
// of each argument it reads or writes (several arguments may be views of one matrix: the
// tile a point updates and the panel it reads). The runtime orders points by those boxes,
// within the step and across steps, and on several ranks copies the tiles a point lacks.
// Each kind of call is one registered task; a step's parameters are its boxes, so a body
// finds everything it needs in its tiles.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "numeric/linalg/cpu/tile_kernels.h"
#include "tessera/task.h"

namespace tessera::detail {

/// Rows [r0, r1) and columns [c0, c1) of a matrix.
inline Rect box(int64_t r0, int64_t r1, int64_t c0, int64_t c1) { return Rect({r0, c0}, {r1, c1}); }
/// Elements [lo, hi) of a vector.
inline Rect range(int64_t lo, int64_t hi) { return Rect({lo}, {hi}); }

/// Launches `task` with one point per entry of `points` (`points[p][i]`: the non-empty box of
/// argument i that point p touches), shown in profiles and errors as `name`.
void launch_tiles(const Task& task, const std::string& name, std::vector<Argument> args,
                  std::vector<std::vector<Rect>> points);

/// Rows [r0, r1) and columns [c0, c1) of a 2-D tile (counted from the tile's first element;
/// C-ordered, or the transpose of a C-ordered matrix) as a BLAS block; T must be the tile's
/// element type.
template <class T>
tile::Block<T> block_of(const Tile& t, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  const Shape& s = t.strides();
  const bool row_major = s[1] == 1 && s[0] != 1;
  const int64_t ld = row_major ? s[0] : s[1];
  T* p = static_cast<T*>(t.data()) + r0 * s[0] + c0 * s[1];
  return {p, static_cast<int>(r1 - r0), static_cast<int>(c1 - c0), static_cast<int>(std::max<int64_t>(1, ld)),
          row_major};
}
/// The whole tile as a BLAS block.
template <class T>
tile::Block<T> block_of(const Tile& t) {
  return block_of<T>(t, 0, t.extents()[0], 0, t.extents()[1]);
}

/// The first element of a 1-D int32 tile (pivots, LAPACK's info per step).
inline int32_t* ints(const Tile& t) { return static_cast<int32_t*>(t.data()); }

/// Whether `a` is C-ordered (axes of one element aside).
inline bool c_ordered(const ndarray& a) {
  const Shape st = a.strides_bytes();
  int64_t want = a.itemsize();
  for (int d = a.ndim() - 1; d >= 0; --d) {
    if (a.shape()[d] != 1 && st[d] != want) return false;
    want *= a.shape()[d];
  }
  return true;
}

/// Calls f(T{}) with T the element type of the factorization (Float64 or Complex128).
template <class F>
void with_factor_type(DType t, F&& f) {
  if (t == DType::Complex128) f(std::complex<double>{});
  else f(double{});
}

}  // namespace tessera::detail
