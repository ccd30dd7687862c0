#include "numeric/linalg/block_reduce.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <type_traits>
#include <vector>

#include "data/store.h"
#include "numeric/linalg/cpu/blas.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"

namespace tessera::detail {
namespace {

enum class BlockKind { Dot, DotConj, All };

void check_computed(const Operation& op) {
  for (const OpArg& a : op.args)
    if (a.read && a.store->size() > 0 && !a.store->storage()->allocated())
      throw ValueError("operation '" + op.name + "' reads an array that was never computed (an earlier error stopped it)");
}

// partials[b] = the reduction of elements [b * kReduceBlock, (b + 1) * kReduceBlock) of x (and y).
// The launch is over the blocks; a point reduces whole blocks.
class BlockReduceOp final : public Operation {
 public:
  BlockReduceOp(StorePtr partials, StorePtr x, StorePtr y, BlockKind kind) : kind_(kind), n_(x->size()) {
    name = kind == BlockKind::All ? "all" : "dot";
    // The launch is over the blocks; x (and y) follow them scaled by the block length.
    add(std::move(partials), false, true);
    const int ix = add(std::move(x), true, false);
    constraints.push_back(scale(ix, 0, {kReduceBlock}));
    if (y) add_aligned(ix, std::move(y), true, false);
    weight = std::min(n_, kReduceBlock);
  }

  void execute(const Point& point) override {
    const Rect& tile = point.rects[1];  // x's elements: whole blocks
    check_computed(*this);
    const Store& p = *args[0].store;
    const Store& x = *args[1].store;
    const DType t = x.dtype();
    const int64_t sz = itemsize(t), sx = x.strides()[0];
    for (int64_t b = tile.lo[0] / kReduceBlock; b < reduce_blocks(tile.hi[0]); ++b) {
      const int64_t lo = b * kReduceBlock, n = std::min(n_, lo + kReduceBlock) - lo;
      const char* xp = x.base_ptr() + lo * sx * sz;
      char* out = p.base_ptr() + b * sz;
      if (kind_ == BlockKind::All) {
        bool all = true;
        for (int64_t i = 0; i < n && all; ++i) all = xp[i * sx] != 0;
        *out = all;
        continue;
      }
      const Store& y = *args[2].store;
      const int64_t sy = y.strides()[0];
      dot_block(t, xp, n == 1 ? 1 : sx, y.base_ptr() + lo * sy * sz, n == 1 ? 1 : sy, n, kind_ == BlockKind::DotConj,
                out);
    }
  }

 private:
  BlockKind kind_;
  int64_t n_;
};

// Bools are combined as bytes (std::vector<bool> has no data()).
struct Logical {
  uint8_t v;
};

template <class T>
T combine(T a, T b, BlockKind kind) {
  if constexpr (std::is_same_v<T, Logical>) {
    return Logical{static_cast<uint8_t>(kind == BlockKind::All ? (a.v && b.v) : (a.v || b.v))};
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));  // wraps like NumPy's integer dot
  } else {
    return a + b;
  }
}

// out = the partials combined by the reductions' fixed tree (combine_blocks).
class CombineOp final : public Operation {
 public:
  CombineOp(StorePtr out, StorePtr partials, BlockKind kind) : kind_(kind) {
    name = kind == BlockKind::All ? "all" : "dot";
    add(std::move(out), false, true);
    add(std::move(partials), true, false);
    constraints.push_back(broadcast(1));  // whole for the point (test mode would cut even two partials)
  }

  template <class T>
  T identity() const {
    if constexpr (std::is_same_v<T, Logical>) return Logical{kind_ == BlockKind::All};
    else return T{};
  }

  void execute(const Point&) override {
    const Store& out = *args[0].store;
    const Store& p = *args[1].store;
    auto run = [&](auto zero) {
      using T = decltype(zero);
      std::vector<T> v(static_cast<size_t>(p.size()));
      if (!v.empty()) {
        check_computed(*this);
        std::memcpy(v.data(), p.base_ptr(), v.size() * sizeof(T));
      }
      const T r = v.empty() ? identity<T>()
                            : combine_blocks<T>(
                                  0, p.size(), [&](int64_t b) { return v[static_cast<size_t>(b)]; },
                                  [&](T a, T b) { return combine(a, b, kind_); });
      std::memcpy(out.base_ptr(), &r, sizeof(T));
    };
    switch (out.dtype()) {
      case DType::Bool: return run(Logical{});
      case DType::Int8: return run(int8_t{});
      case DType::Int16: return run(int16_t{});
      case DType::Int32: return run(int32_t{});
      case DType::Int64: return run(int64_t{});
      case DType::UInt8: return run(uint8_t{});
      case DType::UInt16: return run(uint16_t{});
      case DType::UInt32: return run(uint32_t{});
      case DType::UInt64: return run(uint64_t{});
      case DType::Float32: return run(float{});
      case DType::Float64: return run(double{});
      case DType::Complex64: return run(std::complex<float>{});
      case DType::Complex128: return run(std::complex<double>{});
      default: TESSERA_CHECK(false, "no block reduction for float16");
    }
  }

 private:
  BlockKind kind_;
};

// BLAS wants positive increments: reversed or broadcast vectors are copied first.
ndarray blas_ready(const ndarray& v) {
  if (!is_blas_dtype(v.dtype()) || v.size() <= 1 || v.store()->strides()[0] > 0) return v;
  return tessera::copy(v);
}

ndarray reduce(const ndarray& x, const ndarray* y, BlockKind kind) {
  TESSERA_CHECK(x.ndim() == 1 && (!y || (y->ndim() == 1 && y->size() == x.size() && y->dtype() == x.dtype())),
                "block reduction of mismatched vectors");
  const std::string& where = Runtime::provenance();
  const DType t = x.dtype();
  StorePtr partials = new_store(t, {reduce_blocks(x.size())}, where);
  StorePtr out = new_store(t, {}, where);
  if (x.size() > 0) {
    ndarray xs = blas_ready(x);
    StorePtr ys = y ? blas_ready(*y).store() : nullptr;
    Runtime::get().submit(std::make_shared<BlockReduceOp>(partials, xs.store(), ys, kind));
  }
  Runtime::get().submit(std::make_shared<CombineOp>(out, partials, kind));
  return ndarray(out);
}

}  // namespace

ndarray vector_dot(const ndarray& x, const ndarray& y, bool conj) {
  return reduce(x, &y, conj && is_complex(x.dtype()) ? BlockKind::DotConj : BlockKind::Dot);
}

ndarray vector_all(const ndarray& x) {
  TESSERA_CHECK(x.dtype() == DType::Bool, "vector_all of a non-bool vector");
  return reduce(x, nullptr, BlockKind::All);
}

}  // namespace tessera::detail
