// Running sums and products (cumsum, cumprod) along one axis, as three operations:
// ScanBlocksOp scans blocks of kScanBlock elements of each row one after another and writes
// each block's total; ScanOffsetsOp turns each row's block totals into the running total
// before each block (in block order); ScanApplyOp combines that running total with every
// element of the block. The blocks are fixed by position along the axis, not by the tiles,
// so the values are bitwise the same for any number of tiles, cpus or ranks; an axis of at
// most one block is scanned element after element as NumPy does (its values are NumPy's).
#include <complex>
#include <type_traits>

#include "data/strided_rows.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"

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

// The rows (every index but the last) of `rect`, each as the element pointer of (row, first)
// and its index, which `f` may change along the last axis only.
template <class F>
void for_rows(const Store& s, const Rect& rect, int64_t first, F&& f) {
  const size_t nd = static_cast<size_t>(s.ndim());
  if (rect.empty()) return;
  Shape ext(nd, 1), idx = rect.lo;
  for (size_t d = 0; d + 1 < nd; ++d) ext[d] = rect.hi[d] - rect.lo[d];
  StridedRows(ext, std::vector<const int64_t*>{}).for_each([&](const int64_t* pos, const int64_t*) {
    for (size_t d = 0; d + 1 < nd; ++d) idx[d] = rect.lo[d] + pos[d];
    idx[nd - 1] = first;
    f(s.ptr(idx), idx);
  });
}

Shape block_factors(int nd) {
  Shape f(static_cast<size_t>(nd), 1);
  f.back() = kScanBlock;
  return f;
}

// Args: 0 the block totals (rows..., blocks), the key; 1 the input and 2 the output
// (rows..., length), both following the totals block by block.
class ScanBlocksOp final : public Operation {
 public:
  ScanBlocksOp(ScanKind kind, StorePtr totals, StorePtr in, StorePtr out) : kind_(kind) {
    name = kind == ScanKind::Sum ? "cumsum" : "cumprod";
    const int nd = totals->ndim();
    add(std::move(totals), false, true);
    add(std::move(in), true, false);
    add(std::move(out), false, true);
    constraints.push_back(scale(1, 0, block_factors(nd)));
    constraints.push_back(scale(2, 0, block_factors(nd)));
    weight = std::min(kScanBlock, args[1].store->shape().back());  // elements per block
  }
  void execute(const Point& point) override {
    visit_dtype(args[2].store->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Store &totals = *args[0].store, &in = *args[1].store, &out = *args[2].store;
      const int nd = totals.ndim();
      const Rect& blocks = point.rects[0];
      const int64_t length = in.shape()[static_cast<size_t>(nd - 1)];
      const int64_t si = in.strides()[static_cast<size_t>(nd - 1)], so = out.strides()[static_cast<size_t>(nd - 1)];
      Rect rows = blocks;
      rows.lo[static_cast<size_t>(nd - 1)] = 0;
      rows.hi[static_cast<size_t>(nd - 1)] = 1;
      for_rows(totals, rows, 0, [&](char*, Shape& idx) {
        for (int64_t b = blocks.lo[static_cast<size_t>(nd - 1)]; b < blocks.hi[static_cast<size_t>(nd - 1)]; ++b) {
          const int64_t lo = b * kScanBlock, hi = std::min(length, lo + kScanBlock);
          idx[static_cast<size_t>(nd - 1)] = lo;
          const T* x = reinterpret_cast<const T*>(in.ptr(idx));
          T* y = reinterpret_cast<T*>(out.ptr(idx));
          T acc = x[0];
          y[0] = acc;
          for (int64_t i = 1; i < hi - lo; ++i) {
            acc = combine(kind_, acc, x[i * si]);
            y[i * so] = acc;
          }
          idx[static_cast<size_t>(nd - 1)] = b;
          *reinterpret_cast<T*>(totals.ptr(idx)) = acc;
        }
      });
    });
  }

 private:
  ScanKind kind_;
};

// Arg 0, the block totals, becomes in place the running total before each block (block 0's
// entry is left alone): tiles cut the rows only.
class ScanOffsetsOp final : public Operation {
 public:
  ScanOffsetsOp(ScanKind kind, StorePtr totals) : kind_(kind) {
    name = kind == ScanKind::Sum ? "cumsum (offsets)" : "cumprod (offsets)";
    const int nd = totals->ndim();
    weight = totals->shape().back();  // blocks per row
    add(std::move(totals), true, true);
    constraints.push_back(broadcast(0, {nd - 1}));
  }
  void execute(const Point& point) override {
    visit_dtype(args[0].store->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Store& totals = *args[0].store;
      const int nd = totals.ndim();
      const int64_t blocks = totals.shape()[static_cast<size_t>(nd - 1)], s = totals.strides()[static_cast<size_t>(nd - 1)];
      for_rows(totals, point.rects[0], 0, [&](char* p, const Shape&) {
        T* t = reinterpret_cast<T*>(p);
        T running = t[0];
        for (int64_t b = 1; b < blocks; ++b) {
          const T total = t[b * s];
          t[b * s] = running;
          running = combine(kind_, running, total);
        }
      });
    });
  }

 private:
  ScanKind kind_;
};

// Args: 0 the running totals before each block (the key), 1 the output, following it block
// by block: every element of a block after the first becomes total (op) element.
class ScanApplyOp final : public Operation {
 public:
  ScanApplyOp(ScanKind kind, StorePtr offsets, StorePtr out) : kind_(kind) {
    name = kind == ScanKind::Sum ? "cumsum (apply)" : "cumprod (apply)";
    const int nd = offsets->ndim();
    add(std::move(offsets), true, false);
    add(std::move(out), true, true);
    constraints.push_back(scale(1, 0, block_factors(nd)));
    weight = kScanBlock;  // elements per block
  }
  void execute(const Point& point) override {
    visit_dtype(args[1].store->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Store &offsets = *args[0].store, &out = *args[1].store;
      const int nd = offsets.ndim();
      const Rect& blocks = point.rects[0];
      const int64_t length = out.shape()[static_cast<size_t>(nd - 1)], so = out.strides()[static_cast<size_t>(nd - 1)];
      Rect rows = blocks;
      rows.lo[static_cast<size_t>(nd - 1)] = 0;
      rows.hi[static_cast<size_t>(nd - 1)] = 1;
      for_rows(offsets, rows, 0, [&](char*, Shape& idx) {
        for (int64_t b = std::max<int64_t>(1, blocks.lo[static_cast<size_t>(nd - 1)]);
             b < blocks.hi[static_cast<size_t>(nd - 1)]; ++b) {
          idx[static_cast<size_t>(nd - 1)] = b;
          const T offset = *reinterpret_cast<const T*>(offsets.ptr(idx));
          const int64_t lo = b * kScanBlock, hi = std::min(length, lo + kScanBlock);
          idx[static_cast<size_t>(nd - 1)] = lo;
          T* y = reinterpret_cast<T*>(out.ptr(idx));
          for (int64_t i = 0; i < hi - lo; ++i) y[i * so] = combine(kind_, offset, y[i * so]);
        }
      });
    });
  }

 private:
  ScanKind kind_;
};

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
  if (out && out->shape() != x.shape())
    throw ValueError("provided out is the wrong size for the accumulation.");
  if (x.dtype() != result) x = astype(x, result);
  ndarray y(new_store(result, x.shape(), Runtime::provenance()));
  if (x.size() > 0) {
    const int nd = x.ndim();
    // The scanned axis last, in views of both.
    const StorePtr in = moveaxis(x, {ax}, {nd - 1}).store();
    const StorePtr dst = moveaxis(y, {ax}, {nd - 1}).store();
    const int64_t length = in->shape().back();
    Shape blocks_shape = in->shape();
    blocks_shape.back() = (length + kScanBlock - 1) / kScanBlock;
    StorePtr totals = new_store(result, blocks_shape, Runtime::provenance());
    Runtime& rt = Runtime::get();
    rt.submit(std::make_shared<ScanBlocksOp>(kind, totals, in, dst));
    if (blocks_shape.back() > 1) {
      rt.submit(std::make_shared<ScanOffsetsOp>(kind, totals));
      rt.submit(std::make_shared<ScanApplyOp>(kind, totals, dst));
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
