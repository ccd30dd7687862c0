// ElementwiseOp computed in place: a stencil assigned into the array it reads.
#include "numeric/elementwise/expression.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "numeric/elementwise/blocks.h"
#include "numeric/elementwise/vector_loops.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/errors.h"

namespace tessera::detail {

// ---- Computing in place ---------------------------------------------------------------
//
// Rows are along the domain's first axis. With the aliased inputs' views shifted from the
// output's, output row q occupies the addresses that the inputs read for output rows q + lo
// .. q + hi and no others. Computed in order, row q may be written once rows up to
// q + max(hi, 0) are computed: a tile computes a group of rows ahead into a buffer and writes
// back behind. A row another tile reads (among the first -lo of a tile with a neighbour
// above, the last hi of one with a neighbour below) waits in `kept` for InPlaceRowsOp.
struct ElementwiseOp::InPlace {
  int64_t lo = 0, hi = 0;
  std::vector<Rect> tiles;  // the operation's launch: bands of rows, in order
  /// With several ranks, the rank that runs each tile (Launch::owners; empty: one rank). A
  /// tile keeps no rows for a neighbour on another rank: that one reads its own copy of them.
  std::vector<int> owners;
  bool same_rank(size_t t, size_t u) const { return owners.empty() || owners[t] == owners[u]; }
  struct Rows {
    int64_t first = 0;
    std::vector<char> values;  // C order, whole along the other axes
  };
  // Per boundary between tiles t and t + 1: the last rows of t, the first rows of t + 1.
  std::vector<std::array<Rows, 2>> kept;
};

namespace {

constexpr int64_t kRowGroupBytes = 64 << 10;  // rows computed ahead of writing, at least

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

// Copies rows [r0, r1) of `out`'s shape, dense in C order at `src`, into `out`.
void put_rows(const Store& out, int64_t r0, int64_t r1, const char* src) {
  const Shape& shape = out.shape();
  const int nd = static_cast<int>(shape.size());
  const int size = itemsize(out.dtype());
  const int64_t stride = out.strides()[nd - 1];
  if (r0 >= r1) return;
  if (nd == 1) {  // a row is an element: one run
    scatter(out.ptr({r0}), stride, src, r1 - r0, size);
    return;
  }
  const int64_t run = shape[nd - 1];
  Shape idx(nd, 0);
  idx[0] = r0;
  while (idx[0] < r1) {
    char* dst = out.ptr(idx);
    if (stride == 1) std::memcpy(dst, src, static_cast<size_t>(run * size));
    else scatter(dst, stride, src, run, size);
    src += run * size;
    int d = nd - 2;
    while (d > 0 && ++idx[d] == shape[d]) idx[d--] = 0;
    if (d == 0) ++idx[0];
  }
}

// Writes the rows an in-place operation's tiles kept for their neighbours: one point per
// boundary between its tiles, after the two tiles (and before any later reader of the rows).
class InPlaceRowsOp final : public Operation {
 public:
  InPlaceRowsOp(StorePtr out, std::shared_ptr<ElementwiseOp::InPlace> rows) : rows_(std::move(rows)) {
    name = "in-place rows";
    add(std::move(out), false, true);
  }
  std::shared_ptr<const Launch> own_launch() const override {
    auto launch = std::make_shared<Launch>();
    const std::vector<Rect>& tiles = rows_->tiles;
    const int64_t above = std::max<int64_t>(0, rows_->hi), below = std::max<int64_t>(0, -rows_->lo);
    for (size_t t = 0; t + 1 < tiles.size(); ++t) {
      Rect band = tiles[t];
      band.lo[0] = std::max(tiles[t].lo[0], tiles[t].hi[0] - above);
      band.hi[0] = std::min(tiles[t + 1].hi[0], tiles[t].hi[0] + below);
      if (!rows_->same_rank(t, t + 1)) band.hi[0] = band.lo[0];  // nothing kept: nothing to write
      launch->tiles.push_back(band);
      launch->rects.push_back({std::move(band)});
      // Each point writes the rows its two tiles kept, in the memory of the rank that ran them.
      if (!rows_->owners.empty()) launch->owners.push_back(rows_->owners[t]);
    }
    launch->key = 0;
    return launch;
  }
  int64_t traffic(const std::vector<Rect>& rects) const override {
    return 2 * rects[0].volume() * itemsize(args[0].store->dtype());
  }
  bool writes_for(const ElementwiseOp::InPlace& rows) const { return rows_.get() == &rows; }
  void execute(const Point& point) override {
    if (static_cast<size_t>(point.index) >= rows_->kept.size()) return;  // one tile: none kept
    const Store& out = *args[0].store;
    const int64_t row_bytes = out.size() / out.shape()[0] * itemsize(out.dtype());
    for (ElementwiseOp::InPlace::Rows& r : rows_->kept[static_cast<size_t>(point.index)]) {
      put_rows(out, r.first, r.first + static_cast<int64_t>(r.values.size()) / row_bytes, r.values.data());
      std::vector<char>().swap(r.values);
    }
  }

 private:
  std::shared_ptr<ElementwiseOp::InPlace> rows_;
};

}  // namespace

bool ElementwiseOp::writes_kept_rows(const Operation& op) const {
  const auto* rows = dynamic_cast<const InPlaceRowsOp*>(&op);
  return rows && in_place_ && rows->writes_for(*in_place_);
}

OperationPtr ElementwiseOp::compute_in_place() {
  if (num_outputs() != 1 || domain().empty() || domain()[0] < 2 || in_place_) return nullptr;
  const Store& out = *args[0].store;
  if (out.size() == 0 || out.dtype() != out.storage()->dtype()) return nullptr;
  const int nd = static_cast<int>(domain().size());
  const Shape& st = out.strides();
  // The addresses (elements) one row spans; rows must not overlap each other.
  int64_t below = 0, above = 0;
  for (int d = 1; d < nd; ++d) (st[d] < 0 ? below : above) += (domain()[d] - 1) * st[d];
  const int64_t span = above - below, s0 = st[0];
  if (s0 <= span) return nullptr;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int k = 1; k <= inputs_; ++k) {
    const Store& in = *args[k].store;
    if (in.storage() != out.storage()) continue;
    if (in.dtype() != out.dtype()) return nullptr;
    for (int d = 0; d < nd; ++d)
      if (domain()[d] > 1 && in.strides()[d] != st[d]) return nullptr;
    // Input row r and output row q share addresses when |delta + (r - q) s0| <= span.
    const int64_t delta = in.offset() - out.offset();
    const int64_t first = ceil_div(-span - delta, s0), last = floor_div(span - delta, s0);
    if (first > last) continue;
    lo = std::min(lo, first);
    hi = std::max(hi, last);
  }
  if (lo > hi) return nullptr;
  in_place_ = std::make_shared<InPlace>();
  in_place_->lo = std::max(lo, 1 - domain()[0]);
  in_place_->hi = std::min(hi, domain()[0] - 1);
  points_ordered = true;
  Shape whole_rows = domain();  // tiles are bands of whole rows
  whole_rows[0] = 1;
  constraints.push_back(min_extents(0, std::move(whole_rows)));
  return std::make_shared<InPlaceRowsOp>(args[0].store, in_place_);
}

void ElementwiseOp::launched_in_place(const Launch& launch) {
  if (!in_place_) return;
  in_place_->tiles = launch.tiles;
  in_place_->owners = launch.owners;
  for (size_t t = 1; t < launch.tiles.size(); ++t)
    TESSERA_CHECK(launch.tiles[t].lo[0] == launch.tiles[t - 1].hi[0], "in-place tiles are bands of rows in order");
  in_place_->kept.assign(launch.tiles.empty() ? 0 : launch.tiles.size() - 1, {});
}

void ElementwiseOp::execute_in_place(const Point& point) const {
  const Rect& tile = point.tile;
  const int64_t a = tile.lo[0], b = tile.hi[0];
  if (a >= b) return;
  const size_t t = static_cast<size_t>(point.index);
  // Neighbouring tiles on this rank (one on another rank reads its own copy of the rows).
  const bool up = t > 0 && in_place_->same_rank(t - 1, t);
  const bool down = t + 1 < static_cast<size_t>(point.count) && in_place_->same_rank(t, t + 1);
  const Store& out = *args[0].store;
  const int64_t row_bytes = volume(domain()) / domain()[0] * itemsize(out.dtype());
  const int64_t lag = std::max<int64_t>(0, in_place_->hi);
  const int64_t group = std::max<int64_t>({1, lag, kRowGroupBytes / std::max<int64_t>(1, row_bytes)});
  // Rows a neighbouring tile reads: [a, front) and [back, b).
  const int64_t front = up ? std::min(b, a - std::min<int64_t>(0, in_place_->lo)) : a;
  const int64_t back = down ? std::max(a, b - lag) : b;
  // Two slots of a group of rows each: group g is computed into slot g % 2, which holds
  // nothing unwritten by then (group g - 2 was written back once g - 1 was computed, as the
  // lag is at most a group).
  thread_local std::vector<char> buffer;
  buffer.resize(static_cast<size_t>(2 * group * row_bytes));
  auto at = [&](int64_t row) {
    const int64_t g = (row - a) / group;
    return buffer.data() + ((g % 2) * group + (row - a - g * group)) * row_bytes;
  };
  // Rows [from, to) of the buffer: to the array, or kept for a neighbouring tile. A range
  // crosses at most one slot boundary.
  auto emit = [&](int64_t from, int64_t to, InPlace::Rows* kept) {
    while (from < to) {
      const int64_t end = std::min(to, a + ((from - a) / group + 1) * group);
      if (kept) {
        if (kept->values.empty()) kept->first = from;  // else the rows continue those kept before
        kept->values.insert(kept->values.end(), at(from), at(from) + (end - from) * row_bytes);
      } else {
        put_rows(out, from, end, at(from));
      }
      from = end;
    }
  };
  int64_t computed = a, written = a;  // the buffer holds rows [written, computed)
  Rect part = tile;
  while (computed < b) {
    part.lo[0] = computed;
    part.hi[0] = std::min(b, computed + group);
    evaluate(part, at(computed));
    computed = part.hi[0];
    const int64_t upto = computed == b ? b : computed - lag;  // rows no row still to compute reads
    if (upto <= written) continue;
    const int64_t f = std::min(upto, std::max(written, front)), k = std::max(f, std::min(upto, back));
    if (f > written) emit(written, f, &in_place_->kept[t - 1][1]);
    emit(f, k, nullptr);
    if (upto > k) emit(k, upto, &in_place_->kept[t][0]);
    written = upto;
  }
}

}  // namespace tessera::detail
