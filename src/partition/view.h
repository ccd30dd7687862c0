// ArgView (tessera/arg_view.h) inside the runtime.
#pragma once

#include "data/rect.h"
#include "tessera/arg_view.h"

namespace tessera::detail {

using tessera::ArgView;

}  // namespace tessera::detail
