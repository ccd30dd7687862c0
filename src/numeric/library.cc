// The table of contents of the array library: what each family installs into the runtime.
#include "numeric/elementwise/expression.h"
#include "runtime/library.h"
#include "runtime/runtime.h"

namespace tessera::detail {

void install_library(Runtime& runtime) {
  runtime.set_fusion_pass(&fuse_elementwise);
  runtime.set_defer_pass(&defer_elementwise);
}

}  // namespace tessera::detail
