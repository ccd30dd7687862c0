// `tessera-prof export --perfetto`: the traces as Chrome trace-event JSON, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open: a process per rank, a thread per lane.
#pragma once

#include <string>
#include <vector>

#include "profile/trace.h"

namespace tessera::detail {

/// `{"traceEvents": [...]}`: complete events for spans, counters for pool usage, flow
/// arrows from each task to the tasks that waited for it. Ranks share one clock.
std::string perfetto_json(const std::vector<Trace>& traces);

}  // namespace tessera::detail
