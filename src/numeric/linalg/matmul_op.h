// MatmulOp: C = A · B over the last two axes, for every index of the leading (batch)
// axes. C is cut into a grid of blocks that depends only on the shapes; each block is
// one call over the whole of K (BLAS, or for a float matrix times a vector a kernel of
// matvec_kernels.h), and a point task computes a range of blocks: the
// launch is over the grid (an index space), and C, A and B follow it by `scale` — A and B
// seen in the (batch..., M, N, K) space, whole along K. As
// every element is computed by the same call whatever the tiling, results do not
// depend on the number of tiles or cpus (DESIGN §7).
#pragma once

#include <vector>

#include "runtime/operation.h"

namespace tessera::detail {

class MatmulOp final : public Operation {
 public:
  /// `c` (batch..., M, N), `a` (batch..., M, K), `b` (batch..., K, N), all of one dtype; `a` and `b`
  /// may broadcast over the batch axes (stride 0). See `usable_operand` / `usable_output`.
  MatmulOp(StorePtr c, StorePtr a, StorePtr b);

  void execute(const Point& point) override;

  /// Whether `s` can be an operand as it is (BLAS dtypes need a BLAS layout of the last two axes).
  static bool usable_operand(const Store& s);
  /// Whether `s` can be the result as it is (BLAS dtypes need row-major last two axes).
  static bool usable_output(const Store& s);

 private:
  int64_t m_, n_, k_;
  int64_t block_rows_, block_cols_;  // the grid of C's blocks
  int c_arg_ = 0;
  bool matvec_ = false;     // a float matrix times a vector: matvec_kernels.h's order
  bool backwards_ = false;  // a tile computes its row blocks last to first
};

}  // namespace tessera::detail
