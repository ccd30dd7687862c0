// Sorting: np.sort, np.argsort and the ndarray methods sort (in place) and argsort, with
// NumPy's signatures, mapped onto tessera/sort.h; `_searchsorted` for tessera.numpy's searchsorted.
#include <cctype>
#include <string>

#include <nanobind/stl/string.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/sort.h"

namespace tessera::python {
namespace {

// Whether `kind`/`stable` ask for a stable sort; NumPy's errors for bad ones and for `order`.
bool stable_sort(nb::handle kind, nb::handle order, nb::handle stable) {
  if (!order.is_none()) throw ValueError("Cannot specify order when the array has no fields.");
  if (!stable.is_none()) {
    if (!kind.is_none())
      throw ValueError("`kind` and `stable` parameters can't be provided at the same time. Use only one of them.");
    return PyObject_IsTrue(stable.ptr()) == 1;
  }
  if (kind.is_none()) return false;
  if (!PyUnicode_Check(kind.ptr())) throw TypeError("sort kind must be str or None");
  const std::string k = nb::cast<std::string>(kind);
  if (!k.empty()) {
    switch (std::tolower(static_cast<unsigned char>(k[0]))) {
      case 'q':
      case 'h': return false;
      case 'm':
      case 's': return true;
      default: break;
    }
  }
  throw ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + k + "')");
}

std::optional<int64_t> to_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  if (!PyIndex_Check(axis.ptr()))
    throw TypeError(std::string("'") + Py_TYPE(axis.ptr())->tp_name + "' object cannot be interpreted as an integer");
  return nb::cast<int64_t>(nb::steal(PyNumber_Index(axis.ptr())));
}

}  // namespace

void bind_sort(nb::module_& m, ArrayClass& cls) {
  const auto axis = nb::arg("axis").none() = -1;
  const auto kind = nb::arg("kind").none() = nb::none();
  const auto order = nb::arg("order").none() = nb::none();
  const auto stable = nb::arg("stable").none() = nb::none();
  m.def(
      "sort",
      [](nb::handle a, nb::handle ax, nb::handle k, nb::handle o, nb::handle s) {
        const bool st = stable_sort(k, o, s);
        return wrap(sort(to_array(a), to_axis(ax), st));
      },
      nb::arg("a"), axis, kind, order, nb::kw_only(), stable);
  m.def(
      "argsort",
      [](nb::handle a, nb::handle ax, nb::handle k, nb::handle o, nb::handle s) {
        stable_sort(k, o, s);
        return wrap(argsort(to_array(a), to_axis(ax)));
      },
      nb::arg("a"), axis, kind, order, nb::kw_only(), stable);
  cls.def(
      "sort",
      [](const ndarray& self, nb::handle ax, nb::handle k, nb::handle o, nb::handle s) {
        const bool st = stable_sort(k, o, s);
        if (ax.is_none()) throw TypeError("'NoneType' object cannot be interpreted as an integer");
        sort_in_place(self, *to_axis(ax), st);
      },
      axis, kind, order, nb::kw_only(), stable);
  m.def(
      "_searchsorted",
      [](nb::handle a, nb::handle v, bool right) { return wrap(searchsorted(to_array(a), to_array(v), right)); },
      nb::arg("a"), nb::arg("v"), nb::arg("right"));
  cls.def(
      "argsort",
      [](const ndarray& self, nb::handle ax, nb::handle k, nb::handle o, nb::handle s) {
        stable_sort(k, o, s);
        return wrap(argsort(self, to_axis(ax)));
      },
      axis, kind, order, nb::kw_only(), stable);
}

}  // namespace tessera::python
