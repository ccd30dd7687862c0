#include "machine/scheduler.h"

#include <algorithm>
#include <string>
#include <system_error>
#include <utility>

#include "config/config.h"

#include "observe/observer.h"
#include "tessera/errors.h"

namespace tessera::detail {

bool PointTask::depend_on(const std::shared_ptr<PointTask>& self, PointTask& pred) {
  if (&pred == this) return false;
  std::lock_guard lock(pred.mu_);
  if (pred.finished()) return false;
  pending_.fetch_add(1, std::memory_order_relaxed);
  pred.successors_.push_back(self);
  if (auto* o = observer()) o->task_waits(*this, pred);
  return true;
}

Scheduler::Scheduler(int workers) : slots_(std::max(1, workers)) {
  try {
    for (int i = 0; i < workers; ++i)
      threads_.emplace_back([this, i] {
        if (auto* o = observer()) o->thread_started(ThreadRole::Worker, i);
        worker_loop();
      });
  } catch (const std::system_error& e) {
    // The system refused a thread (too many threads or too little memory for their stacks):
    // the workers already started must be joined, or destroying them terminates the process.
    const int started = static_cast<int>(threads_.size());
    stop_workers();
    throw ConfigError("tessera: could not start cpu worker " + std::to_string(started + 1) + " of " +
                      std::to_string(workers) + " (" + e.what() + "): give fewer --cpus in TESSERA_CONFIG");
  }
}

Scheduler::~Scheduler() { stop_workers(); }

void Scheduler::stop_workers() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void Scheduler::add(const PointTaskPtr&) { in_flight_.fetch_add(1, std::memory_order_acq_rel); }

void Scheduler::release(const PointTaskPtr& task) {
  if (task->pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) push_ready(task);
}

void Scheduler::push_ready(PointTaskPtr task) {
  {
    std::lock_guard lock(mu_);
    ready_.push_back(std::move(task));
  }
  work_cv_.notify_one();
  done_cv_.notify_all();  // a waiting program thread may help
}

namespace {
thread_local bool t_inside_task = false;

// The task's error with the operation it came from, of the same type.
std::exception_ptr with_context(std::exception_ptr e, const Operation& op) {
  std::string ctx = " [in operation '" + op.name + "'";
  if (!op.provenance.empty()) ctx += " issued at " + op.provenance;
  ctx += "]";
  try {
    std::rethrow_exception(e);
    // A kind whose message already says where (context 0: OutOfMemoryError names the
    // operation and the pool's contents) stays as it is.
#define TESSERA_ERROR_KIND(CLASS, CODE, MODULE, NAME, CONTEXT) \
  }                                                            \
  catch (const CLASS& x) {                                     \
    return CONTEXT ? std::make_exception_ptr(CLASS(x.what() + ctx)) : e;
#include "tessera/error_kinds.def"
  } catch (const std::domain_error& x) {
    return std::make_exception_ptr(std::domain_error(x.what() + ctx));
  } catch (...) {
    return e;
  }
}
}  // namespace

bool Scheduler::inside_task() { return t_inside_task; }

void Scheduler::run(const PointTaskPtr& task) {
  t_inside_task = true;
  RuntimeObserver* const o = observer();
  if (o) o->task_begin(*task);
  try {
    // Storage is allocated when its first writer runs, so a program that runs far ahead
    // does not hold memory for results that do not exist yet; its room was claimed when
    // the operation was flushed, so this does not run out.
    const Operation& op = *task->op_;
    const std::vector<Rect>& rects = task->rects();
    for (size_t i = 0; i < op.args.size(); ++i) {
      if (!op.args[i].store) continue;
      Storage& s = *op.args[i].store->storage();
      if (op.args[i].write) {
        const Operation::Origin made = op.origin(static_cast<int>(i));
        s.allocate(made.name, made.provenance);
      } else if (op.args[i].read && s.failed() && !s.allocated() && !rects[i].empty())
        throw ValueError(
            "an input array was never computed (an out-of-memory error stopped the operation that makes it)");
    }
    task->op_->execute(Point{task->tile(), rects, task->index_, task->points()});
  } catch (...) {
    errors_.record(task->op_->issuer, with_context(std::current_exception(), *task->op_));
  }
  t_inside_task = false;
  if (o) o->task_end(*task);
  task->op_.reset();
  std::vector<PointTaskPtr> next;
  {
    std::lock_guard lock(task->mu_);
    task->finished_.store(true, std::memory_order_release);
    next.swap(task->successors_);
  }
  for (auto& s : next)
    if (s->pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) push_ready(std::move(s));
  in_flight_.fetch_sub(1, std::memory_order_acq_rel);
  {
    std::lock_guard lock(mu_);  // pairs with the predicate check in wait_until
  }
  done_cv_.notify_all();
}

void Scheduler::worker_loop() {
  while (true) {
    PointTaskPtr task;
    {
      std::unique_lock lock(mu_);
      work_cv_.wait(lock, [&] { return (stop_ && ready_.empty()) || (!ready_.empty() && running_ < slots_); });
      if (stop_ && ready_.empty()) return;
      // Newest first: the task just made ready usually reads what its predecessor left in cache.
      task = std::move(ready_.back());
      ready_.pop_back();
      ++running_;
    }
    run_in_slot(task);
  }
}

void Scheduler::wait_until(int64_t limit) {
  help_until([&] { return in_flight() <= limit; });
}

void Scheduler::help_until(const std::function<bool()>& done) {
  while (!done()) {
    PointTaskPtr task;
    {
      std::unique_lock lock(mu_);
      done_cv_.wait(lock, [&] { return done() || (!ready_.empty() && running_ < slots_); });
      if (done()) return;
      task = std::move(ready_.front());
      ready_.pop_front();
      ++running_;
    }
    run_in_slot(task);
  }
}

void Scheduler::run_in_slot(const PointTaskPtr& task) {
  run(task);
  {
    std::lock_guard lock(mu_);
    --running_;
  }
  work_cv_.notify_one();
  done_cv_.notify_all();
}

void Scheduler::wake() {
  {
    std::lock_guard lock(mu_);  // pairs with the predicate check in help_until
  }
  done_cv_.notify_all();
}

std::exception_ptr Scheduler::in_context(std::exception_ptr e, const Operation& op) { return with_context(e, op); }

void Scheduler::record_error(std::exception_ptr e, const Operation& op) {
  errors_.record(op.issuer, with_context(e, op));
}

}  // namespace tessera::detail
