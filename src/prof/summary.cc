// The summary is plain text for a terminal: fixed-width columns, bars of '#'.
#include "prof/summary.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "prof/advice.h"
#include "prof/lane_usage.h"
#include "prof/op_totals.h"
#include "prof/units.h"

namespace tessera::detail {
namespace {

std::string pad(std::string s, size_t width, bool right = false) {
  // Count code points, not bytes, so "µs" lines up.
  size_t shown = 0;
  for (unsigned char c : s) shown += (c & 0xC0) != 0x80;
  if (shown >= width) return s;
  return right ? std::string(width - shown, ' ') + s : s + std::string(width - shown, ' ');
}

std::string what_lane_did(const LaneUsage& u) {
  switch (u.lane->kind) {
    case LaneKind::Worker: return std::to_string(u.count) + " tasks";
    case LaneKind::Utility: return std::to_string(u.count) + " operations analysed";
    case LaneKind::Program:
      return "blocked in " + std::to_string(u.count) + " waits; ran " + std::to_string(u.ran_count) +
             " tasks itself (" + format_duration(u.ran) + ")";
    case LaneKind::Channel:
      return u.count ? std::to_string(u.count) + " copies, " + format_bytes(u.bytes) : "no copies";
    case LaneKind::Memory: break;
  }
  return "";
}

void print_lanes(const Trace& t, std::ostream& out) {
  std::string command;
  for (const auto& [key, value] : t.meta)
    if (key == "command") command = value;
  out << "rank " << t.rank << " on " << t.host << ": " << format_duration(t.duration) << " recorded";
  if (!command.empty()) out << ", " << command;
  out << "\n  " << pad("lane", 12) << pad("busy", 12, true) << pad("use", 9, true) << "   what\n";
  for (const LaneUsage& u : lane_usage(t)) {
    out << "  " << pad(u.lane->name, 12);
    if (u.lane->kind == LaneKind::Memory) {
      out << "peak " << format_bytes(u.peak) << " of " << format_bytes(u.capacity) << " ("
          << format_percent(u.peak, u.capacity) << "), " << u.allocations << " allocations\n";
      continue;
    }
    out << pad(format_duration(u.busy), 12, true) << pad(format_percent(u.busy, t.duration), 9, true) << "   "
        << what_lane_did(u) << "\n";
  }
}

// Bytes its tasks read and wrote per second of their time: one worker's rate ("-" when the
// operation's tasks report no bytes: inline runs).
std::string gbps(const OpTotal& t) {
  if (t.bytes <= 0 || t.bytes_time <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(t.bytes) / static_cast<double>(t.bytes_time));
  return buf;
}

void print_top(const std::vector<Trace>& traces, std::ostream& out, int top) {
  const std::vector<OpTotal> totals = op_totals(traces);
  int64_t all = 0;
  for (const OpTotal& t : totals) all += t.time;
  out << "\nOperations that took the most time (task time summed over workers and ranks; GB/s: bytes a task\n"
         "reads and writes per second of its time, one worker's rate)\n  "
      << pad("total", 10, true) << pad("share", 9, true) << pad("tasks", 8, true) << pad("mean", 10, true)
      << pad("GB/s", 9, true) << "  " << pad("operation", 24) << "issued at\n";
  bool any_provenance = false;
  for (const OpTotal& t : totals) any_provenance |= !t.provenance.empty();
  // Without --provenance no operation has one; with it, those issued from C++ without a
  // caller's line (or from Python with the interpreter lock released) may still lack one.
  const char* unknown = any_provenance ? "(not recorded)" : "(run with --provenance)";
  for (size_t i = 0; i < totals.size() && static_cast<int>(i) < top; ++i) {
    const OpTotal& t = totals[i];
    out << "  " << pad(format_duration(t.time), 10, true) << pad(format_percent(t.time, all), 9, true)
        << pad(std::to_string(t.tasks), 8, true)
        << pad(format_duration(t.time / std::max<int64_t>(1, t.tasks)), 10, true) << pad(gbps(t), 9, true) << "  "
        << pad(t.name, 24) << (t.provenance.empty() ? unknown : t.provenance) << "\n";
  }
  if (totals.empty()) out << "  (no tasks were recorded)\n";
}

void print_histogram(const std::vector<Trace>& traces, std::ostream& out) {
  struct Bucket {
    const char* label;
    int64_t below;
    int64_t count = 0;
  };
  Bucket buckets[] = {{"< 10 µs", 10'000},     {"10-50 µs", 50'000},    {"50-100 µs", 100'000},
                      {"0.1-1 ms", 1'000'000}, {"1-10 ms", 10'000'000}, {"10-100 ms", 100'000'000},
                      {">= 100 ms", INT64_MAX}};
  int64_t tasks = 0;
  for (const Trace& t : traces)
    for (const Span& s : t.spans)
      if (is_task(s)) {
        ++tasks;
        for (Bucket& b : buckets)
          if (s.duration() < b.below) {
            ++b.count;
            break;
          }
      }
  int64_t most = 1;
  for (const Bucket& b : buckets) most = std::max(most, b.count);
  out << "\nTask durations (" << tasks << " tasks)\n";
  for (const Bucket& b : buckets) {
    const auto bar = static_cast<size_t>((b.count * 40 + most - 1) / most);
    out << "  " << pad(b.label, 10) << pad(std::to_string(b.count), 8, true) << "  " << std::string(bar, '#') << "\n";
  }
}

}  // namespace

void print_summary(const std::vector<Trace>& traces, std::ostream& out, int top) {
  for (const Trace& t : traces) {
    print_lanes(t, out);
    out << "\n";
  }
  print_top(traces, out, top);
  print_histogram(traces, out);
  const std::vector<std::string> warnings = advise(traces);
  out << "\nWarnings\n";
  if (warnings.empty())
    out << "  none (no flood of tiny tasks, starved workers, sync-point storm, long copy or full pool)\n";
  for (const std::string& w : warnings) out << "  ! " << w << "\n";
}

}  // namespace tessera::detail
