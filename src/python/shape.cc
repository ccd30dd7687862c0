// Shape manipulation: reshape, ravel, flatten, transpose (.T, .mT), swapaxes, moveaxis,
// squeeze, expand_dims, broadcast_to, atleast_*d, concatenate and the stacks, and `.flat`,
// with NumPy's signatures. Inputs may be tessera arrays, NumPy arrays or nested sequences.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "data/store.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/elementwise.h"
#include "tessera/index.h"
#include "tessera/shape.h"

namespace tessera::python {
namespace {

/// An integer argument, as Python's operator.index takes it (floats are a TypeError).
int64_t index_arg(nb::handle h) { return to_int64(h); }

bool is_index(nb::handle h) { return !PySequence_Check(h.ptr()) && nb::hasattr(h, "__index__"); }

/// An int or a sequence of ints.
std::vector<int64_t> index_list(nb::handle h) {
  if (is_index(h)) return {index_arg(h)};
  std::vector<int64_t> v;
  for (nb::handle x : h) v.push_back(index_arg(x));
  return v;
}

/// Positional ints (`a.reshape(2, 3)`) or one int / sequence (`a.reshape((2, 3))`).
std::vector<int64_t> varargs_list(nb::args args) {
  if (args.size() == 1) return index_list(args[0]);
  std::vector<int64_t> v;
  for (nb::handle x : args) v.push_back(index_arg(x));
  return v;
}

/// The arrays of a join: a sequence of array-likes, or the rows of an array.
std::vector<ndarray> array_sequence(nb::handle seq, const char* what = nullptr) {
  std::vector<ndarray> arrays;
  if (is_array(seq)) {
    const ndarray& a = nb::cast<const ndarray&>(seq);
    if (a.ndim() == 0) throw TypeError("iteration over a 0-d array");
    for (int64_t i = 0; i < a.shape()[0]; ++i) arrays.push_back(view(a, {i}));
    return arrays;
  }
  if (what && !PySequence_Check(seq.ptr()) && !is_numpy_array(seq))
    throw TypeError(std::string("arrays to ") + what + " must be passed as a \"sequence\" type such as list or tuple.");
  for (nb::handle h : seq) arrays.push_back(to_array(h));
  return arrays;
}

const ndarray* out_array(nb::handle out, ndarray& holder) {
  if (out.is_none()) return nullptr;
  if (!is_array(out)) throw TypeError("return arrays must be of ArrayType");
  holder = nb::cast<const ndarray&>(out);
  return &holder;
}

/// One array for a single argument, a tuple for several (NumPy's atleast_*d).
nb::object one_or_tuple(nb::args arys, ndarray (*f)(const ndarray&)) {
  if (arys.size() == 1) return wrap(f(to_array(arys[0])));
  nb::list out;
  for (nb::handle h : arys) out.append(wrap(f(to_array(h))));
  return nb::tuple(out);
}

// `a.reshape(*shape, order='C', copy=None)`.
ndarray reshape_method(const ndarray& a, nb::args shape, nb::handle order, nb::handle cp) {
  if (shape.size() == 0) throw TypeError("reshape() takes exactly 1 argument (0 given)");
  return reshape(a, shape.size() == 1 ? to_shape(shape[0]) : to_shape(shape), order_arg(order), copy_flag(cp));
}

ndarray transpose_call(const ndarray& a, nb::handle axes) {
  if (axes.is_none()) return transpose(a);
  return transpose(a, index_list(axes));
}

ndarray squeeze_call(const ndarray& a, nb::handle axis) {
  if (axis.is_none()) return squeeze(a);
  return squeeze(a, index_list(axis));
}

/// `a.flat`: the array seen as 1-D in C order. Reads index `ravel(a)`; writes reach `a` (through
/// a copy written back when `a` is not contiguous).
struct FlatIter {
  ndarray base;
};

// `a.flat = v`: the values of v, repeated as needed, in C order.
void set_flat(const ndarray& a, nb::handle value) {
  a.store()->require_writeable();
  if (is_array(value) && nb::cast<const ndarray&>(value).size() == a.size()) {
    assign(a, reshape(nb::cast<const ndarray&>(value), a.shape()));
    return;
  }
  nb::object host = numpy().attr("asarray")(value, nb::arg("dtype") = from_dtype(a.dtype())).attr("ravel")();
  if (a.size() == 0) return;
  if (nb::cast<int64_t>(host.attr("size")) == 0) return;  // NumPy leaves the array as it was
  host = numpy().attr("resize")(host, a.size());
  assign(a, reshape(to_array(host), a.shape()));
}

void bind_flatiter(nb::module_& m, ArrayClass& cls) {
  nb::class_<FlatIter>(m, "flatiter")
      .def("__getitem__",
           [](const FlatIter& f, nb::handle key) {
             nb::object flat = wrap(ravel(f.base));
             return nb::object(flat[key]);
           })
      .def("__setitem__",
           [](const FlatIter& f, nb::handle key, nb::handle value) {
             ndarray flat = ravel(f.base);
             nb::object target = wrap(flat);
             nb::object values = nb::borrow(value);
             // An integer (not an array, which also has __index__) sets one element.
             const bool one = PyIndex_Check(key.ptr()) && (is_numpy_scalar(key) || !nb::hasattr(key, "ndim"));
             if (!one && !is_scalar(value)) {
               // As NumPy: the values, flattened, repeat to fill the selection (a.flat[::2] = [1, 2]).
               const ndarray selected = nb::cast<ndarray>(target[key]);
               if (!(is_array(value) && nb::cast<const ndarray&>(value).size() == selected.size())) {
                 nb::object host =
                     numpy().attr("asarray")(value, nb::arg("dtype") = from_dtype(f.base.dtype())).attr("ravel")();
                 if (nb::cast<int64_t>(host.attr("size")) == 0) return;  // NumPy leaves the array as it was
                 values = numpy().attr("resize")(host, selected.size()).attr("reshape")(nb::cast(selected.shape()));
               }
             }
             target[key] = values;
             if (!flat.shares_storage(f.base)) assign(f.base, reshape(flat, f.base.shape()));
           })
      .def("__len__", [](const FlatIter& f) { return f.base.size(); })
      .def("__iter__", [](const FlatIter& f) { return nb::iter(wrap(ravel(f.base))); })
      .def(
          "__array__",
          [](const FlatIter& f, nb::handle dtype, nb::handle) {
            nb::object r = to_numpy(ravel(f.base));
            return dtype.is_none() ? r : r.attr("astype")(dtype);
          },
          nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("copy") = nb::none())
      .def("copy", [](const FlatIter& f) { return flatten(f.base); })
      .def_prop_ro("base", [](const FlatIter& f) { return f.base; })
      .def_prop_ro("shape", [](const FlatIter& f) { return nb::make_tuple(f.base.size()); });
  cls.def_prop_rw(
      "flat", [](const ndarray& a) { return FlatIter{a}; }, &set_flat);
}

}  // namespace

void bind_shape(nb::module_& m, ArrayClass& cls) {
  // ndarray methods and properties.
  cls.def("reshape", &reshape_method, nb::arg("shape"), nb::kw_only(), nb::arg("order").none() = "C",
          nb::arg("copy") = nb::none());
  cls.def(
      "ravel", [](const ndarray& a, nb::handle order) { return ravel(a, order_arg(order)); },
      nb::arg("order").none() = "C");
  cls.def(
      "flatten", [](const ndarray& a, nb::handle order) { return flatten(a, order_arg(order)); },
      nb::arg("order").none() = "C");
  cls.def_prop_ro("T", [](const ndarray& a) { return transpose(a); });
  cls.def_prop_ro("mT", [](const ndarray& a) { return matrix_transpose(a); });
  cls.def(
      "transpose",
      [](const ndarray& a, nb::args axes) {
        if (axes.size() == 0) return transpose(a);
        if (axes.size() == 1) return transpose_call(a, axes[0]);
        return transpose(a, varargs_list(axes));
      },
      nb::arg("axes"));
  cls.def(
      "swapaxes",
      [](const ndarray& a, nb::handle a1, nb::handle a2) { return swapaxes(a, index_arg(a1), index_arg(a2)); },
      nb::arg("axis1"), nb::arg("axis2"));
  cls.def("squeeze", &squeeze_call, nb::arg("axis") = nb::none());
  bind_flatiter(m, cls);

  // Module functions.
  m.def(
      "reshape",
      [](nb::handle a, nb::handle shape, nb::handle order, nb::handle cp) {
        if (shape.is_none()) throw TypeError("reshape() missing 1 required positional argument: 'shape'");
        return reshape(to_array(a), to_shape(shape), order_arg(order), copy_flag(cp));
      },
      nb::arg("a"), nb::arg("shape") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
      nb::arg("copy") = nb::none());
  m.def(
      "ravel", [](nb::handle a, nb::handle order) { return ravel(to_array(a), order_arg(order)); }, nb::arg("a"),
      nb::arg("order").none() = "C");
  auto transpose_fn = [](nb::handle a, nb::handle axes) { return transpose_call(to_array(a), axes); };
  m.def("transpose", transpose_fn, nb::arg("a"), nb::arg("axes") = nb::none());
  m.def("permute_dims", transpose_fn, nb::arg("a"), nb::arg("axes") = nb::none());
  m.def(
      "matrix_transpose", [](nb::handle x) { return matrix_transpose(to_array(x)); }, nb::arg("x"));
  m.def(
      "swapaxes",
      [](nb::handle a, nb::handle a1, nb::handle a2) { return swapaxes(to_array(a), index_arg(a1), index_arg(a2)); },
      nb::arg("a"), nb::arg("axis1"), nb::arg("axis2"));
  m.def(
      "moveaxis",
      [](nb::handle a, nb::handle source, nb::handle destination) {
        return moveaxis(to_array(a), index_list(source), index_list(destination));
      },
      nb::arg("a"), nb::arg("source"), nb::arg("destination"));
  m.def(
      "squeeze", [](nb::handle a, nb::handle axis) { return squeeze_call(to_array(a), axis); }, nb::arg("a"),
      nb::arg("axis") = nb::none());
  m.def(
      "expand_dims", [](nb::handle a, nb::handle axis) { return expand_dims(to_array(a), index_list(axis)); },
      nb::arg("a"), nb::arg("axis"));
  m.def(
      "broadcast_to",
      [](nb::handle a, nb::handle shape, bool) {
        ndarray x = to_array(a);
        ndarray r = broadcast_to(x, index_list(shape));
        // NumPy's broadcast views are read-only: many elements share one memory location.
        r = ndarray(r.store()->reinterpret(r.dtype()));
        r.store()->lock_read_only();
        return r;
      },
      nb::arg("array"), nb::arg("shape"), nb::arg("subok") = false);
  m.def(
      "broadcast_arrays",
      [](nb::args args, bool) {
        std::vector<ndarray> arrays;
        for (nb::handle h : args) arrays.push_back(to_array(h));
        return nb::tuple(nb::cast(broadcast_arrays(arrays)));
      },
      nb::arg("args"), nb::kw_only(), nb::arg("subok") = false);
  m.def(
      "atleast_1d", [](nb::args arys) { return one_or_tuple(arys, &atleast_1d); }, nb::arg("arys"));
  m.def(
      "atleast_2d", [](nb::args arys) { return one_or_tuple(arys, &atleast_2d); }, nb::arg("arys"));
  m.def(
      "atleast_3d", [](nb::args arys) { return one_or_tuple(arys, &atleast_3d); }, nb::arg("arys"));

  auto concatenate_fn = [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype, nb::handle casting) {
    ndarray holder;
    std::optional<int64_t> ax;
    if (!axis.is_none()) ax = index_arg(axis);
    ndarray r =
        concatenate(array_sequence(arrays), ax, out_array(out, holder), to_dtype_opt(dtype), casting_arg(casting));
    return out.is_none() ? wrap(r) : nb::borrow(out);  // `out` itself, as NumPy returns it
  };
  for (const char* name : {"concatenate", "concat"})
    m.def(name, concatenate_fn, nb::arg("arrays"), nb::arg("axis").none() = 0, nb::arg("out") = nb::none(),
          nb::kw_only(), nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def(
      "stack",
      [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype, nb::handle casting) {
        ndarray holder;
        ndarray r = stack(array_sequence(arrays, "stack"), index_arg(axis), out_array(out, holder), to_dtype_opt(dtype),
                          casting_arg(casting));
        return out.is_none() ? wrap(r) : nb::borrow(out);
      },
      nb::arg("arrays"), nb::arg("axis") = 0, nb::arg("out") = nb::none(), nb::kw_only(), nb::arg("dtype") = nb::none(),
      nb::arg("casting") = "same_kind");
  m.def(
      "hstack",
      [](nb::handle tup, nb::handle dtype, nb::handle casting) {
        return hstack(array_sequence(tup, "stack"), to_dtype_opt(dtype), casting_arg(casting));
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def(
      "vstack",
      [](nb::handle tup, nb::handle dtype, nb::handle casting) {
        return vstack(array_sequence(tup, "stack"), to_dtype_opt(dtype), casting_arg(casting));
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
  m.def(
      "dstack", [](nb::handle tup) { return dstack(array_sequence(tup, "stack")); }, nb::arg("tup"));
  m.def(
      "column_stack", [](nb::handle tup) { return column_stack(array_sequence(tup, "stack")); }, nb::arg("tup"));
}

}  // namespace tessera::python
