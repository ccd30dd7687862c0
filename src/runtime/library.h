// The hook through which the array library plugs into the runtime when it
// starts (its fusion pass, its kernel families); defined in numeric/library.cc.
#pragma once

namespace tessera::detail {
class Runtime;
/// Installs the array library's passes into a starting runtime.
void install_library(Runtime& runtime);
}  // namespace tessera::detail
