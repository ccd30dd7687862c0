#include "runtime/runtime.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "comm/rank_setup.h"
#include "runtime/transfer.h"
#include "profile/profiler.h"
#include "runtime/library.h"
#include "runtime/storage_state.h"
#include "observe/observer.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
std::mutex g_start_mu;
std::unique_ptr<Runtime> g_runtime;
std::atomic<Runtime*> g_current{nullptr};
thread_local std::string t_provenance;
std::atomic<Runtime::ProvenanceSource> g_provenance_source{nullptr};
}  // namespace

Runtime& Runtime::get() {
  Runtime* rt = g_current.load(std::memory_order_acquire);
  return rt ? *rt : start();
}

Runtime& Runtime::start() {
  std::lock_guard lock(g_start_mu);
  if (!g_runtime) {
    const RankPlacement placement = placement_from_environment();
    apply_bindings(placement);  // before any thread starts, so they all inherit it
    Config config = config_from_environment();
    if (config.help) {
      std::cout << config_help();
      std::cout.flush();
      std::exit(0);
    }
    setup_rank_output(config.show_all_ranks, placement);
    start_ranks(placement);
    g_runtime = std::make_unique<Runtime>(config);
    if (config.show_config) std::cerr << describe_config(config);
    g_current.store(g_runtime.get(), std::memory_order_release);
  }
  return *g_runtime;
}

void Runtime::finish() {
  std::lock_guard lock(g_start_mu);
  if (!g_runtime) return;
  if (g_runtime->ranks_ > 1) {
    g_runtime->finish_ranks();
  } else {
    try {
      g_runtime->fence();
    } catch (...) {
    }
  }
  if (g_runtime->config_.show_memory_usage) {
    std::string usage = "tessera memory usage at exit:\n";
    for (const auto& pool : g_runtime->pools()) usage += "  " + pool->usage_summary() + "\n";
    std::cerr << usage << std::flush;
  }
  g_current.store(nullptr, std::memory_order_release);
  g_runtime.reset();
  finish_rank_output();
}

bool Runtime::running() { return g_current.load(std::memory_order_acquire) != nullptr; }

void Runtime::set_provenance(std::string where) { t_provenance = std::move(where); }
void Runtime::set_provenance_source(ProvenanceSource source) { g_provenance_source.store(source); }

std::string Runtime::provenance() {
  Runtime* rt = g_current.load(std::memory_order_acquire);
  if (rt && rt->config_.provenance)
    if (ProvenanceSource source = g_provenance_source.load(std::memory_order_relaxed)) {
      std::string where = source();
      if (!where.empty()) return where;
    }
  return t_provenance;
}

Runtime::Runtime(const Config& config) : config_(config) {
  start_profiling(config_);  // before the threads start, so they are all observed
  try {
    start_threads();
  } catch (...) {
    stop_threads();  // the threads started so far, or destroying them terminates the process
    throw;
  }
}

void Runtime::start_threads() {
  sysmem_ = std::make_shared<MemoryPool>(MemoryKind::Sysmem, config_.sysmem_mib * (int64_t{1} << 20));
  scheduler_ = std::make_unique<Scheduler>(std::max(1, config_.cpus));
  // One tile per worker plus one for the program thread, which runs tasks while it waits
  // at sync points and under back-pressure.
  pieces_ = std::max(1, config_.cpus) + 1;
  rank_ = this_rank();
  ranks_ = rank_count();
  if (ranks_ > 1) {
    // Every rank must cut operations into the same tiles and the window after the same
    // operations: the ranks' tile counts are evened out to the largest, and settings that
    // shape the window and the tiles must match.
    std::vector<int64_t> lowest, highest;
    agree(lowest, highest, {pieces_, config_.min_cpu_chunk, config_.window_size, config_.test ? 1 : 0});
    pieces_ = static_cast<int>(highest[0]);
    const char* names[] = {"", "--min-cpu-chunk", "--window-size", "test mode (TESSERA_TEST)"};
    for (size_t i = 1; i < lowest.size(); ++i)
      if (lowest[i] != highest[i])
        throw ConfigError(std::string("tessera: every rank needs the same ") + names[i] + ", but the ranks have " +
                          std::to_string(lowest[i]) + " to " + std::to_string(highest[i]) +
                          ": give it in TESSERA_CONFIG for all of them");
    channel_ = std::make_unique<Channel>();
    channel_->watch_exits([this](int rank, int64_t operations) { note_exit(rank, operations); });
  }
  max_in_flight_ = std::max<int64_t>(64, 16 * int64_t{pieces_} * std::max(1, config_.window_size));
  sysmem_->set_reclaim_hook([this] {
    // A worker cannot wait for the tasks in flight (it is one of them): its allocation fails
    // and the error surfaces at the next sync point.
    if (Scheduler::inside_task()) return;
    if (auto* o = observer()) o->wait_begin(WaitKind::Reclaim);
    wait_for_work();  // pending tasks may hold the last references to dead storages
    if (auto* o = observer()) o->wait_end(WaitKind::Reclaim);
  });
  // What the program can do about an out-of-memory error, after the pool's report.
  std::string hint;
  if (!config_.provenance)
    hint += "Run with --provenance (TESSERA_CONFIG=\"--provenance\") to see where each store was created and "
            "which line issued each operation.\n";
  hint += "Free arrays that are no longer needed (del in Python), or give SYSMEM more room (--sysmem=MiB in "
          "TESSERA_CONFIG, now " + std::to_string(config_.sysmem_mib) + ").\n";
  sysmem_->set_report_hint(std::move(hint));
  install_library(*this);
  const int utility = std::max(1, config_.utility);
  try {
    for (int i = 0; i < utility; ++i)
      utility_.emplace_back([this, i] {
        if (auto* o = observer()) o->thread_started(ThreadRole::Utility, i);
        utility_loop();
      });
  } catch (const std::system_error& e) {
    // The system refused a thread (too many, or too little memory for their stacks).
    const int started = static_cast<int>(utility_.size());
    throw ConfigError("tessera: could not start utility thread " + std::to_string(started + 1) + " of " +
                      std::to_string(utility) + " (" + e.what() + "): give fewer --utility in TESSERA_CONFIG");
  }
}

Runtime::~Runtime() { stop_threads(); }

void Runtime::stop_threads() {
  if (sysmem_) sysmem_->set_reclaim_hook(nullptr);
  {
    std::lock_guard lock(queue_mu_);
    stop_ = true;
  }
  queue_cv_.notify_all();
  for (auto& t : utility_) t.join();
  utility_.clear();
  channel_.reset();  // every message delivered (the tasks that post them have run)
  scheduler_.reset();
  finish_profiling();  // every thread that recorded has stopped
}

std::shared_ptr<MemoryPool> Runtime::pool(MemoryKind kind) const {
  return kind == MemoryKind::Sysmem ? sysmem_ : nullptr;
}

std::vector<std::shared_ptr<MemoryPool>> Runtime::pools() const { return {sysmem_}; }

void Runtime::allocate_outputs(const Operation& op) {
  for (const OpArg& a : op.args)
    if (a.write && !a.store->storage()->allocated()) a.store->storage()->allocate(op.name, op.provenance);
}

void Runtime::run_inline(const OperationPtr& op) {
  RuntimeObserver* const o = observer();
  if (o) o->inline_begin(*op);
  try {
    allocate_outputs(*op);
    for (const Rect& tile : op->tiles(1, INT64_MAX)) op->execute(tile);
  } catch (...) {
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
  for (const OpArg& arg : op->args)
    if (arg.write) arg.store->require_writeable();
  if (op->provenance.empty()) op->provenance = provenance();
  if (ranks_ > 1) {
    const int64_t n = issued_.fetch_add(1, std::memory_order_relaxed) + 1;
    if (n > exit_limit_.load(std::memory_order_acquire)) diverged(exited_rank_.load(), exit_limit_.load());
  }
  const bool small = volume(op->domain) < config_.min_cpu_chunk && !config_.test;
  // Small-array fast path: with nothing in flight there is nothing to order against, so
  // small operations run on this thread in program order, with no analysis.
  if (small && window_small_ && queued_.load() == 0 && scheduler_->in_flight() == 0 &&
      std::all_of(window_.begin(), window_.end(), [&](const OperationPtr& w) { return held_everywhere(*w); }) &&
      held_everywhere(*op)) {
    if (ranks_ == 1) rethrow_task_error();  // with several ranks, errors wait for a sync point
    if (!window_.empty()) {
      std::vector<OperationPtr> ops;
      ops.swap(window_);
      window_need_ = 0;
      if (fusion_ && ops.size() > 1) fusion_(ops);
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
  // usually dropped the temporaries it passed to the last operation, so they can fuse.
  if (window_count_ >= std::max(1, config_.window_size)) flush();
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

int64_t Runtime::unclaimed_bytes(const Operation& op) const {
  int64_t bytes = 0;
  for (const OpArg& a : op.args) {
    const Storage& s = *a.store->storage();
    if (a.write && !s.allocated() && !s.reserved()) bytes += s.bytes();
  }
  return bytes;
}

// Claims, in program order and on this thread, the room each flushed operation writes into,
// so that a worker never runs out (it could not wait for memory to come back) and the
// error comes at the program's call. Operations before one that does not fit are queued
// first: the pool's reclaim then lets them run and free what they leave dead. One that
// still does not fit is dropped with the later ones of the batch that use what it would
// have written (their results are never computed); the first error is returned.
std::exception_ptr Runtime::claim_memory(std::vector<OperationPtr>& ops) {
  std::exception_ptr error;
  std::vector<const Storage*> lost;  // written by dropped operations
  std::vector<OperationPtr> ready;
  ready.reserve(ops.size());
  for (OperationPtr& op : ops) {
    bool drop = false;
    for (const OpArg& a : op->args)
      drop = drop || std::find(lost.begin(), lost.end(), a.store->storage().get()) != lost.end();
    std::vector<Storage*> claimed;  // by this operation
    bool fits = !drop;
    for (const OpArg& a : op->args) {
      Storage& s = *a.store->storage();
      if (!fits || !a.write || s.allocated() || s.reserved()) continue;
      if (s.try_reserve(op->name, op->provenance)) claimed.push_back(&s);
      else fits = false;
    }
    if (!fits && !drop) {
      enqueue(ready);
      try {
        for (const OpArg& a : op->args) {
          Storage& s = *a.store->storage();
          if (!a.write || s.allocated() || s.reserved()) continue;
          s.reserve(op->name, op->provenance);
          claimed.push_back(&s);
        }
        fits = true;
      } catch (const OutOfMemoryError&) {
        if (!error) error = std::current_exception();
        for (Storage* s : claimed) s->unreserve();
      }
    }
    if (fits) {
      ready.push_back(std::move(op));
      continue;
    }
    for (const OpArg& a : op->args) {
      if (!a.write) continue;
      lost.push_back(a.store->storage().get());
      if (!a.store->storage()->allocated()) a.store->storage()->mark_failed();
    }
  }
  ops = std::move(ready);
  return error;
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

void Runtime::flush() {
  window_count_ = 0;
  if (window_.empty()) return;
  std::vector<OperationPtr> ops;
  ops.swap(window_);
  window_small_ = true;
  window_need_ = 0;
  if (fusion_ && ops.size() > 1) fusion_(ops);
  std::exception_ptr out_of_memory = claim_memory(ops);
  enqueue(ops);
  if (scheduler_->in_flight() > max_in_flight_) {
    if (auto* o = observer()) o->wait_begin(WaitKind::BackPressure);
    scheduler_->wait_until(max_in_flight_ / 2);
    if (auto* o = observer()) o->wait_end(WaitKind::BackPressure);
  }
  if (out_of_memory) std::rethrow_exception(out_of_memory);
}

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

// Small operations run on every rank (their inputs are usually everywhere already, and
// their results, often scalars the program reads, then are too); the tiles of others are
// dealt to the ranks in blocks, so that consecutive operations over the same arrays give
// each rank the same parts and only the edges move.
bool Runtime::replicated(const Operation& op, size_t tiles) const {
  return tiles <= 1 || (volume(op.domain) < config_.min_cpu_chunk && !config_.test);
}

void Runtime::analyse_on_ranks(const OperationPtr& op, std::vector<Rect>& tiles) {
  const size_t n = tiles.size(), nargs = op->args.size();
  bool everywhere = replicated(*op, n);
  auto runner = [&](size_t t) { return static_cast<int>(t * static_cast<size_t>(ranks_) / n); };
  // The part of each argument's storage each tile touches, and whether the tile writes all
  // of it: a strided or reshaped view writes only some elements of its bounding box.
  std::vector<std::vector<Rect>> boxes(n, std::vector<Rect>(nargs));
  std::vector<std::vector<char>> partial(n, std::vector<char>(nargs, 0));
  for (size_t t = 0; t < n; ++t)
    for (size_t i = 0; i < nargs; ++i) {
      const Rect r = op->arg_rect(static_cast<int>(i), tiles[t]);
      if (r.empty()) continue;
      boxes[t][i] = op->args[i].store->storage_rect(r);
      partial[t][i] = op->args[i].write && boxes[t][i].volume() != r.volume();
    }
  // Tiles on different ranks whose partial writes share a box would each claim the shared
  // part: such an operation runs on every rank instead.
  for (size_t i = 0; i < nargs && !everywhere; ++i)
    for (size_t t = 0; t < n && !everywhere; ++t)
      for (size_t u = t + 1; u < n && !everywhere; ++u)
        everywhere = (partial[t][i] || partial[u][i]) && runner(t) != runner(u) && !boxes[t][i].empty() &&
                     !boxes[u][i].empty() && boxes[t][i].overlaps(boxes[u][i]);
  // 1. Each rank that runs a tile receives what the tile reads (or overwrites only in part)
  //    and does not hold yet, from a rank that does. Reads see the state before the
  //    operation, so all of them come before any of its writes.
  for (size_t t = 0; t < n; ++t)
    for (size_t i = 0; i < nargs; ++i) {
      const OpArg& a = op->args[i];
      if (boxes[t][i].empty() || !(a.read || partial[t][i])) continue;
      const auto& storage = a.store->storage();
      const int first = everywhere ? 0 : runner(t), last = everywhere ? ranks_ - 1 : runner(t);
      for (int q = first; q <= last; ++q)
        for (const Transfer& x : state_of(*storage).residency.missing(boxes[t][i], q)) {
          transfer(storage, x.box, x.source, q, *op);
          state_of(*storage).residency.add_copy(x.box, q);
        }
    }
  // 2. This rank's tasks.
  std::vector<Rect> mine;
  for (size_t t = 0; t < n; ++t)
    if (everywhere || runner(t) == rank_) mine.push_back(tiles[t]);
  analyse_tiles(op, mine);
  // 3. What a tile wrote is held by the rank that ran it (by every rank when all ran it).
  const RankSet all = RankSet::all(ranks_);
  for (size_t t = 0; t < n; ++t)
    for (size_t i = 0; i < nargs; ++i)
      if (op->args[i].write && !boxes[t][i].empty())
        state_of(*op->args[i].store->storage())
            .residency.write(boxes[t][i], everywhere ? all : RankSet::one(runner(t)));
}

// One copy of `box` of `storage` from rank `source` to rank `dest`, needed by `reader`:
// a send task there, a receive task here, or nothing when this rank is neither. Both
// sides number the copies between them in program order, which gives the message tag.
void Runtime::transfer(const std::shared_ptr<Storage>& storage, const Rect& box, int source, int dest,
                       const Operation& reader) {
  if (rank_ != source && rank_ != dest) return;
  const int tag = channel_->next_tag(source, dest);
  OperationPtr op;
  ReceiveOp* receive = nullptr;
  if (rank_ == source) {
    op = std::make_shared<SendOp>(*channel_, storage, dest, tag);
  } else {
    auto r = std::make_shared<ReceiveOp>(storage, box);
    receive = r.get();
    op = std::move(r);
  }
  op->provenance = reader.provenance;
  auto task = std::make_shared<PointTask>(op, box);
  if (auto* o = observer()) {
    o->operation_made(*op);
    o->task_created(*task);
  }
  if (receive) task->hold();  // until the message is here
  scheduler_->add(task);
  analyzer_.record(task, *storage, box, receive != nullptr);
  if (receive)
    channel_->receive(source, tag, receive->buffer(), receive->bytes(),
                      [this, task] { scheduler_->release(task); });
  scheduler_->release(task);
}

// True when every part `op` reads (or overwrites in part) is held by every rank, or on one
// rank: then every rank can run it by itself, with nothing to copy.
bool Runtime::held_everywhere(const Operation& op) const {
  if (ranks_ == 1) return true;
  const Rect whole = Rect::of(op.domain);
  for (size_t i = 0; i < op.args.size(); ++i) {
    const OpArg& a = op.args[i];
    const Rect r = op.arg_rect(static_cast<int>(i), whole);
    if (r.empty()) continue;
    const Rect box = a.store->storage_rect(r);
    if ((a.read || box.volume() != r.volume()) && !state_of(*a.store->storage()).residency.everywhere(box, ranks_))
      return false;
  }
  return true;
}

// After `op` ran on every rank by itself: what it wrote is held everywhere.
// (Called with nothing queued or in flight, so the utility thread, idle, touches no record;
// the queue's lock orders these writes before its next analysis.)
void Runtime::note_written_everywhere(const Operation& op) {
  if (ranks_ == 1) return;
  const Rect whole = Rect::of(op.domain);
  const RankSet all = RankSet::all(ranks_);
  for (size_t i = 0; i < op.args.size(); ++i) {
    const OpArg& a = op.args[i];
    if (!a.write) continue;
    const Rect r = op.arg_rect(static_cast<int>(i), whole);
    if (!r.empty()) state_of(*a.store->storage()).residency.write(a.store->storage_rect(r), all);
  }
}

namespace {
// Reads a store whole on every rank and does nothing: what the analysis copies for it is
// the point (Runtime::acquire).
class AcquireOp final : public Operation {
 public:
  explicit AcquireOp(const StorePtr& store) {
    name = "acquire";
    domain = store->shape();
    args.push_back(OpArg{store, true, false, Projection::Align});
  }
  void execute(const Rect&) override {}
  std::vector<Rect> tiles(int, int64_t) const override {
    if (volume(domain) == 0) return {};
    return {Rect::of(domain)};
  }
};
}  // namespace

void Runtime::acquire(const StorePtr& store) {
  if (ranks_ > 1) submit(std::make_shared<AcquireOp>(store));
  fence();
}

// Waits until everything issued has been analysed and every task has run (this thread runs
// ready tasks meanwhile).
void Runtime::wait_for_work() {
  {
    std::unique_lock lock(queue_mu_);
    drained_cv_.wait(lock, [&] { return queued_.load() == 0; });
  }
  scheduler_->wait_until(0);
}

// The first error of analysis or of a task since the last call, or null.
std::exception_ptr Runtime::take_error() {
  std::exception_ptr e;
  {
    std::lock_guard lock(queue_mu_);
    e = std::exchange(analysis_error_, nullptr);
  }
  return e ? e : scheduler_->take_error();
}

void Runtime::rethrow_task_error() {
  if (std::exception_ptr e = take_error()) std::rethrow_exception(e);
}

// Another rank ends the program after `operations` operations. If this rank has issued more,
// the ranks took different paths (one called sys.exit, say): nothing can match any more.
void Runtime::note_exit(int rank, int64_t operations) {
  int64_t limit = exit_limit_.load();
  while (operations < limit && !exit_limit_.compare_exchange_weak(limit, operations)) {
  }
  if (operations <= exit_limit_.load()) exited_rank_.store(rank);
  if (issued_.load() > operations) diverged(rank, operations);
}

void Runtime::diverged(int rank, int64_t operations) {
  abort_run(1, "tessera: rank " + std::to_string(rank) + " ended the program after " + std::to_string(operations) +
                   " operations while rank " + std::to_string(rank_) + " went on (the ranks took different paths: " +
                   "did one of them exit early?); stopping all ranks");
}

// The end of a run on several ranks: this rank's work is done (its sends are out), it tells
// the others, and waits for all of them to end at the same point before MPI finishes. No
// error exchange here: a rank that ends early must not pair its last messages with copies
// the others still make.
void Runtime::finish_ranks() {
  try {
    flush();
  } catch (...) {
  }
  wait_for_work();
  channel_->announce_exit(issued_.load());
  channel_->wait_for_exits();
}

void Runtime::fence() {
  flush();
  RuntimeObserver* const o = observer();
  if (o) o->wait_begin(WaitKind::Fence);
  wait_for_work();
  if (o) o->wait_end(WaitKind::Fence);
  if (ranks_ > 1) agree_on_errors();
  else rethrow_task_error();
}

namespace {
// An error as text another rank can raise again: its kind, then its message.
std::string encode_error(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const OutOfMemoryError& x) { return std::string("M") + x.what();
  } catch (const ValueError& x) { return std::string("V") + x.what();
  } catch (const TypeError& x) { return std::string("T") + x.what();
  } catch (const IndexError& x) { return std::string("I") + x.what();
  } catch (const AxisError& x) { return std::string("A") + x.what();
  } catch (const LinAlgError& x) { return std::string("L") + x.what();
  } catch (const ZeroDivisionError& x) { return std::string("Z") + x.what();
  } catch (const NotImplementedError& x) { return std::string("N") + x.what();
  } catch (const OverflowError& x) { return std::string("O") + x.what();
  } catch (const std::domain_error& x) { return std::string("D") + x.what();
  } catch (const std::exception& x) { return std::string("E") + x.what();
  } catch (...) { return "Eunknown error";
  }
}

[[noreturn]] void raise_error(const std::string& text) {
  const std::string what = text.substr(1);
  switch (text[0]) {
    case 'M': throw OutOfMemoryError(what);
    case 'V': throw ValueError(what);
    case 'T': throw TypeError(what);
    case 'I': throw IndexError(what);
    case 'A': throw AxisError(what);
    case 'L': throw LinAlgError(what);
    case 'Z': throw ZeroDivisionError(what);
    case 'N': throw NotImplementedError(what);
    case 'O': throw OverflowError(what);
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
