// The NumPy library registers itself (tessera/library.h) before its first operation that
// needs its passes or its per-store state: element-wise operations and selections call this.
#pragma once

namespace tessera::detail {

/// Registers the NumPy library once (later calls cost a load).
void register_numeric_library();

}  // namespace tessera::detail
