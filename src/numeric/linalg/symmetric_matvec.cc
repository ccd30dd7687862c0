#include "numeric/linalg/symmetric_matvec.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "numeric/linalg/linalg_common.h"
#include "numeric/linalg/cpu/matvec_kernels.h"
#include "partition/solver.h"
#include "runtime/operation.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"

namespace tessera::detail {

namespace {

// Smaller matrices stay in the caches from one product to the next: reading half gains little.
constexpr int64_t kSymmetricBytes = 16 << 20;
constexpr int64_t kB = kMatvecBlock;

enum SymmetryState : int { kUnknown, kChecking, kSymmetric, kNotSymmetric };

// What is known of one storage's symmetry while its write count stays `writes`.
struct SymmetryRecord {
  std::weak_ptr<Storage> storage;
  uint64_t writes = 0;
  int products = 0;                   // large products of it issued at that count
  std::atomic<int> half_reads{0};     // of those, read half (counted as they run)
  int wasted_checks = 0;              // earlier values checked, then written before a half read
  std::atomic<int> state{kUnknown};   // set by the check's last task
  std::atomic<bool> differs{false};   // a check task found a difference: the others stop
  std::atomic<int> unchecked{0};      // the check's tasks still to finish
};

// A matrix rewritten after each check before any half read gains nothing from checks
// (a shifted matrix multiplied twice per shift): after this many, it is not checked again.
constexpr int kWastedChecks = 2;

std::mutex g_records_mu;
std::unordered_map<const Storage*, std::shared_ptr<SymmetryRecord>> g_records;

// The record for `s`'s current values (a new one once anything was issued to write it).
std::shared_ptr<SymmetryRecord> record_of(const std::shared_ptr<Storage>& s) {
  std::lock_guard lock(g_records_mu);
  if (g_records.size() > 64) std::erase_if(g_records, [](const auto& e) { return e.second->storage.expired(); });
  std::shared_ptr<SymmetryRecord>& r = g_records[s.get()];
  const uint64_t writes = s->writes.load(std::memory_order_relaxed);
  const bool same_storage = r && r->storage.lock() == s;
  if (!same_storage || r->writes != writes) {
    int wasted = 0;
    if (same_storage) wasted = r->wasted_checks + (r->state.load() != kUnknown && r->half_reads == 0);
    r = std::make_shared<SymmetryRecord>();
    r->storage = s;
    r->writes = writes;
    r->wasted_checks = wasted;
  }
  return r;
}

int64_t band(int64_t m, int64_t i) { return std::min(kB, m - i * kB); }

// Splits `n` items of work into at most `parts` ranges of near-equal size: the bounds.
std::vector<int64_t> split(int64_t n, int64_t parts) {
  parts = std::max<int64_t>(1, std::min(parts, n));
  std::vector<int64_t> b(static_cast<size_t>(parts + 1));
  for (int64_t p = 0; p <= parts; ++p) b[static_cast<size_t>(p)] = n * p / parts;
  return b;
}

// A task reads row band I from column block J0 to J1 (at most kSegment blocks: long runs of
// each row, whose partial column sums, 256 KB of float64, stay in the L2 cache; 4000²
// float64 read half took 2.7 ms with segments of 16 blocks, 3.2 with 8). Row slot[I * nb + J] of the
// partial sums (nb² rows of kB) holds row band I's sums over column block J. The segments,
// in order, take rows in order: per block J, (I, J) and, off the diagonal, (J, I); so a
// range of segments writes a range of rows.
struct SegmentLayout {
  static constexpr int64_t kSegment = 32;
  struct Segment {
    int64_t band, first, last;  // row band, column blocks [first, last)
  };
  int64_t nb = 0;
  std::vector<Segment> segments;
  std::vector<int64_t> first_row;  // per segment, and one past the last
  std::vector<int64_t> slot;
  std::vector<int64_t> bounds;     // the tasks' ranges of segments, near-equal in blocks

  SegmentLayout(int64_t m, int pieces) : nb((m + kB - 1) / kB), slot(static_cast<size_t>(nb * nb)) {
    int64_t row = 0;
    for (int64_t i = 0; i < nb; ++i)
      for (int64_t j0 = i; j0 < nb; j0 += kSegment) {
        segments.push_back({i, j0, std::min(nb, j0 + kSegment)});
        first_row.push_back(row);
        for (int64_t j = j0; j < segments.back().last; ++j) {
          slot[static_cast<size_t>(i * nb + j)] = row++;
          if (j != i) slot[static_cast<size_t>(j * nb + i)] = row++;
        }
      }
    first_row.push_back(row);
    const int64_t total = nb * (nb + 1) / 2, parts = std::max<int64_t>(1, std::min<int64_t>(pieces, segments.size()));
    bounds.push_back(0);
    int64_t done = 0;
    for (size_t g = 0; g < segments.size(); ++g) {
      done += segments[g].last - segments[g].first;
      const int64_t p = static_cast<int64_t>(bounds.size());
      if (p < parts && done * parts >= total * p) bounds.push_back(static_cast<int64_t>(g + 1));
    }
    if (bounds.back() != static_cast<int64_t>(segments.size())) bounds.push_back(static_cast<int64_t>(segments.size()));
  }
  // The segment whose rows start at or before `row`.
  int64_t segment_at(int64_t row) const {
    return static_cast<int64_t>(std::upper_bound(first_row.begin(), first_row.end(), row) - first_row.begin()) - 1;
  }
};

// The block sums: a task takes a range of segments and reads each block once (Half). A
// product issued while the check runs (Decided) reads half if the check has found the
// matrix symmetric when it runs (a solver's next product waits for the last one, so it has),
// else the whole matrix. The product that checks (Check) reads the whole matrix: a block
// A[J,I] below the diagonal gives row band J's sums over column block I by rows, as an
// ordinary product does, and is then compared with the transpose of A[I,J] while both are
// still in the caches. Either way a slot gets the same bits, so each task may choose on its
// own; the last task of the check records its verdict.
class SymmetricPartsOp final : public Operation {
 public:
  enum Read { Half, Decided, Check };
  SymmetricPartsOp(StorePtr parts, StorePtr a, StorePtr x, std::shared_ptr<const SegmentLayout> layout, Read read,
                   std::shared_ptr<SymmetryRecord> record)
      : layout_(std::move(layout)), read_(read), record_(std::move(record)) {
    name = read_ == Check ? "matmul (symmetry check)" : "matmul (symmetric)";
    add(std::move(parts), false, true);
    add(std::move(a), true, false);
    add(std::move(x), true, false);
  }
  std::shared_ptr<const Launch> own_launch() const override {
    auto launch = std::make_shared<Launch>();
    const auto& b = layout_->bounds;
    for (size_t p = 0; p + 1 < b.size(); ++p) {
      const Rect rows({layout_->first_row[static_cast<size_t>(b[p])], 0},
                      {layout_->first_row[static_cast<size_t>(b[p + 1])], kB});
      launch->tiles.push_back(rows);
      launch->rects.push_back({rows, Rect::of(args[1].store->shape()), Rect::of(args[2].store->shape())});
    }
    launch->key = 0;
    return launch;
  }
  void launched(const Launch& launch) override {
    if (read_ == Check) record_->unchecked.store(static_cast<int>(launch.points()), std::memory_order_relaxed);
  }
  int64_t traffic(const std::vector<Rect>& rects) const override {
    const int64_t m = args[1].store->shape()[0], sz = itemsize(args[1].store->dtype());
    int64_t bytes = rects[0].volume() * sz;
    for_segments(rects[0], [&](const SegmentLayout::Segment& g) {
      bytes += band(m, g.band) * (std::min(m, g.last * kB) - g.first * kB) * sz;
      if (read_ == Check)  // the blocks below the diagonal too
        for (int64_t j = g.first; j < g.last; ++j) bytes += j == g.band ? 0 : band(m, g.band) * band(m, j) * sz;
    });
    return bytes;
  }
  void execute(const Point& point) override {
    require_computed(*this, "matmul");
    const Store &parts = *args[0].store, &a = *args[1].store, &xs = *args[2].store;
    const DType t = a.dtype();
    const int64_t m = a.shape()[0], lda = a.strides()[0], sz = itemsize(t), nb = layout_->nb;
    thread_local std::vector<char> buf;
    const char* x = contiguous_vector(t, xs.base_ptr(), xs.strides()[0], m, buf);
    auto slot = [&](int64_t i, int64_t j) { return parts.ptr({layout_->slot[static_cast<size_t>(i * nb + j)], 0}); };
    auto block = [&](int64_t i, int64_t j) { return a.base_ptr() + (i * lda + j) * kB * sz; };
    const bool check = read_ == Check;
    const bool whole = check || (read_ == Decided && record_->state.load(std::memory_order_acquire) != kSymmetric);
    if (!whole) record_->half_reads.fetch_add(1, std::memory_order_relaxed);
    bool same = true;  // require_computed: the matrix holds values
    std::vector<char*> by_rows, by_columns;
    for_segments(point.tile, [&](const SegmentLayout::Segment& g) {
      const int64_t i = g.band;
      by_rows.clear();
      by_columns.clear();
      for (int64_t j = g.first; j < g.last; ++j) {
        by_rows.push_back(slot(i, j));
        by_columns.push_back(j == i || whole ? nullptr : slot(j, i));
      }
      matvec_band(t, block(i, g.first), lda, band(m, i), std::min(m, g.last * kB) - g.first * kB, x + i * kB * sz,
                  x + g.first * kB * sz, by_rows.data(), by_columns.data());
      if (!whole) return;
      for (int64_t j = g.first; j < g.last; ++j) {
        if (j != i) {
          char* rows = slot(j, i);
          char* none = nullptr;
          matvec_band(t, block(j, i), lda, band(m, j), band(m, i), x + j * kB * sz, x + i * kB * sz, &rows, &none);
        }
        if (check && same && !record_->differs.load(std::memory_order_relaxed))
          same = blocks_transposed(t, block(i, j), block(j, i), lda, band(m, i), band(m, j));
      }
    });
    if (!check) return;
    if (!same) record_->differs.store(true, std::memory_order_relaxed);
    if (record_->unchecked.fetch_sub(1, std::memory_order_acq_rel) == 1)
      record_->state.store(record_->differs.load() ? kNotSymmetric : kSymmetric, std::memory_order_release);
  }

 private:
  template <class F>
  void for_segments(const Rect& rows, F f) const {
    const auto& segs = layout_->segments;
    for (int64_t g = layout_->segment_at(rows.lo[0]);
         g < static_cast<int64_t>(segs.size()) && layout_->first_row[static_cast<size_t>(g)] < rows.hi[0]; ++g)
      f(segs[static_cast<size_t>(g)]);
  }

  std::shared_ptr<const SegmentLayout> layout_;
  Read read_;
  std::shared_ptr<SymmetryRecord> record_;
};

// y[i] = the block sums of row i added in order of the column blocks (matvec_kernels.h).
class SymmetricSumOp final : public Operation {
 public:
  SymmetricSumOp(StorePtr y, StorePtr parts, std::shared_ptr<const SegmentLayout> layout, int pieces)
      : layout_(std::move(layout)) {
    name = "matmul (block sums)";
    add(std::move(y), false, true);
    add(std::move(parts), true, false);
    bounds_ = split(layout_->nb, pieces);
  }
  std::shared_ptr<const Launch> own_launch() const override {
    auto launch = std::make_shared<Launch>();
    const int64_t m = args[0].store->shape()[0];
    for (size_t p = 0; p + 1 < bounds_.size(); ++p) {
      const Rect rows({bounds_[p] * kB, 0}, {std::min(m, bounds_[p + 1] * kB), 1});
      launch->tiles.push_back(rows);
      launch->rects.push_back({rows, Rect::of(args[1].store->shape())});
    }
    launch->key = 0;
    return launch;
  }
  void execute(const Point& point) override {
    const Store &y = *args[0].store, &parts = *args[1].store;
    const int64_t m = y.shape()[0], nb = layout_->nb, ys = y.strides()[0], sz = itemsize(y.dtype());
    std::vector<const char*> sums(static_cast<size_t>(nb));
    for (int64_t i = point.tile.lo[0] / kB; i * kB < point.tile.hi[0]; ++i) {
      for (int64_t j = 0; j < nb; ++j) sums[static_cast<size_t>(j)] = parts.ptr({layout_->slot[static_cast<size_t>(i * nb + j)], 0});
      add_block_sums(y.dtype(), y.base_ptr() + i * kB * ys * sz, ys, sums.data(), nb, band(m, i));
    }
  }

 private:
  std::shared_ptr<const SegmentLayout> layout_;
  std::vector<int64_t> bounds_;
};

}  // namespace

bool issue_symmetric_matvec(const StorePtr& c, const StorePtr& a, const StorePtr& b) {
  Runtime& rt = Runtime::get();
  if (rt.ranks() != 1 || a->ndim() != 2 || c->ndim() != 2 || b->ndim() != 2) return false;
  const int64_t m = a->shape()[0];
  const DType t = a->dtype();
  if (a->shape()[1] != m || c->shape()[1] != 1 || b->shape()[1] != 1 || !matvec_dtype(t) || m < 2 * kB) return false;
  // The test configuration checks smaller matrices too, so that tests can see both paths.
  if (m * m * itemsize(t) < kSymmetricBytes && !rt.config().test) return false;
  const std::shared_ptr<Storage>& s = a->storage();
  // Memory handed out (a DLPack export) may change without an operation saying so.
  if (!a->is_whole() || !a->is_c_contiguous() || !s->movable()) return false;
  std::shared_ptr<SymmetryRecord> record = record_of(s);
  // How many tasks share the segments is free: a slot, and so y, gets the same bits whichever
  // task sums it.
  const int pieces = std::max(1, rt.pieces()) * 4;
  // The product of a symmetric matrix reads half of it; the second product of unchecked
  // values reads all of it by the same blocks, checking the symmetry as it goes.
  auto issue = [&](SymmetricPartsOp::Read read) {
    auto layout = std::make_shared<const SegmentLayout>(m, pieces);
    StorePtr parts = new_store(t, {layout->first_row.back(), kB}, Runtime::provenance());
    rt.submit(std::make_shared<SymmetricPartsOp>(parts, a, b, layout, read, record));
    rt.submit(std::make_shared<SymmetricSumOp>(c, parts, layout, pieces));
  };
  switch (record->state.load(std::memory_order_acquire)) {
    case kSymmetric: issue(SymmetricPartsOp::Half); return true;
    case kChecking: issue(SymmetricPartsOp::Decided); return true;
    case kUnknown:
      if (++record->products == 2 && record->wasted_checks < kWastedChecks) {
        record->state.store(kChecking, std::memory_order_relaxed);
        issue(SymmetricPartsOp::Check);
        return true;
      }
      return false;
    default: return false;
  }
}

}  // namespace tessera::detail
