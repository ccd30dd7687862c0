// Families whose bindings are being written: each function moves to its own file.
#include "python/bindings.h"

namespace tessera::python {
void bind_reduce(nb::module_&, ArrayClass&) {}
void bind_linalg(nb::module_&, ArrayClass&) {}
void bind_random(nb::module_&) {}
}  // namespace tessera::python
