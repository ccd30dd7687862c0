// Views and flags: ndarray.view(), setflags(), flags, the shape and flat setters, and the
// strided views the NumPy fallback makes when NumPy returns a view of an argument.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "data/store.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/shape.h"

namespace tessera::python {
namespace {

using detail::Store;

/// `a.flags`: NumPy's flags object for a tessera array (WRITEABLE can be changed).
struct Flags {
  ndarray array;
};

bool c_contiguous(const ndarray& a) { return a.store()->is_c_contiguous(); }

bool f_contiguous(const ndarray& a) {
  const Store& s = *a.store();
  int64_t step = 1;
  for (int d = 0; d < s.ndim(); ++d) {
    if (s.shape()[d] != 1 && s.strides()[d] != step) return false;
    step *= s.shape()[d];
  }
  return true;
}

bool owndata(const ndarray& a) { return a.store()->base() == nullptr; }

bool flag_value(const ndarray& a, const std::string& key) {
  if (key == "WRITEABLE" || key == "W") return a.store()->writeable();
  if (key == "C_CONTIGUOUS" || key == "C" || key == "CONTIGUOUS") return c_contiguous(a);
  if (key == "F_CONTIGUOUS" || key == "F" || key == "FORTRAN") return f_contiguous(a);
  if (key == "OWNDATA" || key == "O") return owndata(a);
  if (key == "ALIGNED" || key == "A") return true;
  if (key == "WRITEBACKIFCOPY" || key == "X") return false;
  if (key == "FNC") return f_contiguous(a) && !c_contiguous(a);
  if (key == "FORC") return f_contiguous(a) || c_contiguous(a);
  if (key == "BEHAVED" || key == "B") return a.store()->writeable();
  if (key == "CARRAY" || key == "CA") return c_contiguous(a) && a.store()->writeable();
  if (key == "FARRAY" || key == "FA") return f_contiguous(a) && !c_contiguous(a) && a.store()->writeable();
  throw nb::key_error("Unknown flag");
}

void set_flag(const ndarray& a, const std::string& key, bool value) {
  if (key == "WRITEABLE" || key == "W") {
    a.store()->set_writeable(value);
  } else if (key == "ALIGNED" || key == "A") {
    if (!value) throw ValueError("tessera arrays are always aligned; ALIGNED cannot be cleared");
  } else if (key == "WRITEBACKIFCOPY" || key == "X") {
    if (value) throw ValueError("can't set WRITEBACKIFCOPY to True of this array");
  } else {
    throw nb::key_error("Unknown flag");
  }
}

std::string flags_repr(const ndarray& a) {
  auto line = [&](const char* name, bool v) {
    return std::string("  ") + name + " : " + (v ? "True" : "False") + "\n";
  };
  std::string out = line("C_CONTIGUOUS", c_contiguous(a)) + line("F_CONTIGUOUS", f_contiguous(a)) +
                    line("OWNDATA", owndata(a)) + line("WRITEABLE", a.store()->writeable()) + line("ALIGNED", true) +
                    line("WRITEBACKIFCOPY", false);
  return out;
}

// `a.view(dtype)` with another item size: NumPy's values, read-only (tessera cannot alias
// elements of different sizes), so a write fails loudly instead of being lost.
nb::object reinterpreted_copy(const ndarray& a, nb::handle dtype) {
  nb::object host = to_numpy(a).attr("view")(dtype);
  ndarray r = to_array(host);
  r.store()->lock_read_only();
  return wrap(std::move(r));
}

nb::object view_method(nb::handle self, nb::handle dtype, nb::handle type) {
  const ndarray& a = nb::cast<const ndarray&>(self);
  nb::handle what = dtype.is_none() ? type : dtype;
  if (!what.is_none() && PyType_Check(what.ptr()) &&
      PyObject_IsSubclass(what.ptr(), numpy().attr("ndarray").ptr()) == 1)
    throw TypeError(
        "a tessera array cannot be viewed as a numpy.ndarray: numpy.asarray(a) makes a copy and "
        "numpy.from_dlpack(a) shares its memory");
  if (dtype.is_none()) return wrap(ndarray(a.store()->reinterpret(a.dtype())));
  nb::object want = numpy().attr("dtype")(dtype);
  const int64_t size = nb::cast<int64_t>(want.attr("itemsize"));
  if (size == a.itemsize()) return wrap(ndarray(a.store()->reinterpret(to_dtype(want))));
  return reinterpreted_copy(a, want);
}

// `a.shape = s`: NumPy changes the shape in place when no copy is needed.
void set_shape(ndarray& a, nb::handle shape) {
  std::optional<ndarray> v = reshape_view(a, to_shape(shape));
  if (!v)
    throw nb::attribute_error(
        "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with "
        "the desired shape.");
  a = *std::move(v);
}

// NumPy's a.real: a view of the real parts of a complex array, a view of any other array.
ndarray real_of(const ndarray& a) {
  return ndarray(is_complex(a.dtype()) ? a.store()->component(0) : a.store()->reinterpret(a.dtype()));
}

// NumPy's a.imag: a view of the imaginary parts; for other arrays read-only zeros.
ndarray imag_of(const ndarray& a) {
  if (is_complex(a.dtype())) return ndarray(a.store()->component(1));
  ndarray z = zeros(a.shape(), a.dtype());
  z.store()->lock_read_only();
  return z;
}

}  // namespace

void bind_view(nb::module_& m, ArrayClass& cls) {
  nb::class_<Flags>(m, "flagsobj")
      .def("__getitem__", [](const Flags& f, const std::string& key) { return flag_value(f.array, key); })
      .def("__setitem__", [](const Flags& f, const std::string& key, bool v) { set_flag(f.array, key, v); })
      .def("__repr__", [](const Flags& f) { return flags_repr(f.array); })
      .def("__eq__",
           [](const Flags& f, nb::handle o) {
             if (!nb::isinstance<Flags>(o)) return false;
             const Flags& g = nb::cast<const Flags&>(o);
             return flags_repr(f.array) == flags_repr(g.array);
           })
      .def_prop_rw(
          "writeable", [](const Flags& f) { return f.array.store()->writeable(); },
          [](Flags& f, bool v) { f.array.store()->set_writeable(v); })
      .def_prop_rw(
          "aligned", [](const Flags&) { return true; }, [](Flags& f, bool v) { set_flag(f.array, "ALIGNED", v); })
      .def_prop_rw(
          "writebackifcopy", [](const Flags&) { return false; },
          [](Flags& f, bool v) { set_flag(f.array, "WRITEBACKIFCOPY", v); })
      .def_prop_ro("c_contiguous", [](const Flags& f) { return c_contiguous(f.array); })
      .def_prop_ro("contiguous", [](const Flags& f) { return c_contiguous(f.array); })
      .def_prop_ro("f_contiguous", [](const Flags& f) { return f_contiguous(f.array); })
      .def_prop_ro("fortran", [](const Flags& f) { return f_contiguous(f.array); })
      .def_prop_ro("owndata", [](const Flags& f) { return owndata(f.array); })
      .def_prop_ro("fnc", [](const Flags& f) { return flag_value(f.array, "FNC"); })
      .def_prop_ro("forc", [](const Flags& f) { return flag_value(f.array, "FORC"); })
      .def_prop_ro("behaved", [](const Flags& f) { return flag_value(f.array, "BEHAVED"); })
      .def_prop_ro("carray", [](const Flags& f) { return flag_value(f.array, "CARRAY"); })
      .def_prop_ro("farray", [](const Flags& f) { return flag_value(f.array, "FARRAY"); });
  cls.def_prop_ro("flags", [](const ndarray& a) { return Flags{a}; });
  cls.def(
      "setflags",
      [](const ndarray& a, nb::handle write, nb::handle align, nb::handle uic) {
        if (!uic.is_none() && nb::cast<bool>(uic)) throw ValueError("cannot set WRITEBACKIFCOPY flag to True");
        if (!align.is_none()) set_flag(a, "ALIGNED", nb::cast<bool>(align));
        if (!write.is_none()) a.store()->set_writeable(nb::cast<bool>(write));
      },
      nb::arg("write") = nb::none(), nb::arg("align") = nb::none(), nb::arg("uic") = nb::none());
  cls.def_prop_ro("base", [](const ndarray& a) -> nb::object {
    if (!a.store()->base()) return nb::none();
    return wrap(ndarray(a.store()->base()));
  });
  cls.def_prop_rw("real", &real_of, [](const ndarray& a, nb::handle v) { assign(real_of(a), to_operand(v)); });
  cls.def_prop_rw("imag", &imag_of, [](const ndarray& a, nb::handle v) {
    if (!is_complex(a.dtype())) throw TypeError("array does not have imaginary part to set");
    assign(imag_of(a), to_operand(v));
  });
  m.def(
      "real", [](nb::handle x) { return real_of(to_array(x)); }, nb::arg("val"));
  m.def(
      "imag", [](nb::handle x) { return imag_of(to_array(x)); }, nb::arg("val"));
  // `a.dtype = t`: the same bytes seen as another dtype of the same item size (NumPy also
  // allows other sizes by reshaping the last axis; tessera views cannot split items).
  cls.def_prop_rw(
      "dtype", [](const ndarray& a) { return from_dtype(a.dtype()); },
      [](ndarray& a, nb::handle dtype) {
        nb::object want = numpy().attr("dtype")(dtype);
        if (nb::cast<int64_t>(want.attr("itemsize")) != a.itemsize())
          throw TypeError("tessera can change an array's dtype in place only to one of the same item size (" +
                          std::to_string(a.itemsize()) + " bytes), not to " + nb::cast<std::string>(nb::str(want)) +
                          "; use a.view(dtype) for NumPy's values");
        a = ndarray(a.store()->reinterpret(to_dtype(want)));
      });
  cls.def("view", &view_method, nb::arg("dtype") = nb::none(), nb::arg("type") = nb::none());
  cls.def_prop_rw(
      "shape", [](const ndarray& a) { return nb::tuple(nb::cast(a.shape())); }, &set_shape);

  // For the NumPy fallback: where a result of NumPy is a view of an argument's copy, the
  // fallback gives back this view of the argument itself (offset and strides in elements of
  // the argument's storage), so writes through it reach the argument.
  m.def("_storage_layout", [](const ndarray& a) {
    const Store& s = *a.store();
    // In the store's own units (a.real of a complex array counts half-items).
    return nb::make_tuple(s.offset(), nb::tuple(nb::cast(s.strides())), s.storage()->bytes() / a.itemsize());
  });
  m.def("_storage_id", [](const ndarray& a) {
    // Arrays share memory only when they are views of one storage.
    return reinterpret_cast<uintptr_t>(a.store()->storage().get());
  });
  m.def("_strided_view",
        [](const ndarray& a, int64_t offset, const Shape& shape, const Shape& strides, bool writeable) {
          const Store& s = *a.store();
          int64_t lo = offset, hi = offset;
          for (size_t d = 0; d < shape.size(); ++d) {
            if (shape[d] == 0) {
              lo = 0;
              hi = 0;
              break;
            }
            (strides[d] < 0 ? lo : hi) += strides[d] * (shape[d] - 1);
          }
          if (lo < 0 || hi >= s.storage()->bytes() / a.itemsize())
            throw ValueError("_strided_view: the view reaches outside the array's storage");
          detail::StorePtr v = s.strided(offset, shape, strides);
          if (!writeable) v->lock_read_only();
          return ndarray(std::move(v));
        });
  // ndarray.resize: the array object takes over another array's storage.
  m.def("_rebind", [](ndarray& a, const ndarray& b) { a = b; });
  m.def("_lock_read_only", [](const ndarray& a) { a.store()->lock_read_only(); });
}

}  // namespace tessera::python
