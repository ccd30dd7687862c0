// Analysis with several ranks: which rank runs which tiles, the copies between ranks as
// send/receive tasks (from each storage's residency record), acquire, and how ranks end a
// run together (or find that they took different paths).
#include "runtime/runtime.h"

#include "observe/observer.h"
#include "runtime/body_guard.h"
#include "runtime/copy_on_write.h"
#include "runtime/libraries.h"
#include "runtime/storage_state.h"
#include "runtime/transfer.h"

namespace tessera::detail {

// Small operations run on every rank (their inputs are usually everywhere already, and
// their results, often scalars the program reads, then are too); the tiles of others are
// dealt to the ranks in blocks, so that consecutive operations over the same arrays give
// each rank the same parts and only the edges move.
// Only while everything it writes is small, though: a small write into a large array (its
// first row, say) runs on the rank whose block of the array holds it, so that the other
// ranks need not hold that part of the array.
bool Runtime::replicated(const Operation& op, size_t tiles) const {
  return (tiles <= 1 || (op.work() < config_.min_cpu_chunk && !config_.test)) && writes_small(op) &&
         !(op.cut_at_ranks && writes_split(op));
}

// (A large array every rank holds whole — made by the program, or another library's memory —
// is written everywhere, as before: every rank keeps all of it current. Whether an array is
// split is the same on every rank at the same point of the program: only the analysis splits
// arrays, and only arrays nothing allocated yet, which no inline operation writes.)
bool Runtime::writes_small(const Operation& op) const {
  for (const OpArg& a : op.args) {
    if (!a.write) continue;
    const Storage& s = *a.store->storage();
    if (s.elements() >= int64_t{config_.min_cpu_chunk} * ranks_ && (s.partial() || (!s.allocated() && !s.adopted())))
      return false;
  }
  return true;
}

// Whether `op` writes an array the ranks hold in parts (its residency record says so, the same
// on every rank; whether this rank's storage is partial may differ: a rank that ran none of its
// tiles never split it). Such a small array stays split under element-wise writes: writing it
// everywhere would bring every rank the parts the others hold, each time (a boundary row of a
// small grid). Only the analysis asks, where the records are current (the program thread's
// choices must not read them).
bool Runtime::writes_split(const Operation& op) const {
  for (const OpArg& a : op.args) {
    if (!a.write) continue;
    Storage& s = *a.store->storage();
    if (!state_of(s).residency.everywhere(Rect::of(s.shape()), ranks_)) return true;
  }
  return false;
}

// The rank in whose block (of C order, ranks in turn) `box` of `storage` starts.
int Runtime::block_owner(const Storage& storage, const Rect& box) const {
  int64_t lo = 0;
  for (int d = 0; d < box.ndim(); ++d) lo += box.lo[d] * storage.strides()[d];
  const int64_t n = std::max<int64_t>(1, storage.elements());
  return static_cast<int>(std::min<int64_t>(ranks_ - 1, lo * ranks_ / n));
}

int Runtime::row_owner(const Storage& storage, int64_t row) const {
  const int64_t rows = storage.shape().empty() ? 1 : std::max<int64_t>(1, storage.shape()[0]);
  return static_cast<int>(std::clamp<int64_t>(row * ranks_ / rows, 0, ranks_ - 1));
}

void Runtime::analyse_on_ranks(const OperationPtr& op, const std::shared_ptr<const Launch>& launch) {
  const size_t n = launch->points(), nargs = op->args.size();
  if (op->local) {  // every rank acts on what it holds: no copies, no cover, residency as it is
    std::vector<int> all(n);
    for (size_t t = 0; t < n; ++t) all[t] = static_cast<int>(t);
    analyse_points(op, launch, all, /*cover=*/false);
    op->move_residency();
    return;
  }
  bool everywhere = replicated(*op, n);
  // One point that is not run everywhere runs where the first array it writes starts.
  int single = 0;
  if (n == 1 && !everywhere)
    for (size_t i = 0; i < nargs; ++i) {
      const OpArg& a = op->args[i];
      if (!a.write || launch->rects[0][i].empty()) continue;
      single = block_owner(*a.store->storage(),
                           a.store->storage_rect(op->store_rect(static_cast<int>(i), launch->rects[0][i])));
      break;
    }
  const std::vector<int>& owner = launch->owners;
  auto runner = [&](size_t t) {
    if (n == 1) return single;
    return owner.empty() ? static_cast<int>(t * static_cast<size_t>(ranks_) / n) : owner[t];
  };
  // The part of each argument's storage each tile touches, and whether the tile writes all
  // of it: a strided or reshaped view writes only some elements of its bounding box, a view
  // in another item size only part of each element.
  // `touched` says which boxes are set: a default Rect is 0-d, a non-empty box of a 0-d store,
  // so an argument a tile leaves alone (its rect empty) must not be read as one.
  std::vector<std::vector<Rect>> boxes(n, std::vector<Rect>(nargs));
  std::vector<std::vector<char>> partial(n, std::vector<char>(nargs, 0)), touched(n, std::vector<char>(nargs, 0));
  for (size_t t = 0; t < n; ++t)
    for (size_t i = 0; i < nargs; ++i) {
      const OpArg& a = op->args[i];
      if (!a.store || !(a.read || a.write) || launch->rects[t][i].empty()) continue;
      const Rect r = op->store_rect(static_cast<int>(i), launch->rects[t][i]);
      if (r.empty()) continue;
      boxes[t][i] = a.store->storage_rect(r);
      touched[t][i] = !boxes[t][i].empty();
      // A view in a smaller item size (a.imag of a complex array) writes part of each element.
      const bool part_of_elements = itemsize(a.store->dtype()) != itemsize(a.store->storage()->dtype());
      partial[t][i] = a.write && (part_of_elements || boxes[t][i].volume() != r.volume());
    }
  // Tiles on different ranks whose partial writes share a box would each claim the shared
  // part: such an operation runs on every rank instead.
  for (size_t i = 0; i < nargs && !everywhere; ++i)
    for (size_t t = 0; t < n && !everywhere; ++t)
      for (size_t u = t + 1; u < n && !everywhere; ++u)
        everywhere = (partial[t][i] || partial[u][i]) && runner(t) != runner(u) && touched[t][i] && touched[u][i] &&
                     boxes[t][i].overlaps(boxes[u][i]);
  // 1. Each rank that runs a tile receives what the tile reads (or overwrites only in part)
  //    and does not hold yet, from a rank that does. Reads see the state before the
  //    operation, so all of them come before any of its writes.
  for (size_t t = 0; t < n; ++t)
    for (size_t i = 0; i < nargs; ++i) {
      const OpArg& a = op->args[i];
      if (!touched[t][i] || !(a.read || partial[t][i])) continue;
      const auto& storage = a.store->storage();
      const int first = everywhere ? 0 : runner(t), last = everywhere ? ranks_ - 1 : runner(t);
      for (int q = first; q <= last; ++q)
        for (const Transfer& x : state_of(*storage).residency.missing(boxes[t][i], q)) {
          transfer(storage, x.box, x.source, q, *op);
          state_of(*storage).residency.add_copy(x.box, q);
        }
    }
  // 2. This rank's tasks.
  std::vector<int> mine;
  for (size_t t = 0; t < n; ++t)
    if (everywhere || runner(t) == rank_) mine.push_back(static_cast<int>(t));
  analyse_points(op, launch, mine);
  // 3. What a tile wrote is held by the rank that ran it (by every rank when all ran it).
  const RankSet all = RankSet::all(ranks_);
  for (size_t t = 0; t < n; ++t)
    for (size_t i = 0; i < nargs; ++i)
      if (op->args[i].write && touched[t][i])
        state_of(*op->args[i].store->storage())
            .residency.write(boxes[t][i], everywhere ? all : RankSet::one(runner(t)));
}

// A storage the analysis sees before anything allocated it holds, on this rank, only the
// range of C order that this rank's tasks and copies touch (DESIGN §6): arrays are split
// across the ranks' memories. Allocated storages (made by the program thread) stay whole.
void Runtime::cover(Storage& storage, const Rect& box) {
  if (ranks_ == 1 || box.empty()) return;
  // A lazy copy covers what its source covers once its share ran (copy_on_write.h), and grows
  // with it: the share runs first.
  if (storage.awaiting_memory()) scheduler_->wait_until(0);
  if (!storage.partial() && !storage.make_partial()) return;
  const Shape& st = storage.strides();
  int64_t lo = 0, hi = 1;
  for (int d = 0; d < box.ndim(); ++d) {
    lo += box.lo[d] * st[d];
    hi += (box.hi[d] - 1) * st[d];
  }
  if (storage.cover(lo, hi)) return;
  scheduler_->wait_until(0);  // no task may use the memory while it moves
  storage.grow(lo, hi);
}

void Runtime::cover_points(const Operation& op, const Launch& launch, const std::vector<int>& points) {
  if (ranks_ == 1) return;
  for (int p : points)
    for (size_t i = 0; i < op.args.size(); ++i) {
      const OpArg& a = op.args[i];
      const Rect& r = launch.rects[static_cast<size_t>(p)][i];
      if (!a.store || !(a.read || a.write) || r.empty()) continue;
      cover(*a.store->storage(), a.store->storage_rect(op.store_rect(static_cast<int>(i), r)));
    }
}

// One copy of `box` of `storage` from rank `source` to rank `dest`, needed by `reader`:
// a send task there, a receive task here, or nothing when this rank is neither. Both
// sides number the copies between them in program order, which gives the message tag.
void Runtime::transfer(const std::shared_ptr<Storage>& storage, const Rect& box, int source, int dest,
                       const Operation& reader) {
  if (rank_ != source && rank_ != dest) return;
  cover(*storage, box);
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
  auto launch = std::make_shared<Launch>();
  launch->tiles.push_back(box);
  launch->rects.push_back({box});
  auto task = std::make_shared<PointTask>(op, std::move(launch), 0);
  if (auto* o = observer()) {
    o->operation_made(*op);
    o->task_created(*task);
  }
  if (receive) task->hold();  // until the message is here
  scheduler_->add(task);
  analyzer_.record(task, *storage, box, receive != nullptr);
  if (receive)
    channel_->receive(source, tag, receive->buffer(), receive->bytes(), [this, task] { scheduler_->release(task); });
  scheduler_->release(task);
}

// True when every part `op` reads (or overwrites in part) is held by every rank, or on one
// rank: then every rank can run it by itself, with nothing to copy.
bool Runtime::held_everywhere(const Operation& op) const {
  if (ranks_ == 1) return true;
  for (size_t i = 0; i < op.args.size(); ++i) {
    const OpArg& a = op.args[i];
    if (!a.store || !(a.read || a.write)) continue;
    const Rect r = Rect::of(a.store->shape());
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
  const RankSet all = RankSet::all(ranks_);
  for (size_t i = 0; i < op.args.size(); ++i) {
    const OpArg& a = op.args[i];
    if (!a.store || !a.write) continue;
    const Rect r = Rect::of(a.store->shape());
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
    add(store, true, false);
    constraints.push_back(broadcast(0));  // one point, reading all of it
  }
  void execute(const Point&) override {}
};
}  // namespace

void Runtime::acquire(const StorePtr& store) {
  refuse_inside_body("read the values of a tessera array");
  ProgramScope program;
  // The program may write it on the host next: a lazy copy sharing its memory separates first.
  unshare_before_write(store->storage());
  gather(store);
}

void Runtime::gather(const StorePtr& store) {
  Libraries::get().before_write(*store->storage());  // what a library keeps of it settles
  if (ranks_ > 1) submit(std::make_shared<AcquireOp>(store));
  fence();
}

void Runtime::acquire_to_read(const StorePtr& store) {
  refuse_inside_body("read the values of a tessera array");
  ProgramScope program;
  if (ranks_ > 1) {
    gather(store);  // a read: memory a lazy copy shares stays shared
    return;
  }
  flush(Defer::Unread, store->storage().get());
  wait_for_flushed();
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
                   " operations while rank " + std::to_string(rank_) +
                   " went on (the ranks took different paths: " + "did one of them exit early?); stopping all ranks");
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

}  // namespace tessera::detail
