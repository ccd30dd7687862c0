// The dataframe library's registration (tessera/library.h): it launches registered tasks
// only and keeps no per-store state, so it registers a name and nothing else yet; its window
// passes (fusing a filter into the operations that read it, say) will register here.
#include "tessera/library.h"
#include "dataframe/table.h"

namespace tessera::frame {

void register_dataframe_library() {
  static const bool registered = [] {
    Library pandas;
    pandas.name = "pandas";
    register_library(std::move(pandas));
    return true;
  }();
  (void)registered;
}

}  // namespace tessera::frame
