// The random family's kernels on the cpu: runs of consecutive elements of a draw from
// Philox-4x32 (cpu/philox.h): uniform and normal floats, and unbiased bounded integers.
#pragma once

#include <cstdint>

#include "numeric/random/draw_spec.h"

namespace tessera::detail {

/// Writes elements [first, first + n) of the draw to `out` (n values of spec.dtype).
void fill(const DrawSpec& spec, int64_t first, int64_t n, void* out);

/// Writes elements [first, first + n) of integers of dtype `t` whose bounds vary by element
/// (element i is low[i] + U{0, ..., range[i]-1}, range 0 meaning 2^64, from the stream
/// (key, draw) as an Integers draw's element i) to `out`.
void fill_bounded_integers(DType t, uint64_t key, uint64_t draw, const uint64_t* low, const uint64_t* range,
                           int64_t first, int64_t n, void* out);

}  // namespace tessera::detail
