// TileOp: one step of a tiled factorization (tile_factorizations.h) as an operation whose
// points it names itself: each point is one call on tiles, and states the rect of each
// argument it reads or writes (several arguments may be views of one matrix: the tile a
// point updates and the panel it reads). The runtime orders points by those rects, within
// the step and across steps, and on several ranks copies the tiles a point lacks.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "partition/solver.h"
#include "runtime/operation.h"
#include "numeric/linalg/cpu/tile_kernels.h"

namespace tessera::detail {

struct TileArg {
  StorePtr store;
  bool read = true;
  bool write = false;
};

class TileOp final : public Operation {
 public:
  /// Runs point `p` (its rects are the ones given for it).
  using Body = std::function<void(int p)>;
  /// `rects[p][i]`: what point p touches of argument i, a non-empty box of its indices.
  TileOp(std::string op_name, std::vector<TileArg> arguments, std::vector<std::vector<Rect>> rects, Body body);

  std::shared_ptr<const Launch> own_launch() const override { return launch_; }
  void execute(const Point& point) override { body_(point.index); }

  /// Rows [r0, r1) and columns [c0, c1) of a matrix.
  static Rect box(int64_t r0, int64_t r1, int64_t c0, int64_t c1) { return Rect({r0, c0}, {r1, c1}); }

 private:
  std::shared_ptr<Launch> launch_;
  Body body_;
};

/// Rows [r0, r1) and columns [c0, c1) of the 2-D store `s` (C-ordered, or the transpose of a
/// C-ordered one) as a BLAS block; T must be the store's element type.
template <class T>
tile::Block<T> block_of(const Store& s, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  const bool row_major = s.strides()[1] == 1 && s.strides()[0] != 1;
  const int64_t ld = row_major ? s.strides()[0] : s.strides()[1];
  T* p = reinterpret_cast<T*>(s.base_ptr()) + r0 * s.strides()[0] + c0 * s.strides()[1];
  return {p, static_cast<int>(r1 - r0), static_cast<int>(c1 - c0), static_cast<int>(std::max<int64_t>(1, ld)),
          row_major};
}

/// Element `i` of the 1-D int32 store `s` (pivots, LAPACK's info per step).
inline int32_t* int_at(const Store& s, int64_t i) {
  return reinterpret_cast<int32_t*>(s.base_ptr()) + i * s.strides()[0];
}

}  // namespace tessera::detail
