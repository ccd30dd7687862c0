// The reduction kernels: for one reduction (sum, prod, max, min, any, all, argmax,
// argmin) and one accumulation dtype, the loops that reduce a block of values in
// NumPy's pairwise order, the same order applied column by column to a block of rows,
// and the combination of two partial results. Chosen at run time by dtype (DESIGN §12).
#pragma once

#include <cstdint>

#include "numeric/elementwise/ops.h"
#include "tessera/dtype.h"

namespace tessera::detail {

enum class ReduceKind : uint8_t { Sum, Prod, Max, Min, Any, All, ArgMax, ArgMin };

inline bool is_arg_reduction(ReduceKind k) { return k == ReduceKind::ArgMax || k == ReduceKind::ArgMin; }
/// NumPy's name of the ufunc behind a reduction ("add", "maximum", ...), for messages.
const char* reduce_ufunc_name(ReduceKind k);

/// Where the rows of one block come from: value `c` of row `i` is the element at
/// `base + (offsets[i] + c * col_stride) * isize`. `load` converts elements to the
/// accumulation dtype; nullptr means the rows already are contiguous accumulation values.
/// Masked-out elements (mask byte 0, same layout with its own offsets and stride) read as `fill`.
struct RowSource {
  const char* base = nullptr;
  const int64_t* offsets = nullptr;
  int64_t col_stride = 1;
  int isize = 0;
  CastLoop load = nullptr;
  const char* mask = nullptr;
  const int64_t* mask_offsets = nullptr;
  int64_t mask_col_stride = 0;
  const void* fill = nullptr;
};

/// *out = the reduction of n >= 1 contiguous values, in NumPy's pairwise order.
using BlockKernel = void (*)(void* out, const void* in, int64_t n);
/// out[c] = the reduction of rows 0..n-1 of column c (n >= 1, w columns), in exactly the
/// order of BlockKernel, so both give bitwise the same value.
using RowsKernel = void (*)(void* out, const RowSource& rows, int64_t n, int64_t w);
/// *out = a op b, a coming first.
using CombineKernel = void (*)(void* out, const void* a, const void* b);
/// The first best of n >= 1 contiguous values: *value and its position *index.
using ArgBlockKernel = void (*)(void* value, int64_t* index, const void* in, int64_t n);
/// The same per column of n rows (index = row number).
using ArgRowsKernel = void (*)(void* value, int64_t* index, const RowSource& rows, int64_t n, int64_t w);
/// Whether `candidate` beats `best` that comes before it (NaN beats everything, ties keep `best`).
using ArgBetter = bool (*)(const void* candidate, const void* best);

struct ReduceKernels {
  BlockKernel block = nullptr;
  RowsKernel rows = nullptr;
  CombineKernel combine = nullptr;
  ArgBlockKernel arg_block = nullptr;
  ArgRowsKernel arg_rows = nullptr;
  ArgBetter arg_better = nullptr;
};

/// The kernels of `kind` accumulating in `acc` (never float16: it accumulates in float32).
ReduceKernels reduce_kernels(ReduceKind kind, DType acc);
/// The kernels of max, min, argmax and argmin (extremes.cc; reduce_kernels dispatches to it).
ReduceKernels extreme_kernels(ReduceKind kind, DType acc);
/// out[i] = in[i * stride] != 0, stored as `to` (bool or int64): the load of any, all and
/// count_nonzero (a complex value is nonzero when either part is).
CastLoop nonzero_loop(DType from, DType to);
/// Writes the identity of `kind` in dtype `acc` (sum 0, prod 1, any false, all true).
void reduce_identity(ReduceKind kind, DType acc, void* out);

}  // namespace tessera::detail
