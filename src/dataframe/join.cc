// join_indices: a hash join in pandas' row order.
//
// Design. One side is built into a hash table, the other probes it:
// - inner and left probe the left side against a table of the right one; right swaps the
//   roles; outer probes the left side too. The probe is one launch of "dataframe.join_probe"
//   over the probe side's row tiles (its key columns aligned): each point looks up its rows
//   and writes its pairs of positions as unbound outputs, which the runtime joins in point
//   order — row order — across workers and ranks. That is where a join spends its time
//   (the probe side is the large one in a typical join, and the output is as long as it).
// - The table is built on the calling thread, from the build side's key values read whole
//   (to_vector): every rank reads the same values and builds the same table, so each rank's
//   points probe an identical table and nothing about the table depends on the machine. The
//   table (KeyTable below) is open addressing over canonical 64-bit keys (NaN one value,
//   -0.0 as 0.0; several columns hashed as a tuple) mapping a key to its group, numbered in
//   order of first appearance, and the build rows of each group in row order (a counting
//   sort): a probe row's matches come out in build-row order, as pandas gives them. It
//   reaches the points as the launch's payload, shared read-only.
// - Outer: the probe launch gives each left row its right group (or -1); the calling thread
//   groups the left rows whose key the right side lacks (a second KeyTable), sorts all keys
//   (lexicographic, NaN last: pandas' order for outer), and one launch over the sorted keys
//   ("dataframe.join_outer") writes each key's pairs, joined in key order.
// The output depends only on the data: same bits on any number of cpus or ranks.
#include "dataframe/join.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>

#include "dataframe/table.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::frame {
namespace {

constexpr uint64_t kNaN = 0x7ff8000000000000ULL;

// One key value as 64 bits that are equal exactly when pandas' keys are: every NaN one
// value, -0.0 as 0.0.
inline uint64_t canonical(uint64_t v, bool floating) {
  if (!floating) return v;
  const double d = std::bit_cast<double>(v);
  if (d != d) return kNaN;
  if (d == 0) return 0;
  return v;
}

inline uint64_t mix(uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Key columns seen as canonical 64-bit values: rows of a tile, or of host vectors.
struct KeyColumns {
  std::vector<const char*> data;
  std::vector<int64_t> stride;  // bytes
  std::vector<char> floating;   // per column (not vector<bool>: read for every key)
  size_t size() const { return data.size(); }
  uint64_t bits(size_t c, int64_t i) const {
    uint64_t v;
    std::memcpy(&v, data[c] + i * stride[c], sizeof v);
    return canonical(v, floating[c]);
  }
  uint64_t hash(int64_t i) const {
    uint64_t h = mix(bits(0, i));
    for (size_t c = 1; c < size(); ++c) h = mix(h ^ (bits(c, i) + 0x9e3779b97f4a7c15ULL + (h << 6)));
    return h;
  }
};

// A hash table from keys to groups, with each group's rows. Built once, then read-only.
class KeyTable {
 public:
  // Groups rows `ids` (0..n-1 when empty) of `cols` (n rows).
  KeyTable(const KeyColumns& cols, int64_t n, const std::vector<int64_t>& ids = {})
      : ncols_(cols.size()), floating_(cols.floating) {
    const int64_t m = ids.empty() ? n : static_cast<int64_t>(ids.size());
    resize(std::bit_ceil(static_cast<uint64_t>(2 * std::max<int64_t>(8, std::min<int64_t>(m, 1 << 20)))));
    keys_.reserve(static_cast<size_t>(m) * ncols_);
    std::vector<int64_t> gid(static_cast<size_t>(m));
    uint64_t hash[kBlock], tag[kBlock];
    for (int64_t j0 = 0; j0 < m; j0 += kBlock) {  // in blocks, as find()
      const int64_t b = std::min(kBlock, m - j0);
      for (int64_t j = 0; j < b; ++j) {
        hash_row(cols, row(ids, j0 + j), hash[j], tag[j]);
        __builtin_prefetch(&slots_[hash[j] & mask_]);
      }
      for (int64_t j = 0; j < b; ++j)
        gid[static_cast<size_t>(j0 + j)] = insert(cols, row(ids, j0 + j), hash[j], tag[j]);
    }
    const int64_t g = groups();
    unique_ = g == m;
    direct_ = unique_ && ids.empty();
    if (unique_) {  // group j is the j-th row grouped
      if (!direct_) rows_ = ids;
      return;
    }
    begin_.assign(static_cast<size_t>(g) + 1, 0);
    for (int64_t x : gid) ++begin_[static_cast<size_t>(x) + 1];
    for (int64_t k = 0; k < g; ++k) begin_[static_cast<size_t>(k) + 1] += begin_[static_cast<size_t>(k)];
    rows_.resize(static_cast<size_t>(m));
    std::vector<int64_t> at(begin_.begin(), begin_.end() - 1);
    for (int64_t j = 0; j < m; ++j)
      rows_[static_cast<size_t>(at[static_cast<size_t>(gid[static_cast<size_t>(j)])]++)] = row(ids, j);
  }

  /// The group of each of rows [0, n) of `cols` (columns of the table's kinds), or -1, into
  /// `group`. Rows go in blocks whose slots are fetched ahead: a large table misses the cache
  /// on nearly every probe, and the misses of a block overlap.
  void find(const KeyColumns& cols, int64_t n, int64_t* group) const {
    uint64_t hash[kBlock], tag[kBlock];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t b = std::min(kBlock, n - i0);
      for (int64_t j = 0; j < b; ++j) {
        hash_row(cols, i0 + j, hash[j], tag[j]);
        __builtin_prefetch(&slots_[hash[j] & mask_]);
      }
      for (int64_t j = 0; j < b; ++j) group[i0 + j] = lookup(hash[j], tag[j], cols, i0 + j);
    }
  }
  int64_t groups() const { return static_cast<int64_t>(keys_.size() / ncols_); }
  size_t columns() const { return ncols_; }
  bool floating(size_t c) const { return floating_[c]; }
  uint64_t key(int64_t g, size_t c) const { return keys_[static_cast<size_t>(g) * ncols_ + c]; }
  /// Calls f(row) for the rows of group g, ascending.
  template <class F>
  void each_row(int64_t g, F&& f) const {
    if (direct_) return f(g);
    if (unique_) return f(rows_[static_cast<size_t>(g)]);
    for (int64_t k = begin_[static_cast<size_t>(g)], e = begin_[static_cast<size_t>(g) + 1]; k < e; ++k)
      f(rows_[static_cast<size_t>(k)]);
  }
  int64_t count(int64_t g) const {
    return unique_ ? 1 : begin_[static_cast<size_t>(g) + 1] - begin_[static_cast<size_t>(g)];
  }
  /// Whether group g is build row g alone (distinct keys, every row of the side).
  bool direct() const { return direct_; }
  bool unique() const { return unique_; }

 private:
  struct Slot {
    uint64_t tag;   // the key (one column) or its hash (several)
    int64_t group;  // -1: empty
  };

  int64_t lookup(uint64_t h, uint64_t tag, const KeyColumns& cols, int64_t i) const {
    for (uint64_t s = h & mask_;; s = (s + 1) & mask_) {
      const Slot& slot = slots_[s];
      if (slot.group < 0) return -1;
      if (slot.tag == tag && (ncols_ == 1 || same(slot.group, cols, i))) return slot.group;
    }
  }
  bool same(int64_t g, const KeyColumns& cols, int64_t i) const {
    for (size_t c = 0; c < ncols_; ++c)
      if (key(g, c) != cols.bits(c, i)) return false;
    return true;
  }
  uint64_t hash_of_group(int64_t g) const {
    uint64_t h = mix(key(g, 0));
    for (size_t c = 1; c < ncols_; ++c) h = mix(h ^ (key(g, c) + 0x9e3779b97f4a7c15ULL + (h << 6)));
    return h;
  }
  void resize(uint64_t capacity) {
    slots_.assign(capacity, Slot{0, -1});
    mask_ = capacity - 1;
    for (int64_t g = 0; g < groups(); ++g) {
      const uint64_t h = hash_of_group(g);
      uint64_t s = h & mask_;
      while (slots_[s].group >= 0) s = (s + 1) & mask_;
      slots_[s] = Slot{ncols_ == 1 ? key(g, 0) : h, g};
    }
  }
  static constexpr int64_t kBlock = 32;

  static int64_t row(const std::vector<int64_t>& ids, int64_t j) {
    return ids.empty() ? j : ids[static_cast<size_t>(j)];
  }
  // The slot hash of row i and the tag its slot holds: the key itself for one column.
  void hash_row(const KeyColumns& cols, int64_t i, uint64_t& hash, uint64_t& tag) const {
    if (ncols_ == 1) {
      tag = cols.bits(0, i);
      hash = mix(tag);
    } else {
      tag = hash = cols.hash(i);
    }
  }
  int64_t insert(const KeyColumns& cols, int64_t i, uint64_t h, uint64_t tag) {
    uint64_t s = h & mask_;
    for (;; s = (s + 1) & mask_) {
      const Slot& slot = slots_[s];
      if (slot.group < 0) break;
      if (slot.tag == tag && (ncols_ == 1 || same(slot.group, cols, i))) return slot.group;
    }
    const int64_t g = groups();
    for (size_t c = 0; c < ncols_; ++c) keys_.push_back(cols.bits(c, i));
    slots_[s] = Slot{tag, g};
    if (2 * static_cast<uint64_t>(g + 1) > slots_.size()) resize(2 * slots_.size());
    return g;
  }

  size_t ncols_;
  std::vector<char> floating_;
  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
  std::vector<uint64_t> keys_;  // group-major
  std::vector<int64_t> begin_, rows_;
  bool unique_ = false, direct_ = false;
};

// What a probe point writes: pairs (inner; keep: unmatched rows too, with -1), the group of
// each row (outer), or the number of pairs (join_size).
enum class Probe : int { Inner, Keep, Groups, CountInner, CountKeep };

struct ProbePlan {
  std::shared_ptr<const KeyTable> table;
  Probe mode;
};

KeyColumns tile_columns(const TaskContext& ctx, size_t ncols) {
  KeyColumns k;
  for (size_t c = 0; c < ncols; ++c) {
    const Tile& t = ctx.array(c);
    k.data.push_back(static_cast<const char*>(t.data()));
    k.stride.push_back(t.strides()[0] * 8);
    k.floating.push_back(t.dtype() == DType::Float64);
  }
  return k;
}

void probe_body(TaskContext& ctx) {
  const ProbePlan& plan = ctx.payload<ProbePlan>();
  const KeyTable& table = *plan.table;
  const size_t ncols = table.columns();
  const KeyColumns keys = tile_columns(ctx, ncols);
  const int64_t n = ctx.array(0).size(), row0 = ctx.array(0).lo()[0];
  if (plan.mode == Probe::Groups) {
    table.find(keys, n, static_cast<int64_t*>(ctx.bind_output(ncols, n)));
    ctx.bind_output(ncols + 1, 0);
    return;
  }
  std::vector<int64_t> group(static_cast<size_t>(n));
  table.find(keys, n, group.data());
  const bool keep = plan.mode == Probe::Keep || plan.mode == Probe::CountKeep;
  int64_t total = 0;
  if (table.unique()) {
    for (int64_t g : group) total += (g >= 0 || keep) ? 1 : 0;
  } else {
    for (int64_t g : group) total += g < 0 ? (keep ? 1 : 0) : table.count(g);
  }
  if (plan.mode == Probe::CountInner || plan.mode == Probe::CountKeep) {
    *static_cast<int64_t*>(ctx.bind_output(ncols, 1)) = total;
    ctx.bind_output(ncols + 1, 0);
    return;
  }
  auto* a = static_cast<int64_t*>(ctx.bind_output(ncols, total));
  auto* b = static_cast<int64_t*>(ctx.bind_output(ncols + 1, total));
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t g = group[static_cast<size_t>(i)];
    if (g < 0) {
      if (keep) a[k] = row0 + i, b[k++] = -1;
    } else if (table.direct()) {
      a[k] = row0 + i, b[k++] = g;
    } else {
      table.each_row(g, [&](int64_t r) { a[k] = row0 + i, b[k++] = r; });
    }
  }
}

// Runs the probe launch over `keys` (the probe side); returns its two unbound outputs.
std::vector<ndarray> probe(const std::vector<ndarray>& keys, std::shared_ptr<const KeyTable> table, Probe mode) {
  static const Task task("dataframe.join_probe", probe_body);
  if (keys[0].size() == 0) {
    const int64_t n = (mode == Probe::CountInner || mode == Probe::CountKeep) ? 1 : 0;
    return {zeros({n}, DType::Int64), zeros({0}, DType::Int64)};
  }
  std::vector<Argument> args;
  std::vector<Constraint> constraints;
  for (size_t c = 0; c < keys.size(); ++c) {
    if (c > 0) constraints.push_back(align(static_cast<int>(c), 0));
    args.push_back(in(keys[c]));
  }
  args.push_back(unbound(DType::Int64));
  args.push_back(unbound(DType::Int64));
  auto plan = std::make_shared<const ProbePlan>(ProbePlan{std::move(table), mode});
  return launch(task, std::move(args), {}, std::move(constraints),
                {.name = "join", .weight = 8, .payload = Payload(plan)});
}

// A side's key columns read whole, as canonical 64-bit values (one vector per column).
struct HostKeys {
  std::vector<std::vector<uint64_t>> values;
  KeyColumns columns;
  int64_t rows = 0;
};

HostKeys read_keys(const std::vector<ndarray>& keys) {
  HostKeys h;
  h.rows = keys[0].size();
  for (const ndarray& k : keys) {
    std::vector<uint64_t> v(static_cast<size_t>(h.rows));
    k.copy_to(v.data());
    const bool floating = k.dtype() == DType::Float64;
    if (floating)
      for (uint64_t& x : v) x = canonical(x, true);
    h.values.push_back(std::move(v));
    h.columns.floating.push_back(floating);
  }
  for (const auto& v : h.values) {
    h.columns.data.push_back(reinterpret_cast<const char*>(v.data()));
    h.columns.stride.push_back(8);
  }
  return h;
}

// Key order for outer joins: column by column, numbers ascending, NaN last.
int compare_key(uint64_t a, uint64_t b, bool floating) {
  if (!floating) {
    const auto x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  const double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
  const bool nx = x != x, ny = y != y;
  if (nx || ny) return nx == ny ? 0 : (nx ? 1 : -1);
  return x < y ? -1 : (x > y ? 1 : 0);
}

// The outer join's groups, in key order: entry e < right.groups() is a right group (with
// the left rows that matched it, `lbegin`/`lrows`), the rest are left-only groups.
struct OuterPlan {
  std::shared_ptr<const KeyTable> right, left_only;
  std::vector<int64_t> order, lbegin, lrows;
};

void outer_body(TaskContext& ctx) {
  const OuterPlan& p = ctx.payload<OuterPlan>();
  const Tile& space = ctx.array(0);
  const int64_t lo = space.lo()[0], hi = space.hi()[0], gr = p.right->groups();
  std::vector<int64_t> a, b;
  for (int64_t k = lo; k < hi; ++k) {
    const int64_t e = p.order[static_cast<size_t>(k)];
    if (e >= gr) {
      p.left_only->each_row(e - gr, [&](int64_t l) { a.push_back(l), b.push_back(-1); });
      continue;
    }
    const int64_t *l = p.lrows.data() + p.lbegin[static_cast<size_t>(e)],
                  *lend = p.lrows.data() + p.lbegin[static_cast<size_t>(e) + 1];
    if (l == lend) {
      p.right->each_row(e, [&](int64_t r) { a.push_back(-1), b.push_back(r); });
      continue;
    }
    for (; l != lend; ++l) p.right->each_row(e, [&](int64_t r) { a.push_back(*l), b.push_back(r); });
  }
  const int64_t m = static_cast<int64_t>(a.size());
  std::memcpy(ctx.bind_output(1, m), a.data(), a.size() * sizeof(int64_t));
  std::memcpy(ctx.bind_output(2, m), b.data(), b.size() * sizeof(int64_t));
}

JoinIndices outer_join(const std::vector<ndarray>& left, std::shared_ptr<const KeyTable> right) {
  static const Task task("dataframe.join_outer", outer_body);
  const std::vector<int64_t> gid = probe(left, right, Probe::Groups)[0].to_vector<int64_t>();
  const int64_t gr = right->groups();
  std::vector<int64_t> unmatched;
  std::vector<int64_t> lbegin(static_cast<size_t>(gr) + 1, 0);
  for (size_t i = 0; i < gid.size(); ++i) {
    if (gid[i] < 0) unmatched.push_back(static_cast<int64_t>(i));
    else ++lbegin[static_cast<size_t>(gid[i]) + 1];
  }
  std::shared_ptr<const KeyTable> left_only;
  if (unmatched.empty()) {
    KeyColumns none;
    none.floating.assign(right->columns(), false);
    none.data.assign(right->columns(), nullptr);
    none.stride.assign(right->columns(), 8);
    left_only = std::make_shared<const KeyTable>(none, 0);
  } else {
    const HostKeys lk = read_keys(left);
    left_only = std::make_shared<const KeyTable>(lk.columns, lk.rows, unmatched);
  }
  for (int64_t g = 0; g < gr; ++g) lbegin[static_cast<size_t>(g) + 1] += lbegin[static_cast<size_t>(g)];
  std::vector<int64_t> lrows(static_cast<size_t>(lbegin.back()));
  {
    std::vector<int64_t> at(lbegin.begin(), lbegin.end() - 1);
    for (size_t i = 0; i < gid.size(); ++i)
      if (gid[i] >= 0) lrows[static_cast<size_t>(at[static_cast<size_t>(gid[i])]++)] = static_cast<int64_t>(i);
  }
  const int64_t groups = gr + left_only->groups();
  auto plan = std::make_shared<OuterPlan>();
  plan->order.resize(static_cast<size_t>(groups));
  std::iota(plan->order.begin(), plan->order.end(), int64_t{0});
  const KeyTable& r = *right;
  const KeyTable& l = *left_only;
  auto key = [&](int64_t e, size_t c) { return e < gr ? r.key(e, c) : l.key(e - gr, c); };
  std::sort(plan->order.begin(), plan->order.end(), [&](int64_t x, int64_t y) {  // keys are distinct
    for (size_t c = 0; c < r.columns(); ++c)
      if (const int o = compare_key(key(x, c), key(y, c), r.floating(c)); o != 0) return o < 0;
    return false;
  });
  if (groups == 0) return {zeros({0}, DType::Int64), zeros({0}, DType::Int64)};
  plan->right = std::move(right);
  plan->left_only = std::move(left_only);
  plan->lbegin = std::move(lbegin);
  plan->lrows = std::move(lrows);
  std::vector<ndarray> pairs =
      launch(task, {space({groups}), unbound(DType::Int64), unbound(DType::Int64)}, {}, {},
             {.name = "join", .payload = Payload(std::shared_ptr<const OuterPlan>(std::move(plan)))});
  return {std::move(pairs[0]), std::move(pairs[1])};
}

enum class How { Inner, Left, Right, Outer };

// Checks the arguments and gives each pair of key columns one dtype (an int64 column paired
// with a float64 one becomes float64, as pandas compares them).
How prepare(std::vector<ndarray>& left, std::vector<ndarray>& right, const std::string& how) {
  register_dataframe_library();
  How h;
  if (how == "inner") h = How::Inner;
  else if (how == "left") h = How::Left;
  else if (how == "right") h = How::Right;
  else if (how == "outer") h = How::Outer;
  else throw ValueError("'" + how + "' is not a valid Merge type: left, right, inner, outer");
  if (left.empty() || right.empty()) throw ValueError("join: no key columns");
  if (left.size() != right.size()) throw ValueError("len(right_on) must equal len(left_on)");
  for (auto* side : {&left, &right})
    for (const ndarray& k : *side) {
      if (!k.valid() || k.ndim() != 1) throw ValueError("join: a key must be one column");
      if (k.dtype() != DType::Int64 && k.dtype() != DType::Float64)
        throw TypeError(std::string("join: a key column must be int64 or float64, not ") + dtype_name(k.dtype()));
      if (k.shape() != (*side)[0].shape())
        throw ValueError("join: key columns of one side have " + std::to_string((*side)[0].size()) + " and " +
                         std::to_string(k.size()) + " rows");
    }
  for (size_t c = 0; c < left.size(); ++c) {
    if (left[c].dtype() == right[c].dtype()) continue;
    if (left[c].dtype() == DType::Int64) left[c] = astype(left[c], DType::Float64);
    else right[c] = astype(right[c], DType::Float64);
  }
  return h;
}

std::shared_ptr<const KeyTable> build(const std::vector<ndarray>& keys) {
  const HostKeys h = read_keys(keys);
  return std::make_shared<const KeyTable>(h.columns, h.rows);
}

}  // namespace

JoinIndices join_indices(const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys,
                         const std::string& how) {
  std::vector<ndarray> left = left_keys, right = right_keys;
  const How h = prepare(left, right, how);
  if (h == How::Outer) return outer_join(left, build(right));
  if (h == How::Right) {
    std::vector<ndarray> pairs = probe(right, build(left), Probe::Keep);
    return {std::move(pairs[1]), std::move(pairs[0])};
  }
  std::vector<ndarray> pairs = probe(left, build(right), h == How::Left ? Probe::Keep : Probe::Inner);
  return {std::move(pairs[0]), std::move(pairs[1])};
}

int64_t join_size(const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys,
                  const std::string& how) {
  std::vector<ndarray> left = left_keys, right = right_keys;
  const How h = prepare(left, right, how);
  if (h == How::Outer) {
    const std::shared_ptr<const KeyTable> table = build(right);
    const std::vector<int64_t> gid = probe(left, table, Probe::Groups)[0].to_vector<int64_t>();
    std::vector<bool> matched(static_cast<size_t>(table->groups()), false);
    int64_t total = 0;
    for (int64_t g : gid) {
      if (g < 0) {
        ++total;
      } else {
        total += table->count(g);
        matched[static_cast<size_t>(g)] = true;
      }
    }
    for (int64_t g = 0; g < table->groups(); ++g)
      if (!matched[static_cast<size_t>(g)]) total += table->count(g);
    return total;
  }
  const bool swap = h == How::Right;
  const std::vector<int64_t> counts =
      probe(swap ? right : left, build(swap ? left : right), h == How::Inner ? Probe::CountInner : Probe::CountKeep)[0]
          .to_vector<int64_t>();
  return std::accumulate(counts.begin(), counts.end(), int64_t{0});
}

}  // namespace tessera::frame
