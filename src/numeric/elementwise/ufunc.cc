// NumPy's ufunc machinery in C++: type resolution (NEP 50 promotion, loop
// search in NumPy's order), broadcasting, `out=` casting rules, and issuing the
// element-wise operation.
#include <algorithm>
#include <array>
#include <atomic>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <optional>
#include <type_traits>

#include "data/store.h"
#include "numeric/elementwise/expression.h"
#include "numeric/elementwise/ufunc_impl.h"
#include "numeric/elementwise/ufunc_table.h"
#include "numeric/elementwise/value_checks.h"
#include "numeric/index/selection.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"

namespace tessera {
namespace detail {
namespace {

// NumPy's loop order for most ufuncs.
constexpr std::array<DType, kNumDTypes> kLoopOrder = {
    DType::Bool,  DType::Int8,   DType::UInt8,   DType::Int16,   DType::UInt16,  DType::Int32,     DType::UInt32,
    DType::Int64, DType::UInt64, DType::Float16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  if (s.size() == 1) r += ",";
  return r + ")";
}

}  // namespace

bool can_cast_same_kind(DType from, DType to) { return can_cast(from, to, "same_kind"); }

std::string dtype_repr(DType t) { return std::string("dtype('") + dtype_name(t) + "')"; }

template <class LoopFn>
Resolved resolve_loop(std::string_view name, DType t, LoopFn&& find) {
  for (DType c : kLoopOrder) {
    if (!can_cast_safe(t, c)) continue;
    DType compute = c == DType::Float16 ? DType::Float32 : c;
    DType out;
    if (auto loop = find(compute, &out)) {
      if (c == DType::Float16 && out == DType::Float32) out = DType::Float16;
      return Resolved{compute, out, reinterpret_cast<void*>(loop), c};
    }
  }
  throw TypeError("ufunc '" + std::string(name) +
                  "' not supported for the input types, and the inputs could not be safely coerced to any "
                  "supported types according to the casting rule ''safe''");
}

Resolved resolve_unary(std::string_view name, UnaryOp op, DType t) {
  if (t == DType::Bool && op == UnaryOp::Sign)
    throw TypeError(
        "ufunc 'sign' did not contain a loop with signature matching types <class "
        "'numpy.dtypes.BoolDType'> -> None");
  if (t == DType::Bool && op == UnaryOp::Positive)
    throw TypeError(
        "ufunc 'positive' did not contain a loop with signature matching types <class "
        "'numpy.dtypes.BoolDType'> -> None");
  if (t == DType::Bool && op == UnaryOp::Negative)
    throw TypeError(
        "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the "
        "logical_not function instead.");
  return resolve_loop(name, t, [&](DType c, DType* out) { return unary_loop(op, c, out); });
}

namespace {
Resolved resolve_binary_uncached(std::string_view name, BinaryOp op, DType ta, DType tb) {
  if (ta == DType::Bool && tb == DType::Bool && op == BinaryOp::Subtract)
    throw TypeError(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
        "operator, or the logical_xor function instead.");
  if (op == BinaryOp::TrueDivide && !is_inexact(ta) && !is_inexact(tb)) ta = tb = DType::Float64;
  // gcd and lcm look for a loop of the promoted type, and booleans promote to bool.
  if ((op == BinaryOp::Gcd || op == BinaryOp::Lcm) && ta == DType::Bool && tb == DType::Bool)
    throw TypeError("ufunc '" + std::string(name) +
                    "' did not contain a loop with signature matching types "
                    "(<class 'numpy.dtypes.BoolDType'>, <class 'numpy.dtypes.BoolDType'>) -> None");
  // ldexp's loops take an integer exponent (int32 or int64) beside a float mantissa of any
  // width; tessera holds the exponent in the mantissa's float type.
  if (op == BinaryOp::Ldexp) {
    if (!can_cast_safe(tb, DType::Int64)) ta = DType::Complex128;  // no loop: NumPy's TypeError below
    tb = ta;
  }
  // Like NumPy, the first loop both inputs cast to safely (not the promoted type: int8 and
  // uint8 find arctan2's float16 loop).
  for (DType c : kLoopOrder) {
    if (!can_cast_safe(ta, c) || !can_cast_safe(tb, c)) continue;
    DType compute = c == DType::Float16 ? DType::Float32 : c;
    DType out;
    if (auto loop = binary_loop(op, compute, &out)) {
      if (c == DType::Float16 && out == DType::Float32) out = DType::Float16;
      return Resolved{compute, out, reinterpret_cast<void*>(loop), c};
    }
  }
  throw TypeError("ufunc '" + std::string(name) +
                  "' not supported for the input types, and the inputs could not be safely coerced to any "
                  "supported types according to the casting rule ''safe''");
}
}  // namespace

// Every call resolves its loop: the answers for each (operation, dtypes) are kept (a pure
// function of them; an unsupported pair is not kept, so it raises each time).
Resolved resolve_binary(std::string_view name, BinaryOp op, DType ta, DType tb) {
  constexpr size_t kOps = static_cast<size_t>(BinaryOp::kCount);
  struct Entry {
    std::atomic<bool> ready{false};
    Resolved value{};
  };
  static std::array<Entry, kOps * kNumDTypes * kNumDTypes> table;
  Entry& e =
      table[(static_cast<size_t>(op) * kNumDTypes + static_cast<size_t>(ta)) * kNumDTypes + static_cast<size_t>(tb)];
  if (e.ready.load(std::memory_order_acquire)) return e.value;
  const Resolved r = resolve_binary_uncached(name, op, ta, tb);
  static std::mutex mu;
  std::lock_guard lock(mu);
  if (!e.ready.load(std::memory_order_relaxed)) {
    e.value = r;
    e.ready.store(true, std::memory_order_release);
  }
  return r;
}

bool is_comparison(BinaryOp op) {
  return op == BinaryOp::Equal || op == BinaryOp::NotEqual || op == BinaryOp::Less || op == BinaryOp::LessEqual ||
         op == BinaryOp::Greater || op == BinaryOp::GreaterEqual;
}

StorePtr store_of(const ndarray& a) { return a.store(); }

void check_scalar_fits(const Operand& o, DType t) {
  if (o.is_array() || !o.scalar().is_weak()) return;
  if ((is_integer(o.scalar().dtype()) || o.scalar().is_big_int()) && is_integer(t) && !o.scalar().fits(t))
    throw OverflowError("Python integer " + o.scalar().to_string() + " out of bounds for " + dtype_name(t));
}

int operand_node(ElementwiseOp& op, const Operand& o, const Shape& shape, DType common, DType compute) {
  if (!o.is_array()) return op.const_node(o.scalar().cast(common), compute);
  // The store itself when no broadcast is needed: fusion recognises temporaries by identity.
  const StorePtr& s = o.array().store();
  int k = op.add_input(s->shape() == shape ? s : s->broadcast_to(shape));
  return op.input_node(k, compute);
}

ndarray prepare_out(std::string_view name, int nin, const ndarray* out, const Shape& shape, DType result,
                    std::string_view casting = "same_kind") {
  if (!out) return ndarray(new_store(result, shape, Runtime::provenance()));
  // Inputs broadcast to the output's shape, never the output to theirs.
  bool fits = shape.size() <= out->shape().size();
  for (size_t i = 0; fits && i < shape.size(); ++i) {
    const int64_t o = out->shape()[out->shape().size() - shape.size() + i];
    fits = shape[i] == o || shape[i] == 1;
  }
  if (!fits)
    throw ValueError("non-broadcastable output operand with shape " + shape_str(out->shape()) +
                     " doesn't match the broadcast shape " + shape_str(shape));
  if (!can_cast(result, out->dtype(), casting))
    throw UFuncCastingError(std::string(name), nin, -1, dtype_name(result), dtype_name(out->dtype()),
                            std::string(casting));
  return *out;
}

// Inputs (arrays and NumPy scalars; Python scalars are weak and take the loop's type) must
// cast to the loop under `casting`, as NumPy checks before it looks at the output.
void check_inputs(std::string_view name, std::initializer_list<const Operand*> inputs, DType loop_in,
                  std::string_view casting) {
  const int nin = static_cast<int>(inputs.size());
  for (int i = 0; i < nin; ++i) {
    const Operand& o = *inputs.begin()[i];
    if (!o.is_array() && o.scalar().is_weak()) continue;
    if (!can_cast(o.dtype(), loop_in, casting))
      throw UFuncCastingError(std::string(name), nin, i, dtype_name(o.dtype()), dtype_name(loop_in),
                              std::string(casting));
  }
}

// `dtype=` names the loop's output type: a loop with another output is no match.
void check_signature(std::string_view name, std::optional<DType> dtype, const Resolved& r, bool comparison) {
  if (!dtype) return;
  if (comparison ? *dtype == DType::Bool : r.out == *dtype) return;
  throw TypeError("No loop matching the specified signature and casting was found for ufunc " + std::string(name));
}

// Inputs that view the output's storage differently are copied first, as NumPy does: the
// copy, made into `copied`, or else `o` itself.
const Operand& unalias(const Operand& o, const ndarray& out, std::optional<Operand>& copied) {
  if (!o.is_array() || !o.array().shares_storage(out) || o.array().store()->same_view(*out.store())) return o;
  // Views whose elements lie in disjoint boxes of the storage (`p[:, -1] = p[:, -2]`) cannot
  // see each other's writes: no copy.
  const Store& a = *o.array().store();
  const Store& b = *out.store();
  if (a.size() == 0 || b.size() == 0 ||
      !a.storage_rect(Rect::of(a.shape())).overlaps(b.storage_rect(Rect::of(b.shape()))))
    return o;
  return copied.emplace(tessera::copy(o.array()));
}

}  // namespace detail

using namespace detail;

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t nd = 0;
  for (auto& s : shapes) nd = std::max(nd, s.size());
  Shape r(nd, 1);
  for (auto& s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& d = r[nd - s.size() + i];
      if (s[i] == d || s[i] == 1) continue;
      if (d == 1) {
        d = s[i];
        continue;
      }
      std::string msg = "operands could not be broadcast together with shapes";
      for (auto& t : shapes) msg += " " + shape_str(t);
      throw ValueError(msg);
    }
  }
  return r;
}

namespace detail {
namespace {
// NEP 50's result type of `operands`: the strong ones (arrays, NumPy scalars) promote, the
// weak Python scalars only lift the kind.
template <class Operands>
DType result_type_of(const Operands& operands) {
  auto at = [](const auto& o) -> const Operand& {
    if constexpr (std::is_pointer_v<std::decay_t<decltype(o)>>) return *o;
    else return o;
  };
  std::optional<DType> strong;
  for (const auto& p : operands) {
    const Operand& o = at(p);
    if (o.is_array() || !o.scalar().is_weak()) strong = strong ? promote_types(*strong, o.dtype()) : o.dtype();
  }
  if (!strong) {
    DType r = DType::Bool;
    for (const auto& p : operands) r = promote_types(r, at(p).dtype());
    return r;
  }
  DType t = *strong;
  for (const auto& p : operands) {
    const Operand& o = at(p);
    if (o.is_array() || !o.scalar().is_weak()) continue;
    switch (o.scalar().kind()) {
      case DKind::Bool: break;
      case DKind::Int:
      case DKind::UInt:
        if (t == DType::Bool) t = DType::Int64;
        break;
      case DKind::Float:
        if (!is_inexact(t)) t = DType::Float64;
        break;
      case DKind::Complex:
        if (!is_inexact(t)) t = DType::Complex128;
        else if (is_float(t)) t = complex_for(t);
        break;
    }
  }
  return t;
}

// The broadcast shape of `x` and `y`: one of them when the other adds nothing (the same
// shape, or a scalar's), else the shape made in `made`.
const Shape& broadcast_pair(const Shape& x, const Shape& y, Shape& made) {
  if (x == y || y.empty()) return x;
  if (x.empty()) return y;
  made = broadcast_shapes({x, y});
  return made;
}

const Shape kScalarShape;
const Shape& shape_of(const Operand& o) { return o.is_array() ? o.array().shape() : kScalarShape; }
}  // namespace
}  // namespace detail

DType result_type(const std::vector<Operand>& operands) { return result_type_of(operands); }

int ufunc_arity(std::string_view name) { return find_ufunc(name).arity; }

ndarray unary(std::string_view name, const Operand& x, const ndarray* out, std::optional<DType> dtype,
              std::string_view casting) {
  const UfuncCode code = find_ufunc(name);
  if (code.arity != 1) throw ValueError("unknown unary function '" + std::string(name) + "'");
  UnaryOp op = UnaryOp(code.op);
  can_cast(DType::Bool, DType::Bool, casting);  // rejects an unknown rule up front
  const DType t = dtype ? *dtype : result_type_of(std::array<const Operand*, 1>{&x});
  Resolved r = resolve_unary(name, op, t);
  check_signature(name, dtype, r, false);
  if (op == UnaryOp::Spacing && r.loop_in == DType::Float16) op = UnaryOp::SpacingHalf;
  check_inputs(name, {&x}, r.loop_in, casting);
  ndarray result = prepare_out(name, 1, out, shape_of(x), r.out, casting);
  const Shape& full_shape = result.shape();
  std::optional<Operand> copied;
  const Operand& in = unalias(x, result, copied);
  auto e = std::make_shared<ElementwiseOp>(std::string(name), result.store());
  int a = operand_node(*e, in, full_shape, t, r.compute);
  e->unary_node(op, r.compute, a);
  Runtime::get().submit(std::move(e));
  return result;
}

namespace detail {
namespace {
// The selection an operand still is (not compacted), or null.
std::shared_ptr<Selection> pending_selection(const Operand& o) {
  return o.is_array() ? detail::pending_selection(o.array()) : nullptr;
}

// `x[m] + 2`, `x[m] * y[m]`, `t -= 1` on a selection: the same operation on the values the
// selections stand for, selected by the same mask; nullopt where that does not hold (the
// operands then compact). Only operations that cannot fail or warn on the elements the mask
// leaves out, and no out= but the selection itself, in its own dtype.
std::optional<ndarray> binary_on_selections(std::string_view name, BinaryOp op, const Operand& a, const Operand& b,
                                            const ndarray* out, const std::optional<DType>& dtype,
                                            std::string_view casting) {
  if (op != BinaryOp::Add && op != BinaryOp::Subtract && op != BinaryOp::Multiply) return std::nullopt;
  if (dtype || casting != "same_kind") return std::nullopt;
  const auto sa = pending_selection(a), sb = pending_selection(b);
  if (!sa && !sb) return std::nullopt;
  const Selection& s = sa ? *sa : *sb;
  for (const Operand* o : {&a, &b}) {
    if (!o->is_array()) continue;
    const auto so = pending_selection(*o);
    if (!so || !so->mask.store()->same_view(*s.mask.store())) return std::nullopt;
  }
  if (out && !(out->pending() && a.is_array() && out->pending() == a.array().pending())) return std::nullopt;
  if (is_complex(a.dtype()) || is_complex(b.dtype())) return std::nullopt;
  auto values = [](const Operand& o) { return o.is_array() ? Operand(pending_selection(o)->values) : o; };
  ndarray v = binary(name, values(a), values(b));
  if (out && v.dtype() != out->dtype()) return std::nullopt;  // the in-place cast decides (and may refuse)
  auto r = std::make_shared<Selection>();
  r->values = std::move(v);
  r->mask = s.mask;
  r->compact = s.compact;
  if (!out) return select(std::move(r));
  out->repoint(select(std::move(r)).pending());
  return *out;
}
}  // namespace
}  // namespace detail

ndarray binary(std::string_view name, const Operand& a, const Operand& b, const ndarray* out,
               std::optional<DType> dtype, std::string_view casting) {
  const UfuncCode code = find_ufunc(name);
  if (code.arity != 2) throw ValueError("unknown binary function '" + std::string(name) + "'");
  BinaryOp op = BinaryOp(code.op);
  if (auto r = binary_on_selections(name, op, a, b, out, dtype, casting)) return *r;
  can_cast(DType::Bool, DType::Bool, casting);  // rejects an unknown rule up front
  // A comparison's `dtype=` names its output, which is always bool.
  check_signature(name, is_comparison(op) ? dtype : std::nullopt, Resolved{}, true);
  if (is_comparison(op) && dtype == DType::Bool) dtype.reset();
  DType t = dtype ? *dtype : result_type_of(std::array<const Operand*, 2>{&a, &b});
  auto weak = [](const Operand& o) { return !o.is_array() && o.scalar().is_weak(); };
  // A Python int beyond 64 bits meeting a bool array: NumPy cannot make it an int64.
  auto beyond_int64 = [&](const Operand& o) {
    return weak(o) && (o.scalar().is_big_int() || !o.scalar().fits(DType::Int64));
  };
  if (op != BinaryOp::TrueDivide &&
      ((beyond_int64(a) && b.dtype() == DType::Bool) || (beyond_int64(b) && a.dtype() == DType::Bool)))
    throw OverflowError("Python int too large to convert to C long");
  if (is_comparison(op) && is_integer(t)) {
    // NumPy 2 compares integers with out-of-range Python ints exactly.
    for (const Operand* o : {&a, &b}) {
      if (!weak(*o) || o->scalar().fits(t)) continue;
      const bool negative = o->scalar().kind() == DKind::Int && o->scalar().as_double() < 0;
      const bool beyond_int64 = o->scalar().is_big_int() || o->scalar().dtype() == DType::UInt64;
      t = beyond_int64 || (negative && t == DType::UInt64) ? DType::Float64 : promote_types(t, DType::Int64);
    }
  }
  DType ta = dtype || weak(a) ? t : a.dtype(), tb = dtype || weak(b) ? t : b.dtype();
  if (op == BinaryOp::Ldexp) {
    // The exponent's own kind decides (a Python int is an integer exponent, a float none).
    if (weak(b))
      tb = b.scalar().kind() == DKind::Float || b.scalar().kind() == DKind::Complex ? DType::Float64 : DType::Int64;
  }
  Resolved r = resolve_binary(name, op, ta, tb);
  // float16's nextafter steps over float16 values, not over the float32 ones it computes in.
  if (op == BinaryOp::Nextafter && r.loop_in == DType::Float16) op = BinaryOp::NextafterHalf;
  if (!is_comparison(op)) check_signature(name, dtype, r, false);
  check_inputs(name, {&a, &b}, r.loop_in, casting);
  // Python scalars must fit the loop they meet (true_divide of ints meets a float loop).
  const DType common = t == DType::Float16 && r.compute == DType::Float32 ? DType::Float16 : r.compute;
  check_scalar_fits(a, common);
  check_scalar_fits(b, common);
  Shape made;
  const Shape& shape = broadcast_pair(shape_of(a), shape_of(b), made);
  ndarray result = prepare_out(name, 2, out, shape, r.out, casting);
  if (op == BinaryOp::Power) check_integer_exponent(b, r.compute, result.size());
  std::optional<Operand> copied_a, copied_b;
  const Operand& ia = unalias(a, result, copied_a);
  const Operand& ib = unalias(b, result, copied_b);
  auto e = std::make_shared<ElementwiseOp>(std::string(name), result.store());
  int na = operand_node(*e, ia, result.shape(), common, r.compute);
  int nb = operand_node(*e, ib, result.shape(), common, r.compute);
  e->binary_node(op, r.compute, na, nb);
  Runtime::get().submit(std::move(e));
  return result;
}

ndarray where(const Operand& cond, const Operand& x, const Operand& y) {
  const DType t = result_type({x, y});
  Shape shape =
      broadcast_shapes({cond.is_array() ? cond.array().shape() : Shape{}, x.is_array() ? x.array().shape() : Shape{},
                        y.is_array() ? y.array().shape() : Shape{}});
  ndarray result(new_store(t, shape, Runtime::provenance()));
  auto e = std::make_shared<ElementwiseOp>("where", result.store());
  const DType ct = cond.is_array() ? cond.dtype() : DType::Bool;
  int c = operand_node(*e, cond, shape, ct, DType::Bool);
  int a = operand_node(*e, x, shape, t, t);
  int b = operand_node(*e, y, shape, t, t);
  e->where_node(c, a, b);
  Runtime::get().submit(std::move(e));
  return result;
}

ndarray clip(const Operand& x, std::optional<Operand> lo, std::optional<Operand> hi, const ndarray* out) {
  // No bound at all: a copy of x, which NumPy 2 makes with the ufunc positive (no bool loop).
  if (!lo && !hi && x.dtype() == DType::Bool)
    throw TypeError(
        "ufunc 'positive' did not contain a loop with signature matching types "
        "<class 'numpy.dtypes.BoolDType'> -> None");
  std::vector<Operand> all{x};
  if (lo) all.push_back(*lo);
  if (hi) all.push_back(*hi);
  DType t = result_type(all);
  // A Python int bound beyond the integer dtype's range clips nothing on that side: NumPy
  // keeps the dtype, so the bound is clamped to the dtype's range instead of overflowing.
  if (is_integer(t)) {
    for (Operand& o : all) {
      if (o.is_array() || !o.scalar().is_weak() || o.scalar().fits(t)) continue;
      const bool below = o.scalar().as_double() < 0;
      Scalar edge = visit_dtype(t, [&](auto tag) -> Scalar {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          if constexpr (std::is_signed_v<T>)
            return Scalar(static_cast<int64_t>(below ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max()));
          else return below ? Scalar(int64_t{0}) : Scalar(static_cast<uint64_t>(std::numeric_limits<T>::max()));
        } else {
          return Scalar(int64_t{0});
        }
      });
      o = Operand(Scalar::weak(edge));
    }
    size_t k = 1;
    if (lo) lo = all[k++];
    if (hi) hi = all[k++];
  }
  for (auto& o : all) check_scalar_fits(o, t);
  std::vector<Shape> shapes;
  for (auto& o : all) shapes.push_back(o.is_array() ? o.array().shape() : Shape{});
  Shape shape = broadcast_shapes(shapes);
  Resolved rmax = resolve_binary("clip", BinaryOp::Maximum, t, t);
  ndarray result = prepare_out("clip", 3, out, shape, rmax.out);
  auto e = std::make_shared<ElementwiseOp>("clip", result.store());
  std::optional<Operand> copied[3];
  int v = operand_node(*e, unalias(x, result, copied[0]), result.shape(), t, rmax.compute);
  if (lo)
    v = e->binary_node(BinaryOp::Maximum, rmax.compute, v,
                       operand_node(*e, unalias(*lo, result, copied[1]), result.shape(), t, rmax.compute));
  if (hi)
    v = e->binary_node(BinaryOp::Minimum, rmax.compute, v,
                       operand_node(*e, unalias(*hi, result, copied[2]), result.shape(), t, rmax.compute));
  Runtime::get().submit(std::move(e));
  return result;
}

void assign(const ndarray& dst, const Operand& src) {
  // `a[s] += b` ends with `a[s] = <the same view>`: nothing to copy.
  if (src.is_array() && src.array().store()->same_view(*dst.store())) return;
  check_scalar_fits(src, dst.dtype());
  if (!src.is_array() && src.scalar().is_weak() && is_complex(src.dtype()) && !is_complex(dst.dtype()) &&
      dst.dtype() != DType::Bool)
    throw TypeError(std::string(is_integer(dst.dtype()) ? "int" : "float") +
                    "() argument must be a string or a real number, not 'complex'");
  Operand s = src;
  if (s.is_array()) {
    const Shape& ss = s.array().shape();
    // NumPy drops leading 1s of the value before broadcasting it into the target.
    size_t lead = 0;
    while (ss.size() - lead > dst.shape().size() && ss[lead] == 1) ++lead;
    Shape trimmed(ss.begin() + lead, ss.end());
    bool ok = trimmed.size() <= dst.shape().size();
    for (size_t i = 0; ok && i < trimmed.size(); ++i) {
      int64_t d = dst.shape()[dst.shape().size() - trimmed.size() + i];
      ok = trimmed[i] == d || trimmed[i] == 1;
    }
    if (!ok)
      throw ValueError("could not broadcast input array from shape " + shape_str(ss) + " into shape " +
                       shape_str(dst.shape()));
    if (lead) {
      auto v = s.array().store()->reshape_view(trimmed);
      s = Operand(ndarray(v));
    }
    std::optional<Operand> copied;
    unalias(s, dst, copied);
    if (copied) s = std::move(*copied);
  }
  auto e = std::make_shared<ElementwiseOp>("copy", dst.store());
  const DType t = dst.dtype();
  if (s.is_array()) {
    const StorePtr& in = s.array().store();
    int k = e->add_input(in->shape() == dst.shape() ? in : in->broadcast_to(dst.shape()));
    e->input_node(k, t);
  } else {
    e->const_node(s.scalar(), t);
  }
  Runtime::get().submit(std::move(e));
}

ndarray astype(const ndarray& x, DType dtype, std::string_view casting) {
  if (!can_cast(x.dtype(), dtype, casting))
    throw TypeError("Cannot cast array data from " + dtype_repr(x.dtype()) + " to " + dtype_repr(dtype) +
                    " according to the rule '" + std::string(casting) + "'");
  ndarray result(new_store(dtype, x.shape(), Runtime::provenance()));
  assign(result, x);
  return result;
}

ndarray copy(const ndarray& x) { return astype(x, x.dtype()); }

}  // namespace tessera

namespace tessera {

namespace {
std::string casting_message(const std::string& ufunc, int nin, int operand, const std::string& from,
                            const std::string& to, const std::string& casting) {
  std::string what = "Cannot cast ufunc '" + ufunc + "' ";
  if (operand < 0) what += "output";
  else what += nin == 1 ? std::string("input") : "input " + std::to_string(operand);
  what += " from dtype('" + from + "') to dtype('" + to + "') with casting rule '" + casting + "'";
  return what;
}
}  // namespace

UFuncCastingError::UFuncCastingError(std::string ufunc, int nin, int operand, std::string from, std::string to,
                                     std::string casting)
    : TypeError(casting_message(ufunc, nin, operand, from, to, casting)),
      ufunc_(std::move(ufunc)),
      operand_(operand),
      from_(std::move(from)),
      to_(std::move(to)),
      casting_(std::move(casting)) {}

}  // namespace tessera
