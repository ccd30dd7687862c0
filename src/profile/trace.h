// Trace: one rank's profile as lanes of spans, the operations they belong to, the
// dependences between point tasks and the memory pools' usage over time; and its file
// format, `tessera_<rank>.prof`, which the recorder writes and `tessera-prof` reads.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::detail {

/// What a lane of the timeline shows.
enum class LaneKind : uint8_t {
  Worker,   // point tasks of one worker thread
  Utility,  // analysis of operations (tiling, dependences)
  Program,  // the program thread (IO lane): time blocked at sync points, tasks it ran itself
  Channel,  // copies between memories and ranks, with bytes
  Memory,   // one pool's usage over time
};

/// What a span is.
enum class SpanKind : uint8_t {
  Task,      // a point task: an operation on one tile
  Inline,    // a small operation the program thread ran whole, without analysis
  Analysis,  // the utility thread analysing an operation
  Wait,      // the program thread blocked (fence, back-pressure, reclaim)
  Copy,      // a copy on the channel lane
};

const char* lane_kind_name(LaneKind k);
const char* span_kind_name(SpanKind k);

struct Lane {
  int id = 0;
  LaneKind kind = LaneKind::Worker;
  int index = 0;     // worker/utility/program number, or the memory kind
  std::string name;  // "worker 0", "utility 0", "program", "channel", "SYSMEM"
};

/// An operation as the program issued it; ids follow analysis (program) order.
struct OpInfo {
  int64_t id = 0;
  std::string name;
  std::string provenance;  // the user's file:line, when recorded
  std::string domain;      // launch domain, e.g. "(2000, 2000)"
};

/// A box on a lane; times are nanoseconds since the rank's profile started.
struct Span {
  int lane = 0;
  SpanKind kind = SpanKind::Task;
  int64_t begin = 0, end = 0;
  int64_t op = -1;     // OpInfo::id, or -1
  int64_t task = -1;   // point task id (Task spans), or -1
  int64_t bytes = 0;   // Copy spans: bytes sent; Task spans: bytes the task reads and writes
  std::string detail;  // tile for tasks ("[0:667, 0:2000]"), reason for waits, label for copies

  int64_t duration() const { return end - begin; }
};

/// Point task `task` waited for point task `pred` (an edge the analyser added).
struct Dependence {
  int64_t task = 0, pred = 0;
};

/// A pool's usage just after an allocation (delta > 0) or free (delta < 0).
struct MemorySample {
  int lane = 0;
  int64_t time = 0, used = 0, capacity = 0, delta = 0;
  std::string what;  // the store the block is for, on allocation
};

struct Trace {
  int rank = 0;
  std::string host;
  int64_t wall_start_ns = 0;                              // Unix time of time 0, to align ranks
  int64_t duration = 0;                                   // ns from start to the end of recording
  std::vector<std::pair<std::string, std::string>> meta;  // cpus, utility, config...
  std::vector<Lane> lanes;
  std::vector<OpInfo> ops;  // indexed by id
  std::vector<Span> spans;  // sorted by lane, then begin
  std::vector<Dependence> dependences;
  std::vector<MemorySample> memory;  // sorted by time

  const OpInfo* op(int64_t id) const {
    return id >= 0 && id < static_cast<int64_t>(ops.size()) ? &ops[static_cast<size_t>(id)] : nullptr;
  }
  const Lane& lane(int id) const { return lanes[static_cast<size_t>(id)]; }
};

/// Writes `trace` in the text format (one record per line, tab-separated, escaped), sealed
/// by a last `end` record holding the checksum of what comes before it.
void write_trace(std::ostream& out, const Trace& trace);
/// The records of write_trace without the seal.
void write_records(std::ostream& out, const Trace& trace);
/// The seal of a profile whose records are `body`: "end\t<checksum, 16 hex digits>\n".
std::string trace_seal(std::string_view body);
/// FNV-1a, 64 bits.
uint64_t trace_checksum(std::string_view bytes);
/// Reads a trace; throws std::runtime_error naming `source` and what is wrong when the file is
/// empty, of another format, truncated (no seal), damaged (the seal does not match) or
/// malformed (with the line at fault).
Trace read_trace(std::istream& in, const std::string& source);
/// Reads the file at `path` (throws std::runtime_error when it cannot be opened or parsed).
Trace read_trace_file(const std::string& path);

/// "[0:667, 0:2000]" for a rect given as lo/hi arrays of `ndim` entries.
std::string format_rect(const int64_t* lo, const int64_t* hi, int ndim);

}  // namespace tessera::detail
