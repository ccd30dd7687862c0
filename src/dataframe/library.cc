// The dataframe library's registration (tessera/library.h): it launches registered tasks
// only and keeps no per-store state, so it registers a name and the runtime's minimum chunk
// (what its own points are sized in); its window passes (fusing a filter into the operations
// that read it, say) will register here.
#include <atomic>

#include "dataframe/table.h"
#include "tessera/library.h"

namespace tessera::frame {
namespace {
std::atomic<int64_t> chunk{65536};
}  // namespace

int64_t min_chunk() { return chunk.load(std::memory_order_relaxed); }

void register_dataframe_library() {
  static const bool registered = [] {
    Library pandas;
    pandas.name = "pandas";
    pandas.start = [](const RuntimeInfo& info) { chunk.store(info.min_chunk, std::memory_order_relaxed); };
    register_library(std::move(pandas));
    return true;
  }();
  (void)registered;
}

}  // namespace tessera::frame
