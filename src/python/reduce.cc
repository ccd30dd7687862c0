// Reductions: NumPy's module functions (np.sum, np.argmax, ...) and ndarray methods
// (a.sum(), a.max(), ...) with NumPy's signatures, mapped onto tessera/reduce.h.
#include <string>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "runtime/runtime.h"
#include "tessera/reduce.h"

namespace tessera::python {
namespace {

int64_t to_index(nb::handle h) {
  if (!PyIndex_Check(h.ptr()))
    throw TypeError(std::string("'") + Py_TYPE(h.ptr())->tp_name + "' object cannot be interpreted as an integer");
  return nb::cast<int64_t>(nb::steal(PyNumber_Index(h.ptr())));
}

// axis=None, an int, or a tuple of ints. NumPy's ufunc reductions (sum, max, any, ...) accept
// the int 0 or -1 for a 0-d array and reduce nothing; mean, var and std do not.
Axes to_axes(nb::handle axis, int ndim, bool ufunc) {
  if (axis.is_none()) return std::nullopt;
  std::vector<int64_t> axes;
  if (PyTuple_Check(axis.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(axis)) axes.push_back(to_index(h));
    return axes;
  }
  const int64_t a = to_index(axis);
  if (ufunc && ndim == 0 && (a == 0 || a == -1)) return axes;
  axes.push_back(a);
  return axes;
}

std::optional<int64_t> to_single_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return to_index(axis);
}

std::optional<ndarray> to_out(nb::handle out) {
  ndarray holder;
  if (const ndarray* o = out_arg(out, holder)) return *o;
  return std::nullopt;
}

bool truth(nb::handle h) {
  const int t = PyObject_IsTrue(h.ptr());
  if (t < 0) throw nb::python_error();
  return t == 1;
}

ReduceOptions options(const ndarray& a, bool ufunc, nb::handle axis, nb::handle dtype, nb::handle out,
                      nb::handle keepdims, nb::handle initial, nb::handle where) {
  ReduceOptions o;
  o.axis = to_axes(axis, a.ndim(), ufunc);
  o.dtype = to_dtype_opt(dtype);
  o.out = to_out(out);
  o.keepdims = truth(keepdims);
  // `initial` is read as a value of the reduction's dtype, as NumPy stores it: strings parsed,
  // a sequence or a complex number for a real dtype refused.
  const DType t = o.dtype ? *o.dtype : a.dtype();
  if (PyUnicode_Check(initial.ptr()) || PyBytes_Check(initial.ptr())) {
    o.initial = to_scalar(parse_string(initial, t));
  } else if (!initial.is_none()) {
    if (PyList_Check(initial.ptr()) || PyTuple_Check(initial.ptr())) {
      if (is_inexact(t)) throw ValueError("setting an array element with a sequence.");
      throw TypeError(std::string("int() argument must be a string, a bytes-like object or a real number, not '") +
                      Py_TYPE(initial.ptr())->tp_name + "'");
    }
    if (!is_scalar(initial)) {  // an array: NumPy takes a 0-d one as its element
      nb::object host = numpy().attr("asarray")(initial);
      if (nb::cast<int64_t>(host.attr("ndim")) != 0) throw ValueError("setting an array element with a sequence.");
      o.initial = to_scalar(host.attr("__getitem__")(nb::tuple()));
    } else {
      o.initial = to_scalar(initial);
    }
    if (is_complex(o.initial->dtype()) && !is_complex(t))
      throw TypeError(std::string(is_float(t) ? "float" : "int") +
                      "() argument must be a string or a real number, not 'complex'");
  }
  if (where.ptr() != Py_True) o.where = to_array(where);
  return o;
}

double to_ddof(nb::handle ddof, nb::handle correction) {
  if (correction.is_none()) return nb::cast<double>(nb::float_(ddof));
  if (!(PyLong_Check(ddof.ptr()) && nb::cast<int64_t>(ddof) == 0))
    throw ValueError("ddof and correction can't be provided simultaneously.");
  return nb::cast<double>(nb::float_(correction));
}

template <class F>
ndarray released(F&& f) {
  // The user's line is read while the interpreter lock is held, then kept for the call.
  struct Where {
    explicit Where(std::string w) { detail::Runtime::set_provenance(std::move(w)); }
    ~Where() { detail::Runtime::set_provenance({}); }
  } where(detail::Runtime::provenance());
  nb::gil_scoped_release release;
  return f();
}

using Fold = ndarray (*)(const ndarray&, const ReduceOptions&);

// Defines `name` as a module function of `a` and as an ndarray method.
template <class Fn, class... Extra>
void def_both(nb::module_& m, ArrayClass& cls, const char* name, Fn fn, const Extra&... extra) {
  m.def(name, fn, nb::arg("a"), extra...);
  cls.def(name, fn, extra...);
}

template <Fold F, bool kUfunc = true>
nb::object with_dtype(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims,
                      nb::handle initial, nb::handle where) {
  ndarray x = to_array(a);
  ReduceOptions o = options(x, kUfunc, axis, dtype, out, keepdims, initial, where);
  return out_result(out, released([&] { return F(x, o); }));
}

template <Fold F>
nb::object without_dtype(nb::handle a, nb::handle axis, nb::handle out, nb::handle keepdims, nb::handle initial,
                         nb::handle where) {
  return with_dtype<F>(a, axis, nb::none(), out, keepdims, initial, where);
}

template <Fold F>
nb::object logical(nb::handle a, nb::handle axis, nb::handle out, nb::handle keepdims, nb::handle where) {
  return with_dtype<F>(a, axis, nb::none(), out, keepdims, nb::none(), where);
}

template <Fold F>
nb::object moment(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle ddof, nb::handle keepdims,
                  nb::handle where, nb::handle mean, nb::handle correction) {
  if (!mean.is_none()) {
    // A precomputed mean (NumPy 2's mean=): NumPy's var/std runs, through the fallback.
    nb::object numpy_fn =
        nb::module_::import_("tessera.numpy._fallback").attr("fallback_attribute")(F == &var ? "var" : "std");
    nb::dict kwargs;
    kwargs["where"] = where;
    kwargs["mean"] = mean;
    if (!correction.is_none()) kwargs["correction"] = correction;
    return numpy_fn(a, axis, dtype, out, ddof, keepdims, **kwargs);
  }
  ndarray x = to_array(a);
  ReduceOptions o = options(x, false, axis, dtype, out, keepdims, nb::none(), where);
  o.ddof = to_ddof(ddof, correction);
  return out_result(out, released([&] { return F(x, o); }));
}

nb::object mean_of(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims,
                   nb::handle where) {
  return with_dtype<&mean, false>(a, axis, dtype, out, keepdims, nb::none(), where);
}

using Arg = ndarray (*)(const ndarray&, std::optional<int64_t>, bool, const std::optional<ndarray>&);

template <Arg F>
nb::object arg_of(nb::handle a, nb::handle axis, nb::handle out, nb::handle keepdims) {
  ndarray x = to_array(a);
  std::optional<int64_t> ax = to_single_axis(axis);
  std::optional<ndarray> o = to_out(out);
  const bool keep = truth(keepdims);
  return out_result(out, released([&] { return F(x, ax, keep, o); }));
}

}  // namespace

void bind_reduce(nb::module_& m, ArrayClass& cls) {
  const auto axis = nb::arg("axis") = nb::none();
  const auto dtype = nb::arg("dtype") = nb::none();
  const auto out = nb::arg("out") = nb::none();
  const auto keepdims = nb::arg("keepdims") = false;
  const auto initial = nb::arg("initial") = nb::none();
  const auto where = nb::arg("where") = true;
  const auto ddof = nb::arg("ddof") = 0;
  const auto correction = nb::arg("correction") = nb::none();
  const auto mean_arg = nb::arg("mean") = nb::none();

  def_both(m, cls, "sum", &with_dtype<&sum>, axis, dtype, out, keepdims, initial, where);
  def_both(m, cls, "prod", &with_dtype<&prod>, axis, dtype, out, keepdims, initial, where);
  for (const char* name : {"max", "amax"})
    def_both(m, cls, name, &without_dtype<&amax>, axis, out, keepdims, initial, where);
  for (const char* name : {"min", "amin"})
    def_both(m, cls, name, &without_dtype<&amin>, axis, out, keepdims, initial, where);
  def_both(m, cls, "any", &logical<&any>, axis, out, keepdims, nb::kw_only(), where);
  def_both(m, cls, "all", &logical<&all>, axis, out, keepdims, nb::kw_only(), where);
  def_both(m, cls, "mean", &mean_of, axis, dtype, out, keepdims, nb::kw_only(), where);
  def_both(m, cls, "var", &moment<&var>, axis, dtype, out, ddof, keepdims, nb::kw_only(), where, mean_arg, correction);
  def_both(m, cls, "std", &moment<&stddev>, axis, dtype, out, ddof, keepdims, nb::kw_only(), where, mean_arg,
           correction);
  def_both(m, cls, "argmax", &arg_of<&argmax>, axis, out, nb::kw_only(), keepdims);
  def_both(m, cls, "argmin", &arg_of<&argmin>, axis, out, nb::kw_only(), keepdims);

  for (auto [name, fn] : {std::pair{"cumsum", &cumsum}, std::pair{"cumprod", &cumprod}}) {
    auto scan = [fn](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
      ndarray x = to_array(a);
      const std::optional<int64_t> ax = to_single_axis(axis);
      const std::optional<DType> t = to_dtype_opt(dtype);
      const std::optional<ndarray> o = to_out(out);
      return out_result(out, released([&] { return fn(x, ax, t, o); }));
    };
    m.def(name, scan, nb::arg("a"), axis, dtype, out);
    cls.def(name, scan, axis, dtype, out);
  }

  m.def(
      "_ufunc_fold",
      [](nb::handle a, const std::string& ufunc, const std::string& kind, const std::vector<int64_t>& indices) {
        ndarray x = to_array(a);
        const FoldKind k = kind == "reduce"       ? FoldKind::Reduce
                           : kind == "accumulate" ? FoldKind::Accumulate
                                                  : FoldKind::Reduceat;
        return wrap(released([&] { return ufunc_fold(x, ufunc, k, indices); }));
      },
      nb::arg("a"), nb::arg("ufunc"), nb::arg("kind"), nb::arg("indices"));

  // NumPy 2 returns an intp scalar for a whole-array count: a 0-d array here, so it stays deferred.
  m.def(
      "count_nonzero",
      [](nb::handle a, nb::handle axis, nb::handle keepdims) {
        ndarray x = to_array(a);
        const Axes axes = to_axes(axis, x.ndim(), true);
        const bool keep = truth(keepdims);
        return wrap(released([&] { return count_nonzero(x, axes, keep); }));
      },
      nb::arg("a"), axis, nb::kw_only(), keepdims);
}

}  // namespace tessera::python
