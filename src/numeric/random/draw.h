// One draw of random numbers: which distribution, its parameters and dtype, and
// where it sits in the generator's stream (key, draw number). Element i of a
// draw is a function of (key, draw, i) alone: `fill` computes any run of
// elements, and DrawOp computes an array's tiles in parallel with it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/operation.h"
#include "tessera/ndarray.h"

namespace tessera::detail {

enum class Distribution {
  Uniform,   // a + b * U[0, 1)           (float32/float64)
  Normal,    // a + b * N(0, 1)           (float32/float64)
  Integers,  // low + U{0, ..., range-1}  (integer or bool dtypes; range 0 means 2^64)
};

struct DrawSpec {
  Distribution dist = Distribution::Uniform;
  DType dtype = DType::Float64;
  uint64_t key = 0, draw = 0;
  double a = 0, b = 1;
  uint64_t low = 0;    // two's complement for negative bounds
  uint64_t range = 0;
};

/// Writes elements [first, first + n) of the draw to `out` (n values of spec.dtype).
void fill(const DrawSpec& spec, int64_t first, int64_t n, void* out);

/// A new array of `shape` holding the draw, computed by a deferred, tiled operation.
ndarray draw_array(const DrawSpec& spec, const Shape& shape);

/// Integers of dtype `t` whose bounds vary by element: element i is low[i] + U{0, ..., range[i]-1}
/// (range 0 meaning 2^64), from the stream (key, draw) as an Integers draw's element i.
ndarray draw_integer_array(DType t, uint64_t key, uint64_t draw, std::vector<uint64_t> low,
                           std::vector<uint64_t> range, const Shape& shape);

}  // namespace tessera::detail
