// Joining arrays: concatenate and the stacks built on it. The result is one new store (or
// `out`); each input is copied into its slice of it by a deferred element-wise copy, so
// nothing waits and the runtime runs the copies side by side.
#include <string>

#include "data/store.h"
#include "numeric/elementwise/ufunc_impl.h"
#include "tessera/elementwise.h"
#include "tessera/shape.h"
#include "tessera/task.h"

namespace tessera {
namespace {

void check_casting_name(std::string_view casting) {
  for (const char* name : {"no", "equiv", "safe", "same_kind", "unsafe"})
    if (casting == name) return;
  throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '" + std::string(casting) +
                   "')");
}

// The joined shape along `axis`, with NumPy's checks and messages.
Shape joined_shape(const std::vector<ndarray>& arrays, int axis) {
  Shape shape = arrays[0].shape();
  const int ndim = arrays[0].ndim();
  for (size_t i = 1; i < arrays.size(); ++i) {
    const ndarray& a = arrays[i];
    if (a.ndim() != ndim)
      throw ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                       std::to_string(ndim) + " dimension(s) and the array at index " + std::to_string(i) + " has " +
                       std::to_string(a.ndim()) + " dimension(s)");
    for (int d = 0; d < ndim; ++d) {
      if (d == axis) {
        shape[d] += a.shape()[d];
      } else if (shape[d] != a.shape()[d]) {
        throw ValueError(
            "all the input array dimensions except for the concatenation axis must match exactly, "
            "but along dimension " +
            std::to_string(d) + ", the array at index 0 has size " + std::to_string(shape[d]) +
            " and the array at index " + std::to_string(i) + " has size " + std::to_string(a.shape()[d]));
      }
    }
  }
  return shape;
}

}  // namespace

ndarray concatenate(const std::vector<ndarray>& arrays, std::optional<int64_t> axis, const ndarray* out,
                    std::optional<DType> dtype, std::string_view casting) {
  check_casting_name(casting);
  if (arrays.empty()) throw ValueError("need at least one array to concatenate");
  if (out && dtype)
    throw TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
  std::vector<ndarray> parts;
  int ax = 0;
  if (!axis) {
    for (const auto& a : arrays) parts.push_back(ravel(a));
  } else {
    if (arrays[0].ndim() == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
    ax = normalize_axis_index(*axis, arrays[0].ndim());
    parts = arrays;
  }
  const Shape shape = joined_shape(parts, ax);

  DType t;
  if (out) {
    t = out->dtype();
  } else if (dtype) {
    t = *dtype;
  } else {
    std::vector<Operand> ops(parts.begin(), parts.end());
    t = result_type(ops);
  }
  for (const auto& a : parts)
    if (!can_cast(a.dtype(), t, casting))
      throw TypeError("Cannot cast array data from " + detail::dtype_repr(a.dtype()) + " to " + detail::dtype_repr(t) +
                      " according to the rule '" + std::string(casting) + "'");
  if (out) {
    if (out->ndim() != static_cast<int>(shape.size())) throw ValueError("Output array has wrong dimensionality");
    if (out->shape() != shape) throw ValueError("Output array is the wrong shape");
  }

  ndarray result = out ? *out : new_array(shape, t);
  int64_t at = 0;
  for (const auto& a : parts) {
    const int64_t n = a.shape()[ax];
    if (n > 0 && a.size() > 0) assign(ndarray(result.store()->slice(ax, at, at + n, 1)), a);
    at += n;
  }
  return result;
}

ndarray stack(const std::vector<ndarray>& arrays, int64_t axis, const ndarray* out, std::optional<DType> dtype,
              std::string_view casting) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  for (const auto& a : arrays)
    if (a.shape() != arrays[0].shape()) throw ValueError("all input arrays must have the same shape");
  const int ax = normalize_axis_index(axis, arrays[0].ndim() + 1);
  std::vector<ndarray> expanded;
  for (const auto& a : arrays) expanded.emplace_back(a.store()->new_axis(ax));
  return concatenate(expanded, ax, out, dtype, casting);
}

ndarray hstack(const std::vector<ndarray>& arrays, std::optional<DType> dtype, std::string_view casting) {
  std::vector<ndarray> parts;
  for (const auto& a : arrays) parts.push_back(atleast_1d(a));
  const int64_t axis = !parts.empty() && parts[0].ndim() == 1 ? 0 : 1;
  return concatenate(parts, axis, nullptr, dtype, casting);
}

ndarray vstack(const std::vector<ndarray>& arrays, std::optional<DType> dtype, std::string_view casting) {
  std::vector<ndarray> parts;
  for (const auto& a : arrays) parts.push_back(atleast_2d(a));
  return concatenate(parts, 0, nullptr, dtype, casting);
}

ndarray dstack(const std::vector<ndarray>& arrays) {
  std::vector<ndarray> parts;
  for (const auto& a : arrays) parts.push_back(atleast_3d(a));
  return concatenate(parts, 2);
}

ndarray column_stack(const std::vector<ndarray>& arrays) {
  std::vector<ndarray> parts;
  for (const auto& a : arrays) parts.push_back(a.ndim() < 2 ? transpose(atleast_2d(a)) : a);
  return concatenate(parts, 1);
}

}  // namespace tessera
