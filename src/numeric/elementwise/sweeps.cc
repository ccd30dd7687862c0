// Stencil sweeps fused in time. A loop of `p[1:-1, 1:-1] = f(p[...])` reads and writes the
// whole array once per sweep; k such sweeps in a row are computed here in one pass over
// memory, each level kept in a buffer of a few rows that slides down a band of rows.
#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>

#include "comm/residency.h"
#include "numeric/elementwise/expression.h"
#include "runtime/renaming.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "runtime/transfer.h"

namespace tessera::detail {
namespace {

// Rows the last sweep computes at a time, at least: each level then computes as many, and
// the rows it keeps for the next group (the stencil's reach) are a small part of them.
constexpr int64_t kGroupBytes = 256 << 10;
// A pass fuses at most kMaxSweeps sweeps, and fewer when its level buffers would pass
// kLevelBytes (they should stay in the caches of a core). Measured on a 2000 x 2000 Jacobi
// grid (16 KB rows) on 2 cores: 8 sweeps a pass take 1.6-2.1 ms a sweep, 4 take 1.9-2.2,
// sweep by sweep in place 2.6-3.2 (the evaluator, not memory, limits a pass of many sweeps).
constexpr int64_t kLevelBytes = 4 << 20;
constexpr size_t kMaxSweeps = 8;
constexpr int64_t kBandRows = 16;  // a band's rows per sweep and halo row, at least

// The storage rows of its array that sweep `e` reads for output row q: q + lo .. q + hi - 1,
// with q counted from the first row of the box it writes. Null when a view of the array it
// reads is not a box of the array's storage of the output's shape, or it reads none.
using Reach = std::pair<int64_t, int64_t>;
std::optional<Reach> reach(const ElementwiseOp& e) {
  const StorePtr& out = e.output();
  const Rect box = out->storage_rect(Rect::of(out->shape()));
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int k = 1; k <= e.num_inputs(); ++k) {
    const Store& in = *e.args[static_cast<size_t>(k)].store;
    if (in.storage() != out->storage()) continue;
    const Rect r = in.storage_rect(Rect::of(in.shape()));
    if (r.volume() != in.size() || in.shape() != out->shape()) return std::nullopt;
    lo = std::min(lo, r.lo[0] - box.lo[0]);
    hi = std::max(hi, r.hi[0] - box.hi[0] + 1);
  }
  if (lo == INT64_MAX) return std::nullopt;
  return Reach{lo, hi};
}

// A run of k stencils E_1 .. E_k, each writing the same box of one array P from views of P
// shifted by a few rows (and from arrays none of them writes), computed in one pass: each
// point takes a band of the box's rows, reads P's memory and writes its band of E_k's
// values into fresh storage F; a rename after it gives P that memory with P's frame (the
// part outside the box, which no sweep writes) copied across.
//
// Level j < k lives in a buffer of rows laid out as P's storage (the box's frame copied in
// from P, as the next level reads it too). The buffer slides down the band: each group of
// rows the next level computes needs a few more rows of this level, and the rows no later
// group reads are dropped. Only a band's first group computes the rows its neighbour also
// computes. Every value is computed by the same expression from the same values as
// sweep by sweep: the results are bitwise those of the sweeps one after the other.
class SweepsOp final : public Operation {
 public:
  /// `reach[j]` is reach(*sweeps[j]).
  SweepsOp(std::vector<std::shared_ptr<ElementwiseOp>> sweeps, std::vector<Reach> reach, const StorePtr& fresh,
           Rect box)
      : sweeps_(std::move(sweeps)), fresh_(fresh->storage()), box_(std::move(box)), reach_(std::move(reach)) {
    const ElementwiseOp& first = *sweeps_.front();
    name = first.name + " (" + std::to_string(sweeps_.size()) + " sweeps)";
    provenance = first.provenance;
    const StorePtr& out = first.output();
    storage_ = out->storage();
    box_shape_ = out->shape();
    // Points are bands of F's (and P's) rows, of which each writes the box's part; a band
    // reads P's rows as far as k sweeps reach beyond it. With several ranks the bands are cut
    // at the ranks' parts of P, and F's part on each rank is P's (renaming exchanges them).
    fresh_->set_twin(storage_);
    cut_at_ranks = true;
    add(whole_store(fresh_), false, true);
    add(whole_store(storage_), true, false);
    // Tiles are bands of whole rows, and thick ones: a band recomputes about (k - 1) x halo
    // rows of its neighbour's levels (k sweeps reaching halo rows), so kBandRows x k x halo
    // rows keep that near 1 / (2 kBandRows) of its work however many tiles the data gives.
    int64_t halo = 1;
    for (const Reach& r : reach_) halo = std::max({halo, -r.first, r.second - 1});
    const int64_t reach_rows = static_cast<int64_t>(sweeps_.size()) * halo;
    Shape grown(storage_->shape().size(), 0);
    grown[0] = reach_rows;
    constraints.push_back(bloat(1, 0, grown, grown));
    Shape whole_rows = storage_->shape();
    whole_rows[0] = kBandRows * reach_rows;
    constraints.push_back(min_extents(0, std::move(whole_rows)));
    weight = 0;
    for (const auto& e : sweeps_) {
      weight += e->weight;
      waits = std::max(waits, e->waits);
      for (int k = 1; k <= e->num_inputs(); ++k) {
        const StorePtr& in = e->args[static_cast<size_t>(k)].store;
        if (in->storage() == storage_) continue;
        bool seen = false;
        for (const OpArg& a : args) seen = seen || a.store == in;
        if (!seen) constraints.push_back(broadcast(add(in, true, false)));
      }
    }
  }

  void launched(const Launch&) override {
    for (const auto& e : sweeps_) e->prepare();
  }

  int64_t traffic(const std::vector<Rect>& rects) const override {
    return 2 * rects[0].volume() * itemsize(storage_->dtype());  // P's band read, F's written
  }

  void execute(const Point& point) override {
    // The point's band of P's rows, as rows of the box (what the sweeps' views index).
    Rect tile = Rect::of(box_shape_);
    tile.lo[0] = std::max(point.tile.lo[0], box_.lo[0]) - box_.lo[0];
    tile.hi[0] = std::min(point.tile.hi[0], box_.hi[0]) - box_.lo[0];
    if (point.tile.empty() || tile.empty()) return;
    const Storage& p = *storage_;
    const Shape& shape = p.shape();
    const int size = itemsize(p.dtype());
    const int64_t rows = shape[0], row_bytes = p.elements() / rows * size;
    const int64_t group = std::max<int64_t>(1, kGroupBytes / row_bytes);
    const size_t k = sweeps_.size();
    thread_local std::vector<Level> levels;
    if (levels.size() < k - 1) levels.resize(k - 1);
    for (size_t j = 0; j + 1 < k; ++j) levels[j].lo = levels[j].hi = -1;
    const int64_t b0 = box_.lo[0];

    // The storage rows sweep j (0-based) reads for its box rows [q0, q1), within P.
    auto needs = [&](size_t j, int64_t q0, int64_t q1) {
      return std::pair<int64_t, int64_t>{std::max<int64_t>(0, q0 + b0 + reach_[j].first),
                                         std::min(rows, q1 - 1 + b0 + reach_[j].second)};
    };
    // Level j's element 0 as its buffer places it.
    auto base = [&](size_t j) {
      const Level& l = levels[j];
      return reinterpret_cast<uintptr_t>(l.rows.data()) - static_cast<uintptr_t>(l.lo * row_bytes);
    };
    // Box rows [q0, q1) of sweep j, computed from level j - 1 (P's memory for j = 0) into
    // `to` (level j, or F for the last sweep).
    auto compute = [&](size_t j, int64_t q0, int64_t q1, uintptr_t to) {
      Rect part = tile;
      part.lo[0] = q0;
      part.hi[0] = q1;
      ElementwiseOp::Redirect r;
      r.storage = &p;
      r.out = reinterpret_cast<char*>(to);
      r.in = j == 0 ? nullptr : reinterpret_cast<const char*>(base(j - 1));
      sweeps_[j]->evaluate(part, nullptr, &r);
    };
    // Makes level j hold storage rows [lo, hi): drops the rows above lo, then adds the rows it
    // lacks (what the box covers computed by sweep j, the frame copied from P).
    std::function<void(size_t, int64_t, int64_t)> ensure = [&](size_t j, int64_t lo, int64_t hi) {
      Level& l = levels[j];
      if (l.lo < 0) l.lo = l.hi = lo;
      if (lo > l.lo) {
        const int64_t kept = std::max<int64_t>(0, l.hi - lo);
        if (kept > 0) std::memmove(l.rows.data(), l.rows.data() + (lo - l.lo) * row_bytes, kept * row_bytes);
        l.lo = lo;
        l.hi = std::max(l.hi, lo);
      }
      if (hi <= l.hi) return;
      const size_t want = static_cast<size_t>((hi - l.lo) * row_bytes);
      if (l.rows.size() < want) l.rows.resize(want);
      const int64_t from = l.hi;
      const int64_t q0 = std::max(from, b0) - b0, q1 = std::min(hi, box_.hi[0]) - b0;
      if (q0 < q1) {
        if (j > 0) {
          const auto [nlo, nhi] = needs(j, q0, q1);
          ensure(j - 1, nlo, nhi);
        }
        compute(j, q0, q1, base(j));
      }
      Rect band = Rect::of(shape);
      band.lo[0] = from;
      band.hi[0] = hi;
      Rect inside = box_;
      inside.lo[0] = std::max(from, box_.lo[0]);
      inside.hi[0] = std::min(hi, box_.hi[0]);
      const std::vector<Rect> frame = inside.empty() ? std::vector<Rect>{band} : subtract(band, inside);
      for (const Rect& f : frame) copy_box_into(p, f, l.rows.data(), l.lo * row_bytes / size);
      l.hi = hi;
    };

    const size_t last = k - 1;
    for (int64_t q = tile.lo[0]; q < tile.hi[0]; q += group) {
      const int64_t q1 = std::min(tile.hi[0], q + group);
      if (last > 0) {
        const auto [lo, hi] = needs(last, q, q1);
        ensure(last - 1, lo, hi);
      }
      compute(last, q, q1, reinterpret_cast<uintptr_t>(fresh_->data()));
    }
  }

 private:
  struct Level {
    std::vector<char> rows;
    int64_t lo = -1, hi = -1;  // the storage rows it holds
  };
  std::vector<std::shared_ptr<ElementwiseOp>> sweeps_;
  std::shared_ptr<Storage> fresh_;
  Rect box_;
  std::vector<Reach> reach_;
  std::shared_ptr<Storage> storage_;
  Shape box_shape_;  // the shape of the view the sweeps write
};

// A sweep that can join a run: the box of the array it writes and how far it reads.
struct Sweep {
  Rect box;
  Reach reach;
};

// window[i] as a sweep: an element-wise operation computed in place, followed by the operation
// writing its kept rows, whose output is most of a movable storage, in the storage's own
// layout, read only through boxes of it. Null when it is not one.
std::optional<Sweep> sweep_at(const std::vector<OperationPtr>& window, size_t i) {
  if (i + 1 >= window.size()) return std::nullopt;
  const auto* e = dynamic_cast<const ElementwiseOp*>(window[i].get());
  if (!e || !e->in_place() || !e->writes_kept_rows(*window[i + 1])) return std::nullopt;
  const Store& out = *e->output();
  const Storage& p = *out.storage();
  if (!p.renamable() || out.ndim() != static_cast<int>(p.shape().size())) return std::nullopt;
  for (int d = 0; d < out.ndim(); ++d)
    if (out.shape()[d] > 1 && out.strides()[d] != p.strides()[d]) return std::nullopt;
  const std::optional<Reach> r = reach(*e);
  const std::optional<Rect> box = r ? most_of_storage(out) : std::nullopt;
  if (!box) return std::nullopt;
  return Sweep{*box, *r};
}

}  // namespace

void fuse_sweeps(std::vector<OperationPtr>& window) {
  for (size_t i = 0; i < window.size(); ++i) {
    const std::optional<Sweep> first_sweep = sweep_at(window, i);
    if (!first_sweep) continue;
    const Rect& box = first_sweep->box;
    const auto& first = static_cast<const ElementwiseOp&>(*window[i]);
    const Store& out = *first.output();
    const int64_t row_bytes = out.storage()->elements() / out.storage()->shape()[0] * itemsize(out.dtype());
    const int64_t group = std::max<int64_t>(1, kGroupBytes / row_bytes);
    // Sweeps that follow, writing the same view, while the level buffers stay within
    // kLevelBytes: level j holds a group and the rows the sweeps after it reach beyond it, so
    // a sweep added to a run of r adds its spread to the r - 1 levels and a level of its own.
    std::vector<std::shared_ptr<ElementwiseOp>> run{std::static_pointer_cast<ElementwiseOp>(window[i])};
    std::vector<Reach> reaches{first_sweep->reach};
    int64_t level_rows = 0;
    size_t end = i + 2;
    for (; run.size() < kMaxSweeps && end + 1 < window.size(); end += 2) {
      const std::optional<Sweep> next = sweep_at(window, end);
      if (!next || next->box.lo != box.lo || next->box.hi != box.hi) break;
      auto e = std::static_pointer_cast<ElementwiseOp>(window[end]);
      if (!e->output()->same_view(out)) break;
      const int64_t spread = next->reach.second - next->reach.first;
      const int64_t rows = level_rows + static_cast<int64_t>(run.size()) * spread + group;
      if (rows * row_bytes > kLevelBytes && run.size() > 1) break;
      level_rows = rows;
      run.push_back(std::move(e));
      reaches.push_back(next->reach);
    }
    if (run.size() < 2) continue;
    const std::shared_ptr<Storage>& p = out.storage();
    StorePtr fresh = new_store(p->dtype(), p->shape(), first.provenance);
    auto sweeps = std::make_shared<SweepsOp>(run, std::move(reaches), fresh, box);
    OperationPtr rename = rename_op(whole_store(p), fresh, box);
    rename->provenance = window[end - 1]->provenance;
    rename->waits = sweeps->waits;
    window[i] = std::move(sweeps);
    window[i + 1] = std::move(rename);
    for (size_t j = i + 2; j < end; ++j) window[j].reset();
    i = end - 1;
  }
  std::erase(window, nullptr);
}

}  // namespace tessera::detail
