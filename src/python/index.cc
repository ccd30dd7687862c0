// __getitem__ / __setitem__: basic keys become views, boolean masks go to the
// mask routines, and keys with index arrays (fancy indexing) gather and scatter.
#include <span>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/creation.h"
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
    throw IndexError(
        "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
        "arrays are valid indices");
  }
  return to_int64(h);
}

// A boolean scalar key (Python's or NumPy's bool): a 0-d mask, which adds an axis.
bool is_bool_scalar(nb::handle h) {
  if (PyBool_Check(h.ptr())) return true;
  static nb::object bool_type = numpy().attr("bool");
  return PyObject_IsInstance(h.ptr(), bool_type.ptr()) == 1;
}

bool is_index_array(nb::handle h) { return is_array(h) || PyList_Check(h.ptr()) || is_numpy_array(h); }

// Parses a key into basic items; reports a mask or fancy key instead when it is one.
KeyKind parse_key(nb::handle key, std::vector<IndexItem>& items, bool& all_ints, nb::object* mask = nullptr) {
  // The key's parts: the items of a tuple, else the key itself (no list of them is made).
  const bool tuple = PyTuple_Check(key.ptr());
  PyObject* const single = key.ptr();
  PyObject* const* parts = tuple ? &PyTuple_GET_ITEM(key.ptr(), 0) : &single;
  const size_t nparts = tuple ? static_cast<size_t>(PyTuple_GET_SIZE(key.ptr())) : 1;
  all_ints = true;
  for (nb::handle h : std::span(parts, nparts)) {
    if (h.is_none()) {
      items.emplace_back(NewAxis{});
      all_ints = false;
      continue;
    }
    if (h.ptr() == Py_Ellipsis) {
      items.emplace_back(Ellipsis{});
      all_ints = false;
      continue;
    }
    if (PySlice_Check(h.ptr())) {
      auto* sl = reinterpret_cast<PySliceObject*>(h.ptr());
      items.emplace_back(Slice{opt_int(sl->start), opt_int(sl->stop), opt_int(sl->step)});
      all_ints = false;
      continue;
    }
    if (is_bool_scalar(h)) return KeyKind::Fancy;
    if (PyLong_Check(h.ptr()) || (!is_index_array(h) && nb::hasattr(h, "__index__"))) {
      items.emplace_back(index_int(h));
      continue;
    }
    if (is_array(h) && nb::cast<const ndarray&>(h).ndim() == 0 && is_integer(nb::cast<const ndarray&>(h).dtype())) {
      items.emplace_back(nb::cast<const ndarray&>(h).item().as_int());
      continue;
    }
    if (is_index_array(h)) {
      if (nparts == 1) {
        ndarray a = to_array(h);
        if (a.dtype() == DType::Bool) {
          if (mask) *mask = nb::cast(a);
          return KeyKind::Mask;
        }
      }
      return KeyKind::Fancy;
    }
    throw IndexError(
        "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
        "boolean arrays are valid indices");
  }
  return KeyKind::Basic;
}

// An index array of a key: a tessera array, a NumPy array or a (nested) sequence. An empty
// sequence indexes nothing (NumPy reads it as intp, not float).
ndarray index_array(nb::handle h) {
  if (is_array(h)) return nb::cast<const ndarray&>(h);
  if ((PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) && PySequence_Size(h.ptr()) == 0)
    return empty({0}, DType::Int64);
  return to_array(h);
}

// A key with index arrays, item by item.
std::vector<KeyItem> advanced_key(nb::handle key) {
  std::vector<nb::handle> parts;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(key)) parts.push_back(h);
  } else {
    parts.push_back(key);
  }
  std::vector<KeyItem> items;
  for (nb::handle h : parts) {
    if (h.is_none()) items.emplace_back(IndexItem(NewAxis{}));
    else if (h.ptr() == Py_Ellipsis) items.emplace_back(IndexItem(Ellipsis{}));
    else if (PySlice_Check(h.ptr())) {
      auto* sl = reinterpret_cast<PySliceObject*>(h.ptr());
      items.emplace_back(IndexItem(Slice{opt_int(sl->start), opt_int(sl->stop), opt_int(sl->step)}));
    } else if (is_bool_scalar(h)) {
      items.emplace_back(full({}, Scalar(PyObject_IsTrue(h.ptr()) == 1), DType::Bool));
    } else if (PyLong_Check(h.ptr()) || (!is_index_array(h) && nb::hasattr(h, "__index__"))) {
      items.emplace_back(IndexItem(index_int(h)));
    } else if (is_index_array(h)) {
      items.emplace_back(index_array(h));
    } else {
      throw IndexError(
          "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
          "boolean arrays are valid indices");
    }
  }
  return items;
}

TakeMode take_mode(const std::string& mode) {
  if (mode == "raise") return TakeMode::Raise;
  if (mode == "wrap") return TakeMode::Wrap;
  if (mode == "clip") return TakeMode::Clip;
  throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + mode + "')");
}

UpdateOp update_op(const std::string& op) {
  static const std::pair<const char*, UpdateOp> ops[] = {
      {"add", UpdateOp::Add},          {"subtract", UpdateOp::Subtract}, {"multiply", UpdateOp::Multiply},
      {"divide", UpdateOp::Divide},    {"minimum", UpdateOp::Minimum},   {"maximum", UpdateOp::Maximum},
      {"fmin", UpdateOp::FMin},        {"fmax", UpdateOp::FMax},         {"bitwise_and", UpdateOp::BitAnd},
      {"bitwise_or", UpdateOp::BitOr}, {"bitwise_xor", UpdateOp::BitXor}};
  for (const auto& [name, value] : ops)
    if (op == name) return value;
  throw ValueError("ufunc.at: no in-place update for '" + op + "'");
}

}  // namespace

void bind_index(nb::module_& m, ArrayClass& cls) {
  cls.def(
      "__getitem__",
      [](const ndarray& a, nb::handle key) -> nb::object {
        std::vector<IndexItem> items;
        bool all_ints;
        nb::object mask;
        switch (parse_key(key, items, all_ints, &mask)) {
          case KeyKind::Mask: return wrap(mask_get(a, nb::cast<const ndarray&>(mask)));
          case KeyKind::Fancy: {
            ndarray r = index_get(a, advanced_key(key));
            if (r.ndim() == 0) {
              Scalar s;
              {
                nb::gil_scoped_release release;
                s = r.item();
              }
              return to_numpy_scalar(s, r.dtype());
            }
            return wrap(r);
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
      },
      nb::arg("key").none());
  cls.def(
      "__setitem__",
      [](const ndarray& a, nb::handle key, nb::handle value) {
        std::vector<IndexItem> items;
        bool all_ints;
        nb::object mask;
        switch (parse_key(key, items, all_ints, &mask)) {
          case KeyKind::Mask: mask_set(a, nb::cast<const ndarray&>(mask), to_value(value, a.dtype(), false)); return;
          case KeyKind::Fancy: index_set(a, advanced_key(key), to_value(value, a.dtype(), false)); return;
          case KeyKind::Basic: break;
        }
        ndarray target = view(a, items);
        Operand v = to_value(value, a.dtype());
        // A nested sequence deeper than the target is an error (an array's leading 1s are dropped).
        if (v.is_array() && (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) &&
            v.array().ndim() > target.ndim())
          throw ValueError(
              "setting an array element with a sequence. The requested array would exceed the maximum "
              "number of dimension of " +
              std::to_string(target.ndim()) + ".");
        assign(target, v);
      },
      nb::arg("key").none(), nb::arg("value").none());
  m.def(
      "_take",
      [](const ndarray& a, nb::handle indices, std::optional<int64_t> axis, const std::string& mode) {
        return take(a, index_array(indices), axis, take_mode(mode));
      },
      nb::arg("a"), nb::arg("indices"), nb::arg("axis").none(), nb::arg("mode"));
  m.def(
      "_put",
      [](const ndarray& a, nb::handle indices, nb::handle values, const std::string& mode) {
        put(a, index_array(indices), to_array(values), take_mode(mode));
      },
      nb::arg("a"), nb::arg("indices"), nb::arg("values"), nb::arg("mode"));
  m.def(
      "_index_update",
      [](const ndarray& a, nb::handle key, const ndarray& values, const std::string& op, bool checked) {
        index_update(a, advanced_key(key), values, update_op(op), checked);
      },
      nb::arg("a"), nb::arg("key").none(), nb::arg("values"), nb::arg("op"), nb::arg("checked") = false);
  m.def(
      "_index_apply",
      [](const ndarray& a, nb::handle key, nb::handle values, const std::string& ufunc, nb::handle loop) {
        std::optional<Operand> v;
        if (!values.is_none()) v = to_operand(values);
        const DType t = to_dtype(loop);
        index_apply(a, advanced_key(key), ufunc, v, t);
      },
      nb::arg("a"), nb::arg("key").none(), nb::arg("values").none(), nb::arg("ufunc"), nb::arg("loop"));
  cls.def("nonzero", [](const ndarray& a) { return nb::tuple(nb::cast(nonzero(a))); });
  m.def(
      "nonzero", [](nb::handle a) { return nb::tuple(nb::cast(nonzero(to_array(a)))); }, nb::arg("a"));
  m.def(
      "putmask",
      [](const ndarray& a, nb::handle mask, nb::handle values) {
        putmask(a, to_array(mask), to_value(values, a.dtype(), false));
      },
      nb::arg("a"), nb::arg("mask"), nb::arg("values"));
}

}  // namespace tessera::python
