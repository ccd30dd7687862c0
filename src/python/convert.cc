#include "python/convert.h"

#include "python/bindings.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>

#include "tessera/creation.h"
#include "tessera/elementwise.h"

namespace tessera::python {

nb::module_& numpy() {
  static nb::module_* np = new nb::module_(nb::module_::import_("numpy"));
  return *np;
}

DType to_dtype(nb::handle obj) {
  nb::object dt = numpy().attr("dtype")(obj);
  std::string name = nb::cast<std::string>(dt.attr("name"));
  try {
    return dtype_from_name(name);
  } catch (const TypeError&) {
    // Named as NumPy prints it: '<U5', 'object', 'datetime64[s]'.
    throw TypeError("tessera does not support dtype " + nb::cast<std::string>(nb::str(dt)) +
                    " (it holds bool, integer, float and complex data)");
  }
}

std::optional<DType> to_dtype_opt(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_dtype(obj);
}

nb::object from_dtype(DType t) {
  static nb::object cache[kNumDTypes];
  nb::object& c = cache[static_cast<int>(t)];
  if (!c.is_valid()) c = numpy().attr("dtype")(dtype_name(t));
  return c;
}

bool is_array(nb::handle obj) { return nb::isinstance<ndarray>(obj); }

bool is_numpy_array(nb::handle obj) {
  static nb::object np_ndarray = numpy().attr("ndarray");
  return PyObject_IsInstance(obj.ptr(), np_ndarray.ptr()) == 1;
}

// NumPy scalars (np.float64 subclasses float) are strong: they keep their dtype.
bool is_numpy_scalar(nb::handle obj) {
  static nb::object generic = numpy().attr("generic");
  return PyObject_IsInstance(obj.ptr(), generic.ptr()) == 1;
}

bool is_scalar(nb::handle obj) {
  if (PyBool_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyFloat_Check(obj.ptr()) || PyComplex_Check(obj.ptr()))
    return true;
  static nb::object generic = numpy().attr("generic");
  return PyObject_IsInstance(obj.ptr(), generic.ptr()) == 1;
}

Scalar to_scalar(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) return Scalar::weak(Scalar(o == Py_True));
  if (PyLong_CheckExact(o) || (PyLong_Check(o) && !is_numpy_scalar(obj))) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) return Scalar::weak(Scalar(static_cast<int64_t>(v)));
    unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      double d = PyLong_AsDouble(o);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        throw OverflowError("Python int too large to convert to C long");
      }
      return Scalar::weak_big_int(d);
    }
    return Scalar::weak(Scalar(static_cast<uint64_t>(u)));
  }
  if (PyFloat_CheckExact(o) || (PyFloat_Check(o) && !is_numpy_scalar(obj)))
    return Scalar::weak(Scalar(PyFloat_AsDouble(o)));
  if (PyComplex_CheckExact(o) || (PyComplex_Check(o) && !is_numpy_scalar(obj)))
    return Scalar::weak(Scalar(std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o))));
  if (!is_numpy_scalar(obj)) throw TypeError(std::string("expected a number, not '") + Py_TYPE(o)->tp_name + "'");
  // A NumPy scalar: a strong scalar of its dtype.
  DType t = to_dtype(obj.attr("dtype"));
  nb::object arr = numpy().attr("asarray")(obj);
  nb::object iface = arr.attr("__array_interface__");
  uintptr_t ptr = nb::cast<uintptr_t>(nb::tuple(iface["data"])[0]);
  return Scalar::from_bytes(t, reinterpret_cast<const void*>(ptr));
}

Order order_arg(nb::handle h) {
  if (h.is_none()) return Order::C;
  std::string s;
  if (PyBytes_Check(h.ptr())) s = std::string(PyBytes_AsString(h.ptr()), static_cast<size_t>(PyBytes_Size(h.ptr())));
  else if (PyUnicode_Check(h.ptr())) s = nb::cast<std::string>(h);
  else throw TypeError("order must be str, not " + nb::cast<std::string>(nb::type_name(h.type())));
  if (s.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(s[0]))) {
      case 'C': return Order::C;
      case 'F': return Order::F;
      case 'A': return Order::A;
      case 'K': return Order::K;
    }
  }
  throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
}

std::string casting_arg(nb::handle casting, const char* dflt) {
  if (casting.is_none()) return dflt;
  if (!PyUnicode_Check(casting.ptr()))
    throw TypeError(std::string("casting must be str, not ") + Py_TYPE(casting.ptr())->tp_name);
  return nb::cast<std::string>(casting);
}

namespace {
// An integer argument as NumPy reads it; a value beyond int64 is an OverflowError, or for a
// dimension ValueError("Maximum allowed dimension exceeded").
int64_t read_int64(nb::handle obj, bool dimension) {
  if ((dimension && PyBool_Check(obj.ptr())) || !PyIndex_Check(obj.ptr()))
    throw TypeError(std::string("'") + Py_TYPE(obj.ptr())->tp_name + "' object cannot be interpreted as an integer");
  nb::object i = nb::steal(PyNumber_Index(obj.ptr()));
  if (!i.is_valid()) nb::raise_python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow && dimension) throw ValueError("Maximum allowed dimension exceeded");
  if (overflow) throw OverflowError("Python int too large to convert to C long");
  return v;
}

int64_t index_value(nb::handle h) { return read_int64(h, true); }
}  // namespace

int64_t to_int64(nb::handle obj) { return read_int64(obj, false); }

Shape to_shape(nb::handle obj) {
  if (PyIndex_Check(obj.ptr()) && !PySequence_Check(obj.ptr())) return Shape{index_value(obj)};
  if (!PySequence_Check(obj.ptr()))
    throw TypeError(std::string("'") + Py_TYPE(obj.ptr())->tp_name + "' object cannot be interpreted as an integer");
  Shape s;
  for (nb::handle h : obj) s.push_back(index_value(h));
  return s;
}

void check_device(nb::handle device) {
  if (device.is_none()) return;
  if (PyUnicode_Check(device.ptr()) && nb::cast<std::string>(device) == "cpu") return;
  throw ValueError("Device not understood. Only \"cpu\" is allowed, but received: " +
                   nb::cast<std::string>(nb::str(device)));
}

void check_like(nb::handle like) {
  if (like.is_none() || nb::hasattr(like, "__array_function__")) return;
  throw TypeError("The `like` argument must be an array-like that implements the `__array_function__` protocol.");
}

std::optional<bool> copy_flag(nb::handle copy) {
  if (copy.is_none()) return std::nullopt;
  static nb::object mode = numpy().attr("_CopyMode");  // ALWAYS and NEVER are True and False
  if (PyObject_IsInstance(copy.ptr(), mode.ptr()) == 1 && copy.equal(mode.attr("IF_NEEDED"))) return std::nullopt;
  const int truth = PyObject_IsTrue(copy.ptr());
  if (truth < 0) throw nb::python_error();
  return truth == 1;
}

ndarray to_array(nb::handle obj, std::optional<DType> dtype) {
  if (is_array(obj)) {
    const ndarray& a = nb::cast<const ndarray&>(obj);
    return dtype && *dtype != a.dtype() ? astype(a, *dtype) : a;
  }
  nb::object arr = dtype ? numpy().attr("asarray")(obj, nb::arg("dtype") = from_dtype(*dtype), nb::arg("order") = "C")
                         : numpy().attr("asarray")(obj, nb::arg("order") = "C");
  // tessera holds native byte order: a byte-swapped NumPy array ('>f8' here) keeps its values.
  if (!nb::cast<bool>(arr.attr("dtype").attr("isnative")))
    arr = arr.attr("astype")(arr.attr("dtype").attr("newbyteorder")("="));
  DType t = to_dtype(arr.attr("dtype"));
  Shape shape;
  for (nb::handle h : nb::tuple(arr.attr("shape"))) shape.push_back(nb::cast<int64_t>(h));
  nb::object iface = arr.attr("__array_interface__");
  uintptr_t ptr = nb::cast<uintptr_t>(nb::tuple(iface["data"])[0]);
  return from_host(reinterpret_cast<const void*>(ptr), shape, t);
}

Operand to_operand(nb::handle obj) {
  if (is_array(obj)) return Operand(nb::cast<const ndarray&>(obj));
  if (is_scalar(obj)) return Operand(to_scalar(obj));
  return Operand(to_array(obj));
}

nb::object parse_string(nb::handle text, DType target) { return from_dtype(target).attr("type")(text); }

Operand to_value(nb::handle value, DType target, bool basic) {
  if (value.is_none()) {
    // What NumPy's setitem makes of None: nan for inexact types, False for bool.
    if (is_inexact(target)) return Operand(Scalar(std::nan("")).cast(target));
    if (target == DType::Bool) return Operand(Scalar(false));
    throw TypeError("int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
  }
  if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) {
    // A string is parsed into the array's dtype as NumPy does ('1.5' -> 1.5, 'x' -> ValueError).
    return to_operand(parse_string(value, target));
  }
  if (is_array(value)) return Operand(nb::cast<const ndarray&>(value));
  if (is_scalar(value)) {
    Scalar s = to_scalar(value);
    if (s.is_weak() || (basic && dtype_kind(target) == DKind::Int)) s = integer_item(s, target);
    return Operand(s);
  }
  if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
    // Numbers in a sequence stored into an integer dtype go through int() one by one, as
    // NumPy's setitem converts them (NaN, infinities and values out of range raise).
    if (is_integer(target)) return Operand(to_array(value, target));
    // Strings in a sequence are parsed into `target` as NumPy does (['1', '2'] -> 1.0, 2.0), and
    // other Python objects cast as NumPy casts them ([1, None] -> 1.0, nan).
    nb::object host = numpy().attr("asarray")(value);
    const char kind = nb::cast<std::string>(host.attr("dtype").attr("kind"))[0];
    if (kind == 'U' || kind == 'S' || kind == 'O') host = host.attr("astype")(from_dtype(target));
    return Operand(to_array(host));
  }
  if (nb::hasattr(value, "__array__") || nb::hasattr(value, "__array_interface__")) return Operand(to_array(value));
  // Anything else is converted as a number of the target's kind would be.
  const std::string type = std::string("'") + Py_TYPE(value.ptr())->tp_name + "'";
  if (is_complex(target)) throw TypeError("complex() first argument must be a string or a number, not " + type);
  if (is_float(target)) throw TypeError("float() argument must be a string or a real number, not " + type);
  throw TypeError("int() argument must be a string, a bytes-like object or a real number, not " + type);
}

const ndarray* out_arg(nb::handle out, ndarray& holder, nb::object* obj) {
  if (out.is_none()) return nullptr;
  nb::handle o = out;
  if (PyTuple_Check(out.ptr())) {
    if (PyTuple_Size(out.ptr()) != 1) throw ValueError("The 'out' tuple must have exactly one entry");
    o = PyTuple_GET_ITEM(out.ptr(), 0);
    if (o.is_none()) return nullptr;
  }
  if (is_numpy_array(o)) {
    if (!nb::cast<bool>(o.attr("flags").attr("writeable"))) throw ValueError("output array is read-only");
    holder = to_array(o);
  } else {
    if (!is_array(o)) throw TypeError("return arrays must be of ArrayType");
    holder = nb::cast<const ndarray&>(o);
  }
  if (obj) *obj = nb::borrow(o);
  return &holder;
}

nb::object out_result(nb::handle out, ndarray r) {
  nb::handle o = out;
  if (o.is_valid() && PyTuple_Check(o.ptr()) && PyTuple_Size(o.ptr()) == 1) o = PyTuple_GET_ITEM(o.ptr(), 0);
  if (!o.is_valid() || o.is_none()) return wrap(std::move(r));
  if (is_numpy_array(o)) numpy().attr("copyto")(o, to_numpy(r), nb::arg("casting") = "unsafe");
  return nb::borrow(o);
}

nb::object to_numpy(const ndarray& a) {
  nb::object shape = nb::cast(a.shape());
  nb::object out = numpy().attr("empty")(shape, nb::arg("dtype") = from_dtype(a.dtype()));
  nb::object iface = out.attr("__array_interface__");
  uintptr_t ptr = nb::cast<uintptr_t>(nb::tuple(iface["data"])[0]);
  {
    nb::gil_scoped_release release;
    a.copy_to(reinterpret_cast<void*>(ptr));
  }
  return out;
}

nb::object to_numpy_scalar(const Scalar& s, DType t) {
  nb::object arr = numpy().attr("empty")(nb::tuple(), nb::arg("dtype") = from_dtype(t));
  nb::object iface = arr.attr("__array_interface__");
  uintptr_t ptr = nb::cast<uintptr_t>(nb::tuple(iface["data"])[0]);
  s.to_bytes(t, reinterpret_cast<void*>(ptr));
  return arr[nb::tuple()];
}

}  // namespace tessera::python
