// Arithmetic, comparison, `where` and cast loops for each instruction set Highway
// targets. The bodies are those of the scalar loops (loop_bodies-inl.h over the
// functors of unary_functors.h and binary_functors.h), compiled inside each target's
// namespace so the compiler vectorises them for that target; every operation here is
// exact per element (IEEE arithmetic, comparisons, conversions), so a vector loop
// gives bit for bit what the scalar loop does. Built with -ffp-contract=off (no fused
// multiply-add the scalar loops would not do) and -fno-math-errno (so sqrt vectorises).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "numeric/elementwise/vector_loops.cc"
#include "numeric/elementwise/vector_targets.h"
// foreach_target.h includes this file again once per target.
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cstring>

#include "numeric/elementwise/binary_functors.h"
#include "numeric/elementwise/unary_functors.h"
#include "numeric/elementwise/vector_loops.h"
#include "numeric/elementwise/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::detail {
namespace HWY_NAMESPACE {

#include "numeric/elementwise/loop_bodies-inl.h"

// The loops of the table's `simd` rows (ufuncs.def) for float32 and float64, and for int32
// and int64 where the row says the integer loops vectorise well enough to be worth their
// code (kI32, kI64: int64 multiplication has no AVX2 instruction, for one).
template <class Op, bool kI32, bool kI64>
UnaryLoop unary_for(DType t) {
  switch (t) {
    case DType::Float32: return &unary_run<Op, float>;
    case DType::Float64: return &unary_run<Op, double>;
    case DType::Int32:
      if constexpr (kI32 && unary::has_loop<Op, int32_t>) return &unary_run<Op, int32_t>;
      return nullptr;
    case DType::Int64:
      if constexpr (kI64 && unary::has_loop<Op, int64_t>) return &unary_run<Op, int64_t>;
      return nullptr;
    default: return nullptr;
  }
}

template <class Op, bool kI32, bool kI64>
BinaryLoop binary_for(DType t) {
  switch (t) {
    case DType::Float32: return &binary_run<Op, float>;
    case DType::Float64: return &binary_run<Op, double>;
    case DType::Int32:
      if constexpr (kI32 && binary::has_loop<Op, int32_t>) return &binary_run<Op, int32_t>;
      return nullptr;
    case DType::Int64:
      if constexpr (kI64 && binary::has_loop<Op, int64_t>) return &binary_run<Op, int64_t>;
      return nullptr;
    default: return nullptr;
  }
}

// A row's case when its vector column is `simd` (the other kinds add none here).
#define TESSERA_SIMD_CASE_simd(OP_TYPE, FOR, OP, I32, I64) \
  case OP_TYPE::OP:                                        \
    return FOR<OP, I32, I64>(t);
#define TESSERA_SIMD_CASE_sleef(OP_TYPE, FOR, OP, A, B)
#define TESSERA_SIMD_CASE_none(OP_TYPE, FOR, OP, A, B)

UnaryLoop target_unary_loop(UnaryOp op, DType t) {
  using namespace unary;
  switch (op) {
#define TESSERA_UNARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, ...) \
  TESSERA_SIMD_CASE_##VECTOR(UnaryOp, unary_for, OP, V1, V2)
#include "numeric/elementwise/ufuncs.def"
    default: return nullptr;
  }
}

BinaryLoop target_binary_loop(BinaryOp op, DType t) {
  using namespace binary;
  switch (op) {
#define TESSERA_BINARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, ...) \
  TESSERA_SIMD_CASE_##VECTOR(BinaryOp, binary_for, OP, V1, V2)
#include "numeric/elementwise/ufuncs.def"
    default: return nullptr;
  }
}
#undef TESSERA_SIMD_CASE_simd
#undef TESSERA_SIMD_CASE_sleef
#undef TESSERA_SIMD_CASE_none

WhereLoop target_where_loop(DType t) {
  switch (t) {
    case DType::Bool: return &where_run<bool>;
    case DType::Int32: return &where_run<int32_t>;
    case DType::Int64: return &where_run<int64_t>;
    case DType::Float32: return &where_run<float>;
    case DType::Float64: return &where_run<double>;
    default: return nullptr;
  }
}

template <class S>
CastLoop cast_to(DType to) {
  switch (to) {
    case DType::Bool: return &cast_run<bool, S>;
    case DType::Int32: return &cast_run<int32_t, S>;
    case DType::Int64: return &cast_run<int64_t, S>;
    case DType::Float32: return &cast_run<float, S>;
    case DType::Float64: return &cast_run<double, S>;
    default: return nullptr;
  }
}

CastLoop target_cast_loop(DType from, DType to) {
  if (from == to) return nullptr;
  switch (from) {
    case DType::Bool: return cast_to<bool>(to);
    case DType::Int32: return cast_to<int32_t>(to);
    case DType::Int64: return cast_to<int64_t>(to);
    case DType::Float32: return cast_to<float>(to);
    case DType::Float64: return cast_to<double>(to);
    default: return nullptr;
  }
}

namespace hn = hwy::HWY_NAMESPACE;

// Applies `f` to each of the kV running vectors and step operand `x` at lanes i + k L (a
// broadcast when the operand has stride 0); swapped operations put the operand first.
// `load(p)` loads the lanes at p.
template <size_t kV, class D, class V, class T, class F, class Load>
HWY_INLINE void chain_apply(D d, V (&v)[kV], const T* x, int64_t stride, bool swapped, F f, Load load) {
  const size_t lanes = hn::Lanes(d);
  if (stride == 0) {
    const V w = hn::Set(d, x[0]);
    if (swapped)
      for (size_t k = 0; k < kV; ++k) v[k] = f(w, v[k]);
    else
      for (size_t k = 0; k < kV; ++k) v[k] = f(v[k], w);
  } else if (swapped) {
    for (size_t k = 0; k < kV; ++k) v[k] = f(load(x + k * lanes), v[k]);
  } else {
    for (size_t k = 0; k < kV; ++k) v[k] = f(v[k], load(x + k * lanes));
  }
}

// The lanes of a where step's condition at p (bools, one byte each, any nonzero byte true) as
// a mask of d's lanes: widened, then negated, so that a lane's sign bit is set where its byte
// is not zero. `valid` bytes are read: fewer than the lanes at the end of a row.
template <class D>
HWY_INLINE auto condition_mask(D d, const uint8_t* p, size_t valid) {
  const hn::Rebind<uint8_t, D> d8;
  const hn::RebindToSigned<D> di;
  HWY_ALIGN uint8_t part[64];
  if (valid < hn::Lanes(d)) {  // not past the row: it may end a page
    std::memset(part, 0, sizeof part);
    std::memcpy(part, p, valid);
    p = part;
  }
  const hn::RebindToUnsigned<D> du;
  const auto bytes = hn::LoadU(d8, p);
  const auto wide = [&] {  // bytes to 64-bit lanes through 32 (no direct promotion)
    if constexpr (sizeof(hn::TFromD<D>) == 8) return hn::PromoteTo(du, hn::PromoteTo(hn::Rebind<uint32_t, D>(), bytes));
    else return hn::PromoteTo(du, bytes);
  }();
  return hn::MaskFromVec(hn::BitCast(d, hn::Neg(hn::BitCast(di, wide))));
}

// A where step over the kV running vectors: kKeptFirst, they stay where the condition holds
// (WhereTrue), else where it does not (WhereFalse); the operand x takes the other lanes.
template <bool kKeptFirst, size_t kV, class D, class V, class T, class Load>
HWY_INLINE void where_step(D d, V (&v)[kV], const T* x, int64_t stride, const uint8_t* c, Load load, size_t valid) {
  const size_t lanes = hn::Lanes(d);
  auto pick = [](auto m, V running, V other) {
    return kKeptFirst ? hn::IfThenElse(m, running, other) : hn::IfThenElse(m, other, running);
  };
  if (valid < lanes) {  // one vector, the last of a row
    v[0] = pick(condition_mask(d, c, valid), v[0], stride ? load(x) : hn::Set(d, x[0]));
    return;
  }
  if (stride == 0) {
    const V o = hn::Set(d, x[0]);
    for (size_t k = 0; k < kV; ++k) v[k] = pick(condition_mask(d, c + k * lanes, lanes), v[k], o);
  } else {
    for (size_t k = 0; k < kV; ++k) v[k] = pick(condition_mask(d, c + k * lanes, lanes), v[k], load(x + k * lanes));
  }
}

// Loads the kV running vectors of lanes i .. i + kV L from `a` (stride 0: a broadcast) and
// applies every step to them (a unary step has no operand: `x` is null). `valid` lanes of the
// last vector are elements (all of them but at the end of a row).
template <size_t kV, class D, class V, class T, class Load>
HWY_INLINE void chain_steps(D d, V (&v)[kV], const T* a, int64_t sa, const ChainStep* steps, int count, int64_t i,
                            Load load, size_t valid) {
  const size_t lanes = hn::Lanes(d);
  for (size_t k = 0; k < kV; ++k) v[k] = sa == 0 ? hn::Set(d, a[0]) : load(a + i + static_cast<int64_t>(k * lanes));
  for (int s = 0; s < count;) {
    // The arithmetic steps in a run of their own: the running vectors stay in registers
    // through them (with the where steps and the math functions in the same loop, a compiler
    // keeps them in memory and loads and stores each of them at every step).
    for (; s < count && steps[s].op <= ChainOp::Sqrt; ++s) {
      const ChainStep& st = steps[s];
      const T* x = static_cast<const T*>(st.x) + (st.stride ? i : 0);
      switch (st.op) {
        case ChainOp::Add:
          chain_apply(
              d, v, x, st.stride, false, [](V p, V q) { return hn::Add(p, q); }, load);
          break;
        case ChainOp::Subtract:
          chain_apply(
              d, v, x, st.stride, false, [](V p, V q) { return hn::Sub(p, q); }, load);
          break;
        case ChainOp::Multiply:
          chain_apply(
              d, v, x, st.stride, false, [](V p, V q) { return hn::Mul(p, q); }, load);
          break;
        case ChainOp::Divide:
          chain_apply(
              d, v, x, st.stride, false, [](V p, V q) { return hn::Div(p, q); }, load);
          break;
        case ChainOp::SwappedAdd:
          chain_apply(
              d, v, x, st.stride, true, [](V p, V q) { return hn::Add(p, q); }, load);
          break;
        case ChainOp::SwappedSubtract:
          chain_apply(
              d, v, x, st.stride, true, [](V p, V q) { return hn::Sub(p, q); }, load);
          break;
        case ChainOp::SwappedMultiply:
          chain_apply(
              d, v, x, st.stride, true, [](V p, V q) { return hn::Mul(p, q); }, load);
          break;
        case ChainOp::SwappedDivide:
          chain_apply(
              d, v, x, st.stride, true, [](V p, V q) { return hn::Div(p, q); }, load);
          break;
        case ChainOp::Negative:
          for (size_t k = 0; k < kV; ++k) v[k] = hn::Neg(v[k]);
          break;
        case ChainOp::Absolute:
          for (size_t k = 0; k < kV; ++k) v[k] = hn::Abs(v[k]);
          break;
        case ChainOp::Sqrt:
          for (size_t k = 0; k < kV; ++k) v[k] = hn::Sqrt(v[k]);
          break;
        default: break;
      }
    }
    if (s == count) break;
    const ChainStep& st = steps[s++];
    switch (st.op) {
      case ChainOp::WhereTrue:
      case ChainOp::WhereFalse: {
        const T* x = static_cast<const T*>(st.x) + (st.stride ? i : 0);
        const bool kept_first = st.op == ChainOp::WhereTrue;
        if (st.cond_stride == 0) {  // one condition for every lane: the running values or x
          if ((st.cond[0] != 0) != kept_first)
            for (size_t k = 0; k < kV; ++k) v[k] = st.stride ? load(x + k * lanes) : hn::Set(d, x[0]);
        } else if (kept_first) {
          where_step<true>(d, v, x, st.stride, st.cond + i, load, valid);
        } else {
          where_step<false>(d, v, x, st.stride, st.cond + i, load, valid);
        }
        break;
      }
      case ChainOp::Exp:
        for (size_t k = 0; k < kV; ++k) v[k] = unary_value<Exp>(d, v[k]);
        break;
      case ChainOp::Log:
        for (size_t k = 0; k < kV; ++k) v[k] = unary_value<Log>(d, v[k]);
        break;
      case ChainOp::Apply: {  // the running values through the function's own loop, in place
        alignas(64) T values[kV * (64 / sizeof(T))];
        for (size_t k = 0; k < kV; ++k) hn::Store(v[k], d, values + k * lanes);
        st.f(values, values, 1, static_cast<int64_t>(kV * lanes));
        for (size_t k = 0; k < kV; ++k) v[k] = hn::Load(d, values + k * lanes);
        break;
      }
      default: break;
    }
  }
}

// A strip of kV vectors stays in registers through every step: one load of each operand
// and one store of the result per element, where node-by-node evaluation makes a pass over
// a buffer per step. The operation of a step is chosen once per strip, not per element.
// What is left after the strips runs a vector at a time, and the last partial vector reads
// and writes only its lanes (the others compute on zeros and are dropped): short rows, as
// in a stencil over a few hundred columns, stay vectorised to their end.
template <class T>
void chain_run(void* out, const void* pa, int64_t sa, const ChainStep* steps, int count, int64_t n) {
  constexpr size_t kV = 8;
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), strip = static_cast<int64_t>(kV) * lanes;
  T* o = static_cast<T*>(out);
  const T* a = static_cast<const T*>(pa);
  const auto whole = [d](const T* p) { return hn::LoadU(d, p); };
  int64_t i = 0;
  for (; i + strip <= n; i += strip) {
    V v[kV];
    chain_steps(d, v, a, sa, steps, count, i, whole, static_cast<size_t>(lanes));
    for (size_t k = 0; k < kV; ++k) hn::StoreU(v[k], d, o + i + static_cast<int64_t>(k) * lanes);
  }
  for (; i + lanes <= n; i += lanes) {
    V v[1];
    chain_steps(d, v, a, sa, steps, count, i, whole, static_cast<size_t>(lanes));
    hn::StoreU(v[0], d, o + i);
  }
  if (i == n) return;
  const size_t rest = static_cast<size_t>(n - i);
  const auto m = hn::FirstN(d, rest);
#if HWY_TARGET <= HWY_AVX2  // a masked load in hardware: nothing past the row is read
  const auto tail = [d, m](const T* p) { return hn::MaskedLoad(m, d, p); };
#else  // Highway's MaskedLoad is an aligned load of the whole vector here: it faults on an
       // unaligned row end and reads past the row (another tile's, or an unmapped page)
  const auto tail = [d, rest](const T* p) {
    HWY_ALIGN T part[kMaxLanes<T>] = {};
    std::memcpy(part, p, rest * sizeof(T));
    return hn::Load(d, part);
  };
#endif
  V v[1];
  chain_steps(d, v, a, sa, steps, count, i, tail, rest);
  hn::BlendedStore(v[0], m, d, o + i);
}

ChainLoop target_chain_loop(DType t) {
#if HWY_HAVE_SCALABLE || HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
  (void)t;
  return nullptr;  // arrays of vectors need fixed-size ones; portable code gains nothing
#else
  switch (t) {
    case DType::Float32: return &chain_run<float>;
    case DType::Float64: return &chain_run<double>;
    default: return nullptr;
  }
#endif
}

const char* target_name() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace tessera::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::detail {

HWY_EXPORT(target_unary_loop);
HWY_EXPORT(target_binary_loop);
HWY_EXPORT(target_where_loop);
HWY_EXPORT(target_cast_loop);
HWY_EXPORT(target_name);
HWY_EXPORT(target_chain_loop);

UnaryLoop arithmetic_unary_loop(UnaryOp op, DType t) { return HWY_DYNAMIC_DISPATCH(target_unary_loop)(op, t); }
BinaryLoop arithmetic_binary_loop(BinaryOp op, DType t) { return HWY_DYNAMIC_DISPATCH(target_binary_loop)(op, t); }
WhereLoop vector_where_loop(DType t) { return HWY_DYNAMIC_DISPATCH(target_where_loop)(t); }
CastLoop vector_cast_loop(DType from, DType to) { return HWY_DYNAMIC_DISPATCH(target_cast_loop)(from, to); }
const char* vector_target() { return HWY_DYNAMIC_DISPATCH(target_name)(); }
ChainLoop vector_chain_loop(DType t) { return HWY_DYNAMIC_DISPATCH(target_chain_loop)(t); }

UnaryLoop vector_unary_loop(UnaryOp op, DType t) {
  if (UnaryLoop l = math_unary_loop(op, t)) return l;
  return arithmetic_unary_loop(op, t);
}

BinaryLoop vector_binary_loop(BinaryOp op, DType t) {
  if (BinaryLoop l = math_binary_loop(op, t)) return l;
  return arithmetic_binary_loop(op, t);
}

}  // namespace tessera::detail
#endif  // HWY_ONCE
