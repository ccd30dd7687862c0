#include "task/task_op.h"

#include <cstring>

#include "machine/processor.h"
#include "machine/scheduler.h"
#include "runtime/body_guard.h"
#include "runtime/runtime.h"
#include "task/reduction.h"
#include "task/registry.h"

namespace tessera {

// Builds the tiles a task body sees (Tile's fields are private to the public API).
struct TileAccess {
  static Tile make(DType t, Privilege p, const detail::Rect& r, Shape strides, Shape array_shape, void* data) {
    Tile tile;
    tile.dtype_ = t;
    tile.privilege_ = p;
    tile.lo_ = r.lo;
    tile.hi_ = r.hi;
    tile.extents_.resize(r.lo.size());
    for (size_t d = 0; d < r.lo.size(); ++d) tile.extents_[d] = std::max<int64_t>(0, r.hi[d] - r.lo[d]);
    tile.strides_ = std::move(strides);
    tile.array_shape_ = std::move(array_shape);
    tile.data_ = r.empty() ? nullptr : data;
    return tile;
  }
};

}  // namespace tessera

namespace tessera::detail {
namespace {

Shape c_strides(const Shape& shape) {
  Shape s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

[[noreturn]] void never_computed(const std::string& task) {
  throw ValueError("task '" + task + "' reads an array that was never computed (an earlier error stopped it)");
}

}  // namespace

TaskOp::TaskOp(std::shared_ptr<const TaskVariants> task, std::vector<Arg> arrays, std::vector<Scalar> scalars,
               Payload payload)
    : task_(std::move(task)), arrays_(std::move(arrays)), scalars_(std::move(scalars)), payload_(std::move(payload)) {}

void TaskOp::launched(const Launch& launch) {
  const int points = static_cast<int>(launch.points());
  points_->store(points, std::memory_order_release);
  std::lock_guard lock(unbound_->mu);
  unbound_->points = points;
  size_t outputs = 0;
  for (const Arg& a : arrays_) outputs += a.unbound;
  unbound_->parts.clear();
  unbound_->parts.resize(outputs);
  for (auto& per_point : unbound_->parts) per_point.resize(static_cast<size_t>(points));
}

void TaskOp::execute(const Point& point) {
  const TaskVariants& variant = *task_;
  std::vector<Tile> tiles;
  tiles.reserve(arrays_.size());
  std::vector<int> unbound_index(arrays_.size(), -1);
  int outputs = 0;
  for (size_t i = 0; i < arrays_.size(); ++i) {
    const Arg& a = arrays_[i];
    if (a.unbound) {
      unbound_index[i] = outputs++;
      tiles.push_back(TileAccess::make(a.dtype, a.privilege, Rect(), {}, {}, nullptr));
      continue;
    }
    const OpArg& arg = args[static_cast<size_t>(a.op_arg)];
    if (!arg.store) {  // an index space: the tile's box, no data
      const Rect& r = point.rects[static_cast<size_t>(a.op_arg)];
      tiles.push_back(
          TileAccess::make(DType::Bool, Privilege::Read, r, Shape(r.lo.size(), 0), arg.view.shape(), nullptr));
      continue;
    }
    const Store& s = *arg.store;
    const Rect r = store_rect(a.op_arg, point.rects[static_cast<size_t>(a.op_arg)]);
    if (a.privilege == Privilege::Reduce) {
      // This point's private buffer: its row of the slots store, starting at the identity.
      const Store& slots = *args[a.slots].store;
      const int64_t row = s.size(), isz = itemsize(s.dtype());
      char* base = slots.base_ptr() + point.index * row * isz;
      reduction_identity(a.reduction, s.dtype(), base, row);
      const Shape strides = c_strides(s.shape());
      int64_t off = 0;
      for (size_t d = 0; d < r.lo.size(); ++d) off += r.lo[d] * strides[d];
      tiles.push_back(TileAccess::make(s.dtype(), a.privilege, r, strides, s.shape(), base + off * isz));
      continue;
    }
    if (r.empty()) {
      tiles.push_back(TileAccess::make(s.dtype(), a.privilege, r, s.strides(), s.shape(), nullptr));
      continue;
    }
    if (a.privilege != Privilege::Write && !s.storage()->allocated()) never_computed(name);
    tiles.push_back(TileAccess::make(s.dtype(), a.privilege, r, s.strides(), s.shape(), s.ptr(r.lo)));
  }
  std::function<void*(size_t, int64_t)> bind;
  if (outputs > 0) {
    bind = [this, unbound_index, index = point.index](size_t i, int64_t n) -> void* {
      if (unbound_index[i] < 0)
        throw IndexError("task '" + name + "': argument " + std::to_string(i) + " is not an unbound output");
      std::lock_guard lock(unbound_->mu);
      UnboundPart& part = unbound_->parts[static_cast<size_t>(unbound_index[i])][static_cast<size_t>(index)];
      part.bytes = n * itemsize(arrays_[i].dtype);
      part.data.reset(new char[static_cast<size_t>(std::max<int64_t>(part.bytes, 1))]);
      return part.data.get();
    };
  }
  TaskContext ctx(name, point.index, point.count, std::move(tiles), scalars_, std::move(bind), payload_);
  try {
    // The variant for the processor this point runs on (launch() checked that the run has
    // processors of a kind the task has a variant for).
    const TaskFunction& run = variant.for_kind(current_processor_kind());
    BodyScope body(name);  // the runtime refuses calls from inside the body
    run(ctx);
  } catch (...) {
    // The scheduler names the task at the sync point; so does run_inline with several ranks
    // (it records the error as the scheduler does).
    if (Scheduler::inside_task() || Runtime::get().ranks() > 1) throw;
    // A small launch run inline on one rank raises at launch() itself: name the task here.
    std::rethrow_exception(Scheduler::in_context(std::current_exception(), *this));
  }
}

}  // namespace tessera::detail
