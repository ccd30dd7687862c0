// Scheduler: `--cpus` worker threads, the cpu processors of a rank, run point tasks whose
// predecessors are done. A thread that waits (a sync point, or back-pressure when the program
// runs far ahead) runs ready tasks itself instead of sleeping. The tasks are the runtime's
// (runtime/point_task.h): the one place machine/ reads a header of a stage above it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/point_task.h"
#include "runtime/thread_errors.h"
#include "tessera/processor.h"

namespace tessera::detail {

class Scheduler {
 public:
  explicit Scheduler(int workers);
  ~Scheduler();

  /// Counts a new task as in flight; call before its edges are added.
  void add(const PointTaskPtr& task);
  /// Drops the analyser's guard on `task`: it runs once its predecessors finish.
  void release(const PointTaskPtr& task);
  /// Blocks until in-flight tasks are at most `limit`, running ready tasks meanwhile.
  void wait_until(int64_t limit);
  /// Blocks until `done()` (checked again after each task and each wake(), under the
  /// scheduler's lock when about to sleep), running ready tasks meanwhile — as one of the
  /// workers: at most as many tasks run at once as there are workers, so a waiting program
  /// thread takes an idle worker's place instead of sharing a core with a busy one (whose
  /// cached data, the level buffers of fused sweeps say, the two would then evict).
  void help_until(const std::function<bool()>& done);
  /// Wakes the threads in help_until: something their `done` reads has changed.
  void wake();
  int64_t in_flight() const { return in_flight_.load(std::memory_order_acquire); }
  /// True on a thread that is running a point task.
  static bool inside_task();
  /// The first exception a task of an operation that thread `issuer` issued raised since
  /// the last call for that thread, or null.
  std::exception_ptr take_error(uint64_t issuer) { return errors_.take(issuer); }
  /// `e` (same type) with the operation it came from appended to its message, as a task's
  /// error is raised at its sync point.
  static std::exception_ptr in_context(std::exception_ptr e, const Operation& op);
  /// Keeps `e`, raised by `op` outside a task, as if a task had raised it.
  void record_error(std::exception_ptr e, const Operation& op);
  int workers() const { return static_cast<int>(threads_.size()); }
  /// The kinds of processor the workers are: cpu (the scheduler starts cpu workers only).
  static std::vector<ProcessorKind> worker_kinds() { return {ProcessorKind::CPU}; }

 private:
  void worker_loop();
  /// Stops and joins every worker (the destructor, and a constructor that fails midway).
  void stop_workers();
  void run(const PointTaskPtr& task);
  /// run() on a thread that took one of the slots (mu_ held by the caller before, not during).
  void run_in_slot(const PointTaskPtr& task);
  void push_ready(PointTaskPtr task);

  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<PointTaskPtr> ready_;
  std::atomic<int64_t> in_flight_{0};
  bool stop_ = false;
  int running_ = 0;  // tasks running in worker_loop and help_until (mu_)
  int slots_ = 1;    // at most this many at once: the workers
  ThreadErrors errors_;
  std::vector<std::thread> threads_;
};

}  // namespace tessera::detail
