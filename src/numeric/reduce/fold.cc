// Folds of any binary ufunc along the first axis of a matrix (the ufunc methods reduce,
// accumulate and reduceat for the ufuncs without a blocked reduction): each column is
// folded element after element in NumPy's order, a[s] op a[s+1] op ... . A float add
// over a segment (reduceat) is NumPy's a[s] + pairwise(a[s+1:e]). Tiles cut the columns
// only, so every value is computed by one worker in one order: the same for any number
// of tiles, cpus or ranks.
//
// This is a sequential fold, not the blocked reduction engine (ReduceOp and the combine
// stage of task/combine.h): NumPy defines these methods element after element — accumulate
// returns every running value, and an arbitrary ufunc need not be associative, so its
// values may not be regrouped into blocks and a tree.
#include <complex>
#include <string>
#include <type_traits>

#include "numeric/elementwise/ops.h"
#include "numeric/elementwise/value_checks.h"
#include "numeric/reduce/pairwise.h"
#include "tessera/errors.h"
#include "tessera/reduce.h"
#include "tessera/task.h"

namespace tessera {
namespace detail {
namespace {

struct Plus {
  template <class T>
  static T apply(T a, T b) {
    return a + b;
  }
};

// NumPy's pairwise sum of m complex numbers `step` bytes apart (loops_utils.h.src): the real
// and imaginary parts summed separately, four accumulators each up to 64 numbers, halves above.
template <class R>
std::complex<R> complex_pairwise(const char* a, int64_t m, int64_t step) {
  auto part = [&](int64_t j, int k) { return reinterpret_cast<const R*>(a + j * step)[k]; };
  if (m < 4) {
    R rr = -0.0, ri = -0.0;
    for (int64_t j = 0; j < m; ++j) {
      rr += part(j, 0);
      ri += part(j, 1);
    }
    return {rr, ri};
  }
  if (m <= 64) {
    R r[8];
    for (int k = 0; k < 4; ++k) {
      r[2 * k] = part(k, 0);
      r[2 * k + 1] = part(k, 1);
    }
    int64_t j = 4;
    for (; j < m - m % 4; j += 4)
      for (int k = 0; k < 4; ++k) {
        r[2 * k] += part(j + k, 0);
        r[2 * k + 1] += part(j + k, 1);
      }
    R rr = (r[0] + r[2]) + (r[4] + r[6]), ri = (r[1] + r[3]) + (r[5] + r[7]);
    for (; j < m; ++j) {
      rr += part(j, 0);
      ri += part(j, 1);
    }
    return {rr, ri};
  }
  const int64_t half = (m - m % 8) / 2;
  const std::complex<R> x = complex_pairwise<R>(a, half, step),
                        y = complex_pairwise<R>(a + half * step, m - half, step);
  return {x.real() + y.real(), x.imag() + y.imag()};
}

// The loop of `op` from `t` to itself (*compute = t), or for float16 without one, float32's
// (*compute = float32); nullptr when there is neither.
BinaryLoop fold_loop(BinaryOp op, DType t, DType* compute) {
  DType result;
  *compute = t;
  if (BinaryLoop loop = binary_loop(op, t, &result)) return result == t ? loop : nullptr;
  if (t != DType::Float16) return nullptr;
  *compute = DType::Float32;
  BinaryLoop loop = binary_loop(op, DType::Float32, &result);
  return result == DType::Float32 ? loop : nullptr;
}

// What one fold computes: its ufunc's loop (the input's dtype to itself, or float32's for
// float16), the method, and the first row of each segment.
struct FoldPlan {
  BinaryOp op;
  FoldKind kind;
  std::vector<int64_t> starts;
  BinaryLoop loop = nullptr;
  DType compute = DType::Float64;  // the loop's dtype: the input's, or float32 for float16
};

// NumPy's float add over a segment: dst (holding a[s]) += pairwise(a[lo:hi]) per column of
// `in`'s tile (rows from 0, the tile's w columns).
bool pairwise_add(char* dst, const Tile& in, int64_t lo, int64_t hi, int64_t w, int64_t sout) {
  const int64_t isz = itemsize(in.dtype());
  const char* base = static_cast<const char*>(in.data());
  auto at = [&](int64_t i, int64_t c) { return base + (i * in.strides()[0] + c * in.strides()[1]) * isz; };
  return visit_dtype(in.dtype(), [&](auto tag) -> bool {
    using T = decltype(tag);
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      T* d = reinterpret_cast<T*>(dst);
      const int64_t step = in.strides()[0] * static_cast<int64_t>(sizeof(T));
      for (int64_t c = 0; c < w; ++c) {
        const std::complex<R> s = complex_pairwise<R>(at(lo, c), hi - lo, step);
        d[c * sout] = T(d[c * sout].real() + s.real(), d[c * sout].imag() + s.imag());
      }
      return true;
    } else if constexpr (!(std::is_same_v<T, float> || std::is_same_v<T, double>)) {
      return false;
    } else {
      const int64_t n = hi - lo;
      std::vector<int64_t> offsets(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) offsets[static_cast<size_t>(i)] = i * in.strides()[0];
      RowSource src;
      src.base = at(lo, 0);
      src.offsets = offsets.data();
      src.col_stride = in.strides()[1];
      src.isize = static_cast<int>(sizeof(T));
      src.load = in.strides()[1] == 1 ? nullptr : cast_loop(in.dtype(), in.dtype());
      // A loaded row, the result, then the pairwise stack: 8 accumulator rows and one row per level.
      std::vector<T> scratch(static_cast<size_t>(w) * (2 + 8 + 64));
      T* buf = scratch.data();
      T* sums = buf + w;
      reduction::RowReader<T> row{src, w, buf};
      reduction::pairwise_rows<T, Plus>(sums, row, 0, n, sums + w);
      T* d = reinterpret_cast<T*>(dst);
      for (int64_t c = 0; c < w; ++c) d[c * sout] = d[c * sout] + sums[c];
      return true;
    }
  });
}

// Args: 0 the output (segments, columns), the key, whole along its first axis; 1 the input
// (rows, columns) following the output's columns, whole along its rows.
void fold_columns(TaskContext& ctx) {
  const FoldPlan& plan = ctx.payload<FoldPlan>();
  const Tile &out = ctx.array(0), &in = ctx.array(1);
  const int64_t w = out.extents()[1];
  if (w <= 0) return;
  const int64_t rows = in.extents()[0];
  const int64_t isz = itemsize(in.dtype());
  const int64_t sin = in.strides()[1], sout = out.strides()[1];
  char* const out_base = static_cast<char*>(out.data());
  const char* const in_base = static_cast<const char*>(in.data());
  auto at_in = [&](int64_t i) { return in_base + i * in.strides()[0] * isz; };
  auto at_out = [&](int64_t k) { return out_base + k * out.strides()[0] * isz; };
  const CastLoop copy = cast_loop(in.dtype(), in.dtype());
  // dst = dst op x over the w columns (per element when a stride is not 1); float16 computed
  // in float32 and rounded at every step, as NumPy's float16 loops do.
  std::vector<float> wide;
  CastLoop widen = nullptr, narrow = nullptr;
  if (plan.compute != in.dtype()) {
    wide.resize(static_cast<size_t>(2 * w));
    widen = cast_loop(in.dtype(), plan.compute);
    narrow = cast_loop(plan.compute, in.dtype());
  }
  const BinaryLoop loop = plan.loop;
  auto step = [&](char* dst, const char* x) {
    if (widen) {
      widen(wide.data(), dst, sout, w);
      widen(wide.data() + w, x, sin, w);
      loop(wide.data(), wide.data(), 1, wide.data() + w, 1, w);
      if (sout == 1) {
        narrow(dst, wide.data(), 1, w);
      } else {
        for (int64_t c = 0; c < w; ++c) narrow(dst + c * sout * isz, wide.data() + c, 1, 1);
      }
    } else if (sout == 1 && sin == 1) {
      loop(dst, dst, 1, x, 1, w);
    } else {
      for (int64_t c = 0; c < w; ++c) loop(dst + c * sout * isz, dst + c * sout * isz, 0, x + c * sin * isz, 0, 1);
    }
  };
  // dst = src over the w columns, src's columns `ss` elements apart.
  auto put = [&](char* dst, const char* src, int64_t ss) {
    if (sout == 1) {
      copy(dst, src, ss, w);
    } else {
      for (int64_t c = 0; c < w; ++c) copy(dst + c * sout * isz, src + c * ss * isz, 0, 1);
    }
  };
  if (plan.kind == FoldKind::Accumulate) {
    if (rows == 0) return;
    put(at_out(0), at_in(0), sin);
    for (int64_t i = 1; i < rows; ++i) {
      put(at_out(i), at_out(i - 1), sout);
      step(at_out(i), at_in(i));
    }
    return;
  }
  const int64_t segments = static_cast<int64_t>(plan.starts.size());
  for (int64_t k = 0; k < segments; ++k) {
    const int64_t s = plan.starts[static_cast<size_t>(k)];
    int64_t e = plan.kind == FoldKind::Reduce || k + 1 == segments ? rows : plan.starts[static_cast<size_t>(k + 1)];
    if (e <= s) e = s + 1;  // NumPy: a later index not after this one gives a[s] alone
    char* dst = at_out(k);
    put(dst, at_in(s), sin);
    if (e - s > 1 && plan.kind == FoldKind::Reduceat && plan.op == BinaryOp::Add &&
        pairwise_add(dst, in, s + 1, e, w, sout))
      continue;
    for (int64_t i = s + 1; i < e; ++i) step(dst, at_in(i));
  }
}

BinaryOp binary_op_named(const std::string& name) {
  for (int i = 0; i < static_cast<int>(BinaryOp::kCount); ++i)
    if (name == binary_name(static_cast<BinaryOp>(i))) return static_cast<BinaryOp>(i);
  throw ValueError("no binary ufunc named '" + name + "'");
}

}  // namespace
}  // namespace detail

ndarray ufunc_fold(const ndarray& a, const std::string& ufunc, FoldKind kind, const std::vector<int64_t>& indices) {
  using namespace detail;
  TESSERA_CHECK(a.ndim() == 2, "a fold takes a (rows, columns) matrix");
  const BinaryOp op = binary_op_named(ufunc);
  DType compute;
  if (fold_loop(op, a.dtype(), &compute) == nullptr)
    throw TypeError("ufunc '" + ufunc + "' has no loop from " + dtype_name(a.dtype()) + " to itself");
  const int64_t rows = a.shape()[0], cols = a.shape()[1];
  std::vector<int64_t> starts;
  int64_t out_rows = rows;
  if (kind == FoldKind::Reduce) {
    if (rows == 0) throw ValueError("zero-size array to reduction operation " + ufunc + " which has no identity");
    starts = {0};
    out_rows = 1;
  } else if (kind == FoldKind::Reduceat) {
    for (size_t k = 0; k < indices.size(); ++k) {
      int64_t s = indices[k];
      if (s < 0 || s >= rows)
        throw IndexError("index " + std::to_string(indices[k]) + " out-of-bounds in " + ufunc + ".reduceat [0, " +
                         std::to_string(rows) + ")");
      starts.push_back(s);
    }
    out_rows = static_cast<int64_t>(starts.size());
  }
  if (op == BinaryOp::Power) check_fold_exponents(a, starts, kind == FoldKind::Reduceat);
  ndarray y = new_array(Shape{out_rows, cols}, a.dtype());
  if (out_rows > 0 && cols > 0 && rows > 0) {
    static const Task fold("numpy.sequential_fold", fold_columns);
    FoldPlan plan{op, kind, std::move(starts), fold_loop(op, a.dtype(), &compute), compute};
    const std::string name = std::string(binary_name(op)) + (kind == FoldKind::Reduce       ? ".reduce"
                                                             : kind == FoldKind::Accumulate ? ".accumulate"
                                                                                            : ".reduceat");
    launch(fold, {out(y), in(a)}, {}, {broadcast(0, {0}), scale(1, 0, Shape{std::max<int64_t>(rows, 1), 1})},
           {.name = name, .weight = std::max<int64_t>(rows, 1), .payload = Payload::of(std::move(plan))});
  }
  return y;
}

}  // namespace tessera
