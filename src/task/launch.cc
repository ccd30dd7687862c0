// tessera::launch: a task over whole arrays becomes a TaskOp (plus a CombineOp per reduction
// argument); unbound outputs are joined from every point's part once the task has run.
#include <cstring>

#include "data/store.h"
#include "machine/scheduler.h"
#include "partition/solver.h"
#include "runtime/body_guard.h"
#include "runtime/runtime.h"
#include "runtime/storage_state.h"
#include "runtime/stores.h"
#include "task/combine.h"
#include "task/reduction.h"
#include "task/registry.h"
#include "task/task_op.h"

namespace tessera {

using detail::Runtime;
using detail::Store;
using detail::StorePtr;
using detail::TaskOp;

namespace {

// Joins the parts of unbound output `k` that the points bound, in point order. With several
// ranks only the parts' sizes travel (every rank learns every point's size and who ran it):
// each rank's storage for the result covers the parts its own points made, and the residency
// record says so, so later operations copy between ranks only what they need (the all-to-all
// of a filter, nonzero or unique is the next operation's ordinary copies, not a gather).
ndarray join_parts(Runtime& rt, TaskOp& op, size_t k, DType dtype) {
  detail::UnboundParts& u = *op.unbound();
  const int64_t isz = itemsize(dtype);
  const size_t points = static_cast<size_t>(u.points);
  // (point, bytes) for every point this rank ran that bound a part.
  std::string mine;
  {
    std::lock_guard lock(u.mu);
    for (int p = 0; p < u.points; ++p) {
      const detail::UnboundPart& part = u.parts[k][static_cast<size_t>(p)];
      if (part.bytes < 0) continue;
      const int64_t n = part.bytes;
      mine.append(reinterpret_cast<const char*>(&p), sizeof p);
      mine.append(reinterpret_cast<const char*>(&n), sizeof n);
    }
  }
  std::vector<int64_t> sizes(points, 0);
  std::vector<detail::RankSet> holders(points);
  const std::vector<std::string> all = rt.exchange(mine);
  for (size_t r = 0; r < all.size(); ++r) {
    const std::string& s = all[r];
    for (size_t at = 0; at < s.size(); at += sizeof(int) + sizeof(int64_t)) {
      int p;
      int64_t n;
      std::memcpy(&p, s.data() + at, sizeof p);
      std::memcpy(&n, s.data() + at + sizeof p, sizeof n);
      sizes[static_cast<size_t>(p)] = n;
      holders[static_cast<size_t>(p)].add(static_cast<int>(r));
    }
  }
  std::vector<int64_t> start(points + 1, 0);  // in elements
  for (size_t p = 0; p < points; ++p) start[p + 1] = start[p] + sizes[p] / isz;
  StorePtr result = detail::new_store(dtype, {start[points]}, Runtime::provenance());
  detail::Storage& storage = *result->storage();
  if (rt.ranks() > 1 && start[points] > 0 && storage.make_partial()) {
    detail::Residency& residency = detail::state_of(storage).residency;
    for (size_t p = 0; p < points; ++p) {
      if (start[p + 1] == start[p]) continue;
      residency.write(detail::Rect{{start[p]}, {start[p + 1]}}, holders[p]);
      if (holders[p].has(rt.rank())) storage.cover(start[p], start[p + 1]);
    }
  }
  storage.allocate(op.name, op.provenance);
  std::lock_guard lock(u.mu);
  for (size_t p = 0; p < points; ++p) {
    const detail::UnboundPart& part = u.parts[k][p];
    if (part.bytes > 0) std::memcpy(storage.data() + start[p] * isz, part.data.get(), static_cast<size_t>(part.bytes));
  }
  return ndarray(result);
}

}  // namespace

void combine(const ndarray& out, const ndarray& partials, Reduction reduction, const std::string& name) {
  detail::refuse_inside_body("combine", name);
  if (!out.valid() || !partials.valid()) throw ValueError(name + ": an argument is not an array");
  if (partials.ndim() != out.ndim() + 1 || Shape(partials.shape().begin() + 1, partials.shape().end()) != out.shape())
    throw ValueError(name + ": the partials' shape " + detail::shape_text(partials.shape()) + " is not (pieces,) + " +
                     detail::shape_text(out.shape()));
  if (partials.dtype() != out.dtype())
    throw ValueError(name + ": the partials are " + dtype_name(partials.dtype()) + ", the output " +
                     dtype_name(out.dtype()));
  if (partials.shape()[0] == 0) throw ValueError(name + ": no partial results to combine");
  detail::check_reduction(reduction, out.dtype(), name);
  out.store()->require_writeable();
  auto op = std::make_shared<detail::CombineOp>(out.store(), partials.store(), nullptr,
                                                detail::reduction_combiner(reduction, out.dtype(), false));
  op->name = name;
  Runtime::get().submit(std::move(op));
}

ndarray new_array(const Shape& shape, DType dtype) {
  for (int64_t e : shape)
    if (e < 0) throw ValueError("negative dimensions are not allowed");
  return ndarray(detail::new_store(dtype, shape, Runtime::provenance()));
}

std::vector<ndarray> launch(const Task& task, std::vector<Argument> args, std::vector<Scalar> scalars,
                            std::vector<Constraint> constraints, LaunchOptions options) {
  const std::string& name = options.name.empty() ? task.name() : options.name;
  detail::refuse_inside_body("launched task", name);
  task.variants()->require_one_of(detail::Scheduler::worker_kinds());
  if (options.weight < 1) throw ValueError("task '" + name + "': the weight must be at least 1");
  const bool own_points = !options.points.empty();
  if (own_points && !constraints.empty())
    throw ValueError("task '" + name + "': a launch that names its points takes no constraints");
  Runtime& rt = Runtime::get();
  auto op = std::make_shared<TaskOp>(task.variants(), std::vector<TaskOp::Arg>{}, std::move(scalars),
                                     std::move(options.payload));
  op->name = name;
  op->weight = options.weight;
  op->set_traffic(std::move(options.traffic));
  std::vector<TaskOp::Arg>& arrays = op->arrays();
  for (size_t i = 0; i < args.size(); ++i) {
    Argument& a = args[i];
    TaskOp::Arg x{a.privilege, a.reduction, a.unbound, a.unbound_dtype, -1, -1};
    if (a.unbound) {
      x.op_arg = op->add_space(Shape{});  // keeps the numbering; nothing to partition
      for (const Constraint& c : constraints)
        if (c.a == static_cast<int>(i) || c.b == static_cast<int>(i))
          throw ValueError("task '" + name + "': constraint " + c.describe() + " names unbound output " +
                           std::to_string(i) + ", which has no shape yet");
    } else if (a.space) {
      if (a.privilege != Privilege::Read)
        throw ValueError("task '" + name + "': argument " + std::to_string(i) +
                         " is an index space, which is only read");
      x.op_arg = op->add_space(a.view.shape());
    } else {
      if (!a.array.valid()) throw ValueError("task '" + name + "': argument " + std::to_string(i) + " is not an array");
      const StorePtr& s = a.array.store();
      const bool reads = a.privilege == Privilege::Read || a.privilege == Privilege::ReadWrite;
      const bool writes = a.privilege == Privilege::Write || a.privilege == Privilege::ReadWrite;
      if (a.privilege == Privilege::Reduce) {
        if (own_points)
          throw ValueError("task '" + name + "': a launch that names its points takes no reduction arguments");
        detail::check_reduction(a.reduction, s->dtype(), name);
        s->require_writeable();
      }
      if (!a.view.identity() && a.view.base_shape() != s->shape())
        throw ValueError("task '" + name + "': the view of argument " + std::to_string(i) +
                         " is not built from the array's shape " + detail::shape_text(s->shape()));
      // A reduction's array is there for partitioning only: its points write their slots.
      x.op_arg = op->add(s, reads, writes, a.view);
    }
    arrays.push_back(std::move(x));
  }
  if (own_points) {
    auto own = std::make_shared<detail::Launch>();
    const std::vector<Shape> shapes = op->view_shapes();
    for (size_t p = 0; p < options.points.size(); ++p) {
      std::vector<Rect>& rects = options.points[p];
      if (rects.size() != args.size())
        throw ValueError("task '" + name + "': point " + std::to_string(p) + " names " + std::to_string(rects.size()) +
                         " boxes for " + std::to_string(args.size()) + " arguments");
      for (size_t i = 0; i < rects.size(); ++i) {
        if (arrays[i].unbound) {
          rects[i] = Rect();
          continue;
        }
        const Shape& shape = shapes[i];
        const Rect& r = rects[i];
        bool inside = r.lo.size() == shape.size() && r.hi.size() == shape.size();
        for (size_t d = 0; inside && d < shape.size(); ++d)
          inside = r.lo[d] >= 0 && r.lo[d] <= r.hi[d] && r.hi[d] <= shape[d];
        if (!inside)
          throw ValueError("task '" + name + "': point " + std::to_string(p) + "'s box of argument " +
                           std::to_string(i) + " is not inside its shape " + detail::shape_text(shape));
      }
      own->tiles.push_back(rects.empty() ? Rect() : rects.front());
      own->rects.push_back(std::move(rects));
    }
    op->set_own_launch(std::move(own));
    op->keeps_points = true;
  }
  op->constraints = std::move(constraints);
  detail::PartitionRequest check;
  check.shapes = op->view_shapes();
  check.written.assign(check.shapes.size(), false);
  check.constraints = op->constraints;
  check.min_chunk = rt.min_chunk();
  check.weight = op->weight;
  try {
    detail::check_constraints(check);
  } catch (const ValueError& e) {
    throw ValueError("task '" + name + "': " + e.what());
  }
  // Each reduction's slots: one row per point the launch can have. The tiles, and so the
  // partial results the combine's tree joins, depend on the arrays' shapes alone, so a
  // reduction gives the same bits on any number of cpus or ranks.
  std::vector<std::pair<size_t, StorePtr>> folds;
  const int64_t rows = detail::max_points(check);
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (arrays[i].privilege != Privilege::Reduce) continue;
    const StorePtr& target = args[i].array.store();
    Shape shape = target->shape();
    shape.insert(shape.begin(), rows);
    StorePtr slots = detail::new_store(target->dtype(), shape, Runtime::provenance());
    arrays[i].slots = op->add(slots, false, true);
    op->args.back().per_point = true;
    folds.emplace_back(i, std::move(slots));
  }
  rt.submit(op);
  for (auto& [i, slots] : folds) {
    auto combine = std::make_shared<detail::CombineOp>(
        args[i].array.store(), slots, nullptr, detail::reduction_combiner(arrays[i].reduction, slots->dtype(), true),
        op->points());
    combine->name = name + " (combine)";
    rt.submit(combine);
  }
  std::vector<ndarray> results;
  size_t k = 0;
  for (const TaskOp::Arg& a : arrays) {
    if (!a.unbound) continue;
    if (results.empty()) rt.fence();  // the parts' sizes are known once the task has run
    results.push_back(join_parts(rt, *op, k++, a.dtype));
  }
  return results;
}

}  // namespace tessera
