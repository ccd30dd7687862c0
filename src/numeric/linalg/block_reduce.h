// Reductions of whole vectors to one value (dot products and `all`), deterministic
// for any tiling (DESIGN §7): the vector is cut into the reductions' blocks of
// kReduceBlock elements (numeric/reduce/reduce_block.h), each block is reduced alone, and
// the partial results are combined by the reductions' fixed tree (combine_blocks). Two
// operations: the blocks in parallel, then the combine.
#pragma once

#include "numeric/reduce/reduce_block.h"
#include "tessera/ndarray.h"

namespace tessera::detail {

/// Σ x[i] · y[i] of two vectors of one dtype (not float16), conjugating x when `conj`
/// (any(x & y) for bool); a 0-d array of that dtype, deferred.
ndarray vector_dot(const ndarray& x, const ndarray& y, bool conj);
/// Whether every element of the bool vector `x` is true; a 0-d bool array, deferred.
ndarray vector_all(const ndarray& x);

}  // namespace tessera::detail
