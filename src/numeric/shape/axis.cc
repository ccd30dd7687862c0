// Axis arguments: NumPy's normalisation of negative axes and its error messages.
#include <string>

#include "tessera/shape.h"

namespace tessera {

int normalize_axis_index(int64_t axis, int ndim, std::string_view prefix) {
  if (axis < -ndim || axis >= ndim) {
    std::string msg =
        "axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(ndim);
    throw AxisError(prefix.empty() ? msg : std::string(prefix) + ": " + msg);
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axis_tuple(const std::vector<int64_t>& axes, int ndim, std::string_view argname,
                                      bool allow_duplicate) {
  std::vector<int> out;
  out.reserve(axes.size());
  for (int64_t a : axes) out.push_back(normalize_axis_index(a, ndim, argname));
  if (!allow_duplicate) {
    std::vector<bool> seen(static_cast<size_t>(ndim), false);
    for (int a : out) {
      if (seen[a])
        throw ValueError(argname.empty() ? std::string("repeated axis")
                                         : "repeated axis in `" + std::string(argname) + "` argument");
      seen[a] = true;
    }
  }
  return out;
}

}  // namespace tessera
