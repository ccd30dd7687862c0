// The sort family's kernels: what a point of sort, argsort or searchsorted computes on its
// memory, one table per processor kind. The tasks (sort.cc) cut the work and have a variant
// per kind that has a table, each running with its table; cpu/sort_kernels.cc holds the cpu
// table and gpu/sort_kernels.cu, compiled in a build with CUDA, the GPU one.
#pragma once

#include <cstdint>

#include "tessera/processor.h"

namespace tessera {
// Declared, not included: nvcc compiles the gpu/ file that includes this header, and its
// translation of tessera/dtype.h's _Float16 is code GCC rejects.
enum class DType : uint8_t;
}  // namespace tessera

namespace tessera::detail {

struct SortKernels {
  /// Sorts v[0, n) (contiguous, of dtype t) in NumPy's order (NaN last), stably when asked;
  /// else values that compare equal (0.0 and -0.0, NaNs) by their bits.
  void (*sort_values)(DType t, void* v, int64_t n, bool stable);
  /// pos[0, n) = positions first .. first + n - 1 of `key` (stride s elements), ordered
  /// stably by their keys.
  void (*sort_positions)(DType t, const void* key, int64_t s, int64_t first, int64_t n, int64_t* pos);
  /// Elements [lo, hi) of the merge of the sorted runs from[a0, a1) and from[a1, b1) into
  /// to[lo, hi) (both contiguous), and the positions that come with them from `pfrom` into
  /// `pto` when those are not null: stable (the first run first on ties), or with `by_bits`
  /// (an unstable sort of values) values that compare equal ordered by their bits.
  void (*merge_range)(DType t, const void* from, void* to, const int64_t* pfrom, int64_t* pto, int64_t a0, int64_t a1,
                      int64_t b1, int64_t lo, int64_t hi, bool by_bits);
  /// out[i * os] = where x[i * xs] goes in sorted[0, n) (stride s) for i < count: before
  /// the equal elements, or after them when `right`.
  void (*insertion_points)(DType t, const void* sorted, int64_t n, int64_t s, const void* x, int64_t xs, int64_t count,
                           int64_t* out, int64_t os, bool right);
};

/// The table for processors of `kind`; NotImplementedError when the family has none.
const SortKernels& sort_kernels(ProcessorKind kind);

/// The table of each kind (cpu/sort_kernels.cc; gpu/sort_kernels.cu in a build with CUDA,
/// null while no GPU kernel is written).
const SortKernels* cpu_sort_kernels();
const SortKernels* gpu_sort_kernels();

}  // namespace tessera::detail
