#include "numeric/linalg/symmetric_matvec.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "data/store.h"
#include "numeric/linalg/cpu/matvec_kernels.h"
#include "runtime/runtime.h"
#include "tessera/task.h"

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
  int products = 0;                  // large products of it issued at that count
  std::atomic<int> half_reads{0};    // of those, read half (counted as they run)
  int wasted_checks = 0;             // earlier values checked, then written before a half read
  std::atomic<int> state{kUnknown};  // set by the check's last point
  std::atomic<bool> differs{false};  // a point of the check found a difference: the others stop
  std::atomic<int> unchecked{0};     // the check's points still to finish
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

// A point reads row band I from column block J0 to J1 (at most kSegment blocks: long runs of
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
  std::vector<int64_t> bounds;  // the points' ranges of segments, near-equal in blocks

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

// The block sums: a point takes a range of segments and reads each block once (Half). A
// product issued while the check runs (Decided) reads half if the check has found the
// matrix symmetric when it runs (a solver's next product waits for the last one, so it has),
// else the whole matrix. The product that checks (Check) reads the whole matrix: a block
// A[J,I] below the diagonal gives row band J's sums over column block I by rows, as an
// ordinary product does, and is then compared with the transpose of A[I,J] while both are
// still in the caches. Either way a slot gets the same bits, so each point may choose on its
// own; the last point of the check records its verdict.
enum Read { Half, Decided, Check };

struct PartsSpec {
  std::shared_ptr<const SegmentLayout> layout;
  Read read;
  std::shared_ptr<SymmetryRecord> record;

  template <class F>
  void for_segments(int64_t row_lo, int64_t row_hi, F f) const {
    const auto& segs = layout->segments;
    for (int64_t g = layout->segment_at(row_lo);
         g < static_cast<int64_t>(segs.size()) && layout->first_row[static_cast<size_t>(g)] < row_hi; ++g)
      f(segs[static_cast<size_t>(g)]);
  }
  // The bytes a point over the rows [rows.lo, rows.hi) of the partial sums reads and writes.
  int64_t traffic(const Rect& rows, int64_t m, int64_t sz) const {
    int64_t bytes = rows.volume() * sz;
    for_segments(rows.lo[0], rows.hi[0], [&](const SegmentLayout::Segment& g) {
      bytes += band(m, g.band) * (std::min(m, g.last * kB) - g.first * kB) * sz;
      if (read == Check)  // the blocks below the diagonal too
        for (int64_t j = g.first; j < g.last; ++j) bytes += j == g.band ? 0 : band(m, g.band) * band(m, j) * sz;
    });
    return bytes;
  }
};

// Arrays: 0 the partial sums (this point's rows), 1 the matrix, 2 the vector (both whole).
void parts_body(TaskContext& ctx) {
  const PartsSpec& spec = ctx.payload<PartsSpec>();
  const SegmentLayout& layout = *spec.layout;
  SymmetryRecord& record = *spec.record;
  const Tile &parts = ctx.array(0), &a = ctx.array(1), &xs = ctx.array(2);
  const DType t = a.dtype();
  const int64_t m = a.array_shape()[0], lda = a.strides()[0], sz = itemsize(t), nb = layout.nb;
  const int64_t row0 = parts.lo()[0], ps = parts.strides()[0];
  thread_local std::vector<char> buf;
  const char* x = contiguous_vector(t, static_cast<const char*>(xs.data()), xs.strides()[0], m, buf);
  char* const pbase = static_cast<char*>(parts.data());
  const char* const abase = static_cast<const char*>(a.data());
  auto slot = [&](int64_t i, int64_t j) {
    return pbase + (layout.slot[static_cast<size_t>(i * nb + j)] - row0) * ps * sz;
  };
  auto block = [&](int64_t i, int64_t j) { return abase + (i * lda + j) * kB * sz; };
  const bool check = spec.read == Check;
  const bool whole = check || (spec.read == Decided && record.state.load(std::memory_order_acquire) != kSymmetric);
  if (!whole) record.half_reads.fetch_add(1, std::memory_order_relaxed);
  bool same = true;
  std::vector<char*> by_rows, by_columns;
  if (parts.size() > 0)
    spec.for_segments(parts.lo()[0], parts.hi()[0], [&](const SegmentLayout::Segment& g) {
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
        if (check && same && !record.differs.load(std::memory_order_relaxed))
          same = blocks_transposed(t, block(i, j), block(j, i), lda, band(m, i), band(m, j));
      }
    });
  if (!check) return;
  if (!same) record.differs.store(true, std::memory_order_relaxed);
  if (record.unchecked.fetch_sub(1, std::memory_order_acq_rel) == 1)
    record.state.store(record.differs.load() ? kNotSymmetric : kSymmetric, std::memory_order_release);
}

// y[i] = the block sums of row i added in order of the column blocks (matvec_kernels.h).
// Arrays: 0 y (this point's rows, whole bands), 1 the partial sums (whole).
void sums_body(TaskContext& ctx) {
  const SegmentLayout& layout = *ctx.payload<std::shared_ptr<const SegmentLayout>>();
  const Tile &y = ctx.array(0), &parts = ctx.array(1);
  if (y.size() == 0) return;
  const int64_t m = y.array_shape()[0], nb = layout.nb, ys = y.strides()[0], sz = itemsize(y.dtype());
  const int64_t lo = y.lo()[0], hi = y.hi()[0], ps = parts.strides()[0];
  char* const ybase = static_cast<char*>(y.data());
  const char* const pbase = static_cast<const char*>(parts.data());
  std::vector<const char*> sums(static_cast<size_t>(nb));
  for (int64_t i = lo / kB; i * kB < hi; ++i) {
    for (int64_t j = 0; j < nb; ++j)
      sums[static_cast<size_t>(j)] = pbase + layout.slot[static_cast<size_t>(i * nb + j)] * ps * sz;
    add_block_sums(y.dtype(), ybase + (i * kB - lo) * ys * sz, ys, sums.data(), nb, band(m, i));
  }
}

}  // namespace

bool issue_symmetric_matvec(const ndarray& c, const ndarray& a, const ndarray& b) {
  static const Task parts_task("linalg.symmetric_parts", &parts_body);
  static const Task sums_task("linalg.symmetric_sums", &sums_body);
  const Runtime& rt = Runtime::get();
  if (rt.ranks() != 1 || a.ndim() != 2 || c.ndim() != 2 || b.ndim() != 2) return false;
  const int64_t m = a.shape()[0];
  const DType t = a.dtype();
  if (a.shape()[1] != m || c.shape()[1] != 1 || b.shape()[1] != 1 || !matvec_dtype(t) || m < 2 * kB) return false;
  // The test configuration checks smaller matrices too, so that tests can see both paths.
  if (m * m * itemsize(t) < kSymmetricBytes && !rt.config().test) return false;
  // Whether the values changed since the check: the storage's count of writes (no public
  // interface tells it).
  const StorePtr& as = a.store();
  const std::shared_ptr<Storage>& s = as->storage();
  // Memory handed out (a DLPack export) may change without an operation saying so.
  if (!as->is_whole() || !as->is_c_contiguous() || !s->movable()) return false;
  std::shared_ptr<SymmetryRecord> record = record_of(s);
  // How many points share the segments is free: a slot, and so y, gets the same bits whichever
  // point sums it.
  const int pieces = std::max(1, rt.pieces()) * 4;
  // The product of a symmetric matrix reads half of it; the second product of unchecked
  // values reads all of it by the same blocks, checking the symmetry as it goes.
  auto issue = [&](Read read) {
    auto layout = std::make_shared<const SegmentLayout>(m, pieces);
    ndarray parts = new_array({layout->first_row.back(), kB}, t);
    const Rect whole_a = Rect::of(a.shape()), whole_b = Rect::of(b.shape());
    std::vector<std::vector<Rect>> points;
    const auto& bounds = layout->bounds;
    for (size_t p = 0; p + 1 < bounds.size(); ++p) {
      const Rect rows({layout->first_row[static_cast<size_t>(bounds[p])], 0},
                      {layout->first_row[static_cast<size_t>(bounds[p + 1])], kB});
      points.push_back({rows, whole_a, whole_b});
    }
    // The check's last point records the verdict.
    if (read == Check) record->unchecked.store(static_cast<int>(points.size()), std::memory_order_relaxed);
    PartsSpec spec{layout, read, record};
    const int64_t sz = itemsize(t);
    launch(parts_task, {out(parts), in(a), in(b)}, {}, {},
           {.name = read == Check ? "matmul (symmetry check)" : "matmul (symmetric)",
            .payload = Payload::of(spec),
            .points = std::move(points),
            .traffic = [spec, m, sz](const std::vector<Rect>& rects) { return spec.traffic(rects[0], m, sz); }});
    const std::vector<int64_t> sum_bounds = split(layout->nb, pieces);
    std::vector<std::vector<Rect>> sum_points;
    const Rect all_parts = Rect::of(parts.shape());
    for (size_t p = 0; p + 1 < sum_bounds.size(); ++p)
      sum_points.push_back({Rect({sum_bounds[p] * kB, 0}, {std::min(m, sum_bounds[p + 1] * kB), 1}), all_parts});
    launch(sums_task, {out(c), in(parts)}, {}, {},
           {.name = "matmul (block sums)",
            .payload = Payload::of(std::shared_ptr<const SegmentLayout>(layout)),
            .points = std::move(sum_points)});
  };
  switch (record->state.load(std::memory_order_acquire)) {
    case kSymmetric: issue(Half); return true;
    case kChecking: issue(Decided); return true;
    case kUnknown:
      if (++record->products == 2 && record->wasted_checks < kWastedChecks) {
        record->state.store(kChecking, std::memory_order_relaxed);
        issue(Check);
        return true;
      }
      return false;
    default: return false;
  }
}

}  // namespace tessera::detail
