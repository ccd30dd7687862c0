// The constraints an operation states (the public vocabulary, tessera/constraint.h), seen
// from inside the runtime.
#pragma once

#include "tessera/constraint.h"

namespace tessera::detail {
using tessera::Constraint;
using tessera::ConstraintKind;
}  // namespace tessera::detail
