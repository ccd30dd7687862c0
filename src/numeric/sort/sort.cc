// sort and argsort as operations. Along an axis with several rows, RowSortOp sorts rows in
// parallel (tiles cut the other axes). One long row is cut into chunks that ChunkSortOp sorts
// in parallel, then MergeOp rounds merge neighbouring runs pairwise, each merge cut by output
// range: a point finds where its range starts in both runs by binary search (the merge
// path), so a merge of two runs keeps every core busy. What a point computes on its memory
// is the kernel table of the processor it runs on (kernels.h; cpu/sort_kernels.cc): values
// sort in NumPy's order, positions (argsort) stably, and an unstable sort orders values that
// compare equal but differ in their bits (0.0 and -0.0, NaNs) by their bits, so no result
// depends on the chunks.
#include "tessera/sort.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "machine/processor.h"
#include "numeric/sort/kernels.h"
#include "partition/solver.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/shape.h"

namespace tessera {
namespace detail {
namespace {

constexpr int64_t kChunkedSort = int64_t{1} << 17;  // a row this long is sorted in chunks

// Element `i` of a strided row.
template <class T>
T& at(char* row, int64_t stride, int64_t i) {
  return reinterpret_cast<T*>(row)[i * stride];
}

// Calls f(pointer of (row, 0) in each store) for every row (index but the last) of `rect`.
template <class F>
void for_rows(const std::vector<const Store*>& stores, const Rect& rect, F&& f) {
  if (rect.empty()) return;
  const int nd = static_cast<int>(rect.lo.size());
  Shape idx = rect.lo;
  idx[static_cast<size_t>(nd - 1)] = 0;
  std::vector<char*> rows(stores.size());
  do {
    for (size_t k = 0; k < stores.size(); ++k) rows[k] = stores[k]->ptr(idx);
    f(rows);
  } while (next_index(idx, rect, nd - 1));
}

// Sorts each row (the last axis) of arg 1 into arg 0 (values, or int64 positions when
// `positions`); tiles cut the rows only. Args 0 and 1 may be the same view (a.sort()).
class RowSortOp final : public Operation {
 public:
  RowSortOp(StorePtr out, StorePtr in, bool positions, bool stable) : positions_(positions), stable_(stable) {
    name = positions ? "argsort" : "sort";
    const int nd = in->ndim();
    const int64_t n = in->shape().back();
    add(std::move(out), false, true);
    add_aligned(0, std::move(in), true, false);
    constraints.push_back(broadcast(0, {nd - 1}));
    weight = std::max<int64_t>(1, static_cast<int64_t>(std::log2(static_cast<double>(std::max<int64_t>(2, n)))));
  }
  void execute(const Point& point) override {
    const Store &out = *args[0].store, &in = *args[1].store;
    const SortKernels& kernels = sort_kernels(current_processor_kind());
    visit_dtype(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const int64_t n = in.shape().back(), si = in.strides().back(), so = out.strides().back();
      thread_local std::vector<char> scratch;
      scratch.resize(static_cast<size_t>(n) * std::max(sizeof(T), sizeof(int64_t)));
      for_rows({&out, &in}, point.rects[0], [&](const std::vector<char*>& row) {
        if (positions_) {
          int64_t* pos = reinterpret_cast<int64_t*>(scratch.data());
          kernels.sort_positions(in.dtype(), row[1], si, 0, n, pos);
          for (int64_t i = 0; i < n; ++i) at<int64_t>(row[0], so, i) = pos[i];
        } else {
          T* v = reinterpret_cast<T*>(scratch.data());
          for (int64_t i = 0; i < n; ++i) v[i] = at<T>(row[1], si, i);
          kernels.sort_values(in.dtype(), v, n, stable_);
          for (int64_t i = 0; i < n; ++i) at<T>(row[0], so, i) = v[i];
        }
      });
    });
  }

 private:
  bool positions_, stable_;
};

// One long row, in runs: `bounds` are the runs' starts and the end.
using Bounds = std::vector<int64_t>;

Launch range_launch(const std::vector<std::pair<int64_t, int64_t>>& ranges, size_t args,
                    const std::vector<std::vector<std::pair<int64_t, int64_t>>>& per_arg) {
  Launch launch;
  for (size_t p = 0; p < ranges.size(); ++p) {
    launch.tiles.push_back(Rect{{ranges[p].first}, {ranges[p].second}});
    std::vector<Rect> rects;
    for (size_t k = 0; k < args; ++k) rects.push_back(Rect{{per_arg[k][p].first}, {per_arg[k][p].second}});
    launch.rects.push_back(std::move(rects));
  }
  launch.key = 0;
  return launch;
}

// Sorts each run of `in` (1-D) into `values` (and its positions into `positions`, when given).
class ChunkSortOp final : public Operation {
 public:
  ChunkSortOp(StorePtr values, StorePtr in, StorePtr positions, Bounds bounds, bool stable)
      : bounds_(std::move(bounds)), stable_(stable) {
    name = positions ? "argsort" : "sort";
    add(std::move(values), false, true);
    add(std::move(in), true, false);
    if (positions) add(std::move(positions), false, true);
  }
  std::shared_ptr<const Launch> own_launch() const override {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    for (size_t r = 0; r + 1 < bounds_.size(); ++r) ranges.emplace_back(bounds_[r], bounds_[r + 1]);
    return std::make_shared<Launch>(range_launch(ranges, args.size(), std::vector(args.size(), ranges)));
  }
  void execute(const Point& point) override {
    const Store &values = *args[0].store, &in = *args[1].store;
    const int64_t lo = point.tile.lo[0], hi = point.tile.hi[0];
    const SortKernels& kernels = sort_kernels(current_processor_kind());
    visit_dtype(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* v = reinterpret_cast<T*>(values.ptr({lo}));
      const int64_t si = in.strides()[0];
      const T* x = reinterpret_cast<const T*>(in.ptr({0}));
      if (args.size() == 3) {
        int64_t* pos = reinterpret_cast<int64_t*>(args[2].store->ptr({lo}));
        kernels.sort_positions(in.dtype(), x, si, lo, hi - lo, pos);
        for (int64_t i = 0; i < hi - lo; ++i) v[i] = x[pos[i] * si];
      } else {
        for (int64_t i = lo; i < hi; ++i) v[i - lo] = x[i * si];
        kernels.sort_values(in.dtype(), v, hi - lo, stable_);
      }
    });
  }

 private:
  Bounds bounds_;
  bool stable_;
};

// Merges neighbouring runs of `from` (values, and positions when `with_positions`) pairwise
// into `to`; a last run without a partner is copied. Points are ranges of the output.
class MergeOp final : public Operation {
 public:
  MergeOp(StorePtr to_values, StorePtr to_positions, StorePtr from_values, StorePtr from_positions, Bounds bounds,
          int pieces, bool stable)
      : bounds_(std::move(bounds)), pieces_(pieces), by_bits_(!stable && !to_positions) {
    name = to_positions ? "argsort (merge)" : "sort (merge)";
    with_positions_ = static_cast<bool>(to_positions);
    add(std::move(to_values), false, true);
    add(std::move(from_values), true, false);
    if (with_positions_) {
      add(std::move(to_positions), false, true);
      add(std::move(from_positions), true, false);
    }
  }
  std::shared_ptr<const Launch> own_launch() const override {
    const int64_t total = bounds_.back() - bounds_.front();
    std::vector<std::pair<int64_t, int64_t>> ranges, pairs;
    for (size_t r = 0; r + 1 < bounds_.size(); r += 2) {
      const int64_t lo = bounds_[r], hi = bounds_[std::min(r + 2, bounds_.size() - 1)];
      const int64_t parts = std::max<int64_t>(1, (hi - lo) * pieces_ / std::max<int64_t>(1, total));
      for (int64_t p = 0; p < parts; ++p) {
        ranges.emplace_back(lo + (hi - lo) * p / parts, lo + (hi - lo) * (p + 1) / parts);
        pairs.emplace_back(lo, hi);
      }
    }
    const size_t n = args.size();
    std::vector<std::vector<std::pair<int64_t, int64_t>>> per_arg(n);
    for (size_t k = 0; k < n; ++k) per_arg[k] = args[k].write ? ranges : pairs;
    return std::make_shared<Launch>(range_launch(ranges, n, per_arg));
  }
  void execute(const Point& point) override {
    const int64_t lo = point.tile.lo[0], hi = point.tile.hi[0];
    // The pair of runs this range of the output belongs to.
    size_t r = 0;
    while (r + 2 < bounds_.size() && bounds_[r + 2] <= lo) r += 2;
    const int64_t a0 = bounds_[r], a1 = bounds_[std::min(r + 1, bounds_.size() - 1)];
    const int64_t b1 = bounds_[std::min(r + 2, bounds_.size() - 1)];
    const int64_t* pfrom = with_positions_ ? reinterpret_cast<const int64_t*>(args[3].store->ptr({0})) : nullptr;
    int64_t* pto = with_positions_ ? reinterpret_cast<int64_t*>(args[2].store->ptr({0})) : nullptr;
    sort_kernels(current_processor_kind())
        .merge_range(args[0].store->dtype(), args[1].store->ptr({0}), args[0].store->ptr({0}), pfrom, pto, a0, a1, b1, lo, hi, by_bits_);
  }

 private:
  Bounds bounds_;
  int pieces_;
  bool by_bits_;
  bool with_positions_ = false;
};

// Arg 0 (int64) receives, for each element of arg 1 (aligned), its insertion point in arg 2,
// a sorted 1-D array every point reads whole.
class SearchSortedOp final : public Operation {
 public:
  SearchSortedOp(StorePtr out, StorePtr v, StorePtr a, bool right) : right_(right) {
    name = "searchsorted";
    add(std::move(out), false, true);
    add_aligned(0, std::move(v), true, false);
    add(std::move(a), true, false);
    constraints.push_back(broadcast(2));
    weight = std::max<int64_t>(1, static_cast<int64_t>(std::log2(static_cast<double>(std::max<int64_t>(2, args[2].store->size())))));
  }
  void execute(const Point& point) override {
    const Store &out = *args[0].store, &v = *args[1].store, &a = *args[2].store;
    const SortKernels& kernels = sort_kernels(current_processor_kind());
    const Rect& rect = point.rects[0];
    if (rect.empty()) return;
    const void* sorted = a.ptr({0});
    const int64_t n = a.size(), s = a.strides()[0];
    const int nd = out.ndim();
    if (nd == 0) {
      kernels.insertion_points(a.dtype(), sorted, n, s, v.ptr({}), 0, 1, reinterpret_cast<int64_t*>(out.ptr({})), 0, right_);
      return;
    }
    // A run along the last axis at a time.
    const int64_t count = rect.hi[nd - 1] - rect.lo[nd - 1], vs = v.strides()[nd - 1], os = out.strides()[nd - 1];
    Shape idx = rect.lo;
    do {
      kernels.insertion_points(a.dtype(), sorted, n, s, v.ptr(idx), vs, count, reinterpret_cast<int64_t*>(out.ptr(idx)),
                               os, right_);
    } while (next_index(idx, rect, nd - 1));
  }

 private:
  bool right_;
};

// Sorts the last axis of `in` into `out` (positions into `out` when `positions`).
void sort_rows(const StorePtr& out, const StorePtr& in, bool positions, bool stable) {
  Runtime& rt = Runtime::get();
  const int64_t n = in->shape().back();
  // How many chunks is a scheduling choice: every order above gives one result (positions by
  // position on ties, values by their bits), so the chunks may follow the machine.
  const int pieces = rt.pieces() * rt.ranks();
  if (in->ndim() != 1 || n < kChunkedSort || pieces < 2 || rt.ranks() > 1) {
    rt.submit(std::make_shared<RowSortOp>(out, in, positions, stable));
    return;
  }
  // Chunks: a power of two, at least the pieces, so merges pair them off evenly.
  int chunks = 1;
  while (chunks < pieces) chunks *= 2;
  Bounds bounds;
  for (int c = 0; c <= chunks; ++c) bounds.push_back(n * c / chunks);
  const std::string where = Runtime::provenance();
  StorePtr values[2] = {new_store(in->dtype(), {n}, where), new_store(in->dtype(), {n}, where)};
  StorePtr pos[2] = {positions ? new_store(DType::Int64, {n}, where) : nullptr,
                     positions ? new_store(DType::Int64, {n}, where) : nullptr};
  rt.submit(std::make_shared<ChunkSortOp>(values[0], in, pos[0], bounds, stable));
  int cur = 0;
  // The last merge writes the result itself when it is a dense array of its own (not `in`).
  const bool direct = out->strides()[0] == 1 && out->storage() != in->storage();
  while (bounds.size() > 2) {
    Bounds next;
    for (size_t r = 0; r < bounds.size(); r += 2) next.push_back(bounds[r]);
    if (next.back() != bounds.back()) next.push_back(bounds.back());
    const bool last = next.size() == 2 && direct;
    StorePtr to_values = last && !positions ? out : values[1 - cur];
    StorePtr to_pos = last && positions ? out : pos[1 - cur];
    if (last && positions) to_values = values[1 - cur];
    rt.submit(std::make_shared<MergeOp>(to_values, to_pos, values[cur], pos[cur], bounds, pieces, stable));
    bounds = std::move(next);
    cur = 1 - cur;
    if (last) return;
  }
  assign(ndarray(out), ndarray(positions ? pos[cur] : values[cur]));
}

// `a` with `axis` moved last (flattened when none), and the matching view of a new result.
std::pair<StorePtr, ndarray> prepare(const ndarray& a, std::optional<int64_t> axis, DType result) {
  ndarray x = axis ? a : ravel(a);
  if (x.ndim() == 0) throw AxisError("axis -1 is out of bounds for array of dimension 0");
  const int ax = axis ? normalize_axis_index(*axis, x.ndim()) : 0;
  ndarray out(new_store(result, x.shape(), Runtime::provenance()));
  return {moveaxis(x, {ax}, {x.ndim() - 1}).store(), out};
}

}  // namespace
}  // namespace detail

using detail::Runtime;

ndarray sort(const ndarray& a, std::optional<int64_t> axis, bool stable) {
  auto [in, out] = detail::prepare(a, axis, a.dtype());
  if (out.size() > 0) {
    const int ax = axis && a.ndim() > 0 ? normalize_axis_index(*axis, a.ndim()) : 0;
    detail::sort_rows(moveaxis(out, {ax}, {out.ndim() - 1}).store(), in, false, stable);
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
    detail::sort_rows(moveaxis(out, {ax}, {out.ndim() - 1}).store(), in, true, true);
  }
  return out;
}

ndarray searchsorted(const ndarray& a, const ndarray& v, bool right) {
  if (a.ndim() != 1) throw ValueError("object too deep for desired array");
  const DType t = promote_types(a.dtype(), v.dtype());
  const ndarray sorted = a.dtype() == t ? a : astype(a, t);
  const ndarray values = v.dtype() == t ? v : astype(v, t);
  ndarray out(detail::new_store(DType::Int64, values.shape(), Runtime::provenance()));
  if (out.size() == 0) return out;
  if (values.ndim() == 0) {  // a 0-d result: one point over a 1-element view
    Runtime::get().submit(std::make_shared<detail::SearchSortedOp>(out.store()->new_axis(0), values.store()->new_axis(0),
                                                                     sorted.store(), right));
    return out;
  }
  Runtime::get().submit(std::make_shared<detail::SearchSortedOp>(out.store(), values.store(), sorted.store(), right));
  return out;
}

void sort_in_place(const ndarray& a, int64_t axis, bool stable) {
  if (a.ndim() == 0) throw AxisError("axis -1 is out of bounds for array of dimension 0");
  const int ax = normalize_axis_index(axis, a.ndim());
  if (a.size() == 0) return;
  const detail::StorePtr view = moveaxis(a, {ax}, {a.ndim() - 1}).store();
  if (a.ndim() == 1 && a.size() >= detail::kChunkedSort) {
    detail::sort_rows(view, view, false, stable);  // sorted into new storage, then copied back
  } else {
    Runtime::get().submit(std::make_shared<detail::RowSortOp>(view, view, false, stable));
  }
}

}  // namespace tessera
