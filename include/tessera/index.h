// Indexing: basic indexing (ints, slices with any step, Ellipsis, new axes)
// returns views; boolean masks read and write selected elements.
#pragma once

#include <optional>
#include <string>
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

// Advanced ("fancy") indexing: a key holding index arrays. An integer array gives positions
// along one axis (negative ones count from the end); a boolean array stands for the
// positions of its true elements along as many axes as it has. The index arrays (and any
// integer in the same key) broadcast together; their shape takes the place of their axes in
// the result when they are next to each other in the key, else it comes first (NumPy's
// rules). Reads are gathers and writes scatters, each a parallel task; out-of-range indices
// raise IndexError at the call (which waits for index arrays still being computed).

/// One item of an advanced key: a basic item or an index array.
using KeyItem = std::variant<IndexItem, ndarray>;

/// `x[key]`: a new array.
ndarray index_get(const ndarray& x, const std::vector<KeyItem>& key);
/// `x[key] = value` (broadcast to the shape of x[key], cast unsafely to x's dtype). Where
/// several indices name one element, the last one in C order wins.
void index_set(const ndarray& x, const std::vector<KeyItem>& key, const Operand& value);

/// The operations `ufunc.at` applies in place.
enum class UpdateOp { Add, Subtract, Multiply, Divide, Minimum, Maximum, FMin, FMax, BitAnd, BitOr, BitXor };
/// NumPy's `ufunc.at(x, key, values)`: x[key] = x[key] (op) values, applied once per index,
/// repeated indices included, in C order (so results are NumPy's to the bit). `values`
/// must already have x's dtype. `checked`: the caller knows every index is in range (no check).
void index_update(const ndarray& x, const std::vector<KeyItem>& key, const Operand& values, UpdateOp op,
                  bool checked = false);
/// NumPy's `ufunc.at` for any ufunc with a loop in dtype `loop` (NumPy's loop for x's dtype
/// and the values'): x[key] = op(x[key]) for a unary ufunc (no `values`), else
/// op(x[key], values), computed in `loop` (values cast to it) and cast back unsafely to x's
/// dtype, once per index, repeated indices included, in C order. TypeError without such a loop.
void index_apply(const ndarray& x, const std::vector<KeyItem>& key, const std::string& ufunc,
                 const std::optional<Operand>& values, DType loop);

/// How `take` treats indices out of range: an IndexError, wrapped around, or clipped.
enum class TakeMode { Raise, Wrap, Clip };
/// NumPy's `take(a, indices, axis, mode)` (the flattened `a` when there is no axis).
ndarray take(const ndarray& a, const ndarray& indices, std::optional<int64_t> axis = std::nullopt,
             TakeMode mode = TakeMode::Raise);
/// NumPy's `put(a, indices, values, mode)`: a.flat[indices] = values, the values flattened and
/// repeated (or cut) to one per index.
void put(const ndarray& a, const ndarray& indices, const ndarray& values, TakeMode mode = TakeMode::Raise);

}  // namespace tessera
