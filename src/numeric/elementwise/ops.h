// The element-wise operation codes and the loop tables that implement them.
// A loop works on a block of contiguous elements of one compute dtype; an
// operand stride is 0 (a broadcast scalar) or 1. Unsupported (op, dtype) pairs
// have no loop, and the ufunc layer raises NumPy's TypeError for them.
#pragma once

#include <cstdint>

#include "tessera/dtype.h"

namespace tessera::detail {

// The operation codes, one per row of the ufunc table (ufuncs.def), in its order.
enum class UnaryOp : uint8_t {
#define TESSERA_UNARY_UFUNC(Op, ...) Op,
#include "numeric/elementwise/ufuncs.def"
  kCount
};

enum class BinaryOp : uint8_t {
#define TESSERA_BINARY_UFUNC(Op, ...) Op,
#include "numeric/elementwise/ufuncs.def"
  kCount
};

/// out[i] = op(a[i * sa])
using UnaryLoop = void (*)(void* out, const void* a, int64_t sa, int64_t n);
/// out[i] = op(a[i * sa], b[i * sb])
using BinaryLoop = void (*)(void* out, const void* a, int64_t sa, const void* b, int64_t sb, int64_t n);
/// out[i] = cond[i * sc] ? a[i * sa] : b[i * sb]   (all of one dtype, cond bool)
using WhereLoop = void (*)(void* out, const void* cond, int64_t sc, const void* a, int64_t sa, const void* b,
                           int64_t sb, int64_t n);

/// One step of a chain of arithmetic over one dtype: acc = acc op x[i * stride], or
/// x[i * stride] op acc for the Swapped ops, or acc = f(acc) for the unary ones (each
/// computed as its own node would: the chain only keeps the running value in registers
/// instead of a buffer). WhereTrue is acc = cond[i] ? acc : x[i], WhereFalse acc = cond[i] ?
/// x[i] : acc. Exp and Log are the vector math functions inline; Apply runs `f`, a unary
/// loop, over the running values.
// The steps up to Sqrt need no registers beyond their operands: chain loops run them apart
// from the where steps and the math functions (see vector_loops.cc), so they come first.
enum class ChainOp : uint8_t {
  Add,
  Subtract,
  Multiply,
  Divide,
  SwappedAdd,
  SwappedSubtract,
  SwappedMultiply,
  SwappedDivide,
  Negative,
  Absolute,
  Sqrt,
  WhereTrue,
  WhereFalse,
  Exp,
  Log,
  Apply
};
struct ChainStep {
  ChainOp op;
  const void* x;                  // the binary and where steps' operand
  int64_t stride;                 // 0 or 1
  UnaryLoop f = nullptr;          // Apply's loop
  const uint8_t* cond = nullptr;  // the where steps' condition (bools)
  int64_t cond_stride = 0;        // 0 or 1
};
/// out[i] = the steps applied in order to a[i * sa] (out may be a or any step's x).
using ChainLoop = void (*)(void* out, const void* a, int64_t sa, const ChainStep* steps, int count, int64_t n);
/// out[i] = convert(in[i * stride]); stride in elements
using CastLoop = void (*)(void* out, const void* in, int64_t stride, int64_t n);

/// The loop for `op` on inputs of dtype `t`, or nullptr; `*out` receives the result dtype.
UnaryLoop unary_loop(UnaryOp op, DType t, DType* out);
BinaryLoop binary_loop(BinaryOp op, DType t, DType* out);
WhereLoop where_loop(DType t);
CastLoop cast_loop(DType from, DType to);

/// NumPy's name of `op` (the table's; internal functions have names of their own, such as
/// "spacing_float16").
const char* unary_name(UnaryOp op);
const char* binary_name(BinaryOp op);

/// The chain step computing unary `op` (Apply: its loop over the running values).
ChainOp chain_step(UnaryOp op);
/// The chain step computing binary `op` with the running value as its left operand (its
/// right one when `swapped`); false when no step computes it.
bool chain_step(BinaryOp op, bool swapped, ChainOp* step);

}  // namespace tessera::detail
