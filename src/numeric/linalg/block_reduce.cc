#include "numeric/linalg/block_reduce.h"

#include <algorithm>

#include "numeric/linalg/cpu/blas.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/task.h"

namespace tessera::detail {
namespace {

enum class BlockKind { Dot, DotConj, All };

// partials[b] = the reduction of elements [b * kReduceBlock, (b + 1) * kReduceBlock) of x (and
// y). Args: 0 the partials, the key; 1 x (and 2 y), following them scaled by the block length:
// a point reduces whole blocks.
void reduce_blocks_of(TaskContext& ctx) {
  const auto kind = static_cast<BlockKind>(ctx.scalar(0).as_int());
  const Tile &p = ctx.array(0), &x = ctx.array(1);
  const int64_t total = x.array_shape()[0];
  const DType t = x.dtype();
  const int64_t sz = itemsize(t), sx = x.strides()[0], sp = p.strides()[0];
  for (int64_t b = p.lo()[0]; b < p.hi()[0]; ++b) {
    const int64_t lo = b * kReduceBlock, n = std::min(total, lo + kReduceBlock) - lo;
    const char* xp = static_cast<const char*>(x.data()) + (lo - x.lo()[0]) * sx * sz;
    char* out = static_cast<char*>(p.data()) + (b - p.lo()[0]) * sp * sz;
    if (kind == BlockKind::All) {
      bool all = true;
      for (int64_t i = 0; i < n && all; ++i) all = xp[i * sx] != 0;
      *out = all;
      continue;
    }
    const Tile& y = ctx.array(2);
    const int64_t sy = y.strides()[0];
    const char* yp = static_cast<const char*>(y.data()) + (lo - y.lo()[0]) * sy * sz;
    dot_block(t, xp, n == 1 ? 1 : sx, yp, n == 1 ? 1 : sy, n, kind == BlockKind::DotConj, out);
  }
}

// BLAS wants positive increments: reversed or broadcast vectors are copied first.
ndarray blas_ready(const ndarray& v) {
  if (!is_blas_dtype(v.dtype()) || v.size() <= 1 || v.strides_bytes()[0] > 0) return v;
  return tessera::copy(v);
}

ndarray reduce(const ndarray& x, const ndarray* y, BlockKind kind) {
  TESSERA_CHECK(x.ndim() == 1 && (!y || (y->ndim() == 1 && y->size() == x.size() && y->dtype() == x.dtype())),
                "block reduction of mismatched vectors");
  const DType t = x.dtype();
  // The empty reduction is the identity: 0 for a dot, true for `all`.
  if (x.size() == 0) return kind == BlockKind::All ? ones({}, t) : zeros({}, t);
  static const Task blocks("linalg.reduce_blocks", reduce_blocks_of);
  const ndarray partials = new_array({reduce_blocks(x.size())}, t);
  const ndarray out = new_array({}, t);
  const ndarray xs = blas_ready(x);
  std::vector<Argument> args{tessera::out(partials), in(xs)};
  std::vector<Constraint> constraints{scale(1, 0, {kReduceBlock})};
  if (y) {
    args.push_back(in(blas_ready(*y)));
    constraints.push_back(align(2, 1));
  }
  const bool all = kind == BlockKind::All;
  launch(blocks, std::move(args), {Scalar(static_cast<int64_t>(kind))}, std::move(constraints),
         {.name = all ? "all" : "dot", .weight = std::min(x.size(), kReduceBlock)});
  // The blocks' results are joined by the reductions' one combine (tessera::combine): sums
  // (integers wrapping, as NumPy's integer dot), `or` of bools for a bool dot, `and` for `all`.
  combine(out, partials, all ? Reduction::min() : Reduction::sum(), all ? "all (combine)" : "dot (combine)");
  return out;
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
