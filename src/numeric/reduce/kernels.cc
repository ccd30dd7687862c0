// The reduction loops, instantiated once per (reduction, accumulation dtype).
#include "numeric/reduce/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "data/convert.h"
#include "tessera/errors.h"
#include "tessera/scalar.h"

namespace tessera::detail {
namespace {

// Integer arithmetic wraps like NumPy's: compute in an unsigned type at least as wide as int.
template <class T>
using Wrap = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
bool is_nan(const T& v) {
  if constexpr (is_complex_v<T>) return std::isnan(v.real()) || std::isnan(v.imag());
  else if constexpr (is_floating_v<T>) return v != v;
  else return false;
}

struct SumOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<Wrap<T>>(a) + static_cast<Wrap<T>>(b));
    else return a + b;
  }
};

struct ProdOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<Wrap<T>>(a) * static_cast<Wrap<T>>(b));
    else if constexpr (is_complex_v<T>)  // NumPy's formula, not C's Annex G (which differs on inf/nan)
      return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
    else return a * b;
  }
};

// NumPy's maximum/minimum: NaN propagates (the first one wins), complex compares lexicographically.
template <bool kMax>
struct ExtremeOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_complex_v<T>) {
      const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
      const bool keep = kMax ? ((ar > br && !std::isnan(ai) && !std::isnan(bi)) || (ar == br && ai >= bi))
                             : ((ar < br && !std::isnan(ai) && !std::isnan(bi)) || (ar == br && ai <= bi));
      return keep || std::isnan(ar) || std::isnan(ai) ? a : b;
    } else if constexpr (is_floating_v<T>) {
      return (kMax ? a >= b : a <= b) || a != a ? a : b;
    } else {
      return (kMax ? a >= b : a <= b) ? a : b;
    }
  }
};

struct AnyOp { static bool apply(bool a, bool b) { return a || b; } };
struct AllOp { static bool apply(bool a, bool b) { return a && b; } };

// NumPy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src), for any operation:
// eight interleaved accumulators up to 128 values, halves (multiples of 8) above.
template <class T, class Op>
T pairwise(const T* a, int64_t n) {
  if (n < 8) {
    T res = a[0];
    for (int64_t i = 1; i < n; ++i) res = Op::apply(res, a[i]);
    return res;
  }
  if (n <= 128) {
    T r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    int64_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (int k = 0; k < 8; ++k) r[k] = Op::apply(r[k], a[i + k]);
    T res = Op::apply(Op::apply(Op::apply(r[0], r[1]), Op::apply(r[2], r[3])),
                      Op::apply(Op::apply(r[4], r[5]), Op::apply(r[6], r[7])));
    for (; i < n; ++i) res = Op::apply(res, a[i]);
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return Op::apply(pairwise<T, Op>(a, n2), pairwise<T, Op>(a + n2, n - n2));
}

// Row i of a block as w contiguous accumulation values (loaded into `buf` when needed).
template <class T>
struct RowReader {
  const RowSource& src;
  int64_t w;
  T* buf;

  const T* operator()(int64_t i) const {
    const char* p = src.base + src.offsets[i] * src.isize;
    if (!src.load) return reinterpret_cast<const T*>(p);
    src.load(buf, p, src.col_stride, w);
    if (src.mask) {
      const char* m = src.mask + src.mask_offsets[i];
      const T fill = *static_cast<const T*>(src.fill);
      for (int64_t c = 0; c < w; ++c)
        if (!m[c * src.mask_col_stride]) buf[c] = fill;
    }
    return buf;
  }
};

// `pairwise` applied to every column of rows [lo, lo + n): the same operations in the
// same order per column. `stack` holds 8 accumulator rows plus one row per recursion level.
template <class T, class Op>
void pairwise_rows(T* out, const RowReader<T>& row, int64_t lo, int64_t n, T* stack) {
  const int64_t w = row.w;
  auto fold = [w](T* acc, const T* x) {
    for (int64_t c = 0; c < w; ++c) acc[c] = Op::apply(acc[c], x[c]);
  };
  if (n < 8) {
    std::copy_n(row(lo), w, out);
    for (int64_t i = 1; i < n; ++i) fold(out, row(lo + i));
    return;
  }
  if (n <= 128) {
    T* r = stack;
    for (int k = 0; k < 8; ++k) std::copy_n(row(lo + k), w, r + k * w);
    int64_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (int k = 0; k < 8; ++k) fold(r + k * w, row(lo + i + k));
    for (int64_t c = 0; c < w; ++c)
      out[c] = Op::apply(Op::apply(Op::apply(r[c], r[w + c]), Op::apply(r[2 * w + c], r[3 * w + c])),
                         Op::apply(Op::apply(r[4 * w + c], r[5 * w + c]), Op::apply(r[6 * w + c], r[7 * w + c])));
    for (; i < n; ++i) fold(out, row(lo + i));
    return;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  pairwise_rows<T, Op>(out, row, lo, n2, stack);
  T* right = stack;
  pairwise_rows<T, Op>(right, row, lo + n2, n - n2, stack + w);
  fold(out, right);
}

// Scratch of the rows kernels: a loaded row plus the pairwise stack (8 + 6 levels for 4096 rows).
template <class T>
T* rows_scratch(int64_t w) {
  thread_local std::vector<unsigned char> scratch;
  const size_t need = static_cast<size_t>(w) * 24 * sizeof(T);
  if (scratch.size() < need) scratch.resize(need);
  return reinterpret_cast<T*>(scratch.data());
}

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

// argmax/argmin: NumPy keeps the first best value; the first NaN beats everything.
template <class T, bool kMax>
bool better(const T& x, const T& best) {
  if (is_nan(best)) return false;
  if (is_nan(x)) return true;
  if constexpr (is_complex_v<T>) {
    return kMax ? (x.real() > best.real() || (x.real() == best.real() && x.imag() > best.imag()))
                : (x.real() < best.real() || (x.real() == best.real() && x.imag() < best.imag()));
  } else {
    return kMax ? x > best : x < best;
  }
}

template <class T, bool kMax>
void arg_block_kernel(void* value, int64_t* index, const void* in, int64_t n) {
  const T* a = static_cast<const T*>(in);
  T best = a[0];
  int64_t at = 0;
  for (int64_t i = 1; i < n && !is_nan(best); ++i)
    if (better<T, kMax>(a[i], best)) { best = a[i]; at = i; }
  *static_cast<T*>(value) = best;
  *index = at;
}

template <class T, bool kMax>
void arg_rows_kernel(void* value, int64_t* index, const RowSource& src, int64_t n, int64_t w) {
  RowReader<T> row{src, w, rows_scratch<T>(w)};
  T* best = static_cast<T*>(value);
  std::copy_n(row(0), w, best);
  std::fill_n(index, w, int64_t{0});
  for (int64_t i = 1; i < n; ++i) {
    const T* x = row(i);
    for (int64_t c = 0; c < w; ++c)
      if (better<T, kMax>(x[c], best[c])) { best[c] = x[c]; index[c] = i; }
  }
}

template <class T, bool kMax>
bool arg_better(const void* candidate, const void* best) {
  return better<T, kMax>(*static_cast<const T*>(candidate), *static_cast<const T*>(best));
}

template <class T, class Op>
ReduceKernels folding() {
  ReduceKernels k;
  k.block = &block_kernel<T, Op>;
  k.rows = &rows_kernel<T, Op>;
  k.combine = &combine_kernel<T, Op>;
  return k;
}

template <class T, bool kMax>
ReduceKernels arg() {
  ReduceKernels k;
  k.arg_block = &arg_block_kernel<T, kMax>;
  k.arg_rows = &arg_rows_kernel<T, kMax>;
  k.arg_better = &arg_better<T, kMax>;
  return k;
}

template <class D, class S>
void nonzero(void* out, const void* in, int64_t stride, int64_t n) {
  D* o = static_cast<D*>(out);
  const S* s = static_cast<const S*>(in);
  for (int64_t i = 0; i < n; ++i) {
    const S& v = s[i * stride];
    bool nz;
    if constexpr (is_complex_v<S>) nz = v.real() != 0 || v.imag() != 0;
    else nz = v != S(0);
    o[i] = static_cast<D>(nz);
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
  if (kind == ReduceKind::Any || kind == ReduceKind::All) {
    TESSERA_CHECK(acc == DType::Bool, "any/all accumulate in bool");
    return kind == ReduceKind::Any ? folding<bool, AnyOp>() : folding<bool, AllOp>();
  }
  return visit_dtype(acc, [kind](auto tag) -> ReduceKernels {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, _Float16>) {
      return {};
    } else {
      switch (kind) {
        case ReduceKind::Sum: return folding<T, SumOp>();
        case ReduceKind::Prod: return folding<T, ProdOp>();
        case ReduceKind::Max: return folding<T, ExtremeOp<true>>();
        case ReduceKind::Min: return folding<T, ExtremeOp<false>>();
        case ReduceKind::ArgMax: return arg<T, true>();
        case ReduceKind::ArgMin: return arg<T, false>();
        default: return {};
      }
    }
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
