// CombineOp: the combine stage of every deterministic reduction (DESIGN §7). Partial results
// laid out as [pieces][outputs...] — one row per piece (a block of a NumPy reduction or of a
// dot product, a point of a task launch) holding its result for every output — are combined
// output by output by one fixed pairwise tree over the pieces (`combine_pieces`): the first
// half of the pieces and the rest are each combined the same way, then the two halves. The
// pieces are a property of the data (blocks of kReduceBlock, tiles cut by the shapes), never
// of the machine, so the value is bitwise the same for any number of tiles, cpus or ranks.
//
// It lives in the task layer because both its users sit on it: the task API's reduction
// slots (task_op.h) and the libraries built on the task layer (numeric/reduce's sums and
// argmax, numeric/linalg's dot products and norms, tessera/stl.h's transform_reduce). It knows
// none of them: the per-element operator is the caller's (ReduceKernels for NumPy, a
// tessera::Reduction for tasks), passed as a function — no template per dtype.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "runtime/operation.h"

namespace tessera::detail {

/// acc[i] = acc[i] (op) x[i] for i < n; `acc` holds the earlier pieces.
using CombineFold = std::function<void(void* acc, const void* x, int64_t n)>;
/// argmax/argmin: whether `candidate` beats `best`, which comes before it (ties keep `best`).
using CombineBetter = bool (*)(const void* candidate, const void* best);
/// Writes n combined values (contiguous, the partials' type; their positions for argmax and
/// argmin) to the outputs at `dst`, `stride` elements apart.
using CombineFinish =
    std::function<void(char* dst, int64_t stride, const char* values, const int64_t* indices, int64_t n)>;

/// How partial results combine.
struct Combiner {
  int itemsize = 0;                // bytes per partial result
  CombineFold fold;                // the operator, or:
  CombineBetter better = nullptr;  // the first best piece wins, carrying its position (an indices store)
  CombineFinish finish;            // null: the values are copied out (the output has the partials' dtype)
  bool into = false;               // out = out (op) tree: the output is read too (reduction slots)
};

/// The tree over `n` >= 1 pieces of `w` values each, piece p at `pieces + p * piece_bytes`
/// (and its positions at `indices + p * index_stride`, for `better`), into `out` (and
/// `out_indices`). `stack` holds w values (and w positions) per level of the tree.
void combine_pieces(const Combiner& c, char* out, int64_t* out_indices, const char* pieces, int64_t piece_bytes,
                    const int64_t* indices, int64_t index_stride, int64_t n, int64_t w);

/// out = the tree over rows [0, pieces) of `partials` ([rows][out's shape], C-ordered, the
/// positions of argmax/argmin in `indices`, same shape), output by output. `pieces` is read
/// when the operation runs (a launch knows its number of points then); null: every row.
class CombineOp final : public Operation {
 public:
  CombineOp(StorePtr out, StorePtr partials, StorePtr indices, Combiner combiner,
            std::shared_ptr<const std::atomic<int>> pieces = nullptr);
  void execute(const Point& point) override;

 private:
  Combiner c_;
  std::shared_ptr<const std::atomic<int>> pieces_;
  int partials_arg_ = 1, indices_arg_ = -1;
};

}  // namespace tessera::detail
