// The table of contents of the array library: what each family installs into the runtime.
#include <cstring>

#include "config/instruction_sets.h"
#include "numeric/elementwise/expression.h"
#include "numeric/elementwise/vector_loops.h"
#include "runtime/library.h"
#include "runtime/runtime.h"
#include "tessera/errors.h"

namespace tessera::detail {

void install_library(Runtime& runtime) {
  // The runtime restricted Highway to the --simd set: the flag's names and the targets the
  // vector loops are compiled for (vector_targets.h) must be the same sets.
  const char* target = highway_target_name(runtime.config().simd);
  TESSERA_CHECK(std::strcmp(vector_target(), target) == 0,
                std::string("the vector loops run on ") + vector_target() + ", not on " + target +
                    " (--simd=" + runtime.config().simd + ")");
  runtime.set_fusion_pass(&fuse_elementwise);
  runtime.set_defer_pass(&defer_elementwise);
}

}  // namespace tessera::detail
