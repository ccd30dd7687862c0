// Draws of random numbers as arrays: a launch of the task "random.draw" computes an array's
// tiles in parallel, each run of elements by the kernel of cpu/fill.h (element i of a draw
// is a function of (key, draw, i) alone, draw_spec.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "numeric/random/draw_spec.h"
#include "tessera/ndarray.h"

namespace tessera::detail {

/// A new array of `shape` holding the draw, computed by a deferred, tiled operation.
ndarray draw_array(const DrawSpec& spec, const Shape& shape);

/// Integers of dtype `t` whose bounds vary by element: element i is low[i] + U{0, ..., range[i]-1}
/// (range 0 meaning 2^64), from the stream (key, draw) as an Integers draw's element i.
ndarray draw_integer_array(DType t, uint64_t key, uint64_t draw, std::vector<uint64_t> low, std::vector<uint64_t> range,
                           const Shape& shape);

}  // namespace tessera::detail
