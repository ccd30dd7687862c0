// The NumPy library's registration (tessera/library.h): its window passes — element-wise
// fusion (with the sweeps, storage renaming and in-place stencils it finds) and the results
// that may wait for a later flush — and the state it keeps per store (pending selections).
#include "numeric/library.h"

#include <cstring>

#include "config/instruction_sets.h"
#include "numeric/elementwise/expression.h"
#include "numeric/elementwise/vector_loops.h"
#include "numeric/index/selection.h"
#include "tessera/errors.h"
#include "tessera/library.h"

namespace tessera::detail {

namespace {
bool register_now() {
  Library numpy;
  numpy.name = "numpy";
  numpy.start = [](const RuntimeInfo& info) {
    // The runtime restricted Highway to the --simd set: the flag's names and the targets the
    // vector loops are compiled for (vector_targets.h) must be the same sets. A Config made
    // in code may still hold the cap itself ("best"), not the set it resolves to.
    const char* target = highway_target_name(resolve_simd(info.simd, supported_instruction_sets()));
    TESSERA_CHECK(std::strcmp(vector_target(), target) == 0, std::string("the vector loops run on ") + vector_target() +
                                                                 ", not on " + target + " (--simd=" + info.simd + ")");
  };
  numpy.passes.push_back({"fuse-elementwise", [](Window& w) { fuse_elementwise(w.operations()); }});
  numpy.passes.push_back({"defer-elementwise", [](Window& w) {
                            if (w.may_defer()) defer_elementwise(w.operations(), w.reading(), w.later());
                          }});
  numpy.before_write = &settle_readers_of;
  register_library(std::move(numpy));
  return true;
}
}  // namespace

void register_numeric_library() {
  static const bool registered = register_now();
  (void)registered;
}

}  // namespace tessera::detail
