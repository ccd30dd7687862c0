#include "runtime/operation.h"

#include "partition/tiling.h"

namespace tessera::detail {

Rect Operation::arg_rect(int i, const Rect& tile) const {
  const OpArg& a = args[i];
  if (a.projection == Projection::Align) return tile;
  return Rect::of(a.store->shape());
}

std::vector<Rect> Operation::tiles(int pieces, int64_t min_chunk) const {
  return tile_domain(domain, pieces, min_chunk);
}

}  // namespace tessera::detail
