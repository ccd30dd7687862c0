// Turns the threads' event logs into a Trace: numbers operations and point tasks in the
// order they were made, pairs begin/end events into spans, and resolves the pointers the
// hooks recorded (an address may be reused, so each is looked up at the time it was seen).
#pragma once

#include <vector>

#include "profile/event_log.h"
#include "profile/trace.h"

namespace tessera::detail {

/// The trace of `logs`; spans still open at `end` (ns) are closed there.
Trace build_trace(const std::vector<const EventLog*>& logs, int64_t end);

}  // namespace tessera::detail
