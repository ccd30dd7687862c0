// Cholesky and LU of one large matrix as tasks on its tiles, right-looking as PLASMA and
// SLATE do: each step of a factorization is a launch (tile_op.h) whose points are single
// BLAS/LAPACK calls on tiles (tile_kernels.h). The runtime orders the points by the rects
// they touch, so independent tile updates run in parallel on the workers and a step starts
// as soon as the tiles it reads are final (look-ahead), with no barrier between steps. The
// tiles depend on n alone and each tile sees the same calls in the same order whoever runs
// them, so the results are the same on any number of cpus or ranks (DESIGN §7).
#pragma once

#include <algorithm>
#include <cstdint>

#include "tessera/ndarray.h"

namespace tessera::detail {

/// The tile: large enough for BLAS to run near its peak on one, small enough that a step has
/// many independent updates. The last row and column of tiles take what is left.
constexpr int64_t kFactorTile = 256;

/// Whether an n × n matrix is factored by tiles (a smaller one: one LAPACK call, one task).
inline bool factor_by_tiles(int64_t n) { return n >= 2 * kFactorTile; }
inline int64_t tile_count(int64_t n) { return (n + kFactorTile - 1) / kFactorTile; }
inline int64_t tile_lo(int64_t t) { return t * kFactorTile; }
inline int64_t tile_hi(int64_t t, int64_t n) { return std::min(n, (t + 1) * kFactorTile); }

/// Replaces `w` (n × n, Float64 or Complex128, C-ordered, a copy nothing else reads) by the
/// Cholesky factor of the Hermitian matrix in its lower triangle, lower triangular — or,
/// with `upper`, by the upper factor U (w = U^H U) of the matrix in its upper triangle; the
/// other triangle zeroed. False when the matrix is not positive definite (waits for that).
bool cholesky_by_tiles(const ndarray& w, bool upper);

/// Solves a · x = b in place by LU with partial pivoting of a's rows: `a` (n × n, row- or
/// column-major, Float64 or Complex128) is read, its factors are made column-major in a new
/// array; `x` (n × k, C-ordered, of a's dtype) holds b and receives the solution. False when
/// a is singular (waits for that).
bool solve_by_tiles(const ndarray& a, const ndarray& x);

}  // namespace tessera::detail
