// Families whose bindings are being written: each function moves to its own file.
#include "python/bindings.h"

namespace tessera::python {
}  // namespace tessera::python
