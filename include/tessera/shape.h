// Shape manipulation (NumPy's reshape, transpose, squeeze, concatenate, stack, ...).
// Functions that only re-describe the data (transpose, squeeze, expand_dims, broadcast_to and
// reshape where the layout allows) return views sharing the input's storage; joins return a
// new array filled by one deferred copy per input, which the runtime runs in parallel.
// Example: `ndarray m = tessera::reshape(tessera::arange(0, 6, 1), {2, -1});`
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera {

/// NumPy's memory orders: C (row-major), F (column-major), A (F if the array is
/// F-contiguous and not C-contiguous, else C), K (the order of the array's strides).
enum class Order : char { C = 'C', F = 'F', A = 'A', K = 'K' };

/// NumPy's `normalize_axis_index`: `axis` in [0, ndim); AxisError (message prefixed by
/// `prefix`, e.g. "axis1") when out of range.
int normalize_axis_index(int64_t axis, int ndim, std::string_view prefix = {});
/// NumPy's `normalize_axis_tuple`: each axis normalised; ValueError "repeated axis" (naming
/// `argname` when given) on duplicates unless `allow_duplicate`.
std::vector<int> normalize_axis_tuple(const std::vector<int64_t>& axes, int ndim, std::string_view argname = {},
                                      bool allow_duplicate = false);

/// `x.reshape(shape, order)`: one entry may be negative (unknown). A view when the data can be
/// seen that way, else a copy. `copy`: true always copies; false raises ValueError instead of
/// copying. Example: `reshape(x, {-1, 3})`.
ndarray reshape(const ndarray& x, const Shape& shape, Order order = Order::C, std::optional<bool> copy = std::nullopt);
/// `x` seen with `shape` (one entry may be negative) without a copy, or nullopt when the
/// data cannot be seen that way (NumPy's `a.shape = shape`); ValueError for a wrong size.
std::optional<ndarray> reshape_view(const ndarray& x, const Shape& shape);
/// `x.ravel(order)`: a 1-D view when `x` is contiguous in that order, else a copy.
ndarray ravel(const ndarray& x, Order order = Order::C);
/// `x.flatten(order)`: always a new 1-D array.
ndarray flatten(const ndarray& x, Order order = Order::C);

/// `x.T` / `transpose(x)`: the axes reversed (a view).
ndarray transpose(const ndarray& x);
/// `transpose(x, axes)`: a view with axis i of the result being axis `axes[i]` of `x`.
ndarray transpose(const ndarray& x, const std::vector<int64_t>& axes);
/// `x.mT`: the last two axes swapped (ValueError below two dimensions).
ndarray matrix_transpose(const ndarray& x);
/// `swapaxes(x, axis1, axis2)` (a view).
ndarray swapaxes(const ndarray& x, int64_t axis1, int64_t axis2);
/// `moveaxis(x, source, destination)` (a view); other axes keep their order.
ndarray moveaxis(const ndarray& x, const std::vector<int64_t>& source, const std::vector<int64_t>& destination);

/// `squeeze(x)`: every length-1 axis removed (a view).
ndarray squeeze(const ndarray& x);
/// `squeeze(x, axes)`: the given axes removed; ValueError unless each has length 1.
ndarray squeeze(const ndarray& x, const std::vector<int64_t>& axes);
/// `expand_dims(x, axes)`: length-1 axes inserted at `axes` of the result (a view).
ndarray expand_dims(const ndarray& x, const std::vector<int64_t>& axes);
/// `broadcast_to(x, shape)` (a view; broadcast axes have stride 0).
ndarray broadcast_to(const ndarray& x, const Shape& shape);
/// `broadcast_arrays(arrays...)`: views of every array broadcast to their common shape.
std::vector<ndarray> broadcast_arrays(const std::vector<ndarray>& arrays);
/// `atleast_1d/2d/3d(x)`: views with length-1 axes added as NumPy places them.
ndarray atleast_1d(const ndarray& x);
ndarray atleast_2d(const ndarray& x);
ndarray atleast_3d(const ndarray& x);

/// `concatenate(arrays, axis, out, dtype, casting)`: joins along an existing axis (`axis`
/// absent: the arrays are flattened first). The dtype is NumPy's result_type of the arrays,
/// or `dtype`, or `out`'s; each input must cast to it under `casting` ("no", "equiv", "safe",
/// "same_kind", "unsafe").
ndarray concatenate(const std::vector<ndarray>& arrays, std::optional<int64_t> axis = 0, const ndarray* out = nullptr,
                    std::optional<DType> dtype = std::nullopt, std::string_view casting = "same_kind");
/// `stack(arrays, axis, ...)`: joins equal-shaped arrays along a new axis.
ndarray stack(const std::vector<ndarray>& arrays, int64_t axis = 0, const ndarray* out = nullptr,
              std::optional<DType> dtype = std::nullopt, std::string_view casting = "same_kind");
/// `hstack`: along axis 1 (axis 0 for 1-D inputs). `vstack`: rows (inputs at least 2-D).
/// `dstack`: along axis 2 (inputs at least 3-D). `column_stack`: 1-D inputs become columns.
ndarray hstack(const std::vector<ndarray>& arrays, std::optional<DType> dtype = std::nullopt,
               std::string_view casting = "same_kind");
ndarray vstack(const std::vector<ndarray>& arrays, std::optional<DType> dtype = std::nullopt,
               std::string_view casting = "same_kind");
ndarray dstack(const std::vector<ndarray>& arrays);
ndarray column_stack(const std::vector<ndarray>& arrays);

}  // namespace tessera
