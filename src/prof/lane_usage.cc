// Busy time is the union of a lane's spans, so a wait that contains the tasks the program
// thread ran meanwhile is not counted twice.
#include "prof/lane_usage.h"

#include <algorithm>

namespace tessera::detail {
namespace {

// Total length of the union of [begin, end) intervals sorted by begin.
int64_t union_length(const std::vector<std::pair<int64_t, int64_t>>& v) {
  int64_t total = 0, lo = 0, hi = -1;
  for (auto [b, e] : v) {
    if (b > hi) {
      if (hi > lo) total += hi - lo;
      lo = b;
      hi = e;
    } else {
      hi = std::max(hi, e);
    }
  }
  if (hi > lo) total += hi - lo;
  return total;
}

}  // namespace

std::vector<LaneUsage> lane_usage(const Trace& trace) {
  std::vector<LaneUsage> usage(trace.lanes.size());
  std::vector<std::vector<std::pair<int64_t, int64_t>>> busy(trace.lanes.size()), ran(trace.lanes.size());
  for (size_t i = 0; i < usage.size(); ++i) usage[i].lane = &trace.lanes[i];
  for (const Span& s : trace.spans) {
    LaneUsage& u = usage[static_cast<size_t>(s.lane)];
    const bool program = u.lane->kind == LaneKind::Program;
    if (program && is_task(s)) {
      ran[static_cast<size_t>(s.lane)].emplace_back(s.begin, s.end);
      ++u.ran_count;
      continue;
    }
    busy[static_cast<size_t>(s.lane)].emplace_back(s.begin, s.end);
    ++u.count;
    u.bytes += s.bytes;
  }
  for (size_t i = 0; i < usage.size(); ++i) {
    usage[i].busy = union_length(busy[i]);  // spans are sorted by lane, then begin
    usage[i].ran = union_length(ran[i]);
  }
  for (const MemorySample& m : trace.memory) {
    LaneUsage& u = usage[static_cast<size_t>(m.lane)];
    u.peak = std::max(u.peak, m.used);
    u.capacity = m.capacity;
    if (m.delta > 0) ++u.allocations;
  }
  return usage;
}

std::vector<double> busy_profile(const Trace& trace, LaneKind kind, int bins) {
  std::vector<double> busy(static_cast<size_t>(bins), 0.0);
  const double width = std::max<double>(1.0, static_cast<double>(trace.duration)) / bins;
  int lanes = 0;
  for (const Lane& l : trace.lanes) lanes += l.kind == kind;
  if (lanes == 0) return busy;
  for (const Span& s : trace.spans) {
    if (trace.lane(s.lane).kind != kind) continue;
    if (kind == LaneKind::Program && !is_task(s)) continue;
    const double b = static_cast<double>(s.begin), e = static_cast<double>(s.end);
    for (int i = std::max(0, static_cast<int>(b / width)); i < bins && i * width < e; ++i) {
      const double lo = std::max(b, i * width), hi = std::min(e, (i + 1) * width);
      if (hi > lo) busy[static_cast<size_t>(i)] += (hi - lo) / width;
    }
  }
  for (double& f : busy) f = std::min(1.0, f / lanes);
  return busy;
}

}  // namespace tessera::detail
