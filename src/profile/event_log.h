// EventLog: the events one thread recorded, in the order it recorded them. Appending is
// lock-free and allocation-free on the hot path (fixed-size events in large chunks);
// names and tiles go to side tables and are turned into a Trace only at finish.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profile/trace.h"

namespace tessera::detail {

enum class EventType : uint8_t {
  AnalysisBegin,  // a = op; s = name, t = provenance, x/y = domain (ints offset, ndim)
  AnalysisEnd,    // a = op
  TaskCreated,    // a = task, b = its op; x/y = tile (ints offset, ndim), z = bytes it moves
  TaskWaits,      // a = task, b = the task it waits for
  TaskBegin,      // a = task
  TaskEnd,        // a = task
  InlineBegin,    // like AnalysisBegin, on the program thread
  InlineEnd,      // a = op
  WaitBegin,      // k = WaitKind
  WaitEnd,        // k = WaitKind
  CopyBegin,      // x = bytes, s = label
  CopyEnd,        // x = bytes
  Pool,           // k = MemoryKind, x = delta, y = used, z = capacity, s = what (allocations)
  OperationMade,  // like AnalysisBegin, without a span: a copy the analysis made
};

/// One recorded event: 64 bytes, filled by the hook that records it (see EventType).
struct Event {
  int64_t time;  // ns since the recorder started
  const void* a;
  const void* b;
  int64_t x, y, z;
  uint32_t s, t;  // interned strings of the same log (0 = "")
  EventType type;
  uint8_t k;
};

class EventLog {
 public:
  EventLog(LaneKind kind, int index);

  LaneKind kind() const { return kind_; }
  int index() const { return index_; }

  /// A new event at the end, every field set by the caller.
  Event& append() {
    if (size_ == chunks_.size() * kChunk) chunks_.emplace_back(new Event[kChunk]);
    const size_t i = size_++;
    return chunks_[i / kChunk][i % kChunk];
  }
  size_t size() const { return size_; }
  const Event& operator[](size_t i) const { return chunks_[i / kChunk][i % kChunk]; }

  /// A small id for `text`, the same for equal texts (0 for "").
  uint32_t intern(std::string_view text);
  const std::string& text(uint32_t id) const { return strings_[id]; }

  /// Stores `n` integers; returns where they start (for Event::x).
  int64_t store_ints(const int64_t* values, size_t n);
  const int64_t* ints(int64_t offset) const { return ints_.data() + offset; }

 private:
  static constexpr size_t kChunk = 4096;
  LaneKind kind_;
  int index_;
  std::vector<std::unique_ptr<Event[]>> chunks_;
  size_t size_ = 0;
  std::deque<std::string> strings_;  // a deque keeps the views in `ids_` valid
  std::unordered_map<std::string_view, uint32_t> ids_;
  std::vector<int64_t> ints_;
};

}  // namespace tessera::detail
