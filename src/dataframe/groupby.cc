// group_aggregate and group_rows: three launches, none of them a pass on the calling thread.
//   1. "dataframe.groupby_partials", over row tiles (row_points: cut by the data and the minimum
//      chunk alone). Each point reads its rows' keys as 64-bit words (one per key column: an
//      integer's value, a float's bits with -0.0 as 0.0 and one NaN, a null as kNull), hashes
//      the tuples and folds equal keys into partial groups, numbered in order of first row, each
//      with its first row, its size and the sum, count, minimum, maximum (and squared deviations)
//      of every value column. The tile's table holds at most 2^18 keys: once full, a row
//      whose key it lacks is a partial of its own (with about as many groups as rows, folding in
//      the tile gains nothing; the next launch folds them). The partials come out bucketed by the
//      top bits of their hash (kBuckets buckets), in order of first row within a bucket.
//   2. "dataframe.groupby_merge", one point per run of buckets (the runs cut by the partials'
//      counts). A point folds its buckets' partials into groups, visiting the tiles in order,
//      so a group's partials fold in row order and a group is numbered among the point's groups
//      by the tile of its first row — the point's groups of each tile are one run.
//   3. "dataframe.groupby_order", one point per tile that holds the first row of some group: it
//      marks those groups' first rows in a bitmap of the tile's rows, which gives each its place
//      (the first rows before its own), and writes the groups, read from every merge point in
//      turn, keys in their own dtypes, at their places in the results: the groups of earlier
//      tiles come first. So the groups come out in order of first row (pandas' `sort=False`).
// group_rows adds the row pass: the first launch writes each row's partial, the merge says per
// partial the first row of the group it joined and how many rows of that group earlier partials hold, the
// ordering writes each group's place at its first row, and "dataframe.groupby_relabel" (per
// tile) turns every row's partial into its group and its position in the group. first_rows
// replaces the ordering with "dataframe.groupby_firsts" (per tile): each group's first row marked.
// Every part is a function of the data (the tiles, the buckets, the order of folding), so the
// bits are the same on any number of cpus or ranks.
#include "dataframe/groupby.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "dataframe/group_table.h"
#include "dataframe/table.h"
#include "tessera/creation.h"
#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::frame {
namespace {

using detail::hash_words;
using detail::key_word;
using detail::kNull;
using detail::SlotTable;

constexpr int kBucketBits = 8;
constexpr size_t kBuckets = size_t{1} << kBucketBits;
constexpr int64_t kMergeEntries = int64_t{1} << 16;  // partials a merge point takes at least

inline size_t bucket_of(uint64_t h) { return static_cast<size_t>(h >> (64 - kBucketBits)); }

// Integer keys of known ranges: a key tuple as one word, its digits in mixed radix (a null is
// each key's last digit). Where those words are few, also the slot of a dense array that finds
// the groups instead of hashing. Not packed: a word per key.
struct Packing {
  bool packed = false;
  std::vector<int64_t> lo, extent;  // per key: values lo .. lo + extent - 1, then the null
  std::vector<uint64_t> below;      // per key: the product of the radixes (extent + 1) after it
  size_t slots = 0;                 // of a dense table; 0: hashing
};

// Which aggregates of a value column are made: its sum always, then its count, minimum and
// maximum, squared deviations, as asked; `per()` arrays per value column in that order.
struct ValueLayout {
  bool counts = true, extremes = true, squares = false;
  size_t per() const { return 1 + counts + 2 * extremes + squares; }
  size_t count_at() const { return 1; }
  size_t min_at() const { return 1 + counts; }
  size_t squares_at() const { return 1 + counts + 2 * extremes; }
};

// Calls f(T{}) with T the C++ type of integer, boolean or floating dtype `t` (visit_dtype's,
// less float16 and the complex types, which are a TypeError).
template <class F>
void with_type(DType t, F&& f) {
  if (is_complex(t) || t == DType::Float16)
    throw TypeError(std::string("groupby: a column of dtype ") + dtype_name(t) + " cannot be aggregated yet");
  visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_arithmetic_v<T>) f(zero);
  });
}

// The accumulator type of values of dtype t: double for floats, uint64 for unsigned, else int64.
DType accumulator(DType t) {
  return is_float(t) ? DType::Float64 : dtype_kind(t) == DKind::UInt ? DType::UInt64 : DType::Int64;
}

template <class A>
A wrap_add(A a, A b) {
  if constexpr (std::is_floating_point_v<A>) return a + b;
  else return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));  // wraps, as NumPy's
}

// total += part: compensated (Kahan, `carry` the lost low part) for floats, wrapping for integers.
template <class A>
void add_partial_sum(A& total, std::vector<double>& carry, size_t g, A part) {
  if constexpr (std::is_floating_point_v<A>) {
    const double y = part - carry[g], t = total + y;
    carry[g] = (t - total) - y;
    total = t;
  } else {
    total = wrap_add(total, part);
  }
}

// Contiguous elements of an argument read whole (a merge or ordering point reads the earlier
// launch's outputs whole).
template <class T>
const T* whole(const TaskContext& ctx, size_t i) {
  const Tile& t = ctx.array(i);
  TESSERA_CHECK(t.size() <= 1 || t.strides()[0] == 1, "groupby's partial arrays are contiguous");
  return static_cast<const T*>(t.data());
}

int64_t stride_of(const Tile& t) { return t.strides().empty() ? 1 : t.strides()[0]; }

struct Plan {
  size_t keys = 0, values = 0;
  bool dropna = true, rows = false;  // rows: group_rows' launch
  std::vector<bool> negative_is_null;
  Packing packing;
  ValueLayout layout;
  /// The keys a tile's table folds rows into: 2^18 (a table about the size of a core's cache)
  /// by default; 4 minimum chunks, so test mode's tiny chunks exercise full tables.
  size_t table_groups = size_t{1} << 18;
  /// Words per key tuple.
  size_t width() const { return packing.packed ? 1 : keys; }
  /// The partials launch's first unbound output (after the keys, the values and, for
  /// group_rows, the rows' groups): key words, first rows, sizes, bucket counts, [the
  /// partials' numbers], then the values' aggregates (ValueLayout).
  size_t partial_outputs() const { return keys + values + (rows ? 1 : 0); }
  size_t value_outputs() const { return partial_outputs() + 4 + (rows ? 1 : 0); }
};

// Aggregates the values of one column (element type T) of this tile into its partials: row i
// goes to partial pid[i] (-1: left out). The work is indexed by partial (their arrays are what
// a row touches at random), then written at pos[partial] of outputs first.. (ValueLayout).
template <class T>
void aggregate(TaskContext& ctx, const Tile& v, const std::vector<int32_t>& pid, const std::vector<int64_t>& pos,
               size_t first, const ValueLayout& layout) {
  constexpr bool floating = std::is_floating_point_v<T>;
  using A = std::conditional_t<floating, double, std::conditional_t<std::is_unsigned_v<T>, uint64_t, int64_t>>;
  const T* x = static_cast<const T*>(v.data());
  const int64_t s = stride_of(v);
  const size_t m = pos.size();
  const auto ng = static_cast<int64_t>(m);
  struct Work {
    std::vector<A> sum, lo, hi;
    std::vector<double> kahan, mean, m2;  // kahan: a float's sum and compensation side by side
    std::vector<int64_t> count;
  };
  thread_local Work work;
  Work& w = work;
  const A none = floating ? std::numeric_limits<A>::quiet_NaN() : A(0);
  const bool counted = layout.counts || layout.extremes || layout.squares;
  // A float's sum and its Kahan compensation share a cache line (a row touches one).
  if (floating) w.kahan.assign(2 * m, 0.0);
  else w.sum.assign(m, A(0));
  if (counted) w.count.assign(m, 0);
  if (layout.extremes) w.lo.assign(m, none), w.hi.assign(m, none);
  A* sum = w.sum.data();
  double* kahan = w.kahan.data();
  int64_t* count = w.count.data();
  A *lo = w.lo.data(), *hi = w.hi.data();
  const auto n = static_cast<int64_t>(pid.size());
  constexpr int64_t kAhead = 16;  // the partial of a row this far ahead is fetched: misses overlap
  for (int64_t i = 0; i < n; ++i) {
    if (i + kAhead < n)
      if (const int32_t q = pid[static_cast<size_t>(i + kAhead)]; q >= 0) {
        if constexpr (floating) __builtin_prefetch(kahan + 2 * q);
        else __builtin_prefetch(sum + q);
      }
    const int32_t pi = pid[static_cast<size_t>(i)];
    if (pi < 0) continue;
    const auto p = static_cast<size_t>(pi);
    const A val = static_cast<A>(x[i * s]);
    if constexpr (floating) {
      if (std::isnan(val)) continue;
      double* k = kahan + 2 * p;
      const double y = val - k[1], t = k[0] + y;
      k[1] = (t - k[0]) - y;
      k[0] = t;
    } else {
      sum[p] = wrap_add(sum[p], val);
    }
    if (!counted) continue;
    if (layout.extremes) {
      if (count[p] == 0 || val < lo[p]) lo[p] = val;
      if (count[p] == 0 || val > hi[p]) hi[p] = val;
    }
    ++count[p];
  }
  auto scatter = [&](size_t at, const auto* from) {
    using E = std::remove_const_t<std::remove_pointer_t<decltype(from)>>;
    auto* out = static_cast<E*>(ctx.bind_output(at, ng));
    for (size_t p = 0; p < m; ++p) out[pos[p]] = from[p];
  };
  if constexpr (floating) {
    w.sum.resize(m);
    sum = w.sum.data();
    for (size_t p = 0; p < m; ++p) sum[p] = kahan[2 * p];
  }
  scatter(first, sum);
  if (layout.counts) scatter(first + 1, count);
  if (layout.extremes) {
    scatter(first + layout.min_at(), lo);
    scatter(first + layout.min_at() + 1, hi);
  }
  if (!layout.squares) return;
  w.mean.resize(m);
  w.m2.assign(m, 0.0);
  for (size_t p = 0; p < m; ++p)
    w.mean[p] = count[p] ? static_cast<double>(sum[p]) / static_cast<double>(count[p]) : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t pi = pid[static_cast<size_t>(i)];
    if (pi < 0) continue;
    const double val = static_cast<double>(x[i * s]);
    if constexpr (floating)
      if (std::isnan(val)) continue;
    const double d = val - w.mean[static_cast<size_t>(pi)];
    w.m2[static_cast<size_t>(pi)] += d * d;
  }
  scatter(first + layout.squares_at(), w.m2.data());
}

// Every row's key tuple, row-major (nk words per row), and whether it has a null key, in
// buffers each worker keeps (a tile's rows would otherwise touch fresh pages every time).
void read_keys(const TaskContext& ctx, const Plan& plan, int64_t n, std::vector<uint64_t>& words,
               std::vector<uint8_t>& null) {
  const size_t nk = plan.keys, width = plan.width();
  const Packing& pk = plan.packing;
  if (pk.packed) words.assign(static_cast<size_t>(n), 0);
  else words.resize(static_cast<size_t>(n) * nk);
  null.assign(static_cast<size_t>(n), 0);
  for (size_t j = 0; j < nk; ++j) {
    const Tile& k = ctx.array(j);
    const int64_t s = stride_of(k);
    const bool negative = j < plan.negative_is_null.size() && plan.negative_is_null[j];
    with_type(k.dtype(), [&](auto zero) {
      using T = decltype(zero);
      const T* p = static_cast<const T*>(k.data());
      if (pk.packed) {
        const int64_t lo = pk.lo[j], e = pk.extent[j];
        const auto radix = static_cast<uint64_t>(e + 1);
        bool outside = false;
        for (int64_t i = 0; i < n; ++i) {
          bool is_null = false;
          const uint64_t w = key_word(p[i * s], negative, is_null);
          const int64_t v = is_null ? e : static_cast<int64_t>(w) - lo;
          outside |= v < 0 || v > e;
          words[static_cast<size_t>(i)] = words[static_cast<size_t>(i)] * radix + static_cast<uint64_t>(v);
          null[static_cast<size_t>(i)] |= static_cast<uint8_t>(is_null);
        }
        if (outside) throw ValueError("groupby: a key outside the range given for it");
      } else {
        for (int64_t i = 0; i < n; ++i) {
          bool is_null = false;
          words[static_cast<size_t>(i) * width + j] = key_word(p[i * s], negative, is_null);
          null[static_cast<size_t>(i)] |= static_cast<uint8_t>(is_null);
        }
      }
    });
  }
}

// Launch 1, one point per row tile: the tile's partial groups, bucketed (see the top).
void partials(TaskContext& ctx) {
  const Plan& plan = ctx.payload<Plan>();
  const size_t nk = plan.width();
  const Tile& first_key = ctx.array(0);
  const int64_t n = first_key.size();
  const int64_t row0 = first_key.lo().empty() ? 0 : first_key.lo()[0];
  // Buffers each worker keeps (a tile's rows would otherwise touch fresh pages every time),
  // reached through one reference: a thread_local named in a loop costs a call per use.
  struct Scratch {
    std::vector<uint64_t> words, hashes, pkeys, phash;  // per row; per partial
    std::vector<int64_t> pfirst, psize;
    std::vector<uint8_t> null;
    std::vector<int32_t> dense, pid;
  };
  thread_local Scratch scratch;
  Scratch& sc = scratch;
  std::vector<uint64_t>&words = sc.words, &hashes = sc.hashes, &pkeys = sc.pkeys, &phash = sc.phash;
  std::vector<int64_t>& pfirst = sc.pfirst;
  std::vector<uint8_t>& null = sc.null;
  read_keys(ctx, plan, n, words, null);
  pkeys.clear();
  phash.clear();
  pfirst.clear();
  std::vector<int64_t>& psize = sc.psize;
  psize.clear();
  std::vector<int32_t>& pid = sc.pid;
  pid.resize(static_cast<size_t>(n));
  auto add = [&](int64_t i, uint64_t h) {
    const auto p = static_cast<int32_t>(phash.size());
    const uint64_t* key = &words[static_cast<size_t>(i) * nk];
    if (nk == 1) pkeys.push_back(*key);
    else pkeys.insert(pkeys.end(), key, key + nk);
    phash.push_back(h);
    pfirst.push_back(row0 + i);
    psize.push_back(0);
    return p;
  };
  if (plan.packing.slots) {  // a packed key is its slot
    std::vector<int32_t>& dense = sc.dense;
    dense.assign(plan.packing.slots, -1);
    for (int64_t i = 0; i < n; ++i) {
      const auto r = static_cast<size_t>(i);
      if (i + 16 < n) __builtin_prefetch(&dense[words[r + 16]]);  // a packed word is a slot, null or not
      if (plan.dropna && null[r]) {
        pid[r] = -1;
        continue;
      }
      int32_t& g = dense[words[r]];
      // Dense keys are bucketed by range, not hash: the bucket is kBuckets * slot / slots.
      if (g < 0) g = add(i, words[r] * kBuckets / plan.packing.slots << (64 - kBucketBits));
      pid[r] = g;
    }
  } else {
    hashes.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      hashes[static_cast<size_t>(i)] = hash_words(&words[static_cast<size_t>(i) * nk], nk);
    SlotTable table(std::min<size_t>(static_cast<size_t>(n), 4096));
    constexpr int64_t kAhead = 16;  // the slot of a row this far ahead is fetched: misses overlap
    for (int64_t i = 0; i < n; ++i) {
      const auto r = static_cast<size_t>(i);
      if (i + kAhead < n) table.prefetch(hashes[r + kAhead]);
      if (plan.dropna && null[r]) {
        pid[r] = -1;
        continue;
      }
      const uint64_t h = hashes[r];
      size_t slot;
      int64_t g = table.find(h, &words[r * nk], pkeys.data(), nk, slot);
      if (g < 0) {
        if (phash.size() >= static_cast<size_t>(std::numeric_limits<int32_t>::max()))
          throw ValueError("groupby: more than 2^31 groups in one tile");
        g = add(i, h);
        if (table.size() < plan.table_groups) table.insert(slot, h, static_cast<uint32_t>(g), phash.data());
      }
      pid[r] = static_cast<int32_t>(g);
    }
  }
  for (int64_t i = 0; i < n; ++i) {  // the partials' sizes, fetched ahead
    if (i + 16 < n)
      if (const int32_t q = pid[static_cast<size_t>(i + 16)]; q >= 0)
        __builtin_prefetch(&psize[static_cast<size_t>(q)]);
    if (const int32_t p = pid[static_cast<size_t>(i)]; p >= 0) ++psize[static_cast<size_t>(p)];
  }
  // The partials bucketed by hash, in order of first row within a bucket.
  const size_t m = phash.size();
  const auto nm = static_cast<int64_t>(m);
  const size_t u = plan.partial_outputs();
  auto* counts = static_cast<int64_t*>(ctx.bind_output(u + 3, static_cast<int64_t>(kBuckets)));
  std::fill(counts, counts + kBuckets, int64_t{0});
  for (size_t p = 0; p < m; ++p) ++counts[bucket_of(phash[p])];
  std::vector<int64_t> at(kBuckets, 0), pos(m);
  for (size_t b = 1; b < kBuckets; ++b) at[b] = at[b - 1] + counts[b - 1];
  for (size_t p = 0; p < m; ++p) pos[p] = at[bucket_of(phash[p])]++;
  auto* okeys = static_cast<uint64_t*>(ctx.bind_output(u, nm * static_cast<int64_t>(nk)));
  auto* ofirst = static_cast<int64_t*>(ctx.bind_output(u + 1, nm));
  auto* osize = static_cast<int64_t*>(ctx.bind_output(u + 2, nm));
  int64_t* olocal = plan.rows ? static_cast<int64_t*>(ctx.bind_output(u + 4, nm)) : nullptr;
  for (size_t p = 0; p < m; ++p) {
    const auto k = static_cast<size_t>(pos[p]);
    if (nk == 1) okeys[k] = pkeys[p];
    else std::memcpy(okeys + k * nk, &pkeys[p * nk], nk * sizeof(uint64_t));
    ofirst[k] = pfirst[p];
    osize[k] = psize[p];
    if (olocal) olocal[k] = static_cast<int64_t>(p);
  }
  if (plan.rows) {  // each row's partial, for the relabelling launch
    const Tile& out = ctx.array(plan.keys + plan.values);
    auto* g = static_cast<int64_t*>(out.data());
    const int64_t s = stride_of(out);
    for (int64_t i = 0; i < n; ++i) g[i * s] = pid[static_cast<size_t>(i)];
  }
  for (size_t c = 0; c < plan.values; ++c) {
    const Tile& v = ctx.array(plan.keys + c);
    with_type(v.dtype(), [&](auto zero) {
      aggregate<decltype(zero)>(ctx, v, pid, pos, plan.value_outputs() + plan.layout.per() * c, plan.layout);
    });
  }
}

// What a merge point needs to find its partials in the partials launch's outputs.
struct MergePlan {
  size_t keys = 0, values = 0;  // keys: words per key tuple
  size_t slots = 0;             // keys of a dense table (Packing::slots): a point's buckets are a range of its slots
  ValueLayout layout;
  bool rows = false;
  std::vector<DType> accumulators;  // per value column
  size_t tiles = 0;
  std::vector<int64_t> tile_start;    // per tile: its first partial
  std::vector<int64_t> bucket_start;  // [tile * (kBuckets + 1) + b]: bucket b's first, from the tile's
  std::vector<size_t> point_buckets;  // per merge point p: buckets [point_buckets[p], point_buckets[p + 1])
  /// Inputs: key words, first rows, sizes, the values' partials. Outputs, each point's box as
  /// long as its partials (its groups fill the first places): key words, first rows, sizes,
  /// groups begun per tile (a box of `tiles`), [per partial: its group's first row and the rows of that
  /// group in earlier partials], then the values' aggregates.
  size_t inputs() const { return 3 + layout.per() * values; }
  size_t value_outputs() const { return inputs() + 4 + (rows ? 2 : 0); }
};

// Folds partial r of one value column into group g (partials of a group come in row order).
template <class A>
void fold_values(TaskContext& ctx, const MergePlan& plan, size_t c, const std::vector<int64_t>& entry,
                 const std::vector<uint32_t>& gid, size_t groups) {
  const ValueLayout& l = plan.layout;
  const size_t in0 = 3 + l.per() * c, out0 = plan.value_outputs() + l.per() * c;
  const A* sum = whole<A>(ctx, in0);
  auto* fsum = static_cast<A*>(ctx.array(out0).data());
  if (!l.counts && !l.extremes) {  // sums alone
    constexpr bool floating = std::is_floating_point_v<A>;
    std::vector<double> carry(floating ? groups : 0, 0.0);
    std::fill(fsum, fsum + groups, A(0));
    for (size_t k = 0; k < entry.size(); ++k) {
      const auto r = static_cast<size_t>(entry[k]);
      const size_t g = gid[k];
      add_partial_sum(fsum[g], carry, g, sum[r]);
    }
    return;
  }
  std::vector<int64_t> count_scratch;
  std::vector<A> lo_scratch, hi_scratch;
  const int64_t* count = l.counts ? whole<int64_t>(ctx, in0 + 1) : nullptr;
  const A* lo = l.extremes ? whole<A>(ctx, in0 + l.min_at()) : nullptr;
  const A* hi = l.extremes ? whole<A>(ctx, in0 + l.min_at() + 1) : nullptr;
  const double* m2 = l.squares ? whole<double>(ctx, in0 + l.squares_at()) : nullptr;
  int64_t* fcount = l.counts ? static_cast<int64_t*>(ctx.array(out0 + 1).data())
                             : (count_scratch.resize(groups), count_scratch.data());
  A* flo = l.extremes ? static_cast<A*>(ctx.array(out0 + l.min_at()).data())
                      : (lo_scratch.resize(groups), lo_scratch.data());
  A* fhi = l.extremes ? static_cast<A*>(ctx.array(out0 + l.min_at() + 1).data())
                      : (hi_scratch.resize(groups), hi_scratch.data());
  double* fm2 = l.squares ? static_cast<double*>(ctx.array(out0 + l.squares_at()).data()) : nullptr;
  TESSERA_CHECK(count, "groupby: minima and maxima come with counts");
  constexpr bool floating = std::is_floating_point_v<A>;
  const A none = floating ? std::numeric_limits<A>::quiet_NaN() : A(0);
  std::vector<double> carry(floating ? groups : 0, 0.0);
  for (size_t g = 0; g < groups; ++g) {
    fsum[g] = A(0), fcount[g] = 0, flo[g] = none, fhi[g] = none;
    if (fm2) fm2[g] = 0;
  }
  for (size_t k = 0; k < entry.size(); ++k) {
    const auto r = static_cast<size_t>(entry[k]);
    const size_t g = gid[k];
    if (fm2 && count[r] > 0) {  // Chan et al.'s update of the squared deviations
      const int64_t na = fcount[g], nb = count[r];
      if (na == 0) {
        fm2[g] = m2[r];
      } else {
        const double delta = static_cast<double>(sum[r]) / static_cast<double>(nb) -
                             static_cast<double>(fsum[g]) / static_cast<double>(na);
        fm2[g] +=
            m2[r] + delta * delta * static_cast<double>(na) * static_cast<double>(nb) / static_cast<double>(na + nb);
      }
    }
    add_partial_sum(fsum[g], carry, g, sum[r]);
    if (count[r] == 0) continue;
    if (lo && (fcount[g] == 0 || lo[r] < flo[g])) flo[g] = lo[r];
    if (hi && (fcount[g] == 0 || hi[r] > fhi[g])) fhi[g] = hi[r];
    fcount[g] += count[r];
  }
}

// Launch 2, one point per run of buckets: the groups of the run's partials (see the top).
void merge(TaskContext& ctx) {
  const MergePlan& plan = ctx.payload<MergePlan>();
  const size_t nk = plan.keys, q = static_cast<size_t>(ctx.point());
  const size_t b0 = plan.point_buckets[q], b1 = plan.point_buckets[q + 1];
  const uint64_t* keys = whole<uint64_t>(ctx, 0);
  const int64_t* first = whole<int64_t>(ctx, 1);
  const int64_t* size = whole<int64_t>(ctx, 2);
  std::vector<int64_t> begin(plan.tiles), end(plan.tiles), per_tile(plan.tiles, 0);
  size_t entries = 0;
  for (size_t t = 0; t < plan.tiles; ++t) {
    const int64_t* bs = &plan.bucket_start[t * (kBuckets + 1)];
    begin[t] = plan.tile_start[t] + bs[b0];
    end[t] = plan.tile_start[t] + bs[b1];
    entries += static_cast<size_t>(end[t] - begin[t]);
  }
  // Buffers each worker keeps: fresh pages for every point would cost more than the work.
  struct Scratch {
    std::vector<int64_t> entry, before, gfirst, gsize;
    std::vector<uint32_t> gid;
    std::vector<uint64_t> hash, gkeys, ghash;
  };
  thread_local Scratch scratch;
  Scratch& sc = scratch;
  std::vector<int64_t>&entry = sc.entry, &before = sc.before, &gfirst = sc.gfirst, &gsize = sc.gsize;
  std::vector<uint32_t>& gid = sc.gid;
  std::vector<uint64_t>&hash = sc.hash, &gkeys = sc.gkeys, &ghash = sc.ghash;
  entry.clear(), before.clear(), gfirst.clear(), gsize.clear(), gid.clear(), gkeys.clear(), ghash.clear();
  auto add = [&](size_t t, int64_t i, uint64_t h) {
    const auto g = static_cast<int64_t>(gfirst.size());
    gkeys.insert(gkeys.end(), keys + static_cast<size_t>(i) * nk, keys + static_cast<size_t>(i + 1) * nk);
    ghash.push_back(h);
    gfirst.push_back(first[i]);
    gsize.push_back(0);
    ++per_tile[t];
    return g;
  };
  auto fold = [&](int64_t i, int64_t g) {
    const auto gg = static_cast<size_t>(g);
    entry.push_back(i);
    gid.push_back(static_cast<uint32_t>(g));
    if (plan.rows) before.push_back(gsize[gg]);
    gsize[gg] += size[i];
  };
  if (plan.slots) {  // dense keys: the point's slots index its groups
    const auto slots = static_cast<unsigned __int128>(plan.slots);
    const auto slot_lo = static_cast<uint64_t>((b0 * slots + kBuckets - 1) / kBuckets);
    const auto slot_hi = static_cast<uint64_t>((b1 * slots + kBuckets - 1) / kBuckets);
    thread_local std::vector<int32_t> dense_tl;
    std::vector<int32_t>& dense = dense_tl;
    dense.assign(slot_hi - slot_lo, -1);
    for (size_t t = 0; t < plan.tiles; ++t)
      for (int64_t i = begin[t]; i < end[t]; ++i) {
        int32_t& g = dense[keys[i] - slot_lo];
        if (g < 0) g = static_cast<int32_t>(add(t, i, 0));
        fold(i, g);
      }
  } else {
    hash.resize(entries);
    for (size_t t = 0, k = 0; t < plan.tiles; ++t)
      for (int64_t i = begin[t]; i < end[t]; ++i) hash[k++] = hash_words(keys + static_cast<size_t>(i) * nk, nk);
    SlotTable table(std::min<size_t>(entries, 1 << 16));
    size_t k = 0;
    for (size_t t = 0; t < plan.tiles; ++t) {  // tiles in order: a group's partials in row order
      for (int64_t i = begin[t]; i < end[t]; ++i, ++k) {
        if (k + 16 < entries) table.prefetch(hash[k + 16]);
        const uint64_t h = hash[k];
        const uint64_t* key = keys + static_cast<size_t>(i) * nk;
        size_t slot;
        int64_t g = table.find(h, key, gkeys.data(), nk, slot);
        if (g < 0) {
          g = add(t, i, h);
          table.insert(slot, h, static_cast<uint32_t>(g), ghash.data());
        }
        fold(i, g);
      }
    }
  }
  const size_t groups = gfirst.size();
  const size_t o = plan.inputs();
  // The outputs' boxes hold as many groups as the point has partials: the groups fill the first.
  std::memcpy(ctx.array(o).data(), gkeys.data(), gkeys.size() * sizeof(uint64_t));
  std::memcpy(ctx.array(o + 1).data(), gfirst.data(), groups * sizeof(int64_t));
  std::memcpy(ctx.array(o + 2).data(), gsize.data(), groups * sizeof(int64_t));
  std::memcpy(ctx.array(o + 3).data(), per_tile.data(), plan.tiles * sizeof(int64_t));
  if (plan.rows) {
    auto* og = static_cast<int64_t*>(ctx.array(o + 4).data());
    for (size_t k = 0; k < entries; ++k) og[k] = gfirst[gid[k]];
    std::memcpy(ctx.array(o + 5).data(), before.data(), entries * sizeof(int64_t));
  }
  for (size_t c = 0; c < plan.values; ++c) {
    switch (plan.accumulators[c]) {
      case DType::Float64: fold_values<double>(ctx, plan, c, entry, gid, groups); break;
      case DType::UInt64: fold_values<uint64_t>(ctx, plan, c, entry, gid, groups); break;
      default: fold_values<int64_t>(ctx, plan, c, entry, gid, groups); break;
    }
  }
}

// What an ordering point needs: its tile's rows, where its groups go, and where they are among
// the merge launch's groups.
struct OrderPlan {
  size_t keys = 0, values = 0;
  ValueLayout layout;
  bool rows = false;
  Packing packing;
  std::vector<DType> key_types;
  std::vector<int64_t> lo, hi, start;  // per ordering point: its tile's rows; its first group
  std::vector<int64_t> ranges;         // [point * merges + q]: begin and end of merge point q's groups
  size_t merges = 0;
  /// Inputs: the merged key words, first rows, sizes, the values' aggregates. Outputs: the
  /// key columns, the sizes, the values' aggregates, [each first row's group].
  size_t inputs() const { return 3 + layout.per() * values; }
  size_t width() const { return packing.packed ? 1 : keys; }
};

// Launch 3, one point per tile: the groups whose first row it holds, in row order (see the top).
void order(TaskContext& ctx) {
  const OrderPlan& plan = ctx.payload<OrderPlan>();
  const size_t nk = plan.keys, p = static_cast<size_t>(ctx.point());
  const uint64_t* keys = whole<uint64_t>(ctx, 0);
  const int64_t* first = whole<int64_t>(ctx, 1);
  const int64_t lo = plan.lo[p], hi = plan.hi[p];
  // The first rows as bits of the tile's rows, with the count of bits before each word: a
  // group's place is the number of first rows before its own. The merge points' groups are read
  // in their order (runs ascending by first row within a bucket) and written at their places,
  // so reads and writes both stream.
  struct Scratch {
    std::vector<uint64_t> bits;
    std::vector<int64_t> before, dest;
  };
  thread_local Scratch scratch;
  Scratch& sc = scratch;
  const auto words = static_cast<size_t>((hi - lo + 63) / 64);
  sc.bits.assign(words, 0);
  sc.before.resize(words + 1);
  const int64_t* ranges = &plan.ranges[2 * p * plan.merges];
  for (size_t q = 0; q < plan.merges; ++q)
    for (int64_t g = ranges[2 * q]; g < ranges[2 * q + 1]; ++g) {
      const auto r = static_cast<uint64_t>(first[g] - lo);
      sc.bits[r >> 6] |= uint64_t{1} << (r & 63);
    }
  sc.before[0] = 0;
  for (size_t w = 0; w < words; ++w) sc.before[w + 1] = sc.before[w] + std::popcount(sc.bits[w]);
  auto place = [&](uint64_t r) {
    return sc.before[r >> 6] + std::popcount(sc.bits[r >> 6] & ((uint64_t{1} << (r & 63)) - 1));
  };
  sc.dest.clear();
  for (size_t q = 0; q < plan.merges; ++q)
    for (int64_t g = ranges[2 * q]; g < ranges[2 * q + 1]; ++g)
      sc.dest.push_back(place(static_cast<uint64_t>(first[g] - lo)));
  // Visits (group, its place) in the merge points' order.
  auto each = [&](auto&& f) {
    size_t k = 0;
    for (size_t q = 0; q < plan.merges; ++q)
      for (int64_t g = ranges[2 * q]; g < ranges[2 * q + 1]; ++g) f(static_cast<size_t>(g), sc.dest[k++]);
  };
  const size_t o = plan.inputs();
  if (plan.rows) {  // each group's place, at its first row
    const Tile& t = ctx.array(o + nk + 1 + plan.layout.per() * plan.values);
    auto* rank = static_cast<int64_t*>(t.data());
    const int64_t s = stride_of(t);
    each([&](size_t g, int64_t k) { rank[(first[g] - lo) * s] = plan.start[p] + k; });
  }
  const size_t width = plan.width();
  const Packing& pk = plan.packing;
  for (size_t j = 0; j < nk; ++j) {
    const Tile& t = ctx.array(o + j);
    const int64_t s = stride_of(t);
    const auto radix = pk.packed ? static_cast<uint64_t>(pk.extent[j] + 1) : 0;
    auto word = [&](size_t g) {
      if (!pk.packed) return keys[g * width + j];
      const uint64_t v = keys[g] / pk.below[j] % radix;
      return v + 1 == radix ? kNull : static_cast<uint64_t>(pk.lo[j] + static_cast<int64_t>(v));
    };
    with_type(plan.key_types[j], [&](auto zero) {
      using T = decltype(zero);
      T* out = static_cast<T*>(t.data());
      each([&](size_t g, int64_t k) {
        const uint64_t w = word(g);
        T v;
        if constexpr (std::is_floating_point_v<T>) {
          double d;
          std::memcpy(&d, &w, sizeof d);
          v = w == kNull ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(d);
        } else if constexpr (std::is_same_v<T, bool>) {
          v = w != 0;
        } else {
          v = static_cast<T>(static_cast<int64_t>(w));  // a null code stays -1
        }
        out[k * s] = v;
      });
    });
  }
  // The sizes and the values' aggregates: 8-byte words each.
  for (size_t a = 0; a < 1 + plan.layout.per() * plan.values; ++a) {
    const auto* in = whole<uint64_t>(ctx, 2 + a);
    const Tile& t = ctx.array(o + nk + a);
    auto* out = static_cast<uint64_t*>(t.data());
    const int64_t s = stride_of(t);
    each([&](size_t g, int64_t k) { out[k * s] = in[g]; });
  }
}

// first_rows' last launch, one point per tile: whether each row is the first of its group.
void firsts(TaskContext& ctx) {
  const OrderPlan& plan = ctx.payload<OrderPlan>();
  const auto p = static_cast<size_t>(ctx.point());
  const int64_t* first = whole<int64_t>(ctx, 0);
  const Tile& t = ctx.array(1);
  auto* mark = static_cast<bool*>(t.data());
  const int64_t s = stride_of(t), lo = plan.lo[p], n = plan.hi[p] - lo;
  for (int64_t i = 0; i < n; ++i) mark[i * s] = false;
  const int64_t* ranges = &plan.ranges[2 * p * plan.merges];
  for (size_t q = 0; q < plan.merges; ++q)
    for (int64_t g = ranges[2 * q]; g < ranges[2 * q + 1]; ++g) mark[(first[g] - lo) * s] = true;
}

// What a relabelling point needs: per merge point, the run of its tile's partials that point
// took (their place among the partials and among the merge's entries) and where its groups start.
struct RelabelPlan {
  std::vector<int64_t> partials;  // per tile
  size_t merges = 0;
  std::vector<int64_t> runs;  // [tile * merges + q]: first partial, first entry, length
};

// Launch 4 (group_rows), one point per tile: each row's partial becomes its group, and the row
// learns its position in the group.
void relabel(TaskContext& ctx) {
  const RelabelPlan& plan = ctx.payload<RelabelPlan>();
  const auto t = static_cast<size_t>(ctx.point());
  const Tile& gt = ctx.array(0);
  const Tile& pt = ctx.array(1);
  const int64_t* local = whole<int64_t>(ctx, 2);
  const int64_t* entry_first = whole<int64_t>(ctx, 3);
  const int64_t* entry_before = whole<int64_t>(ctx, 4);
  const int64_t* rank = whole<int64_t>(ctx, 5);
  const auto m = static_cast<size_t>(plan.partials[t]);
  std::vector<int64_t> group(m), before(m), seen(m, 0);
  for (size_t q = 0; q < plan.merges; ++q) {
    const int64_t* r = &plan.runs[3 * (t * plan.merges + q)];
    for (int64_t k = 0; k < r[2]; ++k) {
      const auto p = static_cast<size_t>(local[r[0] + k]);
      const int64_t e = r[1] + k;
      group[p] = rank[entry_first[e]];
      before[p] = entry_before[e];
    }
  }
  auto* g = static_cast<int64_t*>(gt.data());
  auto* pos = static_cast<int64_t*>(pt.data());
  const int64_t gs = stride_of(gt), ps = stride_of(pt), n = gt.size();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t p = g[i * gs];
    if (p < 0) {
      pos[i * ps] = -1;
      continue;
    }
    const auto pp = static_cast<size_t>(p);
    g[i * gs] = group[pp];
    pos[i * ps] = before[pp] + seen[pp]++;
  }
}

// The points of a launch over `rows` rows: consecutive row ranges of 16 minimum chunks (at most
// 256 points), every argument's box the point's rows (an unbound output's is ignored). Larger
// than the runtime's tiles so that a tile's partial groups are fewer than its rows even with
// many groups; sized by the data and the minimum chunk alone, so the partials, and the bits,
// do not depend on the machine.
std::vector<std::vector<Rect>> row_points(int64_t rows, size_t arguments) {
  const int64_t chunk = std::max<int64_t>(16 * min_chunk(), (rows + 255) / 256);
  std::vector<std::vector<Rect>> points;
  for (int64_t lo = 0; lo < rows || points.empty(); lo += chunk) {
    const Rect box({lo}, {std::min(rows, lo + chunk)});
    points.emplace_back(arguments, box);
  }
  return points;
}

// The launch's arguments for the key columns (then `values`), checked; and its plan.
Plan plan_launch(const std::vector<ndarray>& keys, const std::vector<ndarray>& values, const GroupOptions& options,
                 std::vector<Argument>& args) {
  if (keys.empty()) throw ValueError("groupby: no key column given");
  const Shape rows = keys[0].valid() ? keys[0].shape() : Shape{};
  auto add = [&](const ndarray& a, const char* what) {
    if (!a.valid() || a.ndim() != 1) throw ValueError(std::string("groupby: the ") + what + " must be one column");
    if (a.shape() != rows)
      throw ValueError(std::string("groupby: a ") + what + " has " + std::to_string(a.shape()[0]) + " rows, the key " +
                       std::to_string(rows[0]));
    with_type(a.dtype(), [](auto) {});  // TypeError for the dtypes not aggregated
    args.push_back(in(a));
  };
  for (const ndarray& k : keys) add(k, "key");
  for (const ndarray& v : values) add(v, "value column");
  Plan plan;
  plan.keys = keys.size();
  plan.values = values.size();
  plan.layout = {.counts = options.counts || options.extremes || options.squares,
                 .extremes = options.extremes,
                 .squares = options.squares};
  plan.dropna = options.dropna;
  plan.negative_is_null = options.negative_is_null;
  plan.table_groups = static_cast<size_t>(std::clamp<int64_t>(4 * min_chunk(), 4, int64_t{1} << 18));
  // One word per key tuple when every key is an integer of a given range and the tuples fit in
  // 64 bits; and a dense table instead of hashing when they are few enough to clear it for
  // every tile.
  constexpr size_t kMaxSlots = size_t{1} << 20;
  if (options.ranges.size() == keys.size()) {
    Packing pk;
    unsigned __int128 tuples = 1;
    bool fits = true;
    for (size_t j = 0; j < keys.size() && fits; ++j) {
      const auto [lo, hi] = options.ranges[j];
      if (is_float(keys[j].dtype()) || hi < lo ||
          static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) >= (uint64_t{1} << 62)) {
        fits = false;
        break;
      }
      pk.lo.push_back(lo);
      pk.extent.push_back(hi - lo + 1);
      tuples *= static_cast<unsigned __int128>(hi - lo + 2);
      fits = tuples < (static_cast<unsigned __int128>(1) << 64);
    }
    if (fits) {
      pk.packed = true;
      pk.below.assign(keys.size(), 1);
      for (size_t j = keys.size() - 1; j > 0; --j)
        pk.below[j - 1] = pk.below[j] * static_cast<uint64_t>(pk.extent[j] + 1);
      if (tuples <= kMaxSlots) pk.slots = static_cast<size_t>(tuples);
      plan.packing = std::move(pk);
    }
  }
  return plan;
}

// The groups of every launch but group_rows' relabelling: group_aggregate's result, and what
// the relabelling reads.
struct Grouped {
  GroupAggregates out;
  bool none = false;  // no row is in a group (no rows, or only null keys left out)
  std::vector<Rect> tiles;
  ndarray local, entry_first, entry_before, rank;
  std::shared_ptr<RelabelPlan> relabel;
};

Rect all_of(const ndarray& a) { return Rect({0}, {a.shape()[0]}); }

// The launches for group_aggregate; for group_rows with `rows_group` (each row's group, the
// relabelling's to finish); for first_rows with `first_rows` (instead of the groups).
Grouped group(const std::vector<ndarray>& keys, const std::vector<ndarray>& values, const GroupOptions& options,
              const ndarray* rows_group, const ndarray* first_rows = nullptr) {
  register_dataframe_library();
  static const Task partials_task("dataframe.groupby_partials", partials);
  static const Task merge_task("dataframe.groupby_merge", merge);
  static const Task order_task("dataframe.groupby_order", order);
  static const Task firsts_task("dataframe.groupby_firsts", firsts);
  std::vector<Argument> args;
  Plan plan = plan_launch(keys, values, options, args);
  plan.rows = rows_group != nullptr;
  if (plan.rows) args.push_back(out(*rows_group));
  const ValueLayout& layout = plan.layout;
  const size_t nk = keys.size(), nv = values.size(), pv = layout.per();
  std::vector<DType> acc;
  for (const ndarray& v : values) acc.push_back(accumulator(v.dtype()));
  std::vector<DType> value_types;  // the values' aggregates, in ValueLayout's order
  for (DType t : acc) {
    value_types.push_back(t);
    if (layout.counts) value_types.push_back(DType::Int64);
    if (layout.extremes) value_types.insert(value_types.end(), {t, t});
    if (layout.squares) value_types.push_back(DType::Float64);
  }
  auto value_outputs = [&](std::vector<Argument>& a) {
    for (DType t : value_types) a.push_back(unbound(t));
  };
  args.push_back(unbound(DType::UInt64));                // key words
  args.push_back(unbound(DType::Int64));                 // first rows
  args.push_back(unbound(DType::Int64));                 // sizes
  args.push_back(unbound(DType::Int64));                 // bucket counts
  if (plan.rows) args.push_back(unbound(DType::Int64));  // the partials' numbers
  value_outputs(args);
  const int64_t rows = keys[0].shape()[0];
  std::vector<std::vector<Rect>> boxes = row_points(rows, args.size());
  Grouped result;
  for (const auto& b : boxes) result.tiles.push_back(b[0]);
  const size_t u = plan.partial_outputs();
  const std::vector<ndarray> parts =
      launch(partials_task, std::move(args), {}, {},
             {.name = "groupby (partials)", .weight = 4, .payload = Payload::of(plan), .points = std::move(boxes)});
  const std::vector<int64_t> counts = parts[3].to_vector<int64_t>();
  const size_t tiles = counts.size() / kBuckets;

  // The merge points: runs of buckets of at least kMergeEntries partials (at most 128 runs).
  auto mplan = std::make_shared<MergePlan>();
  mplan->keys = plan.width();
  mplan->slots = plan.packing.slots;
  mplan->values = nv;
  mplan->layout = layout;
  mplan->rows = plan.rows;
  mplan->accumulators = acc;
  mplan->tiles = tiles;
  std::vector<int64_t> per_bucket(kBuckets, 0), per_tile(tiles, 0);
  int64_t total = 0;
  for (size_t t = 0; t < tiles; ++t) {
    mplan->tile_start.push_back(total);
    int64_t at = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      mplan->bucket_start.push_back(at);
      at += counts[t * kBuckets + b];
      per_bucket[b] += counts[t * kBuckets + b];
    }
    mplan->bucket_start.push_back(at);
    per_tile[t] = at;
    total += at;
  }
  if (total == 0) {
    result.none = true;
    for (const ndarray& k : keys) result.out.keys.push_back(empty({0}, k.dtype()));
    result.out.size = empty({0}, DType::Int64);
    for (DType t : acc) {
      result.out.sum.push_back(empty({0}, t));
      if (layout.counts) result.out.count.push_back(empty({0}, DType::Int64));
      if (layout.extremes) {
        result.out.min.push_back(empty({0}, t));
        result.out.max.push_back(empty({0}, t));
      }
      if (layout.squares) result.out.squares.push_back(empty({0}, DType::Float64));
    }
    return result;
  }
  const int64_t target = std::max(kMergeEntries, (total + 127) / 128);
  mplan->point_buckets.push_back(0);
  int64_t run = 0;
  for (size_t b = 0; b < kBuckets; ++b) {
    run += per_bucket[b];
    if (run >= target || b + 1 == kBuckets) {
      mplan->point_buckets.push_back(b + 1);
      run = 0;
    }
  }
  const size_t merges = mplan->point_buckets.size() - 1;
  const auto width = static_cast<int64_t>(plan.width());
  // Where each merge point's partials start (its outputs' boxes: as many places as partials).
  std::vector<int64_t> entry_start(merges + 1, 0);
  for (size_t q = 0; q < merges; ++q) {
    entry_start[q + 1] = entry_start[q];
    for (size_t t = 0; t < tiles; ++t) {
      const int64_t* bs = &mplan->bucket_start[t * (kBuckets + 1)];
      entry_start[q + 1] += bs[mplan->point_buckets[q + 1]] - bs[mplan->point_buckets[q]];
    }
  }
  std::vector<Argument> margs;
  for (size_t i = 0; i < 3; ++i) margs.push_back(in(parts[i]));  // key words, first rows, sizes
  for (size_t i = 0; i < pv * nv; ++i) margs.push_back(in(parts[plan.value_outputs() - u + i]));
  const size_t mo = mplan->inputs();
  std::vector<ndarray> merged{new_array({total * width}, DType::UInt64), new_array({total}, DType::Int64),
                              new_array({total}, DType::Int64),
                              new_array({static_cast<int64_t>(merges * tiles)}, DType::Int64)};
  if (plan.rows) merged.insert(merged.end(), {new_array({total}, DType::Int64), new_array({total}, DType::Int64)});
  for (DType t : value_types) merged.push_back(new_array({total}, t));
  for (const ndarray& a : merged) margs.push_back(out(a));
  std::vector<std::vector<Rect>> mpoints;
  for (size_t q = 0; q < merges; ++q) {
    std::vector<Rect> p;
    for (size_t i = 0; i < mo; ++i) p.push_back(all_of(margs[i].array));
    const int64_t lo = entry_start[q], hi = entry_start[q + 1];
    p.push_back(Rect({lo * width}, {hi * width}));
    p.push_back(Rect({lo}, {hi}));
    p.push_back(Rect({lo}, {hi}));
    p.push_back(Rect({static_cast<int64_t>(q * tiles)}, {static_cast<int64_t>((q + 1) * tiles)}));
    p.resize(margs.size(), Rect({lo}, {hi}));
    mpoints.push_back(std::move(p));
  }
  launch(merge_task, std::move(margs), {}, {},
         {.name = "groupby (merge)",
          .weight = 4,
          .payload = Payload(std::shared_ptr<const MergePlan>(mplan)),
          .points = std::move(mpoints)});
  const std::vector<int64_t> begun = merged[3].to_vector<int64_t>();  // [q * tiles + t]

  // The ordering points: the tiles where groups begin (every tile for group_rows).
  auto oplan = std::make_shared<OrderPlan>();
  oplan->keys = nk;
  oplan->values = nv;
  oplan->layout = layout;
  oplan->packing = plan.packing;
  oplan->rows = plan.rows;
  oplan->merges = merges;
  for (const ndarray& k : keys) oplan->key_types.push_back(k.dtype());
  int64_t groups = 0;
  for (int64_t b : begun) groups += b;
  if (first_rows) {  // every tile marks the first rows of the groups that begin in it
    std::vector<int64_t> before(merges, 0);
    std::vector<std::vector<Rect>> points;
    for (size_t t = 0; t < tiles; ++t) {
      oplan->lo.push_back(result.tiles[t].lo[0]);
      oplan->hi.push_back(result.tiles[t].hi[0]);
      for (size_t q = 0; q < merges; ++q) {
        oplan->ranges.push_back(entry_start[q] + before[q]);
        oplan->ranges.push_back(entry_start[q] + before[q] + begun[q * tiles + t]);
        before[q] += begun[q * tiles + t];
      }
      points.push_back({all_of(merged[1]), result.tiles[t]});
    }
    launch(firsts_task, {in(merged[1]), out(*first_rows)}, {}, {},
           {.name = "groupby (first rows)",
            .payload = Payload(std::shared_ptr<const OrderPlan>(oplan)),
            .points = std::move(points)});
    return result;
  }
  GroupAggregates& res = result.out;
  for (const ndarray& k : keys) res.keys.push_back(new_array({groups}, k.dtype()));
  res.size = new_array({groups}, DType::Int64);
  std::vector<ndarray> value_arrays;
  for (DType t : acc) {
    res.sum.push_back(new_array({groups}, t));
    value_arrays.push_back(res.sum.back());
    if (layout.counts) {
      res.count.push_back(new_array({groups}, DType::Int64));
      value_arrays.push_back(res.count.back());
    }
    if (layout.extremes) {
      res.min.push_back(new_array({groups}, t));
      res.max.push_back(new_array({groups}, t));
      value_arrays.insert(value_arrays.end(), {res.min.back(), res.max.back()});
    }
    if (layout.squares) {
      res.squares.push_back(new_array({groups}, DType::Float64));
      value_arrays.push_back(res.squares.back());
    }
  }
  if (plan.rows) result.rank = new_array({rows}, DType::Int64);
  std::vector<Argument> oargs;
  for (size_t i = 0; i < 3; ++i) oargs.push_back(in(merged[i]));  // key words, first rows, sizes
  for (size_t i = 0; i < pv * nv; ++i) oargs.push_back(in(merged[mplan->value_outputs() - mo + i]));
  std::vector<Rect> inputs;
  for (const Argument& a : oargs) inputs.push_back(all_of(a.array));
  for (const ndarray& k : res.keys) oargs.push_back(out(k));
  oargs.push_back(out(res.size));
  for (const ndarray& v : value_arrays) oargs.push_back(out(v));
  if (plan.rows) oargs.push_back(out(result.rank));
  std::vector<std::vector<Rect>> opoints;
  std::vector<int64_t> before(merges, 0);  // per merge point: its groups of earlier tiles
  int64_t start = 0;
  for (size_t t = 0; t < tiles; ++t) {
    int64_t begins = 0;
    for (size_t q = 0; q < merges; ++q) begins += begun[q * tiles + t];
    if (begins > 0 || plan.rows) {
      oplan->lo.push_back(result.tiles[t].lo[0]);
      oplan->hi.push_back(result.tiles[t].hi[0]);
      oplan->start.push_back(start);
      for (size_t q = 0; q < merges; ++q) {
        const int64_t b = entry_start[q] + before[q];
        oplan->ranges.push_back(b);
        oplan->ranges.push_back(b + begun[q * tiles + t]);
      }
      std::vector<Rect> p = inputs;
      const Rect box({start}, {start + begins});
      p.resize(oargs.size(), box);
      if (plan.rows) p.back() = result.tiles[t];
      opoints.push_back(std::move(p));
    }
    for (size_t q = 0; q < merges; ++q) before[q] += begun[q * tiles + t];
    start += begins;
  }
  launch(order_task, std::move(oargs), {}, {},
         {.name = "groupby (order)",
          .payload = Payload(std::shared_ptr<const OrderPlan>(oplan)),
          .points = std::move(opoints)});
  if (!plan.rows) return result;

  // What the relabelling reads.
  result.local = parts[4];
  result.entry_first = merged[4];
  result.entry_before = merged[5];
  auto rplan = std::make_shared<RelabelPlan>();
  rplan->partials = per_tile;
  rplan->merges = merges;
  std::vector<int64_t> entry_at(entry_start.begin(), entry_start.end() - 1);
  for (size_t t = 0; t < tiles; ++t) {
    const int64_t* bs = &mplan->bucket_start[t * (kBuckets + 1)];
    for (size_t q = 0; q < merges; ++q) {
      const int64_t length = bs[mplan->point_buckets[q + 1]] - bs[mplan->point_buckets[q]];
      rplan->runs.insert(rplan->runs.end(), {mplan->tile_start[t] + bs[mplan->point_buckets[q]], entry_at[q], length});
      entry_at[q] += length;
    }
  }
  result.relabel = std::move(rplan);
  return result;
}

}  // namespace

GroupRows group_rows(const std::vector<ndarray>& keys, const GroupOptions& options) {
  static const Task relabel_task("dataframe.groupby_relabel", relabel);
  GroupOptions o = options;
  o.squares = o.counts = o.extremes = false;
  const Shape rows = keys.empty() || !keys[0].valid() ? Shape{0} : keys[0].shape();
  GroupRows result;
  result.group = new_array(rows, DType::Int64);
  Grouped g = group(keys, {}, o, &result.group);
  result.keys = g.out.keys;
  result.size = g.out.size;
  if (g.none) {  // every row left out (or none): the partials launch wrote -1 for each
    result.position = full(rows, Scalar(int64_t{-1}), DType::Int64);
    return result;
  }
  result.position = new_array(rows, DType::Int64);
  std::vector<Argument> args{inout(result.group), out(result.position), in(g.local),
                             in(g.entry_first),   in(g.entry_before),   in(g.rank)};
  std::vector<std::vector<Rect>> points;
  for (const Rect& tile : g.tiles) {
    std::vector<Rect> p{tile, tile};
    for (size_t i = 2; i < args.size(); ++i) p.push_back(all_of(args[i].array));
    points.push_back(std::move(p));
  }
  launch(relabel_task, std::move(args), {}, {},
         {.name = "groupby (relabel)",
          .payload = Payload(std::shared_ptr<const RelabelPlan>(g.relabel)),
          .points = std::move(points)});
  return result;
}

ndarray first_rows(const std::vector<ndarray>& keys, const GroupOptions& options) {
  GroupOptions o = options;
  o.squares = o.counts = o.extremes = false;
  const Shape rows = keys.empty() || !keys[0].valid() ? Shape{0} : keys[0].shape();
  ndarray mark = new_array(rows, DType::Bool);
  const Grouped g = group(keys, {}, o, nullptr, &mark);
  return g.none ? zeros(rows, DType::Bool) : mark;
}

GroupAggregates group_aggregate(const std::vector<ndarray>& keys, const std::vector<ndarray>& values,
                                const GroupOptions& options) {
  return group(keys, values, options, nullptr).out;
}

}  // namespace tessera::frame
