// TaskOp: a launch of a registered task as an operation of the runtime.
//
// Arguments keep the launch's numbering (constraints name them). A reduction argument is
// there for partitioning only (the task does not touch the array itself); its points write
// their contributions into rows of a slots store (one row per point, a per-point argument
// the runtime gives each point its own row of), and a CombineOp (combine.h) issued right
// after combines the rows by the reductions' fixed tree and folds the result into the array
// — on several ranks too, since the rows are ordinary store data that the analysis copies
// where the combine runs.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/operation.h"
#include "tessera/task.h"

namespace tessera::detail {

struct TaskVariants;

/// One point's part of an unbound output (not zero-filled: the body writes all of it).
struct UnboundPart {
  std::unique_ptr<char[]> data;
  int64_t bytes = -1;  // -1: the point did not bind it (it ran on another rank)
};

/// The parts of the unbound outputs each point bound, per output and point.
struct UnboundParts {
  std::mutex mu;
  int points = 0;
  std::vector<std::vector<UnboundPart>> parts;  // [output][point]
};

class TaskOp final : public Operation {
 public:
  struct Arg {
    Privilege privilege;
    Reduction reduction;
    bool unbound = false;
    DType dtype = DType::Float64;
    int op_arg = -1;  // the operation argument of the array (unbound: -1)
    int slots = -1;   // Reduce: the operation argument of its slots store
  };

  TaskOp(std::shared_ptr<const TaskVariants> task, std::vector<Arg> arrays, std::vector<Scalar> scalars,
         Payload payload = {});
  void execute(const Point& point) override;
  void launched(const Launch& launch) override;
  std::shared_ptr<const Launch> own_launch() const override { return own_; }
  /// The points the launch names itself (LaunchOptions::points).
  void set_own_launch(std::shared_ptr<const Launch> launch) { own_ = std::move(launch); }
  /// The bytes a point moves (LaunchOptions::traffic; the default when it is empty).
  int64_t traffic(const std::vector<Rect>& rects) const override {
    return traffic_ ? traffic_(rects) : Operation::traffic(rects);
  }
  void set_traffic(std::function<int64_t(const std::vector<Rect>&)> traffic) { traffic_ = std::move(traffic); }

  /// The shared number of points, read by the CombineOps of this launch when they run.
  const std::shared_ptr<std::atomic<int>>& points() const { return points_; }
  const std::shared_ptr<UnboundParts>& unbound() const { return unbound_; }
  std::vector<Arg>& arrays() { return arrays_; }

 private:
  std::shared_ptr<const TaskVariants> task_;
  std::vector<Arg> arrays_;
  std::vector<Scalar> scalars_;
  Payload payload_;
  std::shared_ptr<const Launch> own_;
  std::function<int64_t(const std::vector<Rect>&)> traffic_;
  std::shared_ptr<std::atomic<int>> points_ = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<UnboundParts> unbound_ = std::make_shared<UnboundParts>();
};

}  // namespace tessera::detail
