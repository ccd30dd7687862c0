#include "numeric/linalg/tile_op.h"

#include "tessera/errors.h"

namespace tessera::detail {

void launch_tiles(const Task& task, const std::string& name, std::vector<Argument> args,
                  std::vector<std::vector<Rect>> points) {
  for (const std::vector<Rect>& p : points) {
    TESSERA_CHECK(p.size() == args.size(), "tile task without a box per argument");
    for (const Rect& x : p) TESSERA_CHECK(!x.empty(), "tile task with an empty box");
  }
  launch(task, std::move(args), {}, {}, {.name = name, .points = std::move(points)});
}

}  // namespace tessera::detail
