#include "numeric/linalg/tile_op.h"

#include "tessera/errors.h"

namespace tessera::detail {

TileOp::TileOp(std::string op_name, std::vector<TileArg> arguments, std::vector<std::vector<Rect>> rects, Body body)
    : launch_(std::make_shared<Launch>()), body_(std::move(body)) {
  name = std::move(op_name);
  for (TileArg& a : arguments) add(std::move(a.store), a.read, a.write);
  // Not a partition of any argument (key -1): the tiles never become a store's key tiles.
  for (std::vector<Rect>& r : rects) {
    TESSERA_CHECK(r.size() == args.size(), "tile task without a rect per argument");
    for (const Rect& x : r) TESSERA_CHECK(!x.empty(), "tile task with an empty rect");
    launch_->tiles.push_back(r.front());
    launch_->rects.push_back(std::move(r));
  }
}

}  // namespace tessera::detail
