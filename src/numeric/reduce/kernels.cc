// The folding reductions (sum, prod, any, all) instantiated per accumulation dtype,
// the `x != 0` loads, and the table that picks a reduction's kernels.
#include "numeric/reduce/kernels.h"

#include <type_traits>

#include "data/convert.h"
#include "numeric/reduce/pairwise.h"
#include "tessera/errors.h"
#include "tessera/scalar.h"

namespace tessera::detail {

namespace {
using namespace reduction;

// Integer arithmetic wraps like NumPy's: compute in an unsigned type at least as wide as int.
template <class T>
using Wrap = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

struct SumOp {
  static constexpr bool vectorizes = true;  // apply works lane by lane on GCC vectors
  template <class T>
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<Wrap<T>>(a) + static_cast<Wrap<T>>(b));
    else return a + b;
  }
};

struct ProdOp {
  static constexpr bool vectorizes = true;
  template <class T>
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<Wrap<T>>(a) * static_cast<Wrap<T>>(b));
    else if constexpr (is_complex_v<T>)  // NumPy's formula, not C's Annex G (which differs on inf/nan)
      return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
    else return a * b;
  }
};

struct AnyOp {
  static bool apply(bool a, bool b) { return a | b; }
};
struct AllOp {
  static bool apply(bool a, bool b) { return a & b; }
};

template <class T, class Op>
void block_kernel(void* out, const void* in, int64_t n) {
  *static_cast<T*>(out) = pairwise<T, Op>(static_cast<const T*>(in), n);
}

template <class T, class Op>
void rows_kernel(void* out, const RowSource& src, int64_t n, int64_t w) {
  T* scratch = rows_scratch<T>(w);
  RowReader<T> row{src, w, scratch};
  pairwise_rows<T, Op>(static_cast<T*>(out), row, 0, n, scratch + w);
}

template <class T, class Op>
void combine_kernel(void* out, const void* a, const void* b) {
  *static_cast<T*>(out) = Op::apply(*static_cast<const T*>(a), *static_cast<const T*>(b));
}

template <class T, class Op>
ReduceKernels folding() {
  ReduceKernels k;
  k.block = &block_kernel<T, Op>;
  k.rows = &rows_kernel<T, Op>;
  k.combine = &combine_kernel<T, Op>;
  return k;
}

template <class D, class S>
void nonzero(void* out, const void* in, int64_t stride, int64_t n) {
  D* __restrict o = static_cast<D*>(out);
  const S* __restrict s = static_cast<const S*>(in);
  if constexpr (is_complex_v<S>) {
    for (int64_t i = 0; i < n; ++i) o[i] = s[i * stride].real() != 0 || s[i * stride].imag() != 0;
  } else if (stride == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = s[i] != S(0) ? D(1) : D(0);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = s[i * stride] != S(0) ? D(1) : D(0);
  }
}

}  // namespace

const char* reduce_ufunc_name(ReduceKind k) {
  switch (k) {
    case ReduceKind::Sum: return "add";
    case ReduceKind::Prod: return "multiply";
    case ReduceKind::Max: return "maximum";
    case ReduceKind::Min: return "minimum";
    case ReduceKind::Any: return "logical_or";
    case ReduceKind::All: return "logical_and";
    case ReduceKind::ArgMax: return "argmax";
    case ReduceKind::ArgMin: return "argmin";
  }
  return "reduce";
}

ReduceKernels reduce_kernels(ReduceKind kind, DType acc) {
  TESSERA_CHECK(acc != DType::Float16, "float16 reductions accumulate in float32");
  switch (kind) {
    case ReduceKind::Any:
    case ReduceKind::All:
      TESSERA_CHECK(acc == DType::Bool, "any/all accumulate in bool");
      return kind == ReduceKind::Any ? folding<bool, AnyOp>() : folding<bool, AllOp>();
    case ReduceKind::Max:
    case ReduceKind::Min:
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin: return extreme_kernels(kind, acc);
    case ReduceKind::Sum:
    case ReduceKind::Prod: break;
  }
  return visit_dtype(acc, [kind](auto tag) -> ReduceKernels {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, _Float16>) return {};
    else if (kind == ReduceKind::Sum) return folding<T, SumOp>();
    else return folding<T, ProdOp>();
  });
}

CastLoop nonzero_loop(DType from, DType to) {
  TESSERA_CHECK(to == DType::Bool || to == DType::Int64, "nonzero loads produce bool or int64");
  return visit_dtype(from, [to](auto tag) -> CastLoop {
    using S = decltype(tag);
    return to == DType::Bool ? &nonzero<bool, S> : &nonzero<int64_t, S>;
  });
}

void reduce_identity(ReduceKind kind, DType acc, void* out) {
  Scalar one = kind == ReduceKind::Prod || kind == ReduceKind::All ? Scalar(int64_t{1}) : Scalar(int64_t{0});
  one.to_bytes(acc, out);
}

}  // namespace tessera::detail
