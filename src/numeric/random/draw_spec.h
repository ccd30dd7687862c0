// One draw of random numbers: which distribution, its parameters and dtype, and where it
// sits in the generator's stream (key, draw number). Element i of a draw is a function of
// (key, draw, i) alone, whatever the processor or the tiling that computes it.
#pragma once

#include <cstdint>

#include "tessera/dtype.h"

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
  uint64_t low = 0;  // two's complement for negative bounds
  uint64_t range = 0;
};

}  // namespace tessera::detail
