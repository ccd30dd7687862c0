// The utility thread's analysis: it takes flushed operations in program order, cuts each
// into tiles and makes this rank's point tasks, ordered after those whose accesses conflict.
#include "runtime/runtime.h"

#include "observe/observer.h"

namespace tessera::detail {

void Runtime::utility_loop() {
  while (true) {
    OperationPtr op;
    // Analysis must see operations in program order: with several utility threads, taking
    // an operation and analysing it happen under one lock, so they cannot overtake each other.
    std::lock_guard order(analysis_mu_);
    {
      std::unique_lock lock(queue_mu_);
      queue_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      op = std::move(queue_.front());
      queue_.pop_front();
    }
    RuntimeObserver* const o = observer();
    if (o) o->analysis_begin(*op);
    try {
      analyse(op);
    } catch (...) {
      std::lock_guard lock(queue_mu_);
      if (!analysis_error_) analysis_error_ = std::current_exception();
    }
    if (o) o->analysis_end(*op);
    op.reset();  // a fence that sees the queue drained must not find the operation still held
    {
      std::lock_guard lock(queue_mu_);
      queued_.fetch_sub(1);
    }
    drained_cv_.notify_all();
  }
}

void Runtime::analyse(const OperationPtr& op) {
  std::vector<Rect> tiles = op->tiles(pieces_ * ranks_, config_.min_cpu_chunk);
  if (ranks_ == 1) analyse_tiles(op, tiles);
  else analyse_on_ranks(op, tiles);
}

// Makes this rank's point tasks for `tiles` of `op`, ordered after the tasks whose
// accesses conflict with theirs.
void Runtime::analyse_tiles(const OperationPtr& op, std::vector<Rect>& tiles) {
  std::vector<PointTaskPtr> tasks;
  tasks.reserve(tiles.size());
  for (Rect& tile : tiles) {
    auto task = std::make_shared<PointTask>(op, std::move(tile));
    if (auto* o = observer()) o->task_created(*task);
    scheduler_->add(task);
    for (size_t i = 0; i < op->args.size(); ++i) {
      const OpArg& a = op->args[i];
      Rect r = op->arg_rect(static_cast<int>(i), task->tile());
      if (r.empty()) continue;
      analyzer_.record(task, *a.store->storage(), a.store->storage_rect(r), a.write);
    }
    tasks.push_back(std::move(task));
  }
  for (auto& t : tasks) scheduler_->release(t);
}

}  // namespace tessera::detail
