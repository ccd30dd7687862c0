// The utility thread's analysis: it takes flushed operations in program order, cuts each
// into tiles and makes this rank's point tasks, ordered after those whose accesses conflict.
#include "runtime/runtime.h"

#include "data/strided_rows.h"
#include "observe/observer.h"
#include "runtime/storage_state.h"
#include "tessera/scalar.h"

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
      analysis_errors_.record(op->issuer, std::current_exception());
    }
    if (o) o->analysis_end(*op);
    op.reset();  // a fence that sees the queue drained must not find the operation still held
    {
      std::lock_guard lock(queue_mu_);
      queued_.fetch_sub(1);
    }
    if (queued_.load() == 0) scheduler_->wake();  // a thread waiting for the work to drain
  }
}

std::shared_ptr<const Launch> Runtime::partition(Operation& op, int pieces) {
  if (std::shared_ptr<const Launch> own = op.own_launch()) {
    op.launched(*own);
    return own;
  }
  auto launch = std::make_shared<Launch>();
  if (op.work() == 0) {
    op.launched(*launch);  // nothing to compute: no points
    return launch;
  }
  PartitionRequest q;
  q.shapes = op.view_shapes();
  q.written.resize(op.args.size());
  for (size_t i = 0; i < op.args.size(); ++i) {
    const OpArg& a = op.args[i];
    q.written[i] = a.write && !a.per_point;
    if (a.per_point) q.shapes[i] = Shape{};  // not partitioned: each point gets its row below
  }
  q.constraints = op.constraints;
  q.pieces = pieces;
  q.min_chunk = config_.min_cpu_chunk;
  q.weight = op.weight;
  // Data stays where it is: a whole store keeps the tiles of the last launch it was key of.
  q.preferred = [&op](int i) -> const std::vector<Rect>* {
    const OpArg& a = op.args[static_cast<size_t>(i)];
    if (!a.store || !a.view.identity() || !a.store->is_whole()) return nullptr;
    const StorageState& state = state_of(*a.store->storage());
    return state.key_tiles.empty() ? nullptr : &state.key_tiles;
  };
  q.image = [this, &op](int i, const Rect& r, bool ranges, int64_t& lo, int64_t& hi) {
    return read_image(op, i, r, ranges, lo, hi);
  };
  if (ranks_ > 1 && op.cut_at_ranks) q.cuts = [this, &op](int i) { return rank_cuts(op.args[static_cast<size_t>(i)]); };
  *launch = solve(q);
  if (q.cuts && launch->key >= 0 && launch->points() > 1) launch->owners = tile_owners(op, *launch);
  if (launch->key >= 0 && launch->points() > 1) {
    const OpArg& k = op.args[static_cast<size_t>(launch->key)];
    if (k.store && k.view.identity() && k.store->is_whole()) state_of(*k.store->storage()).key_tiles = launch->tiles;
  }
  // Per-point arguments: point t touches index t of the first axis.
  for (size_t i = 0; i < op.args.size(); ++i) {
    if (!op.args[i].per_point) continue;
    const Shape& shape = op.args[i].shape();
    for (size_t t = 0; t < launch->points(); ++t) {
      Rect row = Rect::of(shape);
      row.lo[0] = static_cast<int64_t>(t);
      row.hi[0] = static_cast<int64_t>(t) + 1;
      launch->rects[t][i] = std::move(row);
    }
  }
  op.launched(*launch);
  return launch;
}

// Where the ranks' parts of `a`'s storage end, as rows of `a`'s view (PartitionRequest::cuts):
// a storage's part on rank r is its rows from ceil(r R / ranks) on (R rows along axis 0),
// the split row_owner() names. Empty unless each row of the view is a row of the storage,
// in order (a box of it, say).
std::vector<int64_t> Runtime::rank_cuts(const OpArg& a) const {
  if (!a.store || !a.view.identity() || a.store->ndim() == 0 || a.store->size() == 0) return {};
  const Store& s = *a.store;
  const int64_t rows = s.shape()[0];
  auto storage_rows = [&](int64_t v) {
    Rect r = Rect::of(s.shape());
    r.lo[0] = v;
    r.hi[0] = v + 1;
    return s.storage_rect(r);
  };
  const Rect first = storage_rows(0), last = storage_rows(rows - 1);
  if (first.ndim() == 0 || first.hi[0] - first.lo[0] != 1 || last.hi[0] - last.lo[0] != 1 ||
      last.lo[0] - first.lo[0] != rows - 1)
    return {};
  const int64_t total = s.storage()->shape()[0];
  std::vector<int64_t> cuts;
  for (int r = 1; r < ranks_; ++r) {
    const int64_t c = (int64_t{r} * total + ranks_ - 1) / ranks_ - first.lo[0];
    if (c > 0 && c < rows) cuts.push_back(c);
  }
  return cuts;
}

// The rank that runs each tile of `launch`, an operation cut at the ranks' parts: the one whose
// part holds the middle row of the tile's key argument (all of it, when the tiles were cut at
// the parts). Empty when the key argument's rows are not rows of its storage.
std::vector<int> Runtime::tile_owners(const Operation& op, const Launch& launch) const {
  const OpArg& k = op.args[static_cast<size_t>(launch.key)];
  if (rank_cuts(k).empty()) return {};
  std::vector<int> owners(launch.points());
  for (size_t t = 0; t < launch.points(); ++t) {
    Rect r = launch.rects[t][static_cast<size_t>(launch.key)];
    r.lo[0] = (r.lo[0] + r.hi[0] - 1) / 2;
    r.hi[0] = r.lo[0] + 1;
    owners[t] = row_owner(*k.store->storage(), k.store->storage_rect(r).lo[0]);
  }
  return owners;
}

// The values of argument `i` of `op` in `rect` (of its view), for an image constraint: they
// must be final, so the tasks in flight (which include their writers) finish first. With
// several ranks, only values every rank holds: every rank must derive the same partition.
bool Runtime::read_image(const Operation& op, int i, const Rect& rect, bool ranges, int64_t& lo, int64_t& hi) {
  const OpArg& a = op.args[static_cast<size_t>(i)];
  if (!a.store) return false;
  const Store& s = *a.store;
  const DType t = s.dtype();
  if (dtype_kind(t) != DKind::Int && dtype_kind(t) != DKind::UInt) return false;
  const Rect r = op.store_rect(i, rect);
  if (r.empty()) return false;
  if (ranks_ > 1 && !state_of(*s.storage()).residency.everywhere(s.storage_rect(r), ranks_)) return false;
  scheduler_->wait_until(0);
  if (!s.storage()->allocated()) return false;
  lo = INT64_MAX;
  hi = INT64_MIN;
  const int nd = s.ndim();
  if (nd == 1 && !ranges && (t == DType::Int32 || t == DType::Int64)) {  // index arrays: a tight loop
    const int64_t stride = s.strides()[0];
    auto scan = [&](auto* p) {
      for (int64_t i = r.lo[0]; i < r.hi[0]; ++i) {
        const int64_t v = p[i * stride];
        lo = std::min(lo, v);
        hi = std::max(hi, v + 1);
      }
    };
    if (t == DType::Int32) scan(reinterpret_cast<const int32_t*>(s.ptr({0})));
    else scan(reinterpret_cast<const int64_t*>(s.ptr({0})));
    if (lo > hi) lo = hi = 0;
    return true;
  }
  int64_t pair[2] = {0, 0};
  int k = 0;
  Shape extents(static_cast<size_t>(nd));
  for (int d = 0; d < nd; ++d) extents[d] = r.hi[d] - r.lo[d];
  const char* first = s.ptr(r.lo);
  const int64_t isz = itemsize(t);
  StridedRows(extents, {s.strides().data()}).for_each_element([&](const int64_t* off) {
    const int64_t v = tessera::Scalar::from_bytes(t, first + off[0] * isz).as_int();
    if (!ranges) {
      lo = std::min(lo, v);
      hi = std::max(hi, v + 1);
    } else {
      pair[k++] = v;
      if (k == 2) {
        k = 0;
        if (pair[1] > pair[0]) {
          lo = std::min(lo, pair[0]);
          hi = std::max(hi, pair[1]);
        }
      }
    }
  });
  if (lo > hi) lo = hi = 0;  // no index at all: an empty image
  return true;
}

void Runtime::analyse(const OperationPtr& op) {
  // Tiles follow the data alone (DESIGN §5): the same launch on any number of cpus or ranks.
  std::shared_ptr<const Launch> launch = partition(*op, 0);
  if (ranks_ == 1) {
    std::vector<int> all(launch->points());
    for (size_t t = 0; t < all.size(); ++t) all[t] = static_cast<int>(t);
    analyse_points(op, launch, all);
  } else {
    analyse_on_ranks(op, launch);
  }
}

// Makes this rank's point tasks for `points` of `launch`, ordered after the tasks whose
// accesses conflict with theirs.
void Runtime::analyse_points(const OperationPtr& op, const std::shared_ptr<const Launch>& launch,
                             const std::vector<int>& points, bool cover) {
  if (cover) cover_points(*op, *launch, points);  // before any task of the launch is in flight
  std::vector<PointTaskPtr> tasks;
  tasks.reserve(points.size());
  for (int p : points) {
    auto task = std::make_shared<PointTask>(op, launch, p);
    if (auto* o = observer()) o->task_created(*task);
    scheduler_->add(task);
    const std::vector<Rect>& rects = task->rects();
    for (size_t i = 0; i < op->args.size(); ++i) {
      const OpArg& a = op->args[i];
      if (!a.store || !(a.read || a.write) || rects[i].empty()) continue;
      analyzer_.record(task, *a.store->storage(), a.store->storage_rect(op->store_rect(static_cast<int>(i), rects[i])),
                       a.write);
    }
    tasks.push_back(std::move(task));
  }
  for (auto& t : tasks) scheduler_->release(t);
}

}  // namespace tessera::detail
