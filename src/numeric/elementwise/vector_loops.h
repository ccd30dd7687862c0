// Element-wise loops compiled for several instruction sets in one build, the best one
// the CPU has chosen at run time (Google Highway's dynamic dispatch): AVX-512, AVX2+FMA,
// SSE4, or portable code. They cover the hot float32/float64 functions (and the simple
// integer ones); every other (op, dtype) keeps its scalar loop. A vector loop gives each
// element the value it would get anywhere in any block, so results do not depend on tiling.
#pragma once

#include "numeric/elementwise/ops.h"

namespace tessera::detail {

/// The vector loop for `op` on `t` for this CPU, or nullptr (the scalar loop serves).
UnaryLoop vector_unary_loop(UnaryOp op, DType t);
BinaryLoop vector_binary_loop(BinaryOp op, DType t);
WhereLoop vector_where_loop(DType t);
CastLoop vector_cast_loop(DType from, DType to);

/// Arithmetic, comparisons, `where` and casts (vector_loops.cc).
UnaryLoop arithmetic_unary_loop(UnaryOp op, DType t);
BinaryLoop arithmetic_binary_loop(BinaryOp op, DType t);
/// Exponentials, logarithms, trigonometric and hyperbolic functions, cbrt, arctan2,
/// hypot and power, from SLEEF's 1-ulp vector functions (vector_math.cc).
UnaryLoop math_unary_loop(UnaryOp op, DType t);
BinaryLoop math_binary_loop(BinaryOp op, DType t);

/// The loop for a chain of + - * / and unary functions over float32 or float64 (else nullptr).
ChainLoop vector_chain_loop(DType t);

/// The instruction set the vector loops run on: "AVX3" (AVX-512), "AVX2", "SSE4", or the portable
/// "EMU128" ("SCALAR" with GCC before 12.3); --simd caps it (config/instruction_sets.h).
const char* vector_target();

}  // namespace tessera::detail
