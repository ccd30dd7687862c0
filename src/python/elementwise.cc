// Element-wise functions and the ndarray operators, mapped onto the C++ ufuncs.
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

// Operand types the operators accept; anything else returns NotImplemented.
bool accepted(nb::handle o) {
  if (is_array(o) || is_scalar(o)) return true;
  return PyList_Check(o.ptr()) || PyTuple_Check(o.ptr()) || is_numpy_array(o);
}

// `a == x` / `a != x` for an `x` that holds no numbers (None, a str, an arbitrary object):
// NumPy compares element by element, so every element differs. Objects that take part in
// NumPy's protocols keep their say through NotImplemented. Called as a ufunc (`ufunc_call`),
// equal/not_equal have no loop for a string, as in NumPy.
std::optional<ndarray> compare_with_object(std::string_view name, const ndarray& a, nb::handle x,
                                           bool ufunc_call = false) {
  if (name != "equal" && name != "not_equal") return std::nullopt;
  if (ufunc_call && (PyUnicode_Check(x.ptr()) || PyBytes_Check(x.ptr())))
    throw TypeError("ufunc '" + std::string(name) + "' did not contain a loop with signature matching types (" +
                    dtype_name(a.dtype()) + ", " + Py_TYPE(x.ptr())->tp_name + ")");
  if (!x.is_none() && !PyUnicode_Check(x.ptr()) && !PyBytes_Check(x.ptr())) {
    for (const char* protocol :
         {"__array_ufunc__", "__array_function__", "__array_priority__", "__array__", "__array_interface__"})
      if (nb::hasattr(x, protocol)) return std::nullopt;
  }
  return full(a.shape(), Scalar(name == "not_equal"), DType::Bool);
}

// `a == [1, None, 2]`: a list NumPy can only hold as objects is compared element by element
// by NumPy (tessera holds no object arrays); nullopt when `x` is not such a list.
std::optional<ndarray> compare_with_object_list(std::string_view name, const ndarray& a, nb::handle x) {
  if ((name != "equal" && name != "not_equal") || !(PyList_Check(x.ptr()) || PyTuple_Check(x.ptr())))
    return std::nullopt;
  nb::object host = numpy().attr("asarray")(x);
  if (nb::cast<std::string>(host.attr("dtype").attr("kind")) != "O") return std::nullopt;
  return to_array(numpy().attr(std::string(name).c_str())(to_numpy(a), host));
}

// The operators take their operand positionally and without None (`a + None` is
// NotImplemented, then Python's TypeError), so nanobind calls them through its fastest
// dispatch; `a == None` and `a != None` compare, as in NumPy, so those two accept None.
template <int N>
void def_binary_op(ArrayClass& cls, const char* fwd, const char* rev, const char* inplace, const char* ufunc) {
  std::string name = ufunc;
  auto forward = [name](const ndarray& a, nb::handle b) -> nb::object {
    if (!accepted(b)) {
      if (auto r = compare_with_object(name, a, b)) return wrap(*r);
      return nb::borrow(Py_NotImplemented);
    }
    if (auto r = compare_with_object_list(name, a, b)) return wrap(*r);
    return wrap(binary(name, a, to_operand(b)));
  };
  if (name == "equal" || name == "not_equal") cls.def(fwd, forward, nb::arg("other").none());
  else cls.def(fwd, forward, nb::is_operator());
  if (rev)
    cls.def(
        rev,
        [name](const ndarray& a, nb::handle b) -> nb::object {
          if (!accepted(b)) return nb::borrow(Py_NotImplemented);
          return wrap(binary(name, to_operand(b), a));
        },
        nb::is_operator());
  if (inplace)
    cls.def(
        inplace,
        [name](nb::handle self, nb::handle b) -> nb::object {
          if (!accepted(b)) return nb::borrow(Py_NotImplemented);
          const ndarray& a = nb::cast<const ndarray&>(self);
          binary(name, a, to_operand(b), &a);
          return nb::borrow(self);
        },
        nb::is_operator());
}

// The table's identity ("0", "-1", "True", "") as the Python value (None for "").
nb::object identity_value(std::string_view text) {
  if (text.empty()) return nb::none();
  if (text == "True") return nb::bool_(true);
  if (text == "False") return nb::bool_(false);
  return nb::int_(std::stoll(std::string(text)));
}

// The module function of unary ufunc `name`: sqrt(x, out=None, *, dtype=None, casting='same_kind').
void def_unary_function(nb::module_& m, std::string name) {
  m.def(
      name.c_str(),
      [name](nb::handle x, nb::handle out, nb::handle dtype, nb::handle casting) {
        ndarray holder;
        nb::object out_obj;
        const ndarray* o = out_arg(out, holder, &out_obj);
        return out_result(out_obj, unary(name, to_operand(x), o, to_dtype_opt(dtype), casting_arg(casting)));
      },
      nb::arg("x"), nb::arg("out") = nb::none(), nb::kw_only(), nb::arg("dtype") = nb::none(),
      nb::arg("casting") = "same_kind");
}

// The module function of binary ufunc `name`: add(x1, x2, out=None, *, dtype=None, casting='same_kind').
void def_binary_function(nb::module_& m, std::string name) {
  m.def(
      name.c_str(),
      [name](nb::handle a, nb::handle b, nb::handle out, nb::handle dtype, nb::handle casting) -> nb::object {
        if (out.is_none() && dtype.is_none()) {
          if (is_array(a) && !accepted(b))
            if (auto r = compare_with_object(name, nb::cast<const ndarray&>(a), b, true)) return wrap(*r);
          if (is_array(b) && !accepted(a))
            if (auto r = compare_with_object(name, nb::cast<const ndarray&>(b), a, true)) return wrap(*r);
        }
        ndarray holder;
        nb::object out_obj;
        const ndarray* o = out_arg(out, holder, &out_obj);
        return out_result(out_obj,
                          binary(name, to_operand(a), to_operand(b), o, to_dtype_opt(dtype), casting_arg(casting)));
      },
      nb::arg("x1").none(), nb::arg("x2").none(), nb::arg("out") = nb::none(), nb::kw_only(),
      nb::arg("dtype") = nb::none(), nb::arg("casting") = "same_kind");
}

}  // namespace

void bind_elementwise(nb::module_& m, ArrayClass& cls) {
  def_binary_op<0>(cls, "__add__", "__radd__", "__iadd__", "add");
  def_binary_op<0>(cls, "__sub__", "__rsub__", "__isub__", "subtract");
  def_binary_op<0>(cls, "__mul__", "__rmul__", "__imul__", "multiply");
  def_binary_op<0>(cls, "__truediv__", "__rtruediv__", "__itruediv__", "divide");
  def_binary_op<0>(cls, "__floordiv__", "__rfloordiv__", "__ifloordiv__", "floor_divide");
  def_binary_op<0>(cls, "__mod__", "__rmod__", "__imod__", "remainder");
  def_binary_op<0>(cls, "__pow__", "__rpow__", "__ipow__", "power");
  def_binary_op<0>(cls, "__and__", "__rand__", "__iand__", "bitwise_and");
  def_binary_op<0>(cls, "__or__", "__ror__", "__ior__", "bitwise_or");
  def_binary_op<0>(cls, "__xor__", "__rxor__", "__ixor__", "bitwise_xor");
  def_binary_op<0>(cls, "__lshift__", "__rlshift__", "__ilshift__", "left_shift");
  def_binary_op<0>(cls, "__rshift__", "__rrshift__", "__irshift__", "right_shift");
  def_binary_op<0>(cls, "__eq__", nullptr, nullptr, "equal");
  def_binary_op<0>(cls, "__ne__", nullptr, nullptr, "not_equal");
  def_binary_op<0>(cls, "__lt__", nullptr, nullptr, "less");
  def_binary_op<0>(cls, "__le__", nullptr, nullptr, "less_equal");
  def_binary_op<0>(cls, "__gt__", nullptr, nullptr, "greater");
  def_binary_op<0>(cls, "__ge__", nullptr, nullptr, "greater_equal");
  cls.def("__neg__", [](const ndarray& a) { return unary("negative", a); });
  cls.def("__pos__", [](const ndarray& a) { return unary("positive", a); });
  cls.def("__abs__", [](const ndarray& a) { return unary("absolute", a); });
  cls.def("__invert__", [](const ndarray& a) { return unary("invert", a); });
  cls.def("__divmod__", [](const ndarray& a, nb::handle b) -> nb::object {
    if (!accepted(b)) return nb::borrow(Py_NotImplemented);
    Operand o = to_operand(b);
    return nb::make_tuple(binary("floor_divide", a, o), binary("remainder", a, o));
  });
  cls.def("__rdivmod__", [](const ndarray& a, nb::handle b) -> nb::object {
    if (!accepted(b)) return nb::borrow(Py_NotImplemented);
    Operand o = to_operand(b);
    return nb::make_tuple(binary("floor_divide", o, a), binary("remainder", o, a));
  });
  cls.def("conj", [](const ndarray& a) { return unary("conjugate", a); });
  cls.def("conjugate", [](const ndarray& a) { return unary("conjugate", a); });
  cls.def(
      "clip",
      [](const ndarray& a, nb::handle lo, nb::handle hi, nb::handle out) {
        ndarray holder;
        nb::object out_obj;
        std::optional<Operand> l, h;
        if (!lo.is_none()) l = to_operand(lo);
        if (!hi.is_none()) h = to_operand(hi);
        const ndarray* o = out_arg(out, holder, &out_obj);
        return out_result(out_obj, clip(a, l, h, o));
      },
      nb::arg("min") = nb::none(), nb::arg("max") = nb::none(), nb::arg("out") = nb::none());

  // One module function per ufunc name and alias of the ufunc table:
  // add(x1, x2, out=None, *, dtype=None, casting='same_kind').
  for (const UfuncInfo& u : ufuncs()) {
    if (!u.python) continue;
    std::vector<std::string_view> names{u.name};
    names.insert(names.end(), u.aliases.begin(), u.aliases.end());
    for (std::string_view n : names) {
      if (u.nin == 1) def_unary_function(m, std::string(n));
      else def_binary_function(m, std::string(n));
    }
  }
  // numpy.fix is a function, not a ufunc: trunc without the ufunc keywords.
  m.def(
      "fix",
      [](nb::handle x, nb::handle out) {
        ndarray holder;
        nb::object out_obj;
        const ndarray* o = out_arg(out, holder, &out_obj);
        return out_result(out_obj, unary("trunc", to_operand(x), o));
      },
      nb::arg("x"), nb::arg("out") = nb::none());
  // The ufuncs with two outputs, each output computed by its own element-wise function:
  // frexp(x) = (mantissa, exponent), modf(x) = (fraction, integral part), divmod(a, b) =
  // (floor_divide, remainder). Inputs that share storage with an `out` are copied first.
  struct TwoOutputs {
    const char* name;
    const char* first;
    const char* second;
  };
  static const TwoOutputs two_output_names[] = {{"frexp", "frexp_mantissa", "frexp_exponent"},
                                                {"modf", "modf_fraction", "modf_integral"},
                                                {"divmod", "floor_divide", "remainder"}};
  for (const TwoOutputs& f : two_output_names) {
    const bool is_unary = std::string_view(f.name) != "divmod";
    m.def(("_" + std::string(f.name)).c_str(),
          [f, is_unary](nb::handle a, nb::handle b, nb::handle out1, nb::handle out2, nb::handle dtype,
                        nb::handle casting) {
            ndarray h1, h2;
            nb::object o1_obj, o2_obj;
            const ndarray* o1 = out_arg(out1, h1, &o1_obj);
            const ndarray* o2 = out_arg(out2, h2, &o2_obj);
            auto operand = [&](nb::handle x) {
              Operand o = to_operand(x);
              if (o.is_array() && ((o1 && o.array().shares_storage(*o1)) || (o2 && o.array().shares_storage(*o2))))
                return Operand(copy(o.array()));
              return o;
            };
            const std::optional<DType> dt = to_dtype_opt(dtype);
            const std::string rule = casting_arg(casting);
            if (is_unary) {
              // `dtype=` names every output's type: frexp's exponent is always int32.
              if (dt && std::string_view(f.name) == "frexp")
                throw TypeError("No loop matching the specified signature and casting was found for ufunc frexp");
              Operand x = operand(a);
              ndarray r1 = unary(f.first, x, o1, dt, rule);
              return nb::make_tuple(out_result(o1_obj, r1), out_result(o2_obj, unary(f.second, x, o2, dt, rule)));
            }
            Operand x = operand(a), y = operand(b);
            ndarray r1 = binary(f.first, x, y, o1, dt, rule);
            return nb::make_tuple(out_result(o1_obj, r1), out_result(o2_obj, binary(f.second, x, y, o2, dt, rule)));
          },
          nb::arg("x1").none(), nb::arg("x2").none(), nb::arg("out1").none(), nb::arg("out2").none(),
          nb::arg("dtype").none(), nb::arg("casting").none());
  }
  // The ufunc table, for tessera.numpy's ufunc objects: one dict per ufunc.
  m.def("_ufunc_table", [] {
    nb::list table;
    for (const UfuncInfo& u : ufuncs()) {
      if (!u.python) continue;
      nb::dict d;
      d["name"] = std::string(u.name);
      d["nin"] = u.nin;
      nb::list aliases;
      for (std::string_view a : u.aliases) aliases.append(std::string(a));
      d["aliases"] = aliases;
      d["reorderable"] = u.reorderable;
      d["fold"] = u.fold;
      d["half_in_float"] = u.half_in_float;
      d["at"] = u.at;
      d["identity"] = identity_value(u.identity);
      d["reduce"] = u.reduce.empty()
                        ? nb::none()
                        : nb::object(nb::make_tuple(std::string(u.reduce), u.reduce_dtype, u.reduce_initial));
      d["accumulate"] = u.accumulate.empty() ? nb::none() : nb::object(nb::str(std::string(u.accumulate).c_str()));
      table.append(d);
    }
    return table;
  });
  m.def("_two_output_ufuncs", [] {
    nb::list names;
    for (const TwoOutputs& f : two_output_names) names.append(f.name);
    return names;
  });
  m.def(
      "angle",
      [](nb::handle x, bool deg) {
        Operand o = to_operand(x);
        // NumPy's angle of a real array is arctan2(0, x).
        ndarray r = is_complex(o.dtype()) ? unary("angle", o) : binary("arctan2", Operand(int64_t{0}), o);
        return deg ? binary("multiply", r, Operand(180.0 / M_PI)) : r;
      },
      nb::arg("z"), nb::arg("deg") = false);
  m.def(
      "where",
      [](nb::handle c, nb::handle x, nb::handle y) -> nb::object {
        if (x.is_none() && y.is_none()) return nb::tuple(nb::cast(nonzero(to_array(c))));
        if (x.is_none() || y.is_none()) throw ValueError("either both or neither of x and y should be given");
        return wrap(where(to_operand(c), to_operand(x), to_operand(y)));
      },
      nb::arg("condition"), nb::arg("x") = nb::none(), nb::arg("y") = nb::none());
  m.def(
      "clip",
      [](nb::handle a, nb::handle lo, nb::handle hi, nb::handle out) {
        ndarray holder;
        nb::object out_obj;
        std::optional<Operand> l, h;
        if (!lo.is_none()) l = to_operand(lo);
        if (!hi.is_none()) h = to_operand(hi);
        const ndarray* o = out_arg(out, holder, &out_obj);
        return out_result(out_obj, clip(to_operand(a), l, h, o));
      },
      nb::arg("a"), nb::arg("a_min") = nb::none(), nb::arg("a_max") = nb::none(), nb::arg("out") = nb::none());
  m.def(
      "result_type",
      [](nb::args args) {
        std::vector<Operand> ops;
        for (nb::handle h : args) {
          if (is_array(h) || is_scalar(h)) ops.push_back(to_operand(h));
          else ops.push_back(Operand(Scalar(int64_t{0}).cast(to_dtype(h))));
        }
        return from_dtype(result_type(ops));
      },
      nb::arg("arrays_and_dtypes"));
  m.def(
      "copyto",
      [](nb::handle dst_obj, nb::handle src, nb::handle casting, nb::handle where_) {
        if (!is_array(dst_obj)) {
          nb::object np_copyto = numpy().attr("copyto");
          // A NumPy destination: NumPy copies (a tessera source is read back first).
          nb::object s = is_array(src) ? to_numpy(nb::cast<const ndarray&>(src)) : nb::borrow(src);
          nb::object w = is_array(where_) ? to_numpy(nb::cast<const ndarray&>(where_)) : nb::borrow(where_);
          np_copyto(dst_obj, s, nb::arg("casting") = casting, nb::arg("where") = w);
          return;
        }
        const ndarray& dst = nb::cast<const ndarray&>(dst_obj);
        const std::string rule = casting_arg(casting);
        Operand s = to_operand(src);
        if ((s.is_array() || is_numpy_scalar(src)) && !can_cast(s.dtype(), dst.dtype(), rule))
          throw TypeError("Cannot cast array data from dtype('" + std::string(dtype_name(s.dtype())) + "') to dtype('" +
                          dtype_name(dst.dtype()) + "') according to the rule '" + rule + "'");
        if (where_.ptr() == Py_True) {
          assign(dst, s);
          return;
        }
        ndarray chosen = where(to_operand(where_), s, dst);
        if (chosen.shape() != dst.shape())
          throw ValueError("could not broadcast where mask from shape " +
                           nb::cast<std::string>(nb::str(nb::tuple(nb::cast(chosen.shape())))) + " into shape " +
                           nb::cast<std::string>(nb::str(nb::tuple(nb::cast(dst.shape())))));
        assign(dst, chosen);
      },
      nb::arg("dst"), nb::arg("src"), nb::arg("casting") = "same_kind", nb::arg("where") = true);
}

}  // namespace tessera::python
