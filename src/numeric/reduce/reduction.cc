// The reductions of the C++ API: NumPy's argument checks and result dtypes, `out=`,
// `keepdims`, `where=`, `initial=` and empty inputs, around one ReduceRequest each.
#include <string>

#include "data/store.h"
#include "numeric/reduce/axes.h"
#include "numeric/reduce/reduce_op.h"
#include "tessera/elementwise.h"
#include "tessera/reduce.h"
#include "tessera/task.h"

namespace tessera {
namespace detail {

std::vector<bool> reduced_axes(int ndim, const Axes& axis) {
  std::vector<bool> reduced(ndim, !axis.has_value());
  if (!axis) return reduced;
  for (int64_t a : *axis) {
    if (a < -ndim || a >= ndim)
      throw AxisError("axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(ndim));
    const int64_t d = a < 0 ? a + ndim : a;
    if (reduced[d]) throw ValueError("duplicate value in 'axis'");
    reduced[d] = true;
  }
  return reduced;
}

int64_t reduced_count(const Shape& shape, const std::vector<bool>& reduced) {
  int64_t n = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (reduced[d]) n *= shape[d];
  return n;
}

namespace {

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  if (s.size() == 1) r += ",";
  return r + ")";
}

// Where a reduction's values go, and what the caller gets back.
struct Target {
  ndarray result;    // returned (with the reduced axes kept when keepdims)
  StorePtr values;   // the result without the reduced axes: what the operations write
  StorePtr copy_to;  // an `out` that overlaps the inputs: receives `values` at the end
};

Target make_target(const ndarray& in, const std::vector<bool>& reduced, bool keepdims, DType dtype,
                   const std::optional<ndarray>& out, const std::optional<ndarray>& where) {
  Shape kept, with_ones;
  for (int d = 0; d < in.ndim(); ++d) {
    with_ones.push_back(reduced[d] ? 1 : in.shape()[d]);
    if (!reduced[d]) kept.push_back(in.shape()[d]);
  }
  if (out) {
    const Shape& want = keepdims ? with_ones : kept;
    if (out->shape() != want)
      throw ValueError("output parameter for reduction has shape " + shape_str(out->shape()) + ", expected " +
                       shape_str(want));
    StorePtr view = out->store();
    if (keepdims)
      for (int d = in.ndim() - 1; d >= 0; --d)
        if (reduced[d]) view = view->index(d, 0);
    // Reading what we write would see half-written results: reduce into a new array first.
    if (out->shares_storage(in) || (where && out->shares_storage(*where)))
      return {*out, new_array(kept, out->dtype()).store(), view};
    return {*out, view, nullptr};
  }
  StorePtr values = new_array(kept, dtype).store();
  StorePtr shown = values;
  if (keepdims)
    for (int d = 0; d < in.ndim(); ++d)
      if (reduced[d]) shown = shown->new_axis(d);
  return {ndarray(shown), values, nullptr};
}

StorePtr mask_store(const ndarray& a, const std::optional<ndarray>& where) {
  if (!where) return nullptr;
  ndarray w = where->dtype() == DType::Bool ? *where : astype(*where, DType::Bool);
  if (broadcast_shapes({w.shape(), a.shape()}) != a.shape())
    throw ValueError("where= of shape " + shape_str(w.shape()) + " does not broadcast to the input's shape " +
                     shape_str(a.shape()));
  return w.store()->broadcast_to(a.shape());
}

DType accumulate_in(DType t) { return t == DType::Float16 ? DType::Float32 : t; }

const char* public_name(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::Max: return "amax";
    case ReduceKind::Min: return "amin";
    case ReduceKind::Any: return "any";
    case ReduceKind::All: return "all";
    case ReduceKind::Prod: return "prod";
    default: return "sum";
  }
}

void reject(ReduceKind kind, const ReduceOptions& o, bool dtype, bool initial) {
  if (dtype && o.dtype)
    throw TypeError(std::string(public_name(kind)) + "() got an unexpected keyword argument 'dtype'");
  if (initial && o.initial)
    throw TypeError(std::string(public_name(kind)) + "() got an unexpected keyword argument 'initial'");
}

// Issues one reduction of `a` accumulating in `acc` into a result of dtype `result`.
ndarray run_reduction(ReduceKind kind, const ndarray& a, const std::vector<bool>& reduced, const ReduceOptions& o,
                      DType acc, DType result, bool nonzero) {
  const bool extreme = kind == ReduceKind::Max || kind == ReduceKind::Min;
  const bool arg = is_arg_reduction(kind);
  if (o.where && extreme && !o.initial)
    throw ValueError(std::string("reduction operation '") + reduce_ufunc_name(kind) +
                     "' does not have an identity, so to use a where mask one has to specify 'initial'");
  StorePtr mask = mask_store(a, o.where);
  Target t = make_target(a, reduced, o.keepdims, result, o.out, o.where);
  if (volume(t.values->shape()) == 0) return t.result;
  if (reduced_count(a.shape(), reduced) == 0) {
    if (arg) throw ValueError(std::string("attempt to get ") + reduce_ufunc_name(kind) + " of an empty sequence");
    if (extreme && !o.initial)
      throw ValueError(std::string("zero-size array to reduction operation ") + reduce_ufunc_name(kind) +
                       " which has no identity");
    alignas(16) unsigned char identity[16];
    reduce_identity(kind, acc, identity);
    assign(ndarray(t.values), o.initial ? Operand(*o.initial) : Operand(Scalar::from_bytes(acc, identity)));
  } else {
    ReduceRequest q;
    q.kind = kind;
    q.input = a.store();
    q.reduced = reduced;
    q.acc = acc;
    q.nonzero = nonzero;
    q.initial = o.initial;
    q.where = mask;
    q.out = t.values;
    issue_reduction(q);
  }
  if (t.copy_to) assign(ndarray(t.copy_to), ndarray(t.values));
  return t.result;
}

ndarray fold(ReduceKind kind, const ndarray& a, const ReduceOptions& o) {
  // NumPy: dtype=, else out's dtype, else small integers widened.
  const DType result = o.dtype ? *o.dtype : o.out ? o.out->dtype() : sum_dtype(a.dtype());
  return run_reduction(kind, a, reduced_axes(a.ndim(), o.axis), o, accumulate_in(result), result, false);
}

ndarray extreme(ReduceKind kind, const ndarray& a, const ReduceOptions& o) {
  reject(kind, o, true, false);
  return run_reduction(kind, a, reduced_axes(a.ndim(), o.axis), o, accumulate_in(a.dtype()), a.dtype(), false);
}

ndarray logical(ReduceKind kind, const ndarray& a, const ReduceOptions& o) {
  reject(kind, o, true, true);
  // Bool input is its own truth value; anything else loads `x != 0`.
  return run_reduction(kind, a, reduced_axes(a.ndim(), o.axis), o, DType::Bool, DType::Bool, a.dtype() != DType::Bool);
}

ndarray arg(ReduceKind kind, const ndarray& in, std::optional<int64_t> axis, bool keepdims,
            const std::optional<ndarray>& out) {
  // NumPy sees a 0-d array as one element along one axis here.
  const ndarray a = in.ndim() == 0 ? ndarray(in.store()->new_axis(0)) : in;
  if (in.ndim() == 0) keepdims = false;
  // NumPy writes the int64 indices into `out` only if its dtype casts safely to int64.
  if (out && !can_cast_safe(out->dtype(), DType::Int64))
    throw TypeError(std::string("Cannot cast array data from dtype('") + dtype_name(out->dtype()) +
                    "') to dtype('int64') according to the rule 'safe'");
  ReduceOptions o;
  o.keepdims = keepdims;
  o.out = out;
  if (axis) o.axis = std::vector<int64_t>{*axis};
  return run_reduction(kind, a, reduced_axes(a.ndim(), o.axis), o, accumulate_in(a.dtype()), DType::Int64, false);
}

}  // namespace
}  // namespace detail

using namespace detail;

ndarray sum(const ndarray& a, const ReduceOptions& o) { return fold(ReduceKind::Sum, a, o); }
ndarray prod(const ndarray& a, const ReduceOptions& o) { return fold(ReduceKind::Prod, a, o); }
ndarray amax(const ndarray& a, const ReduceOptions& o) { return extreme(ReduceKind::Max, a, o); }
ndarray amin(const ndarray& a, const ReduceOptions& o) { return extreme(ReduceKind::Min, a, o); }
ndarray any(const ndarray& a, const ReduceOptions& o) { return logical(ReduceKind::Any, a, o); }
ndarray all(const ndarray& a, const ReduceOptions& o) { return logical(ReduceKind::All, a, o); }

ndarray count_nonzero(const ndarray& a, const Axes& axis, bool keepdims) {
  ReduceOptions o;
  o.axis = axis;
  o.keepdims = keepdims;
  return run_reduction(ReduceKind::Sum, a, reduced_axes(a.ndim(), axis), o, DType::Int64, DType::Int64, true);
}

ndarray argmax(const ndarray& a, std::optional<int64_t> axis, bool keepdims, const std::optional<ndarray>& out) {
  return arg(ReduceKind::ArgMax, a, axis, keepdims, out);
}

ndarray argmin(const ndarray& a, std::optional<int64_t> axis, bool keepdims, const std::optional<ndarray>& out) {
  return arg(ReduceKind::ArgMin, a, axis, keepdims, out);
}

}  // namespace tessera
