// PointTask: an operation applied to one tile; what a worker thread runs.
// Tasks form a dependence graph: `pending_` counts unfinished predecessors
// plus one guard held while the analyser is still adding edges.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "data/rect.h"
#include "partition/solver.h"
#include "runtime/operation.h"

namespace tessera::detail {

class PointTask {
 public:
  /// Point `index` of `launch`, the partition of `op`.
  PointTask(OperationPtr op, std::shared_ptr<const Launch> launch, int index)
      : op_(std::move(op)), launch_(std::move(launch)), index_(index) {}

  /// Records that this task must wait for `pred`; false when `pred` already finished.
  bool depend_on(const std::shared_ptr<PointTask>& self, PointTask& pred);
  bool finished() const { return finished_.load(std::memory_order_acquire); }
  /// Adds one more thing the task waits for, besides its predecessors (a message from
  /// another rank); Scheduler::release() says it happened.
  void hold() { pending_.fetch_add(1, std::memory_order_relaxed); }

  Operation* op() const { return op_.get(); }
  /// The launch's tile for this point, and every argument's rect (in its view's space).
  const Rect& tile() const { return launch_->tiles[static_cast<size_t>(index_)]; }
  const std::vector<Rect>& rects() const { return launch_->rects[static_cast<size_t>(index_)]; }
  int index() const { return index_; }
  const Launch* launch() const { return launch_.get(); }
  int points() const { return static_cast<int>(launch_->points()); }

 private:
  friend class Scheduler;
  OperationPtr op_;  // dropped after running so finished tasks pin no stores
  std::shared_ptr<const Launch> launch_;
  int index_;
  std::atomic<int> pending_{1};
  std::atomic<bool> finished_{false};
  std::mutex mu_;
  std::vector<std::shared_ptr<PointTask>> successors_;
};

using PointTaskPtr = std::shared_ptr<PointTask>;

}  // namespace tessera::detail
