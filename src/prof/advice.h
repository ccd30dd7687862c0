// Warnings a user can act on, drawn from traces: floods of tiny tasks, workers idle while
// the utility thread is busy, idle workers, many sync points, long copies, pools near full.
#pragma once

#include <string>
#include <vector>

#include "profile/trace.h"

namespace tessera::detail {

/// One paragraph per problem found (empty when the run looks healthy).
std::vector<std::string> advise(const std::vector<Trace>& traces);

}  // namespace tessera::detail
