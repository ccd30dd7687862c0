// sort, argsort and searchsorted as launches of registered tasks (tessera/task.h). Along an
// axis with several rows, "sort.rows" sorts rows in parallel (tiles cut the other axes). One
// long row is cut into chunks that "sort.chunks" sorts in parallel, then "sort.merge" rounds
// merge neighbouring runs pairwise, each merge cut by output range (points the launch names
// itself): a point finds where its range starts in both runs by binary search (the merge
// path), so a merge of two runs keeps every core busy. What a point computes on its memory
// is the kernel table of the processor kind its variant runs on (kernels.h;
// cpu/sort_kernels.cc): values sort in NumPy's order, positions (argsort) stably, and an
// unstable sort orders values that compare equal but differ in their bits (0.0 and -0.0,
// NaNs) by their bits, so no result depends on the chunks.
#include "tessera/sort.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "build_config.h"
#include "data/strided_rows.h"
#include "numeric/sort/kernels.h"
#include "runtime/runtime.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/shape.h"
#include "tessera/task.h"

namespace tessera {
namespace detail {
namespace {

constexpr int64_t kChunkedSort = int64_t{1} << 17;  // a row this long is sorted in chunks

using SortBody = void (*)(TaskContext&, const SortKernels&);

// A task whose variants run `body` with the kernel table of their processor kind: the cpu
// table, and in a build with CUDA the GPU one once the family has one.
std::vector<TaskVariant> sort_variants(SortBody body) {
  std::vector<TaskVariant> v{{ProcessorKind::CPU, [body](TaskContext& ctx) { body(ctx, *cpu_sort_kernels()); }}};
  if constexpr (kCudaBuild) {
    if (const SortKernels* gpu = gpu_sort_kernels())
      v.push_back({ProcessorKind::GPU, [body, gpu](TaskContext& ctx) { body(ctx, *gpu); }});
  }
  return v;
}

// Element `i` of a tile as raw memory (null for an empty tile).
char* element(const Tile& t, int64_t i) {
  return t.data() == nullptr ? nullptr : static_cast<char*>(t.data()) + i * itemsize(t.dtype());
}

// The work per element of a sort or search over `n` elements.
int64_t log_weight(int64_t n) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::log2(static_cast<double>(std::max<int64_t>(2, n)))));
}

// Sorts each row (the last axis) of array 1 into array 0 (values, or int64 positions when
// scalar 0 is true; stably when scalar 1 is); tiles cut the rows only. The two may be the
// same view (a.sort()).
void sort_rows_body(TaskContext& ctx, const SortKernels& kernels) {
  const Tile &out = ctx.array(0), &in = ctx.array(1);
  if (in.size() == 0) return;
  const bool positions = ctx.scalar(0).as_bool(), stable = ctx.scalar(1).as_bool();
  const DType t = in.dtype();
  const int64_t n = in.extents().back(), si = in.strides().back(), so = out.strides().back();
  visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    thread_local std::vector<char> scratch;
    scratch.resize(static_cast<size_t>(n) * std::max(sizeof(T), sizeof(int64_t)));
    const T* x0 = static_cast<const T*>(in.data());
    StridedRows rows(in.extents(), {out.strides().data(), in.strides().data()});
    rows.for_each([&](const int64_t*, const int64_t* off) {
      const T* x = x0 + off[1];
      if (positions) {
        int64_t* y = static_cast<int64_t*>(out.data()) + off[0];
        int64_t* pos = reinterpret_cast<int64_t*>(scratch.data());
        kernels.sort_positions(t, x, si, 0, n, pos);
        for (int64_t i = 0; i < n; ++i) y[i * so] = pos[i];
      } else {
        T* y = static_cast<T*>(out.data()) + off[0];
        T* v = reinterpret_cast<T*>(scratch.data());
        for (int64_t i = 0; i < n; ++i) v[i] = x[i * si];
        kernels.sort_values(t, v, n, stable);
        for (int64_t i = 0; i < n; ++i) y[i * so] = v[i];
      }
    });
  });
}

void launch_row_sort(const ndarray& y, const ndarray& x, bool positions, bool stable) {
  static const Task task("sort.rows", sort_variants(&sort_rows_body));
  const int nd = x.ndim();
  launch(task, {out(y), in(x)}, {Scalar(positions), Scalar(stable)}, {align(1, 0), broadcast(0, {nd - 1})},
         {.name = positions ? "argsort" : "sort", .weight = log_weight(x.shape().back())});
}

// One long row, in runs: `bounds` are the runs' starts and the end.
using Bounds = std::vector<int64_t>;

// Sorts each run of array 1 (1-D; a point per run, its box of every argument) into array 0
// (values) and, when there is an array 2, its positions into that; stably when scalar 0 is.
void sort_chunks_body(TaskContext& ctx, const SortKernels& kernels) {
  const Tile &values = ctx.array(0), &in = ctx.array(1);
  const int64_t lo = in.lo()[0], n = in.extents()[0], si = in.strides()[0];
  if (n == 0) return;
  const DType t = in.dtype();
  visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    T* v = static_cast<T*>(values.data());
    const T* x = static_cast<const T*>(in.data());
    if (ctx.arrays() == 3) {
      int64_t* pos = static_cast<int64_t*>(ctx.array(2).data());
      // Positions count from the row's first element: the key is read from there.
      kernels.sort_positions(t, x - lo * si, si, lo, n, pos);
      for (int64_t i = 0; i < n; ++i) v[i] = x[(pos[i] - lo) * si];
    } else {
      for (int64_t i = 0; i < n; ++i) v[i] = x[i * si];
      kernels.sort_values(t, v, n, ctx.scalar(0).as_bool());
    }
  });
}

void launch_chunk_sort(const ndarray& values, const ndarray& in, const ndarray& positions, const Bounds& bounds,
                       bool stable) {
  static const Task task("sort.chunks", sort_variants(&sort_chunks_body));
  std::vector<Argument> args{out(values), tessera::in(in)};
  if (positions.valid()) args.push_back(out(positions));
  std::vector<std::vector<Rect>> points;
  for (size_t r = 0; r + 1 < bounds.size(); ++r) points.emplace_back(args.size(), Rect({bounds[r]}, {bounds[r + 1]}));
  launch(task, std::move(args), {Scalar(stable)}, {},
         {.name = positions.valid() ? "argsort" : "sort", .points = std::move(points)});
}

// What a merge round knows: the runs it pairs off.
struct MergeSpec {
  Bounds bounds;
  bool by_bits;
};

// Merges neighbouring runs of array 1 (values) and array 3 (positions, when there are four
// arrays) pairwise into arrays 0 and 2; a last run without a partner is copied. A point is a
// range of the output (its box of the written arrays) and reads the pair of runs it falls in.
void merge_body(TaskContext& ctx, const SortKernels& kernels) {
  const MergeSpec& spec = ctx.payload<MergeSpec>();
  const Bounds& b = spec.bounds;
  const Tile &to = ctx.array(0), &from = ctx.array(1);
  const int64_t lo = to.lo()[0], hi = to.hi()[0];
  if (hi <= lo) return;
  // The pair of runs this range of the output belongs to.
  size_t r = 0;
  while (r + 2 < b.size() && b[r + 2] <= lo) r += 2;
  const int64_t a0 = b[r], a1 = b[std::min(r + 1, b.size() - 1)], b1 = b[std::min(r + 2, b.size() - 1)];
  // The kernel counts from element 0 of each (contiguous) array: the tiles start at lo and a0.
  const int64_t from0 = from.lo()[0];
  const char* vfrom = element(from, -from0);
  char* vto = element(to, -lo);
  const int64_t* pfrom = nullptr;
  int64_t* pto = nullptr;
  if (ctx.arrays() == 4) {
    pto = static_cast<int64_t*>(ctx.array(2).data()) - lo;
    pfrom = static_cast<const int64_t*>(ctx.array(3).data()) - ctx.array(3).lo()[0];
  }
  kernels.merge_range(from.dtype(), vfrom, vto, pfrom, pto, a0, a1, b1, lo, hi, spec.by_bits);
}

void launch_merge(const ndarray& to_values, const ndarray& to_positions, const ndarray& from_values,
                  const ndarray& from_positions, const Bounds& bounds, int pieces, bool stable) {
  static const Task task("sort.merge", sort_variants(&merge_body));
  const bool with_positions = to_positions.valid();
  std::vector<Argument> args{out(to_values), in(from_values)};
  if (with_positions) {
    args.push_back(out(to_positions));
    args.push_back(in(from_positions));
  }
  const int64_t total = bounds.back() - bounds.front();
  std::vector<std::vector<Rect>> points;
  for (size_t r = 0; r + 1 < bounds.size(); r += 2) {
    const int64_t lo = bounds[r], hi = bounds[std::min(r + 2, bounds.size() - 1)];
    const int64_t parts = std::max<int64_t>(1, (hi - lo) * pieces / std::max<int64_t>(1, total));
    for (int64_t p = 0; p < parts; ++p) {
      const Rect range({lo + (hi - lo) * p / parts}, {lo + (hi - lo) * (p + 1) / parts}), pair({lo}, {hi});
      std::vector<Rect> boxes{range, pair};
      if (with_positions) boxes.insert(boxes.end(), {range, pair});
      points.push_back(std::move(boxes));
    }
  }
  launch(task, std::move(args), {}, {},
         {.name = with_positions ? "argsort (merge)" : "sort (merge)",
          .payload = Payload::of(MergeSpec{bounds, !stable && !with_positions}),
          .points = std::move(points)});
}

// Array 0 (int64) receives, for each element of array 1 (aligned), its insertion point in
// array 2, a sorted 1-D array every point reads whole; after the elements equal to it when
// scalar 0 is true.
void search_sorted_body(TaskContext& ctx, const SortKernels& kernels) {
  const Tile &out = ctx.array(0), &v = ctx.array(1), &a = ctx.array(2);
  if (out.size() == 0) return;
  const bool right = ctx.scalar(0).as_bool();
  const int64_t n = a.extents()[0], s = a.strides()[0];
  const int64_t isz = itemsize(v.dtype());
  // A run along the last axis at a time.
  StridedRows rows(out.extents(), {out.strides().data(), v.strides().data()});
  const int64_t count = rows.length(), os = out.strides().back(), vs = v.strides().back();
  rows.for_each([&](const int64_t*, const int64_t* off) {
    kernels.insertion_points(a.dtype(), a.data(), n, s, static_cast<const char*>(v.data()) + off[1] * isz, vs, count,
                             static_cast<int64_t*>(out.data()) + off[0], os, right);
  });
}

void launch_search_sorted(const ndarray& out, const ndarray& v, const ndarray& a, bool right) {
  static const Task task("sort.searchsorted", sort_variants(&search_sorted_body));
  launch(task, {tessera::out(out), in(v), in(a)}, {Scalar(right)}, {align(1, 0), broadcast(2)},
         {.name = "searchsorted", .weight = log_weight(a.size())});
}

// Sorts the last axis of `in` into `out` (positions into `out` when `positions`).
void sort_rows(const ndarray& out, const ndarray& in, bool positions, bool stable) {
  const Runtime& rt = Runtime::get();
  const int64_t n = in.shape().back();
  // How many chunks is a scheduling choice: every order above gives one result (positions by
  // position on ties, values by their bits), so the chunks may follow the machine.
  const int pieces = rt.pieces() * rt.ranks();
  if (in.ndim() != 1 || n < kChunkedSort || pieces < 2 || rt.ranks() > 1) {
    launch_row_sort(out, in, positions, stable);
    return;
  }
  // Chunks: a power of two, at least the pieces, so merges pair them off evenly.
  int chunks = 1;
  while (chunks < pieces) chunks *= 2;
  Bounds bounds;
  for (int c = 0; c <= chunks; ++c) bounds.push_back(n * c / chunks);
  ndarray values[2] = {new_array({n}, in.dtype()), new_array({n}, in.dtype())};
  ndarray pos[2];
  if (positions) pos[0] = new_array({n}, DType::Int64), pos[1] = new_array({n}, DType::Int64);
  launch_chunk_sort(values[0], in, pos[0], bounds, stable);
  int cur = 0;
  // The last merge writes the result itself when it is a dense array of its own (not `in`).
  const bool direct = out.strides_bytes()[0] == out.itemsize() && !out.shares_storage(in);
  while (bounds.size() > 2) {
    Bounds next;
    for (size_t r = 0; r < bounds.size(); r += 2) next.push_back(bounds[r]);
    if (next.back() != bounds.back()) next.push_back(bounds.back());
    const bool last = next.size() == 2 && direct;
    ndarray to_values = last && !positions ? out : values[1 - cur];
    ndarray to_pos = last && positions ? out : pos[1 - cur];
    launch_merge(to_values, to_pos, values[cur], pos[cur], bounds, pieces, stable);
    bounds = std::move(next);
    cur = 1 - cur;
    if (last) return;
  }
  assign(out, positions ? pos[cur] : values[cur]);
}

// `a` with `axis` moved last (flattened when none), and a new result of its shape.
std::pair<ndarray, ndarray> prepare(const ndarray& a, std::optional<int64_t> axis, DType result) {
  ndarray x = axis ? a : ravel(a);
  if (x.ndim() == 0) throw AxisError("axis -1 is out of bounds for array of dimension 0");
  const int ax = axis ? normalize_axis_index(*axis, x.ndim()) : 0;
  ndarray out = new_array(x.shape(), result);
  return {moveaxis(x, {ax}, {x.ndim() - 1}), out};
}

}  // namespace
}  // namespace detail

ndarray sort(const ndarray& a, std::optional<int64_t> axis, bool stable) {
  auto [in, out] = detail::prepare(a, axis, a.dtype());
  if (out.size() > 0) {
    const int ax = axis && a.ndim() > 0 ? normalize_axis_index(*axis, a.ndim()) : 0;
    detail::sort_rows(moveaxis(out, {ax}, {out.ndim() - 1}), in, false, stable);
  }
  return out;
}

ndarray argsort(const ndarray& a, std::optional<int64_t> axis) {
  // NumPy's argsort sees a 0-d array as one element along axis 0 (or -1): the result is [0].
  if (a.ndim() == 0) {
    if (axis) normalize_axis_index(*axis, 1);
    return argsort(reshape(a, {1}), std::nullopt);
  }
  auto [in, out] = detail::prepare(a, axis, DType::Int64);
  if (out.size() > 0) {
    const int ax = axis && a.ndim() > 0 ? normalize_axis_index(*axis, a.ndim()) : 0;
    detail::sort_rows(moveaxis(out, {ax}, {out.ndim() - 1}), in, true, true);
  }
  return out;
}

ndarray searchsorted(const ndarray& a, const ndarray& v, bool right) {
  if (a.ndim() != 1) throw ValueError("object too deep for desired array");
  const DType t = promote_types(a.dtype(), v.dtype());
  const ndarray sorted = a.dtype() == t ? a : astype(a, t);
  const ndarray values = v.dtype() == t ? v : astype(v, t);
  ndarray out = new_array(values.shape(), DType::Int64);
  if (out.size() == 0) return out;
  if (values.ndim() == 0) {  // a 0-d result: one point over a 1-element view
    detail::launch_search_sorted(expand_dims(out, {0}), expand_dims(values, {0}), sorted, right);
    return out;
  }
  detail::launch_search_sorted(out, values, sorted, right);
  return out;
}

void sort_in_place(const ndarray& a, int64_t axis, bool stable) {
  if (a.ndim() == 0) throw AxisError("axis -1 is out of bounds for array of dimension 0");
  const int ax = normalize_axis_index(axis, a.ndim());
  if (a.size() == 0) return;
  const ndarray view = moveaxis(a, {ax}, {a.ndim() - 1});
  if (a.ndim() == 1 && a.size() >= detail::kChunkedSort) {
    detail::sort_rows(view, view, false, stable);  // sorted into new storage, then copied back
  } else {
    detail::launch_row_sort(view, view, false, stable);
  }
}

}  // namespace tessera
