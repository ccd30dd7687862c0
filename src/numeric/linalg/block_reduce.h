// Reductions of whole vectors to one value (dot products and `all`), deterministic for any
// tiling (DESIGN §7), on the reductions' layout: the vector is cut into blocks of
// kReduceBlock elements (numeric/reduce/reduce_block.h), each block is reduced alone — a dot
// by one BLAS call per block (float and complex; other dtypes by a loop in order), `all` by a
// scan — and the blocks' results, laid out as [blocks], are joined by the one combine stage
// (tessera::combine, tessera/task.h): the same fixed tree as every other reduction.
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
