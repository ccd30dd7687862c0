#include "numeric/random/draw.h"

#include <utility>

#include "data/strided_rows.h"
#include "numeric/random/cpu/fill.h"
#include "tessera/task.h"

namespace tessera::detail {
namespace {

// C-order strides of `shape`, in elements.
Shape c_strides(const Shape& shape) {
  Shape s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

// Calls run(first, n, out) for every row of the tile of a new C-ordered array: `first` the
// flat index of the row's first element, `out` where it is (the row's elements are
// consecutive).
template <class Run>
void for_each_run(const Tile& tile, Run&& run) {
  if (tile.size() == 0) return;
  const Shape flat = c_strides(tile.array_shape());
  int64_t first = 0;
  for (int d = 0; d < tile.ndim(); ++d) first += tile.lo()[d] * flat[d];
  char* base = static_cast<char*>(tile.data());
  const int64_t sz = itemsize(tile.dtype());
  StridedRows rows(tile.extents(), {tile.strides().data(), flat.data()});
  rows.for_each([&](const int64_t*, const int64_t* off) { run(first + off[1], rows.length(), base + off[0] * sz); });
}

// Integers whose bounds vary by element (checked and held on the host).
struct BoundedIntegers {
  uint64_t key, draw;
  std::vector<uint64_t> low, range;
};

}  // namespace

ndarray draw_integer_array(DType t, uint64_t key, uint64_t draw, std::vector<uint64_t> low, std::vector<uint64_t> range,
                           const Shape& shape) {
  static const Task integers("random.integers", [](TaskContext& ctx) {
    const auto& b = ctx.payload<BoundedIntegers>();
    const Tile& out = ctx.array(0);
    for_each_run(out, [&](int64_t first, int64_t n, char* dst) {
      fill_bounded_integers(out.dtype(), b.key, b.draw, b.low.data(), b.range.data(), first, n, dst);
    });
  });
  ndarray out = new_array(shape, t);
  launch(integers, {tessera::out(out)}, {}, {},
         {.name = "integers", .payload = Payload::of(BoundedIntegers{key, draw, std::move(low), std::move(range)})});
  return out;
}

ndarray draw_array(const DrawSpec& spec, const Shape& shape) {
  static const Task draw("random.draw", [](TaskContext& ctx) {
    const auto& s = ctx.payload<DrawSpec>();
    for_each_run(ctx.array(0), [&](int64_t first, int64_t n, char* dst) { fill(s, first, n, dst); });
  });
  const char* name = spec.dist == Distribution::Normal    ? "normal"
                     : spec.dist == Distribution::Uniform ? "uniform"
                                                          : "integers";
  ndarray out = new_array(shape, spec.dtype);
  launch(draw, {tessera::out(out)}, {}, {}, {.name = name, .payload = Payload::of(spec)});
  return out;
}

}  // namespace tessera::detail
