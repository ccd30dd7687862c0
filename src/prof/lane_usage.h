// What each lane of a trace did: busy time, counts, bytes, memory peaks, and how busy a
// kind of lane was over the course of the run (for utilisation and idle-time warnings).
#pragma once

#include <cstdint>
#include <vector>

#include "profile/trace.h"

namespace tessera::detail {

struct LaneUsage {
  const Lane* lane = nullptr;
  int64_t busy = 0;                                 // time covered by its spans (for the program lane: blocked)
  int64_t count = 0;                                // tasks, analyses, waits or copies
  int64_t ran = 0, ran_count = 0;                   // program lane: tasks it ran itself (inline or while waiting)
  int64_t bytes = 0;                                // channel: bytes copied
  int64_t peak = 0, capacity = 0, allocations = 0;  // memory lanes
};

/// One entry per lane of `trace`, in lane order.
std::vector<LaneUsage> lane_usage(const Trace& trace);

/// For each of `bins` equal slices of the run, the fraction of time the lanes of `kind`
/// were busy (averaged over those lanes; Task/Inline spans only for the program lane).
std::vector<double> busy_profile(const Trace& trace, LaneKind kind, int bins);

/// Whether a span is work on data (a point task or an operation run inline).
inline bool is_task(const Span& s) { return s.kind == SpanKind::Task || s.kind == SpanKind::Inline; }

}  // namespace tessera::detail
