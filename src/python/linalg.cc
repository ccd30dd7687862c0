// Products (dot, matmul and `@`, vdot, inner, outer, vecdot, matvec, vecmat), the
// comparisons isclose, allclose and array_equal, and the `_linalg` submodule: norms,
// factorizations and solvers (re-exported by tessera.numpy.linalg, which makes NumPy's
// named tuples of the tuples returned here).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/linalg.h"

namespace tessera::python {
namespace {

// Operand types `@` accepts; anything else returns NotImplemented.
bool accepted(nb::handle o) {
  if (is_array(o) || is_scalar(o)) return true;
  return PyList_Check(o.ptr()) || PyTuple_Check(o.ptr()) || is_numpy_array(o);
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

nb::tuple tuple_of(const std::vector<ndarray>& arrays) {
  nb::list l;
  for (const ndarray& a : arrays) l.append(wrap(a));
  return nb::tuple(l);
}

std::optional<ndarray> array_opt(nb::handle x) {
  if (x.is_none()) return std::nullopt;
  return to_array(x);
}

// The factorizations and solvers of numpy.linalg; each releases the GIL while it waits.
void bind_solvers(nb::module_& lin) {
  lin.def(
      "solve",
      [](nb::handle a, nb::handle b) {
        const ndarray x = to_array(a), y = to_array(b);
        nb::gil_scoped_release release;
        return solve(x, y);
      },
      nb::arg("a"), nb::arg("b"));
  lin.def(
      "inv",
      [](nb::handle a) {
        const ndarray x = to_array(a);
        nb::gil_scoped_release release;
        return inv(x);
      },
      nb::arg("a"));
  lin.def(
      "det", [](nb::handle a) { return det(to_array(a)); }, nb::arg("a"));
  lin.def(
      "slogdet",
      [](nb::handle a) {
        auto [sign, logdet] = slogdet(to_array(a));
        return nb::make_tuple(wrap(sign), wrap(logdet));
      },
      nb::arg("a"));
  lin.def(
      "cholesky",
      [](nb::handle a, bool upper) {
        const ndarray x = to_array(a);
        nb::gil_scoped_release release;
        return cholesky(x, upper);
      },
      nb::arg("a"), nb::arg("upper") = false);
  lin.def(
      "qr", [](nb::handle a, const std::string& mode) { return tuple_of(qr(to_array(a), mode)); }, nb::arg("a"),
      nb::arg("mode") = "reduced");
  lin.def(
      "svd",
      [](nb::handle a, bool full_matrices, bool compute_uv, bool hermitian) {
        const ndarray x = to_array(a);
        std::vector<ndarray> r;
        {
          nb::gil_scoped_release release;
          r = svd(x, full_matrices, compute_uv, hermitian);
        }
        return tuple_of(r);
      },
      nb::arg("a"), nb::arg("full_matrices") = true, nb::arg("compute_uv") = true, nb::arg("hermitian") = false);
  lin.def(
      "svdvals",
      [](nb::handle a) {
        const ndarray x = to_array(a);
        nb::gil_scoped_release release;
        return svdvals(x);
      },
      nb::arg("x"));
  lin.def(
      "eig",
      [](nb::handle a, bool vectors) {
        const ndarray x = to_array(a);
        std::pair<ndarray, ndarray> r;
        {
          nb::gil_scoped_release release;
          if (vectors) r = eig(x);
          else r.first = eigvals(x);
        }
        return vectors ? nb::make_tuple(wrap(r.first), wrap(r.second)) : nb::make_tuple(wrap(r.first));
      },
      nb::arg("a"), nb::arg("vectors") = true);
  lin.def(
      "eigh",
      [](nb::handle a, const std::string& uplo, bool vectors) {
        const ndarray x = to_array(a);
        std::pair<ndarray, ndarray> r;
        {
          nb::gil_scoped_release release;
          if (vectors) r = eigh(x, uplo);
          else r.first = eigvalsh(x, uplo);
        }
        return vectors ? nb::make_tuple(wrap(r.first), wrap(r.second)) : nb::make_tuple(wrap(r.first));
      },
      nb::arg("a"), nb::arg("UPLO") = "L", nb::arg("vectors") = true);
  lin.def(
      "lstsq",
      [](nb::handle a, nb::handle b, std::optional<double> rcond) {
        const ndarray x = to_array(a), y = to_array(b);
        LstsqResult r;
        {
          nb::gil_scoped_release release;
          r = lstsq(x, y, rcond);
        }
        return nb::make_tuple(wrap(r.x), wrap(r.residuals), numpy().attr("int32")(r.rank), wrap(r.s));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rcond") = nb::none());
  lin.def(
      "pinv",
      [](nb::handle a, nb::handle rcond, bool hermitian) {
        const ndarray x = to_array(a);
        std::optional<Operand> rc;
        if (!rcond.is_none()) rc = to_operand(rcond);
        nb::gil_scoped_release release;
        return pinv(x, rc, hermitian);
      },
      nb::arg("a"), nb::arg("rcond") = nb::none(), nb::arg("hermitian") = false);
  lin.def(
      "matrix_rank",
      [](nb::handle a, nb::handle tol, bool hermitian, nb::handle rtol) -> nb::object {
        const ndarray x = to_array(a);
        const auto t = array_opt(tol), r = array_opt(rtol);
        ndarray rank;
        {
          nb::gil_scoped_release release;
          rank = matrix_rank(x, t, hermitian, r);
        }
        if (x.ndim() < 2) return nb::int_(rank.item().as_int());  // NumPy: a Python int
        return wrap(rank);
      },
      nb::arg("A"), nb::arg("tol") = nb::none(), nb::arg("hermitian") = false, nb::arg("rtol") = nb::none());
  lin.def(
      "cond",
      [](nb::handle x, nb::handle p) {
        const ndarray a = to_array(x);
        const NormOrder o = to_norm_order(p);
        nb::gil_scoped_release release;
        return cond(a, o);
      },
      nb::arg("x"), nb::arg("p") = nb::none());
  lin.def(
      "matrix_power",
      [](nb::handle a, nb::handle n) {
        int64_t k;
        try {
          k = to_int64(n);
        } catch (const TypeError&) {
          throw TypeError("exponent must be an integer");
        }
        const ndarray x = to_array(a);
        nb::gil_scoped_release release;
        return matrix_power(x, k);
      },
      nb::arg("a"), nb::arg("n"));
  lin.def(
      "multi_dot",
      [](nb::handle arrays, nb::handle out) {
        std::vector<ndarray> xs;
        for (nb::handle h : arrays) xs.push_back(to_array(h));
        ndarray holder;
        return out_result(out, multi_dot(xs, out_arg(out, holder)));
      },
      nb::arg("arrays"), nb::kw_only(), nb::arg("out") = nb::none());
  lin.def(
      "tensorsolve",
      [](nb::handle a, nb::handle b, nb::handle axes) {
        std::optional<std::vector<int64_t>> ax;
        if (!axes.is_none()) {
          ax.emplace();
          for (nb::handle h : axes) ax->push_back(to_int64(h));
        }
        const ndarray x = to_array(a), y = to_array(b);
        nb::gil_scoped_release release;
        return tensorsolve(x, y, ax);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axes") = nb::none());
  lin.def(
      "tensorinv",
      [](nb::handle a, nb::handle ind) {
        const ndarray x = to_array(a);
        const int64_t i = to_int64(ind);
        nb::gil_scoped_release release;
        return tensorinv(x, i);
      },
      nb::arg("a"), nb::arg("ind") = 2);

  lin.def(
      "vector_norm",
      [](nb::handle x, nb::handle axis, bool keepdims, nb::handle ord) {
        const ndarray a = to_array(x);
        const auto axes = to_axes(axis);
        const NormOrder o = ord.is_none() ? NormOrder{} : to_norm_order(ord);
        return vector_norm(a, axes, keepdims, o);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false, nb::arg("ord") = 2);
  lin.def(
      "matrix_norm",
      [](nb::handle x, bool keepdims, nb::handle ord) {
        const ndarray a = to_array(x);
        const NormOrder o = to_norm_order(ord);
        nb::gil_scoped_release release;
        return matrix_norm(a, keepdims, o);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("keepdims") = false, nb::arg("ord") = "fro");
  lin.def(
      "diagonal", [](nb::handle x, int64_t offset) { return diagonal(to_array(x), offset); }, nb::arg("x"),
      nb::kw_only(), nb::arg("offset") = 0);
  lin.def(
      "trace",
      [](nb::handle x, int64_t offset, nb::handle dtype) { return trace(to_array(x), offset, to_dtype_opt(dtype)); },
      nb::arg("x"), nb::kw_only(), nb::arg("offset") = 0, nb::arg("dtype") = nb::none());
  lin.def(
      "cross", [](nb::handle x1, nb::handle x2, int64_t axis) { return cross(to_array(x1), to_array(x2), axis); },
      nb::arg("x1"), nb::arg("x2"), nb::kw_only(), nb::arg("axis") = -1);
  lin.def(
      "outer",
      [](nb::handle x1, nb::handle x2) {
        const ndarray a = to_array(x1), b = to_array(x2);
        if (a.ndim() != 1 || b.ndim() != 1)
          throw ValueError("Input arrays must be one-dimensional, but they are x1.ndim=" + std::to_string(a.ndim()) +
                           " and x2.ndim=" + std::to_string(b.ndim()) + ".");
        return outer(a, b);
      },
      nb::arg("x1"), nb::arg("x2"));
}

}  // namespace

void bind_linalg(nb::module_& m, ArrayClass& cls) {
  m.def(
      "dot",
      [](nb::handle a, nb::handle b, nb::handle out) {
        ndarray holder;
        return out_result(out, dot(to_array(a), to_array(b), out_arg(out, holder)));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("out") = nb::none());
  m.def(
      "matmul",
      [](nb::handle a, nb::handle b, nb::handle out) {
        ndarray holder;
        return out_result(out, matmul(to_array(a), to_array(b), out_arg(out, holder)));
      },
      nb::arg("x1"), nb::arg("x2"), nb::arg("out") = nb::none());
  m.def(
      "vdot", [](nb::handle a, nb::handle b) { return vdot(to_array(a), to_array(b)); }, nb::arg("a"), nb::arg("b"));
  m.def(
      "inner", [](nb::handle a, nb::handle b) { return inner(to_array(a), to_array(b)); }, nb::arg("a"), nb::arg("b"));
  m.def(
      "outer",
      [](nb::handle a, nb::handle b, nb::handle out) {
        ndarray holder;
        return out_result(out, outer(to_array(a), to_array(b), out_arg(out, holder)));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("out") = nb::none());

  m.def(
      "isclose",
      [](nb::handle a, nb::handle b, nb::handle rtol, nb::handle atol, bool equal_nan) {
        return isclose(to_operand(a), to_operand(b), to_operand(rtol), to_operand(atol), equal_nan);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-5, nb::arg("atol") = 1e-8, nb::arg("equal_nan") = false);
  m.def(
      "allclose",
      [](nb::handle a, nb::handle b, nb::handle rtol, nb::handle atol, bool equal_nan) {
        Operand x = to_operand(a), y = to_operand(b), r = to_operand(rtol), t = to_operand(atol);
        nb::gil_scoped_release release;
        return allclose(x, y, r, t, equal_nan);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-5, nb::arg("atol") = 1e-8, nb::arg("equal_nan") = false);
  m.def(
      "array_equal",
      [](nb::handle a1, nb::handle a2, bool equal_nan) {
        ndarray x, y;
        try {
          x = to_array(a1);
          y = to_array(a2);
        } catch (const std::exception&) {
          return false;  // NumPy: inputs that are not arrays are not equal
        }
        nb::gil_scoped_release release;
        return array_equal(x, y, equal_nan);
      },
      nb::arg("a1"), nb::arg("a2"), nb::arg("equal_nan") = false);

  cls.def(
      "dot",
      [](const ndarray& a, nb::handle b, nb::handle out) {
        ndarray holder;
        return out_result(out, dot(a, to_array(b), out_arg(out, holder)));
      },
      nb::arg("b"), nb::arg("out") = nb::none());
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

  m.def(
      "vecdot", [](nb::handle x1, nb::handle x2, int64_t axis) { return vecdot(to_array(x1), to_array(x2), axis); },
      nb::arg("x1"), nb::arg("x2"), nb::kw_only(), nb::arg("axis") = -1);
  m.def(
      "matvec", [](nb::handle x1, nb::handle x2) { return matvec(to_array(x1), to_array(x2)); }, nb::arg("x1"),
      nb::arg("x2"));
  m.def(
      "vecmat", [](nb::handle x1, nb::handle x2) { return vecmat(to_array(x1), to_array(x2)); }, nb::arg("x1"),
      nb::arg("x2"));

  nb::module_ lin = m.def_submodule("_linalg", "Native functions of tessera.numpy.linalg");
  bind_solvers(lin);
  lin.def(
      "norm",
      [](nb::handle x, nb::handle ord, nb::handle axis, bool keepdims) {
        const ndarray a = to_array(x);
        const NormOrder o = to_norm_order(ord);
        const auto axes = to_axes(axis);
        nb::gil_scoped_release release;  // singular-value norms wait for LAPACK
        return norm(a, o, axes, keepdims);
      },
      nb::arg("x"), nb::arg("ord") = nb::none(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
}

}  // namespace tessera::python
