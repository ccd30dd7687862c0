// The fixed blocking of every deterministic reduction (DESIGN §7): sums, products and
// extremes (numeric/reduce) and dot products and `all` of vectors (numeric/linalg) cut
// the elements reduced into one value into blocks of kReduceBlock, reduce each block
// alone and combine the blocks' results by a fixed tree. Tiles hold whole blocks, so
// the result does not depend on the number of tiles, cpus or ranks.
#pragma once

#include <cstdint>

namespace tessera::detail {

/// Elements per reduction block. 4096 rather than 8192: a block of the widest accumulator
/// (complex128, 16 bytes) is 64 KiB, the per-thread scratch that ReduceOp keeps, which
/// stays within a core's L2 cache; a dot block is 32 KiB of each float64 vector. The
/// reduction tests size their arrays for several blocks of 4096 (a (10000, 5) argmax
/// spans three), which fewer, larger blocks would not cover. Changing it changes the
/// last bits of large floating-point sums, dots and norms, never their determinism.
inline constexpr int64_t kReduceBlock = 4096;

/// Number of blocks of kReduceBlock elements covering `n` elements.
inline constexpr int64_t reduce_blocks(int64_t n) { return (n + kReduceBlock - 1) / kReduceBlock; }

/// The fixed tree over the results of blocks [first, first + n), n >= 1: the first n / 2
/// blocks and the rest are each combined the same way, then the two halves. `block(b)` is
/// block b's result, `combine(a, b)` joins two results (a holding the earlier blocks).
/// Example: combine_blocks<double>(0, 3, block, plus) == block(0) + (block(1) + block(2)).
template <class T, class Block, class Combine>
T combine_blocks(int64_t first, int64_t n, const Block& block, const Combine& combine) {
  if (n == 1) return block(first);
  const int64_t half = n / 2;
  T low = combine_blocks<T>(first, half, block, combine);
  T high = combine_blocks<T>(first + half, n - half, block, combine);
  return combine(low, high);
}

}  // namespace tessera::detail
