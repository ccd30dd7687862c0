// group_aggregate: one launch of "dataframe.groupby_partials" over the rows (the key and value
// columns aligned). Each point reads its rows' keys as 64-bit words (one per key column: an
// integer's value, a float's bits with -0.0 as 0.0 and one NaN, a null as kNull), hashes the
// tuples into an open-addressing table of its own, and aggregates every value column into the
// groups it found; its partial groups are unbound outputs, joined in point order. The calling
// thread then hashes the partials into the final groups in that order: a group's first partial
// comes from the first tile that has its rows, and within a tile partials are in order of first
// row, so the groups come out in order of first appearance, whatever the machine.
#include "dataframe/groupby.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "dataframe/table.h"
#include "tessera/creation.h"
#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::frame {
namespace {

constexpr uint64_t kNull = ~uint64_t{0};  // the word of a null key (no real key has it: see key_word)

uint64_t mix(uint64_t h) {  // splitmix64's finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

uint64_t hash_words(const uint64_t* w, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (size_t j = 0; j < n; ++j) h = mix(h ^ (w[j] + 0x632be59bd9b4e019ull * (j + 1)));
  return h;
}

// Integer keys of known ranges: a key tuple's slot in a dense array (a null is each key's
// last value). Empty when the keys are hashed instead.
struct DirectSlots {
  std::vector<int64_t> lo, extent;  // per key: values lo .. lo + extent - 1, then the null
  size_t slots = 0;
};

// Groups by tuples of `width` words, group ids in order of insertion: a dense array of slots when
// the keys are integers of small known ranges (categorical codes, small ints), else open
// addressing with linear probing.
class GroupTable {
 public:
  explicit GroupTable(size_t width, size_t expect = 0, const DirectSlots* direct = nullptr) : width_(width) {
    if (direct && direct->slots) {
      direct_ = direct;
      thread_local std::vector<int32_t> dense;  // per worker: a tile's table touches no fresh pages
      dense.assign(direct->slots, -1);
      dense_ = &dense;
      if (expect > direct->slots) expect = direct->slots;
    } else {
      grow(std::max<size_t>(64, 2 * expect));
      hashes_.reserve(expect);
    }
    keys_.reserve(expect * width);
  }
  GroupTable(const GroupTable&) = delete;
  GroupTable& operator=(const GroupTable&) = delete;

  int32_t find_or_insert(const uint64_t* key) {
    if (direct_) {
      size_t at = 0;
      for (size_t j = 0; j < width_; ++j) {
        const int64_t e = direct_->extent[j];
        int64_t v = key[j] == kNull ? e : static_cast<int64_t>(key[j]) - direct_->lo[j];
        if (v < 0 || v > e) throw ValueError("groupby: a key outside the range given for it");
        at = at * static_cast<size_t>(e + 1) + static_cast<size_t>(v);
      }
      int32_t& g = (*dense_)[at];
      if (g < 0) {
        g = static_cast<int32_t>(keys_.size() / width_);
        keys_.insert(keys_.end(), key, key + width_);
      }
      return g;
    }
    const uint64_t h = hash_words(key, width_);
    size_t i = h & mask_;
    for (;;) {
      const int32_t g = slots_[i];
      if (g < 0) break;
      if (hashes_[static_cast<size_t>(g)] == h && same(key, &keys_[static_cast<size_t>(g) * width_])) return g;
      i = (i + 1) & mask_;
    }
    const auto g = static_cast<int32_t>(hashes_.size());
    if (hashes_.size() == std::numeric_limits<int32_t>::max())
      throw ValueError("groupby: more than 2^31 groups in one tile");
    slots_[i] = g;
    hashes_.push_back(h);
    keys_.insert(keys_.end(), key, key + width_);
    if (2 * hashes_.size() > slots_.size()) grow(2 * slots_.size());
    return g;
  }
  size_t groups() const { return keys_.size() / width_; }
  /// Word j of group g's key.
  uint64_t key(size_t g, size_t j) const { return keys_[g * width_ + j]; }

 private:
  bool same(const uint64_t* a, const uint64_t* b) const {
    for (size_t j = 0; j < width_; ++j)
      if (a[j] != b[j]) return false;
    return true;
  }
  void grow(size_t capacity) {
    size_t c = 64;
    while (c < capacity) c *= 2;
    slots_.assign(c, -1);
    mask_ = c - 1;
    for (size_t g = 0; g < hashes_.size(); ++g) {
      size_t i = hashes_[g] & mask_;
      while (slots_[i] >= 0) i = (i + 1) & mask_;
      slots_[i] = static_cast<int32_t>(g);
    }
  }
  size_t width_, mask_ = 0;
  const DirectSlots* direct_ = nullptr;
  std::vector<int32_t>* dense_ = nullptr;
  std::vector<int32_t> slots_;
  std::vector<uint64_t> hashes_;
  std::vector<uint64_t> keys_;
};

// A key's word; `null` set when the key is null.
template <class T>
uint64_t key_word(T x, bool negative_is_null, bool& null) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) {
      null = true;
      return kNull;
    }
    const double d = x == 0 ? 0.0 : static_cast<double>(x);  // -0.0 and 0.0 are one group
    uint64_t w;
    std::memcpy(&w, &d, sizeof w);
    return w;  // never kNull: that is a NaN's bits
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (negative_is_null && x < 0) {
        null = true;
        return kNull;
      }
      // A real key of -1 has kNull's word: it only happens where negatives are not null, and
      // then no key is null.
      return static_cast<uint64_t>(static_cast<int64_t>(x));
    } else {
      return static_cast<uint64_t>(x);
    }
  }
}

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

// Aggregates the values of one column (element type T) into `groups` groups by `gid` and binds
// outputs first.. (sum, count, min, max[, squares]) of this point.
template <class T>
void aggregate(TaskContext& ctx, const Tile& v, const std::vector<int32_t>& gid, size_t groups, size_t first,
               bool squares) {
  constexpr bool floating = std::is_floating_point_v<T>;
  using A = std::conditional_t<floating, double, std::conditional_t<std::is_unsigned_v<T>, uint64_t, int64_t>>;
  const T* x = static_cast<const T*>(v.data());
  const int64_t s = v.strides().empty() ? 1 : v.strides()[0];
  const auto ng = static_cast<int64_t>(groups);
  auto* sum = static_cast<A*>(ctx.bind_output(first, ng));
  auto* count = static_cast<int64_t*>(ctx.bind_output(first + 1, ng));
  auto* lo = static_cast<A*>(ctx.bind_output(first + 2, ng));
  auto* hi = static_cast<A*>(ctx.bind_output(first + 3, ng));
  const A none = floating ? std::numeric_limits<A>::quiet_NaN() : A(0);
  std::vector<double> carry(floating ? groups : 0, 0.0);  // Kahan's compensation of each sum
  for (size_t g = 0; g < groups; ++g) sum[g] = A(0), count[g] = 0, lo[g] = none, hi[g] = none;
  for (size_t i = 0; i < gid.size(); ++i) {
    const int32_t g = gid[i];
    if (g < 0) continue;
    const A val = static_cast<A>(x[static_cast<int64_t>(i) * s]);
    if constexpr (floating) {
      if (std::isnan(val)) continue;
      const double y = val - carry[g], t = sum[g] + y;
      carry[g] = (t - sum[g]) - y;
      sum[g] = t;
    } else {
      sum[g] = wrap_add(sum[g], val);
    }
    if (count[g] == 0 || val < lo[g]) lo[g] = val;
    if (count[g] == 0 || val > hi[g]) hi[g] = val;
    ++count[g];
  }
  if (!squares) return;
  auto* m2 = static_cast<double*>(ctx.bind_output(first + 4, ng));
  std::vector<double> mean(groups);
  for (size_t g = 0; g < groups; ++g) {
    m2[g] = 0;
    mean[g] = count[g] ? static_cast<double>(sum[g]) / static_cast<double>(count[g]) : 0.0;
  }
  for (size_t i = 0; i < gid.size(); ++i) {
    const int32_t g = gid[i];
    if (g < 0) continue;
    const double val = static_cast<double>(x[static_cast<int64_t>(i) * s]);
    if constexpr (floating)
      if (std::isnan(val)) continue;
    const double d = val - mean[g];
    m2[g] += d * d;
  }
}

struct Plan {
  size_t keys = 0, values = 0;
  bool squares = false, dropna = true;
  std::vector<bool> negative_is_null;
  DirectSlots direct;
  size_t per_value() const { return squares ? 5 : 4; }
};

// Hashes the key tuples of this point's rows (arguments 0..nk-1) into `table`: each row's group,
// -1 for a row whose null key is left out.
std::vector<int32_t> hash_rows(const TaskContext& ctx, const Plan& plan, GroupTable& table) {
  const size_t nk = plan.keys;
  const int64_t n = ctx.array(0).size();
  // Every row's key tuple, row-major (nk words per row), in buffers each worker keeps: a tile's
  // rows would otherwise touch fresh pages every time.
  thread_local std::vector<uint64_t> words;
  thread_local std::vector<uint8_t> null;
  words.resize(static_cast<size_t>(n) * nk);
  null.assign(static_cast<size_t>(n), 0);
  for (size_t j = 0; j < nk; ++j) {
    const Tile& k = ctx.array(j);
    const int64_t s = k.strides().empty() ? 1 : k.strides()[0];
    const bool negative = j < plan.negative_is_null.size() && plan.negative_is_null[j];
    with_type(k.dtype(), [&](auto zero) {
      using T = decltype(zero);
      const T* p = static_cast<const T*>(k.data());
      for (int64_t i = 0; i < n; ++i) {
        bool is_null = false;
        words[static_cast<size_t>(i) * nk + j] = key_word(p[i * s], negative, is_null);
        null[static_cast<size_t>(i)] |= static_cast<uint8_t>(is_null);
      }
    });
  }
  std::vector<int32_t> gid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const auto r = static_cast<size_t>(i);
    gid[r] = plan.dropna && null[r] ? -1 : table.find_or_insert(&words[r * nk]);
  }
  return gid;
}

// Binds outputs first..first+nk-1 to the key words of the table's groups.
void bind_keys(TaskContext& ctx, const GroupTable& table, size_t nk, size_t first) {
  const size_t groups = table.groups();
  for (size_t j = 0; j < nk; ++j) {
    auto* w = static_cast<uint64_t*>(ctx.bind_output(first + j, static_cast<int64_t>(groups)));
    for (size_t g = 0; g < groups; ++g) w[g] = table.key(g, j);
  }
}

void partials(TaskContext& ctx) {
  const Plan& plan = ctx.payload<Plan>();
  const size_t nk = plan.keys;
  GroupTable table(nk, 0, &plan.direct);
  const std::vector<int32_t> gid = hash_rows(ctx, plan, table);
  const size_t groups = table.groups();
  const auto ng = static_cast<int64_t>(groups);
  const size_t out0 = nk + plan.values;  // inputs: the keys, the values
  bind_keys(ctx, table, nk, out0);
  auto* size = static_cast<int64_t*>(ctx.bind_output(out0 + nk, ng));
  std::fill(size, size + groups, int64_t{0});
  for (int32_t g : gid)
    if (g >= 0) ++size[g];
  for (size_t c = 0; c < plan.values; ++c) {
    const Tile& v = ctx.array(nk + c);
    with_type(v.dtype(), [&](auto zero) {
      aggregate<decltype(zero)>(ctx, v, gid, groups, out0 + nk + 1 + plan.per_value() * c, plan.squares);
    });
  }
}

// The key words of the final groups as an array of the key's dtype.
ndarray key_column(const std::vector<uint64_t>& words, DType t) {
  ndarray out;
  with_type(t, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> v(words.size());
    for (size_t g = 0; g < words.size(); ++g) {
      const uint64_t w = words[g];
      if constexpr (std::is_floating_point_v<T>) {
        double d;
        std::memcpy(&d, &w, sizeof d);
        v[g] = w == kNull ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(d);
      } else {
        v[g] = static_cast<T>(static_cast<int64_t>(w));  // a null code stays -1
      }
    }
    if constexpr (std::is_same_v<T, bool>) {
      std::vector<uint8_t> b(v.begin(), v.end());
      out = from_host(b.data(), {static_cast<int64_t>(b.size())}, t);
    } else {
      out = from_host(v.data(), {static_cast<int64_t>(v.size())}, t);
    }
  });
  return out;
}

// Folds partial row r of one value column into final group g.
template <class A>
struct Fold {
  std::vector<A> sum, lo, hi;
  std::vector<double> carry, m2;
  std::vector<int64_t> count;
  Fold(size_t groups, bool squares)
      : sum(groups, A(0)),
        lo(groups, A(0)),
        hi(groups, A(0)),
        carry(std::is_floating_point_v<A> ? groups : 0, 0.0),
        m2(squares ? groups : 0, 0.0),
        count(groups, 0) {
    if constexpr (std::is_floating_point_v<A>) {
      std::fill(lo.begin(), lo.end(), std::numeric_limits<A>::quiet_NaN());
      std::fill(hi.begin(), hi.end(), std::numeric_limits<A>::quiet_NaN());
    }
  }
};

template <class A>
void combine_values(const std::vector<ndarray>& parts, size_t first, bool squares, const std::vector<size_t>& group,
                    size_t groups, GroupAggregates& out) {
  const std::vector<A> sum = parts[first].to_vector<A>(), lo = parts[first + 2].to_vector<A>(),
                       hi = parts[first + 3].to_vector<A>();
  const std::vector<int64_t> count = parts[first + 1].to_vector<int64_t>();
  const std::vector<double> m2 = squares ? parts[first + 4].to_vector<double>() : std::vector<double>();
  Fold<A> f(groups, squares);
  for (size_t r = 0; r < group.size(); ++r) {  // in point order
    const size_t g = group[r];
    if (squares && count[r] > 0) {  // Chan et al.'s update of the squared deviations
      const int64_t na = f.count[g], nb = count[r];
      if (na == 0) {
        f.m2[g] = m2[r];
      } else {
        const double delta = static_cast<double>(sum[r]) / static_cast<double>(nb) -
                             static_cast<double>(f.sum[g]) / static_cast<double>(na);
        f.m2[g] +=
            m2[r] + delta * delta * static_cast<double>(na) * static_cast<double>(nb) / static_cast<double>(na + nb);
      }
    }
    if constexpr (std::is_floating_point_v<A>) {
      const double y = sum[r] - f.carry[g], t = f.sum[g] + y;
      f.carry[g] = (t - f.sum[g]) - y;
      f.sum[g] = t;
    } else {
      f.sum[g] = wrap_add(f.sum[g], sum[r]);
    }
    if (count[r] == 0) continue;
    if (f.count[g] == 0 || lo[r] < f.lo[g]) f.lo[g] = lo[r];
    if (f.count[g] == 0 || hi[r] > f.hi[g]) f.hi[g] = hi[r];
    f.count[g] += count[r];
  }
  const Shape shape{static_cast<int64_t>(groups)};
  const DType t = dtype_of<A>::value;
  out.sum.push_back(from_host(f.sum.data(), shape, t));
  out.count.push_back(from_host(f.count.data(), shape, DType::Int64));
  out.min.push_back(from_host(f.lo.data(), shape, t));
  out.max.push_back(from_host(f.hi.data(), shape, t));
  if (squares) out.squares.push_back(from_host(f.m2.data(), shape, DType::Float64));
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
  plan.squares = options.squares;
  plan.dropna = options.dropna;
  plan.negative_is_null = options.negative_is_null;
  // Dense slots when every key is an integer of a given range and all tuples fit in a
  // table small enough to clear for every tile.
  constexpr size_t kMaxSlots = size_t{1} << 20;
  if (options.ranges.size() == keys.size()) {
    DirectSlots d;
    size_t slots = 1;
    for (size_t j = 0; j < keys.size() && slots; ++j) {
      const auto [lo, hi] = options.ranges[j];
      if (is_float(keys[j].dtype()) || hi < lo || hi - lo >= static_cast<int64_t>(kMaxSlots)) slots = 0;
      else {
        d.lo.push_back(lo);
        d.extent.push_back(hi - lo + 1);
        slots *= static_cast<size_t>(hi - lo + 2);
        if (slots > kMaxSlots) slots = 0;
      }
    }
    d.slots = slots;
    if (slots) plan.direct = std::move(d);
  }
  return plan;
}

// The final groups of the partial groups (key words parts[first..first+nk-1], joined in point
// order): each partial row's final group, in order of first appearance, and the final keys.
struct FinalGroups {
  std::vector<size_t> group;  // per partial row
  size_t groups = 0;
  std::vector<ndarray> keys;
};

FinalGroups final_groups(const std::vector<ndarray>& parts, size_t first, const std::vector<ndarray>& keys,
                         const DirectSlots& direct) {
  const size_t nk = keys.size();
  std::vector<std::vector<uint64_t>> words(nk);
  for (size_t j = 0; j < nk; ++j) words[j] = parts[first + j].to_vector<uint64_t>();
  const size_t partial_rows = words[0].size();
  GroupTable table(nk, partial_rows, &direct);
  FinalGroups f;
  f.group.resize(partial_rows);
  std::vector<uint64_t> tuple(nk);
  for (size_t r = 0; r < partial_rows; ++r) {
    for (size_t j = 0; j < nk; ++j) tuple[j] = words[j][r];
    f.group[r] = static_cast<size_t>(table.find_or_insert(tuple.data()));
  }
  f.groups = table.groups();
  for (size_t j = 0; j < nk; ++j) {
    std::vector<uint64_t> w(f.groups);
    for (size_t g = 0; g < f.groups; ++g) w[g] = table.key(g, j);
    f.keys.push_back(key_column(w, keys[j].dtype()));
  }
  return f;
}

// Per final group: the rows of its partials (sizes per partial row), summed.
ndarray group_sizes(const std::vector<int64_t>& sizes, const FinalGroups& f) {
  std::vector<int64_t> size(f.groups, 0);
  for (size_t r = 0; r < sizes.size(); ++r) size[f.group[r]] += sizes[r];
  return from_host(size.data(), {static_cast<int64_t>(f.groups)}, DType::Int64);
}

// group_rows' first launch: each row's group in its tile's table (written into `group`, the
// argument after the keys), the tile's partial groups and their sizes, and the tile's rows and
// number of groups ([lo, hi, groups]) as unbound outputs.
void local_groups(TaskContext& ctx) {
  const Plan& plan = ctx.payload<Plan>();
  const size_t nk = plan.keys;
  GroupTable table(nk, 0, &plan.direct);
  const std::vector<int32_t> gid = hash_rows(ctx, plan, table);
  const Tile& out = ctx.array(nk);
  auto* g = static_cast<int64_t*>(out.data());
  const int64_t s = out.strides().empty() ? 1 : out.strides()[0];
  for (size_t i = 0; i < gid.size(); ++i) g[static_cast<int64_t>(i) * s] = gid[i];
  const size_t groups = table.groups();
  bind_keys(ctx, table, nk, nk + 1);
  auto* size = static_cast<int64_t*>(ctx.bind_output(2 * nk + 1, static_cast<int64_t>(groups)));
  std::fill(size, size + groups, int64_t{0});
  for (int32_t x : gid)
    if (x >= 0) ++size[x];
  auto* range = static_cast<int64_t*>(ctx.bind_output(2 * nk + 2, 3));
  range[0] = out.lo().empty() ? 0 : out.lo()[0];
  range[1] = out.hi().empty() ? 0 : out.hi()[0];
  range[2] = static_cast<int64_t>(groups);
}

// What group_rows' second launch needs: per point of the first, where its partial rows start;
// per partial row, its final group and how many rows of that group earlier tiles hold.
struct Relabel {
  std::vector<int64_t> first;  // per point
  std::vector<int64_t> group, before;
};

// group_rows' second launch, one point per tile of the first: local groups become final ones,
// and each row learns its position within its group.
void relabel(TaskContext& ctx) {
  const Relabel& r = ctx.payload<Relabel>();
  const Tile& gt = ctx.array(0);
  const Tile& pt = ctx.array(1);
  auto* g = static_cast<int64_t*>(gt.data());
  auto* pos = static_cast<int64_t*>(pt.data());
  const int64_t gs = gt.strides().empty() ? 1 : gt.strides()[0], ps = pt.strides().empty() ? 1 : pt.strides()[0];
  const int64_t first = r.first[static_cast<size_t>(ctx.point())];
  const int64_t n = gt.size();
  std::vector<int64_t> seen;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t local = g[i * gs];
    if (local < 0) {
      pos[i * ps] = -1;
      continue;
    }
    if (static_cast<size_t>(local) >= seen.size()) seen.resize(static_cast<size_t>(local) + 1, 0);
    const auto row = static_cast<size_t>(first + local);
    g[i * gs] = r.group[row];
    pos[i * ps] = r.before[row] + seen[static_cast<size_t>(local)]++;
  }
}

}  // namespace

GroupRows group_rows(const std::vector<ndarray>& keys, const GroupOptions& options) {
  register_dataframe_library();
  static const Task first("dataframe.groupby_local", local_groups);
  static const Task second("dataframe.groupby_relabel", relabel);
  std::vector<Argument> args;
  Plan plan = plan_launch(keys, {}, options, args);
  plan.squares = false;
  const Shape rows = keys[0].shape();
  GroupRows result;
  result.group = new_array(rows, DType::Int64);
  result.position = new_array(rows, DType::Int64);
  args.push_back(out(result.group));
  const size_t nk = keys.size();
  for (size_t j = 0; j < nk; ++j) args.push_back(unbound(DType::UInt64));
  args.push_back(unbound(DType::Int64));  // sizes
  args.push_back(unbound(DType::Int64));  // [lo, hi, groups] per point
  std::vector<std::vector<Rect>> boxes = row_points(rows[0], args.size());
  const std::vector<ndarray> parts = launch(
      first, std::move(args), {}, {}, {.name = "groupby", .payload = Payload::of(plan), .points = std::move(boxes)});
  const FinalGroups f = final_groups(parts, 0, keys, plan.direct);
  const std::vector<int64_t> sizes = parts[nk].to_vector<int64_t>(), ranges = parts[nk + 1].to_vector<int64_t>();
  Relabel r;
  std::vector<int64_t> total(f.groups, 0);
  r.group.resize(sizes.size());
  r.before.resize(sizes.size());
  for (size_t p = 0; p < sizes.size(); ++p) {  // partial rows, in point order
    r.group[p] = static_cast<int64_t>(f.group[p]);
    r.before[p] = total[f.group[p]];
    total[f.group[p]] += sizes[p];
  }
  std::vector<std::vector<Rect>> points;
  int64_t next = 0;
  for (size_t p = 0; 3 * p + 2 < ranges.size(); ++p) {
    r.first.push_back(next);
    next += ranges[3 * p + 2];
    const Rect box({ranges[3 * p]}, {ranges[3 * p + 1]});
    points.push_back({box, box});
  }
  launch(second, {inout(result.group), out(result.position)}, {}, {},
         {.name = "groupby", .payload = Payload::of(std::move(r)), .points = std::move(points)});
  result.keys = f.keys;
  result.size = group_sizes(sizes, f);
  return result;
}

GroupAggregates group_aggregate(const std::vector<ndarray>& keys, const std::vector<ndarray>& values,
                                const GroupOptions& options) {
  register_dataframe_library();
  static const Task task("dataframe.groupby_partials", partials);
  std::vector<Argument> args;
  const Plan plan = plan_launch(keys, values, options, args);
  const size_t nk = keys.size();
  for (size_t j = 0; j < nk; ++j) args.push_back(unbound(DType::UInt64));
  args.push_back(unbound(DType::Int64));
  for (const ndarray& v : values) {
    const DType a = accumulator(v.dtype());
    args.push_back(unbound(a));
    args.push_back(unbound(DType::Int64));
    args.push_back(unbound(a));
    args.push_back(unbound(a));
    if (plan.squares) args.push_back(unbound(DType::Float64));
  }
  std::vector<std::vector<Rect>> boxes = row_points(keys[0].shape()[0], args.size());
  const std::vector<ndarray> parts = launch(
      task, std::move(args), {}, {}, {.name = "groupby", .payload = Payload::of(plan), .points = std::move(boxes)});
  const FinalGroups f = final_groups(parts, 0, keys, plan.direct);
  GroupAggregates out;
  out.keys = f.keys;
  out.size = group_sizes(parts[nk].to_vector<int64_t>(), f);
  for (size_t c = 0; c < values.size(); ++c) {
    const size_t first = nk + 1 + plan.per_value() * c;
    switch (accumulator(values[c].dtype())) {
      case DType::Float64: combine_values<double>(parts, first, plan.squares, f.group, f.groups, out); break;
      case DType::UInt64: combine_values<uint64_t>(parts, first, plan.squares, f.group, f.groups, out); break;
      default: combine_values<int64_t>(parts, first, plan.squares, f.group, f.groups, out); break;
    }
  }
  return out;
}

}  // namespace tessera::frame
