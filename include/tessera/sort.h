// Sorting: NumPy's sort and argsort along an axis (or of the flattened array). NaN sorts
// after every number, as in NumPy. Rows along the other axes are sorted in parallel; one long
// row is cut into chunks sorted in parallel and merged pairwise, each merge cut by output
// range (merge path), so every core works until the end. argsort is always stable (it is
// then one of the answers NumPy's default kind may give, and exactly its "stable" answer).
// Example:
//   ndarray s = tessera::sort(a);                        // along the last axis
//   ndarray order = tessera::argsort(a, std::nullopt);   // of the flattened array
#pragma once

#include <optional>

#include "tessera/ndarray.h"

namespace tessera {

/// A sorted copy of `a` along `axis` (of the flattened array when none). `stable` keeps
/// equal elements (0.0 and -0.0, say) in their order.
ndarray sort(const ndarray& a, std::optional<int64_t> axis = -1, bool stable = false);
/// The int64 positions that sort `a` along `axis`; equal elements keep their order.
ndarray argsort(const ndarray& a, std::optional<int64_t> axis = -1);
/// `a.sort(axis)`: sorts `a` in place.
void sort_in_place(const ndarray& a, int64_t axis = -1, bool stable = false);
/// For each element of `v`, the int64 position in the sorted 1-D `a` before which it goes:
/// the first such position (`right` false) or the last. Both are compared in their common
/// dtype, NaN after every number.
ndarray searchsorted(const ndarray& a, const ndarray& v, bool right = false);

}  // namespace tessera
