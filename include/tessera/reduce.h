// Reductions: NumPy's sum, prod, amin/amax, mean, var, std, argmin/argmax, any, all and
// count_nonzero, over every axis or some, and the running sums and products cumsum and
// cumprod. Each is deferred and runs in parallel; its result (a 0-d array for a full
// reduction) is bitwise the same for any number of tiles or cpus. Example:
//   ndarray total = tessera::sum(a);                                // 0-d
//   ndarray cols = tessera::mean(a, {.axis = tessera::Axes{{0}}, .keepdims = true});
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera {

/// The axes to reduce; none means every axis. Negative axes count from the end.
using Axes = std::optional<std::vector<int64_t>>;

/// NumPy's keyword arguments of the reductions (each function uses the ones NumPy's has).
struct ReduceOptions {
  Axes axis;
  /// Keep each reduced axis with length 1, so the result broadcasts against the input.
  bool keepdims = false;
  /// The dtype to accumulate and return in (sum, prod, mean, var, std).
  std::optional<DType> dtype;
  /// An array of the result's shape to write into (cast like NumPy); it is also returned.
  std::optional<ndarray> out;
  /// The value to start from (sum, prod, amin, amax); amin/amax need it for an empty input.
  std::optional<Scalar> initial;
  /// Only elements where this array (broadcast to the input) is true take part.
  std::optional<ndarray> where;
  /// Delta degrees of freedom: var and std divide by N - ddof.
  double ddof = 0;
};

/// Sum of the elements; small integers accumulate in int64 (unsigned in uint64), floats pairwise.
ndarray sum(const ndarray& a, const ReduceOptions& options = {});
/// Product of the elements (integer dtypes widen like sum).
ndarray prod(const ndarray& a, const ReduceOptions& options = {});
/// Maximum; NaN propagates. ValueError for an empty reduction without `initial`.
ndarray amax(const ndarray& a, const ReduceOptions& options = {});
/// Minimum; NaN propagates. ValueError for an empty reduction without `initial`.
ndarray amin(const ndarray& a, const ReduceOptions& options = {});
inline ndarray max(const ndarray& a, const ReduceOptions& options = {}) { return amax(a, options); }
inline ndarray min(const ndarray& a, const ReduceOptions& options = {}) { return amin(a, options); }
/// Arithmetic mean (integers in float64, float16 accumulated in float32); nan when empty.
ndarray mean(const ndarray& a, const ReduceOptions& options = {});
/// Variance, mean(|x - mean(x)|²) · N / (N - ddof); real for complex input.
ndarray var(const ndarray& a, const ReduceOptions& options = {});
/// Standard deviation, sqrt(var) (NumPy's `std`; a function named `std` would read badly in C++).
ndarray stddev(const ndarray& a, const ReduceOptions& options = {});
/// Whether any element is nonzero (NaN counts as nonzero).
ndarray any(const ndarray& a, const ReduceOptions& options = {});
/// Whether every element is nonzero.
ndarray all(const ndarray& a, const ReduceOptions& options = {});
/// Number of nonzero elements, as int64 (a 0-d array when `axis` is none).
ndarray count_nonzero(const ndarray& a, const Axes& axis = std::nullopt, bool keepdims = false);

/// Position (int64) of the first maximum along `axis`, or in the flattened array when none;
/// the first NaN wins. ValueError when the axis is empty.
ndarray argmax(const ndarray& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false,
               const std::optional<ndarray>& out = std::nullopt);
/// Position (int64) of the first minimum; see argmax.
ndarray argmin(const ndarray& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false,
               const std::optional<ndarray>& out = std::nullopt);

/// Running sum along `axis` (of the flattened array when none); the dtype as sum's (small
/// integers and bool in int64) unless `dtype` or `out` says. An axis longer than 65536 elements
/// is scanned in blocks of that many in parallel, each offset by the running total of the
/// blocks before it: bitwise the same for any tiling, cpus or ranks (a float may differ from
/// NumPy's element-after-element sum in the last bits; a shorter axis is NumPy's exactly).
ndarray cumsum(const ndarray& a, std::optional<int64_t> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
               const std::optional<ndarray>& out = std::nullopt);
/// Running product; see cumsum.
ndarray cumprod(const ndarray& a, std::optional<int64_t> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
                const std::optional<ndarray>& out = std::nullopt);

/// How ufunc_fold combines the rows of a matrix.
enum class FoldKind { Reduce, Accumulate, Reduceat };
/// The ufunc methods reduce, accumulate and reduceat of the binary ufunc named `ufunc` (NumPy's
/// name) along the first axis of the matrix `a`, in its dtype, which must be one of the ufunc's
/// loops to itself. Each column is folded in NumPy's order (element after element; reduceat's
/// float add is NumPy's a[s] + pairwise(rest)). Reduce gives 1 row, accumulate as many as `a`,
/// reduceat one per index of `indices` (in [0, rows): IndexError otherwise), where
/// indices[k] >= indices[k+1] gives row indices[k] itself. Bitwise the same for any cpus or ranks.
ndarray ufunc_fold(const ndarray& a, const std::string& ufunc, FoldKind kind, const std::vector<int64_t>& indices = {});

}  // namespace tessera
