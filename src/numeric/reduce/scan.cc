// Running sums and products (cumsum, cumprod) along one axis, as launches of three
// registered tasks: numpy.scan_blocks scans blocks of kScanBlock elements of each row one
// after another and writes each block's total; numpy.scan_offsets turns each row's block totals into the running total
// before each block (in block order); numpy.scan_apply combines that running total with every
// element of the block. The blocks are fixed by position along the axis, not by the tiles,
// so the values are bitwise the same for any number of tiles, cpus or ranks; an axis of at
// most one block is scanned element after element as NumPy does (its values are NumPy's).
#include <complex>
#include <type_traits>

#include "data/strided_rows.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"
#include "tessera/task.h"

namespace tessera {
namespace detail {
namespace {

constexpr int64_t kScanBlock = int64_t{1} << 16;

enum class ScanKind { Sum, Prod };

// a + b or a * b in T, integers wrapping around as NumPy's do.
template <class T>
T combine(ScanKind kind, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return kind == ScanKind::Sum ? (a || b) : (a && b);
  } else if constexpr (std::is_integral_v<T>) {
    const uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
    return static_cast<T>(kind == ScanKind::Sum ? x + y : x * y);
  } else {
    return kind == ScanKind::Sum ? static_cast<T>(a + b) : static_cast<T>(a * b);
  }
}

// Every row (every index but the last) of the tiles `tiles` walk together (they share
// their outer extents): f(offsets), each tile's element offset of the row's first element.
template <class F>
void for_rows(std::initializer_list<const Tile*> tiles, F&& f) {
  const Tile& lead = **tiles.begin();
  if (lead.size() == 0) return;
  Shape ext(lead.extents().begin(), lead.extents().end() - 1);
  ext.push_back(1);
  std::vector<const int64_t*> strides;
  for (const Tile* t : tiles) strides.push_back(t->strides().data());
  StridedRows(ext, std::move(strides)).for_each([&](const int64_t*, const int64_t* off) { f(off); });
}

Shape block_factors(int nd) {
  Shape f(static_cast<size_t>(nd), 1);
  f.back() = kScanBlock;
  return f;
}

ScanKind kind_of(const TaskContext& ctx) { return static_cast<ScanKind>(ctx.scalar(0).as_int()); }

// Args: 0 the block totals (rows..., blocks), the key; 1 the input and 2 the output
// (rows..., length), both following the totals block by block. Each block is scanned
// element after element; its total goes to the totals.
const Task& scan_blocks_task() {
  static const Task task("numpy.scan_blocks", [](TaskContext& ctx) {
    const Tile &totals = ctx.array(0), &in = ctx.array(1), &out = ctx.array(2);
    const ScanKind kind = kind_of(ctx);
    const size_t last = static_cast<size_t>(totals.ndim() - 1);
    const int64_t length = in.array_shape()[last], si = in.strides()[last], so = out.strides()[last];
    const int64_t st = totals.strides()[last], b0 = totals.lo()[last], b1 = totals.hi()[last];
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_rows({&totals, &in, &out}, [&](const int64_t* off) {
        for (int64_t b = b0; b < b1; ++b) {
          const int64_t lo = b * kScanBlock, hi = std::min(length, lo + kScanBlock);
          const T* x = static_cast<const T*>(in.data()) + off[1] + (b - b0) * kScanBlock * si;
          T* y = static_cast<T*>(out.data()) + off[2] + (b - b0) * kScanBlock * so;
          T acc = x[0];
          y[0] = acc;
          for (int64_t i = 1; i < hi - lo; ++i) {
            acc = combine(kind, acc, x[i * si]);
            y[i * so] = acc;
          }
          static_cast<T*>(totals.data())[off[0] + (b - b0) * st] = acc;
        }
      });
    });
  });
  return task;
}

// Arg 0, the block totals, becomes in place the running total before each block (block 0's
// entry is left alone): tiles cut the rows only.
const Task& scan_offsets_task() {
  static const Task task("numpy.scan_offsets", [](TaskContext& ctx) {
    const Tile& totals = ctx.array(0);
    const ScanKind kind = kind_of(ctx);
    const size_t last = static_cast<size_t>(totals.ndim() - 1);
    const int64_t blocks = totals.extents()[last], s = totals.strides()[last];
    visit_dtype(totals.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_rows({&totals}, [&](const int64_t* off) {
        T* t = static_cast<T*>(totals.data()) + off[0];
        T running = t[0];
        for (int64_t b = 1; b < blocks; ++b) {
          const T total = t[b * s];
          t[b * s] = running;
          running = combine(kind, running, total);
        }
      });
    });
  });
  return task;
}

// Args: 0 the running totals before each block (the key), 1 the output, following it block
// by block: every element of a block after the first becomes total (op) element.
const Task& scan_apply_task() {
  static const Task task("numpy.scan_apply", [](TaskContext& ctx) {
    const Tile &offsets = ctx.array(0), &out = ctx.array(1);
    const ScanKind kind = kind_of(ctx);
    const size_t last = static_cast<size_t>(offsets.ndim() - 1);
    const int64_t length = out.array_shape()[last], so = out.strides()[last], st = offsets.strides()[last];
    const int64_t b0 = offsets.lo()[last], b1 = offsets.hi()[last];
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_rows({&offsets, &out}, [&](const int64_t* off) {
        for (int64_t b = std::max<int64_t>(1, b0); b < b1; ++b) {
          const T offset = static_cast<const T*>(offsets.data())[off[0] + (b - b0) * st];
          const int64_t lo = b * kScanBlock, hi = std::min(length, lo + kScanBlock);
          T* y = static_cast<T*>(out.data()) + off[1] + (b - b0) * kScanBlock * so;
          for (int64_t i = 0; i < hi - lo; ++i) y[i * so] = combine(kind, offset, y[i * so]);
        }
      });
    });
  });
  return task;
}

ndarray scan(ScanKind kind, const ndarray& a, std::optional<int64_t> axis, std::optional<DType> dtype,
             const std::optional<ndarray>& out) {
  // NumPy: dtype=, else out's dtype, else small integers (and bool) widened like sum.
  const DType result = dtype ? *dtype : out ? out->dtype() : sum_dtype(a.dtype());
  ndarray x = a;
  int ax = 0;
  if (!axis || a.ndim() == 0) {
    x = ravel(a);  // NumPy scans a 0-d array as one element along one axis
  } else {
    ax = normalize_axis_index(*axis, a.ndim());
  }
  if (out && out->shape() != x.shape()) throw ValueError("provided out is the wrong size for the accumulation.");
  if (x.dtype() != result) x = astype(x, result);
  ndarray y = new_array(x.shape(), result);
  if (x.size() > 0) {
    const int nd = x.ndim();
    // The scanned axis last, in views of both.
    const ndarray source = moveaxis(x, {ax}, {nd - 1});
    const ndarray dst = moveaxis(y, {ax}, {nd - 1});
    const int64_t length = source.shape().back();
    Shape blocks_shape = source.shape();
    blocks_shape.back() = (length + kScanBlock - 1) / kScanBlock;
    const ndarray totals = new_array(blocks_shape, result);
    const std::vector<Scalar> k{Scalar(static_cast<int64_t>(kind))};
    const std::string name = kind == ScanKind::Sum ? "cumsum" : "cumprod";
    launch(scan_blocks_task(), {tessera::out(totals), tessera::in(source), tessera::out(dst)}, k,
           {scale(1, 0, block_factors(nd)), scale(2, 0, block_factors(nd))},
           {.name = name, .weight = std::min(kScanBlock, length)});  // weight: elements per block
    if (blocks_shape.back() > 1) {
      launch(scan_offsets_task(), {inout(totals)}, k, {broadcast(0, {nd - 1})},
             {.name = name + " (offsets)", .weight = blocks_shape.back()});  // blocks per row
      launch(scan_apply_task(), {tessera::in(totals), inout(dst)}, k, {scale(1, 0, block_factors(nd))},
             {.name = name + " (apply)", .weight = kScanBlock});
    }
  }
  if (!out) return y;
  assign(*out, y);
  return *out;
}

}  // namespace
}  // namespace detail

ndarray cumsum(const ndarray& a, std::optional<int64_t> axis, std::optional<DType> dtype,
               const std::optional<ndarray>& out) {
  return detail::scan(detail::ScanKind::Sum, a, axis, dtype, out);
}

ndarray cumprod(const ndarray& a, std::optional<int64_t> axis, std::optional<DType> dtype,
                const std::optional<ndarray>& out) {
  return detail::scan(detail::ScanKind::Prod, a, axis, dtype, out);
}

}  // namespace tessera
