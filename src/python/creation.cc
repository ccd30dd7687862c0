// Creation functions: zeros/ones/full/empty and their _like forms, arange, linspace, eye.
#include <nanobind/stl/optional.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"

namespace tessera::python {
namespace {

DType like_dtype(const ndarray& a, nb::handle dtype) { return dtype.is_none() ? a.dtype() : to_dtype(dtype); }

Scalar number(nb::handle h) {
  Scalar s = to_scalar(h);
  return s;
}

}  // namespace

void bind_creation(nb::module_& m) {
  auto shape_arg = nb::arg("shape");
  m.def("empty", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    order_arg(order);
    return empty(to_shape(shape), dtype.is_none() ? DType::Float64 : to_dtype(dtype));
  }, shape_arg, nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none());
  m.def("zeros", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    order_arg(order);
    return zeros(to_shape(shape), dtype.is_none() ? DType::Float64 : to_dtype(dtype));
  }, shape_arg, nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none());
  m.def("ones", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    order_arg(order);
    return ones(to_shape(shape), dtype.is_none() ? DType::Float64 : to_dtype(dtype));
  }, shape_arg, nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none());
  m.def("full", [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle order) {
    order_arg(order);
    if (value.is_none() && !dtype.is_none()) {  // NumPy stores None as nan (False for bool)
      const DType t = to_dtype(dtype);
      ndarray a = empty(to_shape(shape), t);
      assign(a, to_value(value, t));
      return a;
    }
    nb::object parsed;  // a string for a numeric dtype, read as NumPy reads it (ValueError for 'abc')
    if ((PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) && !dtype.is_none()) {
      parsed = numpy().attr("asarray")(value).attr("astype")(dtype);
      value = parsed;
    }
    if (is_array(value) || !is_scalar(value)) {
      ndarray v = to_array(value);
      DType t = dtype.is_none() ? v.dtype() : to_dtype(dtype);
      ndarray a = empty(to_shape(shape), t);
      assign(a, v);
      return a;
    }
    Scalar s = to_scalar(value);
    std::optional<DType> t = to_dtype_opt(dtype);
    // NumPy makes an object array of a Python int beyond 64 bits (tessera has none), and
    // refuses one for an integer dtype.
    if (s.is_big_int() && (!t || is_integer(*t) || *t == DType::Bool))
      throw OverflowError("Python int too large to convert to C long" +
                          std::string(t ? "" : " (NumPy would make an object array, which tessera does not support)"));
    if (!t && s.is_weak()) t = result_type({Operand(s)});
    return full(to_shape(shape), s, t);
  }, shape_arg, nb::arg("fill_value").none(), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none());
  m.def("empty_like", [](const ndarray& a, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape) {
    order_arg(order);
    return empty(shape.is_none() ? a.shape() : to_shape(shape), like_dtype(a, dtype));
  }, nb::arg("prototype"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(), nb::arg("subok") = nb::none(),
     nb::arg("shape") = nb::none());
  m.def("zeros_like", [](const ndarray& a, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape) {
    order_arg(order);
    return zeros(shape.is_none() ? a.shape() : to_shape(shape), like_dtype(a, dtype));
  }, nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(), nb::arg("subok") = nb::none(),
     nb::arg("shape") = nb::none());
  m.def("ones_like", [](const ndarray& a, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape) {
    order_arg(order);
    return ones(shape.is_none() ? a.shape() : to_shape(shape), like_dtype(a, dtype));
  }, nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(), nb::arg("subok") = nb::none(),
     nb::arg("shape") = nb::none());
  m.def("full_like", [](const ndarray& a, nb::handle value, nb::handle dtype, nb::handle order, nb::handle,
                        nb::handle shape) {
    order_arg(order);
    const DType t = like_dtype(a, dtype);
    if (value.is_none()) {  // NumPy stores None as nan (False for bool)
      ndarray r = empty(shape.is_none() ? a.shape() : to_shape(shape), t);
      assign(r, to_value(value, t));
      return r;
    }
    const bool text = PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr());
    return full(shape.is_none() ? a.shape() : to_shape(shape), to_scalar(text ? parse_string(value, t) : value), t);
  }, nb::arg("a"), nb::arg("fill_value").none(), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(),
     nb::arg("subok") = nb::none(), nb::arg("shape") = nb::none());
  m.def("arange", [](nb::handle a, nb::handle b, nb::handle c, nb::handle dtype) {
    if (a.is_none() && b.is_none()) throw TypeError("arange() requires stop to be specified.");
    Scalar start, stop, step = Scalar::weak(Scalar(int64_t{1}));
    if (b.is_none()) { stop = number(a); start = Scalar::weak(Scalar(int64_t{0})); }
    else if (a.is_none()) { stop = number(b); start = Scalar::weak(Scalar(int64_t{0})); }
    else { start = number(a); stop = number(b); }
    if (!c.is_none()) step = number(c);
    return arange(start, stop, step, to_dtype_opt(dtype));
  }, nb::arg("start") = nb::none(), nb::arg("stop") = nb::none(), nb::arg("step") = nb::none(), nb::kw_only(),
     nb::arg("dtype") = nb::none());
  m.def("linspace", [](nb::handle start, nb::handle stop, nb::handle num_arg, bool endpoint, bool retstep,
                       nb::handle dtype, int axis) -> nb::object {
    if (PyLong_Check(num_arg.ptr())) {  // NumPy: a count beyond int64 is too large a size
      int overflow = 0;
      PyLong_AsLongLongAndOverflow(num_arg.ptr(), &overflow);
      if (overflow > 0) throw ValueError("Maximum allowed size exceeded");
    }
    const int64_t num = to_int64(num_arg);
    const bool real = PyFloat_Check(start.ptr()) || PyLong_Check(start.ptr());
    const bool real_stop = PyFloat_Check(stop.ptr()) || PyLong_Check(stop.ptr());
    if (!real || !real_stop || axis != 0) {
      // Complex or array end points: NumPy computes them, the result comes back as a tessera array.
      nb::object r = numpy().attr("linspace")(start, stop, num, endpoint, retstep, dtype, axis);
      if (retstep) return nb::make_tuple(to_array(r[0]), r[1]);
      return wrap(to_array(r));
    }
    const double a = nb::cast<double>(nb::float_(start)), b = nb::cast<double>(nb::float_(stop));
    ndarray r = linspace(a, b, num, endpoint, to_dtype_opt(dtype));
    if (!retstep) return wrap(r);
    const int64_t div = endpoint ? num - 1 : num;
    double step = div > 0 ? (b - a) / static_cast<double>(div) : NAN;
    return nb::make_tuple(r, to_numpy_scalar(Scalar(step), DType::Float64));
  }, nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true,
     nb::arg("retstep") = false, nb::arg("dtype") = nb::none(), nb::arg("axis") = 0);
  m.def("eye", [](int64_t n, nb::handle mm, int64_t k, nb::handle dtype) {
    std::optional<int64_t> cols;
    if (!mm.is_none()) cols = nb::cast<int64_t>(mm);
    return eye(n, cols, k, dtype.is_none() ? DType::Float64 : to_dtype(dtype));
  }, nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none());
  m.def("identity", [](int64_t n, nb::handle dtype) {
    return eye(n, std::nullopt, 0, dtype.is_none() ? DType::Float64 : to_dtype(dtype));
  }, nb::arg("n"), nb::arg("dtype") = nb::none());
}

}  // namespace tessera::python
