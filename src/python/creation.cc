// Creation functions: zeros/ones/full/empty and their _like forms, arange, linspace, eye.
#include <nanobind/stl/optional.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"

namespace tessera::python {
namespace {

// What a *_like function copies from its prototype: the shape and dtype of a tessera array, or
// of the array NumPy makes of anything else (a NumPy array or scalar, a Python scalar, a list).
struct Prototype {
  Shape shape;
  DType dtype;
};

Prototype prototype(nb::handle a, nb::handle dtype, nb::handle shape, nb::handle device) {
  check_device(device);
  Prototype p;
  if (is_array(a)) {
    const ndarray& arr = nb::cast<const ndarray&>(a);
    p = {arr.shape(), arr.dtype()};
  } else {
    nb::object host = numpy().attr("asarray")(a);
    p.dtype = to_dtype(host.attr("dtype"));
    p.shape = to_shape(host.attr("shape"));
  }
  if (!dtype.is_none()) p.dtype = to_dtype(dtype);
  if (!shape.is_none()) p.shape = to_shape(shape);
  return p;
}

// The arguments every creation function shares: `device` ("cpu") and `like` (NEP 35).
DType created_dtype(nb::handle dtype, nb::handle device, nb::handle like) {
  check_device(device);
  check_like(like);
  return dtype.is_none() ? DType::Float64 : to_dtype(dtype);
}

Scalar number(nb::handle h) {
  Scalar s = to_scalar(h);
  return s;
}

}  // namespace

void bind_creation(nb::module_& m) {
  auto shape_arg = nb::arg("shape");
  m.def(
      "empty",
      [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device, nb::handle like) {
        order_arg(order);
        return empty_in_order(to_shape(shape), created_dtype(dtype, device, like));
      },
      shape_arg, nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
      nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device, nb::handle like) {
        order_arg(order);
        return zeros(to_shape(shape), created_dtype(dtype, device, like));
      },
      shape_arg, nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
      nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device, nb::handle like) {
        order_arg(order);
        return ones(to_shape(shape), created_dtype(dtype, device, like));
      },
      shape_arg, nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
      nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "full",
      [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle order, nb::handle device, nb::handle like) {
        order_arg(order);
        check_device(device);
        check_like(like);
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
          throw OverflowError(
              "Python int too large to convert to C long" +
              std::string(t ? "" : " (NumPy would make an object array, which tessera does not support)"));
        if (!t && s.is_weak()) t = result_type({Operand(s)});
        return full(to_shape(shape), s, t);
      },
      shape_arg, nb::arg("fill_value").none(), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C",
      nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "empty_like",
      [](nb::handle a, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
        order_arg(order);
        Prototype p = prototype(a, dtype, shape, device);
        return empty_in_order(p.shape, p.dtype);
      },
      nb::arg("prototype"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K",
      nb::arg("subok").none() = true, nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "zeros_like",
      [](nb::handle a, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
        order_arg(order);
        Prototype p = prototype(a, dtype, shape, device);
        return zeros(p.shape, p.dtype);
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K", nb::arg("subok").none() = true,
      nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "ones_like",
      [](nb::handle a, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, nb::handle device) {
        order_arg(order);
        Prototype p = prototype(a, dtype, shape, device);
        return ones(p.shape, p.dtype);
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K", nb::arg("subok").none() = true,
      nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "full_like",
      [](nb::handle a, nb::handle value, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape,
         nb::handle device) {
        order_arg(order);
        Prototype p = prototype(a, dtype, shape, device);
        if (value.is_none()) {  // NumPy stores None as nan (False for bool)
          ndarray r = empty(p.shape, p.dtype);
          assign(r, to_value(value, p.dtype));
          return r;
        }
        const bool text = PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr());
        return full(p.shape, to_scalar(text ? parse_string(value, p.dtype) : value), p.dtype);
      },
      nb::arg("a"), nb::arg("fill_value").none(), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K",
      nb::arg("subok").none() = true, nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "arange",
      [](nb::handle a, nb::handle b, nb::handle c, nb::handle dtype, nb::handle device, nb::handle like) {
        check_device(device);
        check_like(like);
        if (a.is_none() && b.is_none()) throw TypeError("arange() requires stop to be specified.");
        Scalar start, stop, step = Scalar::weak(Scalar(int64_t{1}));
        if (b.is_none()) {
          stop = number(a);
          start = Scalar::weak(Scalar(int64_t{0}));
        } else if (a.is_none()) {
          stop = number(b);
          start = Scalar::weak(Scalar(int64_t{0}));
        } else {
          start = number(a);
          stop = number(b);
        }
        if (!c.is_none()) step = number(c);
        return arange(start, stop, step, to_dtype_opt(dtype));
      },
      nb::arg("start") = nb::none(), nb::arg("stop") = nb::none(), nb::arg("step") = nb::none(),
      nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "linspace",
      [](nb::handle start, nb::handle stop, nb::handle num_arg, bool endpoint, bool retstep, nb::handle dtype, int axis,
         nb::handle device) -> nb::object {
        check_device(device);
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
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true, nb::arg("retstep") = false,
      nb::arg("dtype") = nb::none(), nb::arg("axis") = 0, nb::kw_only(), nb::arg("device") = nb::none());
  m.def(
      "eye",
      [](int64_t n, nb::handle mm, int64_t k, nb::handle dtype, nb::handle, nb::handle device, nb::handle like) {
        std::optional<int64_t> cols;
        if (!mm.is_none()) cols = nb::cast<int64_t>(mm);
        return eye(n, cols, k, created_dtype(dtype, device, like));
      },
      nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(),
      nb::arg("order").none() = "C", nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "identity",
      [](int64_t n, nb::handle dtype, nb::handle like) {
        return eye(n, std::nullopt, 0, created_dtype(dtype, nb::none(), like));
      },
      nb::arg("n"), nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("like") = nb::none());
  m.def(
      "_lazy_copy", [](const ndarray& a) { return lazy_copy(a); }, nb::arg("a"),
      "A copy of `a` (C-contiguous, writeable) that shares a's memory until either of them, or a view\n"
      "of either, is written; then the one written takes fresh memory with a copy of the values and\n"
      "the other keeps the old memory. An ordinary copy when a's memory cannot be shared.");
}

}  // namespace tessera::python
