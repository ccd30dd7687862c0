#include "numeric/random/draw.h"

#include "data/store.h"
#include "numeric/random/cpu/fill.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"

namespace tessera::detail {
namespace {

// Integers whose bounds vary by element (checked and held on the host): a new C-ordered array.
class IntegerArrayOp final : public Operation {
 public:
  IntegerArrayOp(StorePtr out, uint64_t key, uint64_t draw, std::vector<uint64_t> low, std::vector<uint64_t> range)
      : key_(key), draw_(draw), low_(std::move(low)), range_(std::move(range)) {
    name = "integers";
    add(std::move(out), false, true);
  }

  void execute(const Point& point) override {
    const Store& out = *args[0].store;
    const Shape& shape = out.shape();
    const int nd = static_cast<int>(shape.size());
    const int64_t sz = itemsize(out.dtype());
    if (nd == 0) return run(out, 0, 1, sz);
    const Rect& tile = point.rects[0];
    if (tile.empty()) return;
    Shape idx = tile.lo;
    do {
      int64_t flat = 0;
      for (int d = 0; d < nd; ++d) flat = flat * shape[d] + idx[d];
      run(out, flat, tile.hi[nd - 1] - tile.lo[nd - 1], sz);
    } while (next_index(idx, tile, nd - 1));
  }

 private:
  void run(const Store& out, int64_t first, int64_t n, int64_t sz) const {
    fill_bounded_integers(out.dtype(), key_, draw_, low_.data(), range_.data(), first, n, out.base_ptr() + first * sz);
  }

  uint64_t key_, draw_;
  std::vector<uint64_t> low_, range_;
};

class DrawOp final : public Operation {
 public:
  DrawOp(StorePtr out, const DrawSpec& spec) : spec_(spec) {
    name = spec.dist == Distribution::Normal ? "normal" : spec.dist == Distribution::Uniform ? "uniform" : "integers";
    domain = out->shape();
    add(std::move(out), false, true);
  }

  void execute(const Point& point) override {
    const Rect& tile = point.tile;
    // The output is a new C-ordered array: each row of the tile is a run of consecutive elements.
    const Store& out = *args[0].store;
    const int nd = static_cast<int>(domain.size());
    const int64_t sz = itemsize(out.dtype());
    if (nd == 0) return fill(spec_, 0, 1, out.base_ptr());
    Shape idx = tile.lo;
    const int64_t run = tile.hi[nd - 1] - tile.lo[nd - 1];
    while (true) {
      int64_t flat = 0;
      for (int d = 0; d < nd; ++d) flat = flat * domain[d] + idx[d];
      fill(spec_, flat, run, out.base_ptr() + flat * sz);
      int d = nd - 2;
      while (d >= 0 && ++idx[d] == tile.hi[d]) {
        idx[d] = tile.lo[d];
        --d;
      }
      if (d < 0) break;
    }
  }

 private:
  Shape domain;
  DrawSpec spec_;
};

}  // namespace

ndarray draw_integer_array(DType t, uint64_t key, uint64_t draw, std::vector<uint64_t> low,
                           std::vector<uint64_t> range, const Shape& shape) {
  StorePtr out = new_store(t, shape, Runtime::provenance());
  Runtime::get().submit(std::make_shared<IntegerArrayOp>(out, key, draw, std::move(low), std::move(range)));
  return ndarray(out);
}

ndarray draw_array(const DrawSpec& spec, const Shape& shape) {
  StorePtr out = new_store(spec.dtype, shape, Runtime::provenance());
  Runtime::get().submit(std::make_shared<DrawOp>(out, spec));
  return ndarray(out);
}

}  // namespace tessera::detail
