// mean, var and std, composed like NumPy's numpy/_core/_methods.py: a deterministic
// sum, divided by the element count, and for var the sum of squared deviations from
// the mean broadcast back along the reduced axes.
#include <algorithm>

#include "data/store.h"
#include "numeric/reduce/axes.h"
#include "tessera/elementwise.h"
#include "tessera/reduce.h"

namespace tessera {
namespace {

ndarray cast_to(const ndarray& x, DType t) { return x.dtype() == t ? x : astype(x, t); }

// NumPy's rcount: how many elements each output averages; an array under `where`.
Operand element_count(const ndarray& a, const ReduceOptions& o) {
  if (!o.where) return Operand(Scalar(detail::reduced_count(a.shape(), detail::reduced_axes(a.ndim(), o.axis))));
  ndarray mask = o.where->dtype() == DType::Bool ? *o.where : astype(*o.where, DType::Bool);
  if (broadcast_shapes({mask.shape(), a.shape()}) != a.shape())
    throw ValueError("where= does not broadcast to the input's shape");
  return Operand(count_nonzero(ndarray(mask.store()->broadcast_to(a.shape())), o.axis, o.keepdims));
}

ndarray into_out(const ReduceOptions& o, const ndarray& result) {
  if (!o.out) return result;
  assign(*o.out, result);
  return *o.out;
}

void reject_initial(const char* name, const ReduceOptions& o) {
  if (o.initial) throw TypeError(std::string(name) + "() got an unexpected keyword argument 'initial'");
}

}  // namespace

ndarray mean(const ndarray& a, const ReduceOptions& o) {
  reject_initial("mean", o);
  // Integers average in float64; float16 sums in float32 and rounds the mean back.
  DType acc = o.dtype ? *o.dtype : is_inexact(a.dtype()) ? a.dtype() : DType::Float64;
  DType result = acc;
  if (!o.dtype && a.dtype() == DType::Float16) acc = DType::Float32;
  ReduceOptions so = o;
  so.dtype = acc;
  so.out.reset();
  ndarray total = sum(a, so);
  // The quotient is computed like NumPy's `true_divide(total, intp count)` and cast back.
  ndarray m = cast_to(cast_to(binary("divide", total, element_count(a, o)), acc), result);
  return into_out(o, m);
}

ndarray var(const ndarray& a, const ReduceOptions& o) {
  reject_initial("var", o);
  std::optional<DType> dtype = o.dtype;
  if (!dtype && !is_inexact(a.dtype())) dtype = DType::Float64;
  ReduceOptions mo = o;
  mo.dtype = dtype;
  mo.keepdims = true;
  mo.out.reset();
  ndarray total = sum(a, mo);
  ndarray center = cast_to(binary("divide", total, element_count(a, mo)), total.dtype());
  ndarray x = binary("subtract", a, center);
  ndarray squares;
  if (is_complex(x.dtype())) {
    ndarray re = unary("real", x), im = unary("imag", x);
    squares = binary("add", binary("multiply", re, re), binary("multiply", im, im));
  } else {
    squares = binary("multiply", x, x);
  }
  ReduceOptions vo = o;
  vo.dtype = dtype;
  vo.out.reset();
  ndarray ss = sum(squares, vo);
  Operand n = element_count(a, vo);
  Operand dof = n.is_array() ? Operand(binary("maximum", binary("subtract", n, Scalar::weak(Scalar(o.ddof))), 0.0))
                             : Operand(Scalar(std::max(static_cast<double>(n.scalar().as_int()) - o.ddof, 0.0)));
  return into_out(o, cast_to(binary("divide", ss, dof), ss.dtype()));
}

ndarray stddev(const ndarray& a, const ReduceOptions& o) {
  ReduceOptions vo = o;
  vo.out.reset();
  ndarray v = var(a, vo);
  if (is_inexact(v.dtype())) return into_out(o, unary("sqrt", v));
  // NumPy takes sqrt of an integer variance only when it is a scalar (`dtype.type(sqrt(ret))`);
  // for arrays `sqrt(ret, out=ret)` refuses the float64 -> integer cast.
  if (v.ndim() != 0 || o.out)
    throw TypeError(std::string("Cannot cast ufunc 'sqrt' output from dtype('float64') to dtype('") +
                    dtype_name(v.dtype()) + "') with casting rule 'same_kind'");
  return astype(unary("sqrt", v), v.dtype());
}

}  // namespace tessera
