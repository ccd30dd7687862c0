// The window of issued operations: submit (and its fast path, which runs small operations
// at once on the program thread), flush (fusion, memory claims, the queue to analysis,
// back-pressure), fence and the wait for work, and the errors raised at sync points (with
// several ranks, agreed on by all of them).
#include "runtime/runtime.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "observe/observer.h"
#include "runtime/body_guard.h"
#include "runtime/copy_on_write.h"
#include "runtime/libraries.h"
#include "runtime/program_lock.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
// A window that is one element-wise chain may grow to this many times --window-size.
constexpr int kGrowth = 8;
}  // namespace

void Runtime::set_wait_hooks(WaitHook before, ResumeHook after) { set_outside_lock_hooks(before, after); }

// Runs `wait` with the interpreter lock let go. A wait for everything flushed (`others_issue`)
// lets go of the program lock too, so other threads issue meanwhile; a wait in the middle
// of issuing (back-pressure) keeps it: the window is not whole then.
void Runtime::blocking(const std::function<void()>& wait, bool others_issue) {
  const int depth = others_issue ? program_lock().release() : 0;
  void* token = let_go_outside_lock();
  try {
    wait();
  } catch (...) {
    program_lock().restore(depth);
    take_outside_lock(token);
    throw;
  }
  program_lock().restore(depth);
  take_outside_lock(token);
}

std::vector<std::string> Runtime::exchange(const std::string& mine) {
  if (ranks_ == 1) return {mine};
  return channel_->all_gather(mine);
}

void Runtime::run_inline(const OperationPtr& op) {
  RuntimeObserver* const o = observer();
  if (o) o->inline_begin(*op);
  // One point over every argument whole, in a launch this thread reuses (no allocation in
  // the common case; a body that issues operations itself gets a fresh one).
  thread_local Launch reused;
  thread_local int depth = 0;
  Launch fresh;
  Launch& launch = depth == 0 ? reused : fresh;
  ++depth;
  try {
    const bool empty = op->work() == 0;
    if (!empty) {
      launch.rects.resize(1);
      std::vector<Rect>& rects = launch.rects[0];
      rects.resize(op->args.size());
      for (size_t i = 0; i < op->args.size(); ++i) {
        const Shape& shape = op->args[i].shape();
        rects[i].lo.assign(shape.size(), 0);
        rects[i].hi.assign(shape.begin(), shape.end());
        if (op->args[i].per_point) rects[i].hi[0] = 1;  // point 0's row
      }
      if (ranks_ > 1) cover_points(*op, launch, {0});  // nothing in flight: growing is safe
    }
    launch.tiles.resize(empty ? 0 : 1);
    if (!empty) launch.tiles[0] = launch.rects[0][0];  // assigned, not built: no allocation
    op->launched(launch);
    allocate_outputs(*op);
    if (!empty) op->execute(Point{launch.rects[0][0], launch.rects[0], 0, 1});
    --depth;
  } catch (...) {
    --depth;
    if (o) o->inline_end(*op);  // the error reaches the program here; the span ends with it
    // With several ranks another rank may run this operation as a task, whose error waits
    // for the next sync point: so does this one, so that all ranks raise at the same line.
    if (ranks_ > 1) {
      scheduler_->record_error(std::current_exception(), *op);
      return;
    }
    throw;
  }
  if (o) o->inline_end(*op);
}

void Runtime::submit(OperationPtr op) {
  refuse_inside_body("issued the operation", op->name);
  ProgramScope program;
  op->issuer = issuing_thread();
  const Libraries& libraries = Libraries::get();
  for (const OpArg& arg : op->args) {
    if (!arg.write) continue;
    arg.store->require_writeable();
    // A lazy copy and its source separate first (copy_on_write.h): the copy issued here
    // comes before this operation.
    unshare_before_write(arg.store->storage());
    arg.store->storage()->writes.fetch_add(1, std::memory_order_relaxed);
    libraries.before_write(*arg.store->storage());  // state a library keeps of it (NumPy: selections) settles
  }
  if (op->provenance.empty()) op->provenance = provenance();
  if (ranks_ > 1) {
    const int64_t n = issued_.fetch_add(1, std::memory_order_relaxed) + 1;
    if (n > exit_limit_.load(std::memory_order_acquire)) diverged(exited_rank_.load(), exit_limit_.load());
  }
  const bool small = op->work() < config_.min_cpu_chunk && !config_.test && !op->keeps_points;
  // Results waiting in the window (flush's Defer) need not hold up a small operation that
  // does not touch them: it runs now and they keep waiting. One that needs them runs them
  // first (and waits for them), then takes the fast path.
  if (small && ranks_ == 1 && !window_.empty() && queued_.load() == 0 && scheduler_->in_flight() == 0 &&
      std::all_of(window_.begin(), window_.end(), [](const OperationPtr& w) { return w->waited; })) {
    const bool needs = std::any_of(window_.begin(), window_.end(), [&](const OperationPtr& w) {
      for (const OpArg& a : op->args)
        for (const OpArg& b : w->args)
          if (a.store && b.store && a.store->storage() == b.store->storage() && (a.write || b.write)) return true;
      return false;
    });
    if (needs) {
      flush();
      wait_for_flushed();
    } else if (held_everywhere(*op)) {
      rethrow_task_error();
      run_inline(op);
      note_written_everywhere(*op);
      return;
    }
  }
  // Small-array fast path: with nothing in flight there is nothing to order against, so
  // small operations run on this thread in program order, with no analysis.
  if (small && window_small_ && queued_.load() == 0 && scheduler_->in_flight() == 0 &&
      std::all_of(window_.begin(), window_.end(),
                  [&](const OperationPtr& w) { return held_everywhere(*w) && (ranks_ == 1 || writes_small(*w)); }) &&
      held_everywhere(*op) && (ranks_ == 1 || writes_small(*op))) {
    if (ranks_ == 1) rethrow_task_error();  // with several ranks, errors wait for a sync point
    if (!window_.empty()) {
      std::vector<OperationPtr> ops;
      ops.swap(window_);
      window_need_ = 0;
      if (ops.size() > 1) Libraries::get().run_passes(ops, nullptr, nullptr);
      for (auto& o : ops) {
        run_inline(o);
        note_written_everywhere(*o);
      }
    }
    run_inline(op);
    note_written_everywhere(*op);
    // With several ranks the window is cut after the same operations on every rank (ranks
    // must fuse alike), whether or not this rank ran some of them at once: they count.
    window_count_ = ranks_ > 1 ? window_count_ + 1 : 0;
    return;
  }
  // Flush a full window before adding, not after: by the next call the program has
  // usually dropped the temporaries it passed to the last operation, so they can fuse. The
  // chain of fusible operations (NumPy's element-wise ones) that ends the window stays for the
  // next one: the operation being added may take it in (the sum of `(p - pn) ** 2`), wherever
  // the cut falls. A window that is one chain grows (to a bound) instead: cut, it would fuse
  // into pieces that each write their results out.
  const int size = std::max(1, config_.window_size);
  if (window_count_ >= size) {
    const size_t chain = chain_at_end();
    if (chain == window_.size() && window_.size() < static_cast<size_t>(kGrowth) * static_cast<size_t>(size)) {
      window_count_ = 0;
    } else {
      const size_t carried = chain <= window_.size() / 2 ? chain : 0;
      std::vector<OperationPtr> kept(window_.end() - static_cast<std::ptrdiff_t>(carried), window_.end());
      window_.resize(window_.size() - kept.size());
      flush(Defer::Fresh);
      for (OperationPtr& c : kept) {
        window_need_ += unclaimed_bytes(*c);
        window_.push_back(std::move(c));
      }
      window_count_ = static_cast<int>(window_.size());
      window_small_ = window_.empty();
    }
  }
  ++window_count_;
  window_small_ = window_small_ && small;
  window_need_ += unclaimed_bytes(*op);
  window_.push_back(std::move(op));
  // Out of memory should surface at the line that runs out: once what the window will write
  // cannot fit beside what the pool holds, flush now, so that claiming its room raises here.
  // (Not with several ranks: where the window is cut must not depend on timing, which
  // differs between ranks, because every rank must fuse and copy the same way.)
  if (ranks_ == 1 && window_need_ > 0 && sysmem_->committed() + window_need_ > sysmem_->capacity()) flush();
}

size_t Runtime::chain_at_end() const {
  const size_t n = window_.size();
  if (n < 2) return 0;
  // The chain is the last operation (which may take in what it reads: a reduction), every
  // fusible operation that makes a whole array nothing in the window has touched yet (its
  // reader is likely still to come: the program is halfway through an expression) and,
  // walking back, the fusible operations that make what any of them reads. It is
  // everything from the first of them on; the rest of the window goes now.
  std::vector<const Storage*> read;
  auto note_reads = [&](const Operation& o) {
    for (const OpArg& a : o.args)
      if (a.store && a.read) read.push_back(a.store->storage().get());
  };
  auto touched_after = [&](size_t j, const Storage* s) {
    for (size_t k = j + 1; k < n; ++k)
      for (const OpArg& a : window_[k]->args)
        if (a.store && a.store->storage().get() == s) return true;
    return false;
  };
  note_reads(*window_.back());
  size_t first = n - 1;
  for (size_t j = n - 1; j-- > 0;) {
    const Operation& o = *window_[j];
    bool feeds = false, pending = false;
    for (const OpArg& a : o.args) {
      if (!a.store || !a.write) continue;
      const Storage* s = a.store->storage().get();
      feeds = feeds || std::find(read.begin(), read.end(), s) != read.end();
      pending = pending || (o.fusible() && a.store->is_whole() && !touched_after(j, s));
    }
    if (!feeds && !pending) continue;
    if (!o.fusible()) break;
    first = j;
    note_reads(o);
  }
  return n - first;
}

void Runtime::enqueue(std::vector<OperationPtr>& ops) {
  if (ops.empty()) return;
  {
    std::lock_guard lock(queue_mu_);
    for (auto& o : ops) queue_.push_back(std::move(o));
    queued_ += static_cast<int64_t>(ops.size());
  }
  ops.clear();
  queue_cv_.notify_one();
}

void Runtime::flush(Defer defer, const Storage* reading) {
  ProgramScope program;
  window_count_ = 0;
  if (window_.empty()) return;
  std::vector<OperationPtr> ops;
  ops.swap(window_);
  window_small_ = true;
  window_need_ = 0;
  // Every library's passes (fusion, and results that may wait: into window_, when allowed).
  const bool may_defer = defer != Defer::None && ranks_ == 1;
  Libraries::get().run_passes(ops, may_defer ? &window_ : nullptr, reading);
  // An operation a pass made raises at the thread that flushes it.
  for (const OperationPtr& o : ops)
    if (o->issuer == 0) o->issuer = issuing_thread();
  for (const OperationPtr& o : window_)
    if (o->issuer == 0) o->issuer = issuing_thread();
  if (may_defer) {
    for (const OperationPtr& w : window_) {
      window_need_ += unclaimed_bytes(*w);
      window_small_ = window_small_ && w->work() < config_.min_cpu_chunk && !config_.test && !w->keeps_points;
    }
    window_count_ = static_cast<int>(window_.size());
  }
  // With several ranks a storage's room is known only when the analysis has seen which part
  // of it this rank touches: it is taken when a task first writes it.
  std::exception_ptr out_of_memory = ranks_ == 1 ? claim_memory(ops) : nullptr;
  enqueue(ops);
  if (scheduler_->in_flight() > max_in_flight_) {
    if (auto* o = observer()) o->wait_begin(WaitKind::BackPressure);
    blocking([&] { scheduler_->wait_until(max_in_flight_ / 2); });
    if (auto* o = observer()) o->wait_end(WaitKind::BackPressure);
  }
  if (out_of_memory) std::rethrow_exception(out_of_memory);
}

void Runtime::drop_unread_results() {
  // From the last operation back: one that waited is dropped when all it writes is memory no
  // one outside holds (not handed out, not adopted) and nothing kept after it touches.
  std::vector<const Storage*> touched;
  for (size_t i = window_.size(); i-- > 0;) {
    Operation& op = *window_[i];
    bool drop = op.waited;
    for (const OpArg& a : op.args)
      if (drop && a.store && a.write)
        drop = a.store->storage()->movable() &&
               std::find(touched.begin(), touched.end(), a.store->storage().get()) == touched.end();
    if (drop) {
      window_[i].reset();
      continue;
    }
    for (const OpArg& a : op.args)
      if (a.store) touched.push_back(a.store->storage().get());
  }
  std::erase(window_, nullptr);
  window_need_ = 0;
  for (const OperationPtr& w : window_) window_need_ += unclaimed_bytes(*w);
}

// Waits until everything issued has been analysed and every task has run. This thread runs
// ready tasks meanwhile, also while the analysis goes on: the tasks of the first operations
// analysed need not wait for the last (the worker that would run them may be waiting for a
// core that this thread and the analysis hold).
void Runtime::wait_for_work() {
  scheduler_->help_until([&] { return queued_.load() == 0 && scheduler_->in_flight() == 0; });
}

// The first error of analysis or of a task, of an operation this thread issued, since the
// last call, or null.
std::exception_ptr Runtime::take_error() {
  const uint64_t me = issuing_thread();
  std::exception_ptr e = analysis_errors_.take(me);
  return e ? e : scheduler_->take_error(me);
}

void Runtime::rethrow_task_error() {
  if (std::exception_ptr e = take_error()) std::rethrow_exception(e);
}

void Runtime::fence() {
  refuse_inside_body("called fence()");
  ProgramScope program;
  flush();
  wait_for_flushed();
}

// Waits for everything flushed (operations still in the window may not have run), then
// raises the first error.
void Runtime::wait_for_flushed() {
  RuntimeObserver* const o = observer();
  if (o) o->wait_begin(WaitKind::Fence);
  // Nothing queued or running (the small operations ran at their call): no need to let the
  // interpreter lock go and wait.
  const bool idle = ranks_ == 1 && queued_.load() == 0 && scheduler_->in_flight() == 0;
  if (!idle) blocking([&] { wait_for_work(); }, /*others_issue=*/true);
  if (o) o->wait_end(WaitKind::Fence);
  if (ranks_ > 1) agree_on_errors();
  else rethrow_task_error();
}

namespace {
// An error as text another rank can raise again: its kind's code (tessera/error_kinds.def;
// D and E for std::domain_error and any other), then its message.
std::string encode_error(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
// clang-format off
#define TESSERA_ERROR_KIND(CLASS, CODE, ...) } catch (const CLASS& x) { return std::string(1, CODE) + x.what();
#include "tessera/error_kinds.def"
    // clang-format on
  } catch (const std::domain_error& x) {
    return std::string("D") + x.what();
  } catch (const std::exception& x) {
    return std::string("E") + x.what();
  } catch (...) {
    return "Eunknown error";
  }
}

[[noreturn]] void raise_error(const std::string& text) {
  const std::string what = text.substr(1);
  switch (text[0]) {
// clang-format off
#define TESSERA_ERROR_KIND(CLASS, CODE, ...) case CODE: throw CLASS(what);
#include "tessera/error_kinds.def"
      // clang-format on
    case 'D': throw std::domain_error(what);
    default: throw std::runtime_error(what);
  }
}
}  // namespace

// At a sync point every rank raises the same error, or none: the error of the lowest rank
// that had one (a task fails on the rank that ran its tile; the program must not take a
// different path on each rank).
void Runtime::agree_on_errors() {
  const std::exception_ptr mine = take_error();
  // A sync point counts like an operation: a rank that ended just before it diverged.
  const int64_t n = issued_.fetch_add(1) + 1;
  if (n > exit_limit_.load()) diverged(exited_rank_.load(), exit_limit_.load());
  const std::vector<std::string> all = channel_->all_gather(mine ? encode_error(mine) : std::string());
  for (int r = 0; r < ranks_; ++r) {
    if (all[static_cast<size_t>(r)].empty()) continue;
    if (r == rank_) std::rethrow_exception(mine);
    raise_error(all[static_cast<size_t>(r)]);
  }
}

}  // namespace tessera::detail
