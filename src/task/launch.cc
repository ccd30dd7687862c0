// tessera::launch: a task over whole arrays becomes a TaskOp (plus a FoldOp per reduction
// argument); unbound outputs are joined from every point's part once the task has run.
#include <cstring>

#include "data/store.h"
#include "partition/solver.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "task/reduction.h"
#include "task/registry.h"
#include "task/task_op.h"

namespace tessera {

using detail::Runtime;
using detail::Store;
using detail::StorePtr;
using detail::TaskOp;

namespace {

// Joins the parts of unbound output `k` that the points bound (on every rank) in point order.
ndarray join_parts(Runtime& rt, TaskOp& op, size_t k, DType dtype) {
  detail::UnboundParts& u = *op.unbound();
  // Serialised: (point, bytes) for every point this rank ran that bound a part.
  std::string mine;
  {
    std::lock_guard lock(u.mu);
    for (int p = 0; p < u.points; ++p) {
      const std::vector<char>& part = u.parts[k][static_cast<size_t>(p)];
      if (part.empty()) continue;
      const int64_t n = static_cast<int64_t>(part.size()) - 1;
      mine.append(reinterpret_cast<const char*>(&p), sizeof p);
      mine.append(reinterpret_cast<const char*>(&n), sizeof n);
      mine.append(part.data(), static_cast<size_t>(n));
    }
  }
  const std::vector<std::string> all = rt.exchange(mine);
  std::vector<std::string> parts(static_cast<size_t>(u.points));
  std::vector<char> seen(static_cast<size_t>(u.points), 0);
  for (const std::string& s : all)
    for (size_t at = 0; at < s.size();) {
      int p;
      int64_t n;
      std::memcpy(&p, s.data() + at, sizeof p);
      std::memcpy(&n, s.data() + at + sizeof p, sizeof n);
      at += sizeof p + sizeof n;
      if (!seen[static_cast<size_t>(p)]) parts[static_cast<size_t>(p)].assign(s.data() + at, static_cast<size_t>(n));
      seen[static_cast<size_t>(p)] = 1;  // a point every rank ran: its first copy
      at += static_cast<size_t>(n);
    }
  int64_t bytes = 0;
  for (const std::string& p : parts) bytes += static_cast<int64_t>(p.size());
  StorePtr result = detail::new_store(dtype, {bytes / itemsize(dtype)}, Runtime::provenance());
  result->storage()->allocate(op.name, op.provenance);
  char* out = result->base_ptr();
  for (const std::string& p : parts) {
    std::memcpy(out, p.data(), p.size());
    out += p.size();
  }
  return ndarray(result);
}

}  // namespace

std::vector<ndarray> launch(const Task& task, std::vector<Argument> args, std::vector<Scalar> scalars,
                            std::vector<Constraint> constraints) {
  Runtime& rt = Runtime::get();
  const std::string& name = task.name();
  auto op = std::make_shared<TaskOp>(task.variants(), std::vector<TaskOp::Arg>{}, std::move(scalars));
  op->name = name;
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
    } else {
      if (!a.array.valid()) throw ValueError("task '" + name + "': argument " + std::to_string(i) + " is not an array");
      const StorePtr& s = a.array.store();
      const bool reads = a.privilege == Privilege::Read || a.privilege == Privilege::ReadWrite;
      const bool writes = a.privilege == Privilege::Write || a.privilege == Privilege::ReadWrite;
      if (a.privilege == Privilege::Reduce) {
        detail::check_reduction(a.reduction, s->dtype(), name);
        s->require_writeable();
      }
      // A reduction's array is there for partitioning only: its points write their slots.
      x.op_arg = op->add(s, reads, writes);
    }
    arrays.push_back(std::move(x));
  }
  op->constraints = std::move(constraints);
  {
    detail::PartitionRequest check;
    check.shapes = op->view_shapes();
    check.written.assign(check.shapes.size(), false);
    check.constraints = op->constraints;
    try {
      detail::check_constraints(check);
    } catch (const ValueError& e) {
      throw ValueError("task '" + name + "': " + e.what());
    }
  }
  // Each reduction's slots: one row per point the launch can have.
  std::vector<std::pair<size_t, StorePtr>> folds;
  const int64_t rows = int64_t{rt.pieces()} * rt.ranks();
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
    auto fold = std::make_shared<detail::FoldOp>(args[i].array.store(), slots, arrays[i].reduction, op->points());
    fold->name = name + " (fold)";
    rt.submit(fold);
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
