// `tessera-prof summary`: per-lane utilisation, the operations that took the most time
// with their provenance, a histogram of task durations, and warnings to act on.
#pragma once

#include <iosfwd>
#include <vector>

#include "profile/trace.h"

namespace tessera::detail {

/// Writes the summary of `traces` (one per rank) to `out`; `top` operations are listed.
void print_summary(const std::vector<Trace>& traces, std::ostream& out, int top = 10);

}  // namespace tessera::detail
