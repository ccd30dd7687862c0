// Recorder: the runtime observer that --profile installs. Every thread appends events to
// its own EventLog (no locks after a thread's first event); `build` turns the logs into
// a Trace once the runtime's threads have stopped.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "observe/observer.h"
#include "profile/event_log.h"
#include "profile/trace.h"

namespace tessera::detail {

class Recorder final : public RuntimeObserver {
 public:
  Recorder();
  ~Recorder() override;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void thread_started(ThreadRole role, int index) override;
  void analysis_begin(const Operation& op) override;
  void analysis_end(const Operation& op) override;
  void task_created(const PointTask& task) override;
  void task_waits(const PointTask& task, const PointTask& pred) override;
  void task_begin(const PointTask& task) override;
  void task_end(const PointTask& task) override;
  void inline_begin(const Operation& op) override;
  void inline_end(const Operation& op) override;
  void wait_begin(WaitKind why) override;
  void wait_end(WaitKind why) override;
  void operation_made(const Operation& op) override;
  void copy_begin(int64_t bytes, const char* what) override;
  void copy_end(int64_t bytes, const char* what) override;
  void pool_changed(MemoryKind kind, int64_t delta, int64_t used, int64_t capacity,
                    const AllocationInfo* what) override;

  /// The trace of everything recorded so far. Call when no thread records any more.
  Trace build(int rank) const;
  /// Nanoseconds since the recorder started.
  int64_t now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  EventLog& log();
  EventLog& add_log(LaneKind kind, int index);
  Event& event(EventType type);
  void define_op(Event& e, EventLog& log, const Operation& op);

  std::chrono::steady_clock::time_point start_;
  int64_t wall_start_ns_;
  uint64_t generation_;  // tells this recorder's thread-local log pointers from a previous one's
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<EventLog>> logs_;
  int programs_ = 0;
};

}  // namespace tessera::detail
