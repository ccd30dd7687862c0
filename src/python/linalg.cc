// Products (dot, matmul and `@`, vdot, inner, outer), the comparisons isclose,
// allclose and array_equal, and `_linalg.norm` (re-exported by tessera.numpy.linalg).
#include <nanobind/stl/string.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/linalg.h"

namespace tessera::python {
namespace {

// What a function given `out=` returns: that very object.
nb::object result(nb::handle out, ndarray r) {
  if (out.is_none()) return wrap(std::move(r));
  return nb::borrow(PyTuple_Check(out.ptr()) ? PyTuple_GET_ITEM(out.ptr(), 0) : out.ptr());
}

// Operand types `@` accepts; anything else returns NotImplemented.
bool accepted(nb::handle o) {
  if (is_array(o) || is_scalar(o)) return true;
  static nb::object np_ndarray = numpy().attr("ndarray");
  return PyList_Check(o.ptr()) || PyTuple_Check(o.ptr()) || PyObject_IsInstance(o.ptr(), np_ndarray.ptr()) == 1;
}

NormOrder to_norm_order(nb::handle ord) {
  if (ord.is_none()) return {};
  if (PyUnicode_Check(ord.ptr())) return NormOrder::named(nb::cast<std::string>(ord));
  return NormOrder::number(nb::cast<double>(nb::float_(ord)));
}

std::optional<std::vector<int64_t>> to_axes(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  if (PyTuple_Check(axis.ptr())) {
    std::vector<int64_t> axes;
    for (nb::handle h : axis) axes.push_back(to_int64(h));
    return axes;
  }
  try {
    return std::vector<int64_t>{to_int64(axis)};
  } catch (const std::exception&) {
    throw TypeError("'axis' must be None, an integer or a tuple of integers");
  }
}

}  // namespace

void bind_linalg(nb::module_& m, ArrayClass& cls) {
  m.def("dot", [](nb::handle a, nb::handle b, nb::handle out) {
    ndarray holder;
    return result(out, dot(to_array(a), to_array(b), out_arg(out, holder)));
  }, nb::arg("a"), nb::arg("b"), nb::arg("out") = nb::none());
  m.def("matmul", [](nb::handle a, nb::handle b, nb::handle out) {
    ndarray holder;
    return result(out, matmul(to_array(a), to_array(b), out_arg(out, holder)));
  }, nb::arg("x1"), nb::arg("x2"), nb::arg("out") = nb::none());
  m.def("vdot", [](nb::handle a, nb::handle b) { return vdot(to_array(a), to_array(b)); }, nb::arg("a"), nb::arg("b"));
  m.def("inner", [](nb::handle a, nb::handle b) { return inner(to_array(a), to_array(b)); }, nb::arg("a"), nb::arg("b"));
  m.def("outer", [](nb::handle a, nb::handle b, nb::handle out) {
    ndarray holder;
    return result(out, outer(to_array(a), to_array(b), out_arg(out, holder)));
  }, nb::arg("a"), nb::arg("b"), nb::arg("out") = nb::none());

  m.def("isclose", [](nb::handle a, nb::handle b, nb::handle rtol, nb::handle atol, bool equal_nan) {
    return isclose(to_operand(a), to_operand(b), to_operand(rtol), to_operand(atol), equal_nan);
  }, nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-5, nb::arg("atol") = 1e-8, nb::arg("equal_nan") = false);
  m.def("allclose", [](nb::handle a, nb::handle b, nb::handle rtol, nb::handle atol, bool equal_nan) {
    Operand x = to_operand(a), y = to_operand(b), r = to_operand(rtol), t = to_operand(atol);
    nb::gil_scoped_release release;
    return allclose(x, y, r, t, equal_nan);
  }, nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-5, nb::arg("atol") = 1e-8, nb::arg("equal_nan") = false);
  m.def("array_equal", [](nb::handle a1, nb::handle a2, bool equal_nan) {
    ndarray x, y;
    try {
      x = to_array(a1);
      y = to_array(a2);
    } catch (const std::exception&) {
      return false;  // NumPy: inputs that are not arrays are not equal
    }
    nb::gil_scoped_release release;
    return array_equal(x, y, equal_nan);
  }, nb::arg("a1"), nb::arg("a2"), nb::arg("equal_nan") = false);

  cls.def("dot", [](const ndarray& a, nb::handle b, nb::handle out) {
    ndarray holder;
    return result(out, dot(a, to_array(b), out_arg(out, holder)));
  }, nb::arg("b"), nb::arg("out") = nb::none());
  cls.def("__matmul__", [](const ndarray& a, nb::handle b) -> nb::object {
    if (!accepted(b)) return nb::borrow(Py_NotImplemented);
    return wrap(matmul(a, to_array(b)));
  });
  cls.def("__rmatmul__", [](const ndarray& a, nb::handle b) -> nb::object {
    if (!accepted(b)) return nb::borrow(Py_NotImplemented);
    return wrap(matmul(to_array(b), a));
  });
  cls.def("__imatmul__", [](nb::handle self, nb::handle b) -> nb::object {
    if (!accepted(b)) return nb::borrow(Py_NotImplemented);
    const ndarray& a = nb::cast<const ndarray&>(self);
    matmul(a, to_array(b), &a);
    return nb::borrow(self);
  });

  nb::module_ lin = m.def_submodule("_linalg", "Native functions of tessera.numpy.linalg");
  lin.def("norm", [](nb::handle x, nb::handle ord, nb::handle axis, bool keepdims) {
    const ndarray a = to_array(x);
    const NormOrder o = to_norm_order(ord);
    const auto axes = to_axes(axis);
    nb::gil_scoped_release release;  // singular-value norms wait for LAPACK
    return norm(a, o, axes, keepdims);
  }, nb::arg("x"), nb::arg("ord") = nb::none(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
}

}  // namespace tessera::python
