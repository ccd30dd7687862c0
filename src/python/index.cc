// __getitem__ / __setitem__: basic keys become views, boolean masks go to the
// mask routines, and integer-array (fancy) keys go through NumPy for now.
#include <nanobind/stl/vector.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/elementwise.h"
#include "tessera/index.h"

namespace tessera::python {
namespace {

enum class KeyKind { Basic, Mask, Fancy };

std::optional<int64_t> opt_int(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  if (PyLong_CheckExact(h.ptr())) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (!overflow) return v;
    return overflow > 0 ? INT64_MAX : INT64_MIN;  // Python clamps huge slice bounds too
  }
  return to_int64(h);
}

// An integer index as NumPy reads it: values in [2**63, 2**64) overflow a C long; values
// further out are not valid indices at all.
int64_t index_int(nb::handle h) {
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (!overflow) return v;
    PyLong_AsUnsignedLongLong(h.ptr());
    if (!PyErr_Occurred()) throw OverflowError("Python int too large to convert to C long");
    PyErr_Clear();
    throw IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                     "arrays are valid indices");
  }
  return to_int64(h);
}

bool is_index_array(nb::handle h) {
  return is_array(h) || PyList_Check(h.ptr()) || nb::isinstance(h, numpy().attr("ndarray"));
}

// Parses a key into basic items; reports a mask or fancy key instead when it is one.
KeyKind parse_key(nb::handle key, std::vector<IndexItem>& items, bool& all_ints, nb::object* mask = nullptr) {
  nb::handle k = key;
  std::vector<nb::handle> parts;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(key)) parts.push_back(h);
  } else {
    parts.push_back(k);
  }
  all_ints = true;
  for (nb::handle h : parts) {
    if (h.is_none()) { items.emplace_back(NewAxis{}); all_ints = false; continue; }
    if (h.ptr() == Py_Ellipsis) { items.emplace_back(Ellipsis{}); all_ints = false; continue; }
    if (PySlice_Check(h.ptr())) {
      auto* sl = reinterpret_cast<PySliceObject*>(h.ptr());
      items.emplace_back(Slice{opt_int(sl->start), opt_int(sl->stop), opt_int(sl->step)});
      all_ints = false;
      continue;
    }
    if (PyBool_Check(h.ptr())) return KeyKind::Fancy;
    if (PyLong_Check(h.ptr()) || (!is_index_array(h) && nb::hasattr(h, "__index__"))) {
      items.emplace_back(index_int(h));
      continue;
    }
    if (is_array(h) && nb::cast<const ndarray&>(h).ndim() == 0 && is_integer(nb::cast<const ndarray&>(h).dtype())) {
      items.emplace_back(nb::cast<const ndarray&>(h).item().as_int());
      continue;
    }
    if (is_index_array(h)) {
      if (parts.size() == 1) {
        ndarray a = to_array(h);
        if (a.dtype() == DType::Bool) {
          if (mask) *mask = nb::cast(a);
          return KeyKind::Mask;
        }
      }
      return KeyKind::Fancy;
    }
    throw IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                     "boolean arrays are valid indices");
  }
  return KeyKind::Basic;
}

nb::object fancy_key(nb::handle key) {
  // NumPy gets NumPy index arrays.
  if (PyTuple_Check(key.ptr())) {
    nb::list parts;
    for (nb::handle h : nb::borrow<nb::tuple>(key)) parts.append(is_array(h) ? to_numpy(nb::cast<const ndarray&>(h)) : nb::borrow(h));
    return nb::tuple(parts);
  }
  return is_array(key) ? to_numpy(nb::cast<const ndarray&>(key)) : nb::borrow(key);
}

}  // namespace

void bind_index(nb::module_& m, ArrayClass& cls) {
  cls.def("__getitem__", [](const ndarray& a, nb::handle key) -> nb::object {
    std::vector<IndexItem> items;
    bool all_ints;
    nb::object mask;
    switch (parse_key(key, items, all_ints, &mask)) {
      case KeyKind::Mask: return wrap(mask_get(a, nb::cast<const ndarray&>(mask)));
      case KeyKind::Fancy: {
        nb::object r = to_numpy(a)[fancy_key(key)];
        return is_scalar(r) ? r : wrap(to_array(r));
      }
      case KeyKind::Basic: break;
    }
    ndarray v = view(a, items);
    if (all_ints && v.ndim() == 0) {
      Scalar s;
      {
        nb::gil_scoped_release release;
        s = v.item();
      }
      return to_numpy_scalar(s, v.dtype());
    }
    return wrap(v);
  }, nb::arg("key").none());
  cls.def("__setitem__", [](const ndarray& a, nb::handle key, nb::handle value) {
    std::vector<IndexItem> items;
    bool all_ints;
    nb::object mask;
    switch (parse_key(key, items, all_ints, &mask)) {
      case KeyKind::Mask: mask_set(a, nb::cast<const ndarray&>(mask), to_operand(value)); return;
      case KeyKind::Fancy: {
        nb::object host = to_numpy(a);
        nb::object v = is_array(value) ? to_numpy(nb::cast<const ndarray&>(value)) : nb::borrow(value);
        host[fancy_key(key)] = v;
        assign(a, to_array(host));
        return;
      }
      case KeyKind::Basic: break;
    }
    ndarray target = view(a, items);
    Operand v = to_value(value, a.dtype());
    // A nested sequence deeper than the target is an error (an array's leading 1s are dropped).
    if (v.is_array() && (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) &&
        v.array().ndim() > target.ndim())
      throw ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                       "number of dimension of " + std::to_string(target.ndim()) + ".");
    assign(target, v);
  }, nb::arg("key").none(), nb::arg("value").none());
  cls.def("nonzero", [](const ndarray& a) { return nb::tuple(nb::cast(nonzero(a))); });
  m.def("nonzero", [](nb::handle a) { return nb::tuple(nb::cast(nonzero(to_array(a)))); });
  m.def("putmask", [](const ndarray& a, nb::handle mask, nb::handle values) {
    putmask(a, to_array(mask), to_operand(values));
  }, nb::arg("a"), nb::arg("mask"), nb::arg("values"));
}

}  // namespace tessera::python
