// The matrix product as a task: C = A · B over the last two axes, for every index of the
// leading (batch) axes. C is cut into a grid of blocks that depends only on the shapes; each
// block is one call over the whole of K (BLAS, or for a float matrix times a vector a kernel
// of matvec_kernels.h), and a point computes a range of blocks: the launch is over the grid
// (an index space), and C, A and B follow it by `scale` — A and B seen in the
// (batch..., M, N, K) space, whole along K. As every element is computed by the same call
// whatever the tiling, results do not depend on the number of tiles or cpus (DESIGN §7).
#pragma once

#include "tessera/ndarray.h"

namespace tessera::detail {

/// Launches c = a · b: `c` (batch..., M, N), `a` (batch..., M, K), `b` (batch..., K, N), all
/// of one dtype; `a` and `b` may broadcast over the batch axes (stride 0). See
/// `matmul_usable_operand` / `matmul_usable_output`.
void launch_matmul(const ndarray& c, const ndarray& a, const ndarray& b);

/// Whether `s` can be an operand as it is (BLAS dtypes need a BLAS layout of the last two axes).
bool matmul_usable_operand(const ndarray& s);
/// Whether `s` can be the result as it is (BLAS dtypes need row-major last two axes).
bool matmul_usable_output(const ndarray& s);

}  // namespace tessera::detail
