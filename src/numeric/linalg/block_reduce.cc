#include "numeric/linalg/block_reduce.h"

#include <algorithm>

#include "data/store.h"
#include "numeric/linalg/cpu/blas.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "task/combine.h"
#include "task/reduction.h"
#include "tessera/creation.h"
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

// BLAS wants positive increments: reversed or broadcast vectors are copied first.
ndarray blas_ready(const ndarray& v) {
  if (!is_blas_dtype(v.dtype()) || v.size() <= 1 || v.store()->strides()[0] > 0) return v;
  return tessera::copy(v);
}

ndarray reduce(const ndarray& x, const ndarray* y, BlockKind kind) {
  TESSERA_CHECK(x.ndim() == 1 && (!y || (y->ndim() == 1 && y->size() == x.size() && y->dtype() == x.dtype())),
                "block reduction of mismatched vectors");
  const DType t = x.dtype();
  // The empty reduction is the identity: 0 for a dot, true for `all`.
  if (x.size() == 0) return kind == BlockKind::All ? ones({}, t) : zeros({}, t);
  const std::string& where = Runtime::provenance();
  StorePtr partials = new_store(t, {reduce_blocks(x.size())}, where);
  StorePtr out = new_store(t, {}, where);
  ndarray xs = blas_ready(x);
  StorePtr ys = y ? blas_ready(*y).store() : nullptr;
  Runtime::get().submit(std::make_shared<BlockReduceOp>(partials, xs.store(), ys, kind));
  // The blocks' results are joined by the reductions' one combine (task/combine.h): sums
  // (integers wrapping, as NumPy's integer dot), `or` of bools for a bool dot, `and` for `all`.
  const Reduction op = kind == BlockKind::All ? Reduction::min() : Reduction::sum();
  auto combine = std::make_shared<CombineOp>(out, partials, nullptr, reduction_combiner(op, t, false));
  combine->name = kind == BlockKind::All ? "all (combine)" : "dot (combine)";
  Runtime::get().submit(std::move(combine));
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
