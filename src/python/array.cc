// The ndarray class: attributes, conversions and the Python protocols
// (len, iteration, repr, __array__). Operators live in elementwise.cc.
#include <sys/mman.h>

#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "data/store.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/index.h"

namespace tessera::python {

nb::object wrap(ndarray a) { return nb::cast(std::move(a)); }

namespace {

nb::object item_of(const ndarray& a, nb::args args) {
  int64_t flat = 0;
  if (args.size() == 0) {
    if (a.size() != 1) throw ValueError("can only convert an array of size 1 to a Python scalar");
  } else if (args.size() == 1) {
    flat = to_int64(args[0]);
    if (flat < -a.size() || flat >= a.size())
      throw IndexError("index " + std::to_string(flat) + " is out of bounds for size " + std::to_string(a.size()));
    if (flat < 0) flat += a.size();
  } else {
    if (static_cast<int>(args.size()) != a.ndim()) throw ValueError("incorrect number of indices for array");
    for (size_t d = 0; d < args.size(); ++d) {
      int64_t i = to_int64(args[d]);
      const int64_t n = a.shape()[d];
      if (i < -n || i >= n)
        throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(d) +
                         " with size " + std::to_string(n));
      flat = flat * n + (i < 0 ? i + n : i);
    }
  }
  Scalar s;
  {
    nb::gil_scoped_release release;
    s = a.item(flat);
  }
  return to_numpy_scalar(s, a.dtype()).attr("item")();
}

Scalar single(const ndarray& a) {
  if (a.ndim() != 0) throw TypeError("only 0-dimensional arrays can be converted to Python scalars");
  nb::gil_scoped_release release;
  return a.item();
}

// Unmaps the memory a summary's NumPy array stands on when the array goes.
struct Reserved {
  void* ptr;
  size_t bytes;
};

// What printing `a` needs, as a NumPy array: all of it when NumPy prints it whole; when NumPy
// summarises it (size above the print threshold), only the `edgeitems` at both ends of every
// axis are read, so only those are copied (and, with several ranks, brought here). They sit
// at their places in a NumPy array of the full shape whose memory is reserved address space
// only: pages that are never written take no memory, and NumPy's printing reads nothing else.
nb::object printable(const ndarray& a) {
  nb::object opts = numpy().attr("get_printoptions")();
  nb::object size = nb::int_(a.size());
  const int summarised = PyObject_RichCompareBool(size.ptr(), nb::object(opts["threshold"]).ptr(), Py_GT);
  if (summarised < 0) throw nb::python_error();
  const int64_t edge = nb::cast<int64_t>(opts["edgeitems"]);
  if (!summarised || a.ndim() == 0 || edge <= 0) return to_numpy(a);
  const size_t bytes = static_cast<size_t>(a.nbytes());
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) return to_numpy(a);
  nb::capsule owner(new Reserved{mem, bytes}, [](void* p) noexcept {
    auto* r = static_cast<Reserved*>(p);
    munmap(r->ptr, r->bytes);
    delete r;
  });
  std::vector<size_t> shape(a.shape().begin(), a.shape().end());
  nb::object full = nb::cast(nb::ndarray<nb::numpy>(mem, shape.size(), shape.data(), owner, nullptr,
                                                    dlpack_dtype(a.dtype())))
                        .attr("view")(from_dtype(a.dtype()));  // NumPy's own type for the dtype (int64 is C long)
  // One block per combination of leading/trailing ends; an axis too short to summarise is
  // taken whole (once).
  const int nd = a.ndim();
  const auto& store = a.store();
  for (int64_t corner = 0; corner < (int64_t{1} << nd); ++corner) {
    detail::StorePtr block = store;
    nb::list where;
    bool skip = false;
    for (int d = 0; d < nd && !skip; ++d) {
      const int64_t n = a.shape()[d];
      const bool trailing = (corner >> d) & 1;
      int64_t lo = 0, hi = n;
      if (n > 2 * edge) {
        lo = trailing ? n - edge : 0;
        hi = trailing ? n : edge;
      } else if (trailing) {
        skip = true;
      }
      block = block->slice(d, lo, hi, 1);
      where.append(nb::slice(nb::int_(lo), nb::int_(hi), nb::none()));
    }
    if (skip) continue;
    full[nb::tuple(where)] = to_numpy(ndarray(block));
  }
  return full;
}

// `obj` as a tessera array of `dtype` under NumPy 2's copy rule: copy=True always copies,
// copy=None only when needed (a dtype change, host data), copy=False never — a NumPy array
// (or what NumPy gives for `obj` without a copy) is used in place when its memory can be, and
// anything that needs a copy is a ValueError, as in NumPy.
nb::object as_array(nb::handle obj, std::optional<DType> dtype, std::optional<bool> cp) {
  static const char* kNoCopy = "Unable to avoid copy while creating an array as requested.";
  // A library's object over tessera arrays (a tessera.pandas Series) hands out its array itself.
  if (!is_array(obj) && nb::hasattr(obj, "__tessera_array__")) {
    nb::object inner = obj.attr("__tessera_array__")();
    if (is_array(inner)) return as_array(inner, dtype, cp);
  }
  if (is_array(obj)) {
    const ndarray& a = nb::cast<const ndarray&>(obj);
    const bool same = !dtype || *dtype == a.dtype();
    if (same && !(cp && *cp)) return nb::borrow(obj);
    if (cp && !*cp) throw ValueError(kNoCopy);
    return wrap(same ? copy(a) : astype(a, *dtype));
  }
  if (cp && !*cp) {
    nb::object host = dtype
                          ? numpy().attr("asarray")(obj, nb::arg("dtype") = from_dtype(*dtype), nb::arg("copy") = false)
                          : numpy().attr("asarray")(obj, nb::arg("copy") = false);
    std::optional<ndarray> a = adopt_numpy(host);
    if (!a) throw ValueError(kNoCopy);
    return wrap(std::move(*a));
  }
  return wrap(to_array(obj, dtype));
}

}  // namespace

void bind_array(nb::module_& m, ArrayClass& cls) {
  cls.def(
         "__init__",
         [](ndarray* self, nb::handle shape, nb::handle dtype) {
           new (self) ndarray(empty(to_shape(shape), dtype.is_none() ? DType::Float64 : to_dtype(dtype)));
         },
         nb::arg("shape"), nb::arg("dtype") = nb::none())
      .def_prop_ro("shape", [](const ndarray& a) { return nb::tuple(nb::cast(a.shape())); })
      .def_prop_ro("ndim", &ndarray::ndim)
      .def_prop_ro("size", &ndarray::size)
      .def_prop_ro("dtype", [](const ndarray& a) { return from_dtype(a.dtype()); })
      .def_prop_ro("itemsize", &ndarray::itemsize)
      .def_prop_ro("nbytes", &ndarray::nbytes)
      .def_prop_ro("strides", [](const ndarray& a) { return nb::tuple(nb::cast(a.strides_bytes())); })
      .def("__len__",
           [](const ndarray& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def("__iter__",
           [](nb::handle self) {
             const ndarray& a = nb::cast<const ndarray&>(self);
             if (a.ndim() == 0) throw TypeError("iteration over a 0-d array");
             nb::list items;
             for (int64_t i = 0; i < a.shape()[0]; ++i) items.append(self[nb::int_(i)]);
             return nb::iter(items);
           })
      .def(
          "__array__",
          [](nb::handle self, nb::handle dtype, nb::handle copy) {
            const ndarray& a = nb::cast<const ndarray&>(self);
            if (copy.ptr() == Py_False) {
              // No copy asked: NumPy's view of the array's memory, as numpy.from_dlpack gives it.
              if (!dtype.is_none() && !numpy().attr("dtype")(dtype).equal(from_dtype(a.dtype())))
                throw ValueError("Unable to avoid copy while creating an array as requested.");
              return numpy().attr("from_dlpack")(self);
            }
            nb::object r = to_numpy(a);
            if (!dtype.is_none()) r = r.attr("astype")(dtype);
            return r;
          },
          nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("copy") = nb::none())
      .def("__repr__", [](const ndarray& a) { return nb::repr(printable(a)); })
      .def("__str__", [](const ndarray& a) { return nb::str(printable(a)); })
      .def("__format__",
           [](const ndarray& a, nb::handle spec) {
             nb::object v = a.ndim() == 0 ? to_numpy(a)[nb::tuple()] : to_numpy(a);
             return v.attr("__format__")(spec);
           })
      .def("item", &item_of)
      .def("tolist", [](const ndarray& a) { return to_numpy(a).attr("tolist")(); })
      .def("__float__",
           [](const ndarray& a) {
             Scalar s = single(a);
             if (is_complex(a.dtype()))
               throw TypeError("float() argument must be a string or a real number, not 'complex'");
             return s.as_double();
           })
      .def("__int__",
           [](const ndarray& a) {
             if (is_complex(a.dtype()))
               throw TypeError("int() argument must be a string, a bytes-like object or a real number, not 'complex'");
             return to_numpy_scalar(single(a), a.dtype()).attr("__int__")();
           })
      .def("__index__",
           [](const ndarray& a) {
             if (!is_integer(a.dtype()))
               throw TypeError("only integer scalar arrays can be converted to a scalar index");
             if (a.ndim() != 0) throw TypeError("only integer scalar arrays can be converted to a scalar index");
             return single(a).as_int();
           })
      .def("__complex__", [](const ndarray& a) { return single(a).as_complex(); })
      .def("__bool__",
           [](const ndarray& a) {
             if (a.size() > 1)
               throw ValueError(
                   "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
             if (a.size() == 0)
               throw ValueError(
                   "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not "
                   "empty.");
             nb::gil_scoped_release release;
             return a.item().as_bool();
           })
      .def("__copy__", [](const ndarray& a) { return copy(a); })
      .def("__deepcopy__", [](const ndarray& a, nb::handle) { return copy(a); })
      .def(
          "copy",
          [](const ndarray& a, nb::handle order) {
            order_arg(order);
            return copy(a);
          },
          nb::arg("order") = nb::none())
      .def(
          "astype",
          [](nb::handle self, nb::handle dtype, nb::handle order, nb::handle casting, bool subok,
             bool cp) -> nb::object {
            const ndarray& a = nb::cast<const ndarray&>(self);
            DType t = to_dtype(dtype);
            order_arg(order);
            std::string rule = casting_arg(casting, "unsafe");
            if (!cp && t == a.dtype() && can_cast(t, t, rule)) return nb::borrow(self);
            return wrap(astype(a, t, rule));
          },
          nb::arg("dtype"), nb::arg("order") = nb::none(), nb::arg("casting") = nb::none(), nb::arg("subok") = true,
          nb::arg("copy") = true)
      .def(
          "fill", [](const ndarray& a, nb::handle v) { assign(a, to_value(v, a.dtype())); }, nb::arg("value").none())
      .def("__getstate__", [](const ndarray& a) { return to_numpy(a); })
      .def("__setstate__", [](ndarray* self, nb::handle state) { new (self) ndarray(to_array(state)); });
  cls.attr("__hash__") = nb::none();
  cls.attr("__array_priority__") = 100;
  m.def(
      "asarray",
      [](nb::handle obj, nb::handle dtype, nb::handle, nb::handle device, nb::handle cp, nb::handle like) {
        check_device(device);
        check_like(like);
        return as_array(obj, to_dtype_opt(dtype), copy_flag(cp));
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(), nb::kw_only(),
      nb::arg("device") = nb::none(), nb::arg("copy") = nb::none(), nb::arg("like") = nb::none());
  m.def(
      "array",
      [](nb::handle obj, nb::handle dtype, nb::handle cp, nb::handle, nb::handle, int ndmin, int ndmax,
         nb::handle like) {
        check_like(like);
        std::optional<bool> c = copy_flag(cp);
        nb::object o = nb::borrow(obj);
        if (ndmax != 0 && !is_array(obj)) {
          // NumPy stops nesting at ndmax dimensions (and checks the bounds); it copies no more than
          // `copy` allows, so what it gives is taken as it is.
          o = numpy().attr("array")(obj, nb::arg("dtype") = dtype, nb::arg("copy") = cp, nb::arg("ndmin") = ndmin,
                                    nb::arg("ndmax") = ndmax);
          if (c && *c) c = std::nullopt;
        } else if (ndmax != 0 && ndmin > ndmax) {
          throw ValueError("ndmin must be <= ndmax (" + std::to_string(ndmax) + ")");
        }
        nb::object r = as_array(o, to_dtype_opt(dtype), c);
        if (nb::cast<const ndarray&>(r).ndim() >= ndmin) return r;
        ndarray a = nb::cast<const ndarray&>(r);
        while (a.ndim() < ndmin) a = view(a, {NewAxis{}, Ellipsis{}});
        return wrap(std::move(a));
      },
      nb::arg("object"), nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("copy").none() = true,
      nb::arg("order").none() = "K", nb::arg("subok").none() = false, nb::arg("ndmin") = 0, nb::arg("ndmax") = 0,
      nb::arg("like") = nb::none());
  m.def("_to_numpy", [](const ndarray& a) { return to_numpy(a); });
}

}  // namespace tessera::python
