// The public start/finish/fence/ranks entry points.
#include "runtime/runtime.h"
#include "tessera/runtime.h"

namespace tessera {

void start() { detail::Runtime::start(); }
void finish() { detail::Runtime::finish(); }
void fence() { detail::Runtime::get().fence(); }
int ranks() { return detail::Runtime::get().ranks(); }

}  // namespace tessera
