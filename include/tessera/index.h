// Indexing: basic indexing (ints, slices with any step, Ellipsis, new axes)
// returns views; boolean masks read and write selected elements.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera {

/// A Python-style slice; absent fields take Python's defaults.
struct Slice {
  std::optional<int64_t> start, stop, step;
};
struct NewAxis {};
struct Ellipsis {};
using IndexItem = std::variant<int64_t, Slice, NewAxis, Ellipsis>;

/// `x[key]` for a basic index: a view sharing x's storage. IndexError when out of range.
ndarray view(const ndarray& x, const std::vector<IndexItem>& key);
/// `x[mask]`: the selected elements in C order (waits for the mask's values).
ndarray mask_get(const ndarray& x, const ndarray& mask);
/// `x[mask] = value` (a scalar or array broadcastable to the selected count).
void mask_set(const ndarray& x, const ndarray& mask, const Operand& value);
/// NumPy's `putmask(x, mask, values)`: values repeat cyclically over x's flat positions.
void putmask(const ndarray& x, const ndarray& mask, const Operand& values);
/// NumPy's `nonzero(x)`: one int64 index array per dimension.
std::vector<ndarray> nonzero(const ndarray& x);
/// Number of true (non-zero) elements.
int64_t count_true(const ndarray& x);

}  // namespace tessera
