// join_indices: a hash join in pandas' row order.
//
// Design. One side (the build side) is made into a hash table; the other (the probe side)
// looks its rows up in it. Inner and left joins probe the left side against a table of the
// right one, right joins swap the roles, outer joins probe the left side.
// - The table is partitions of open addressing, built in parallel and held in tessera arrays:
//   1. "dataframe.join_partition", one launch over the build side's row tiles: each point
//      hashes its rows' keys (canonical 64-bit values: NaN one value, -0.0 as 0.0; several
//      columns hashed as a tuple) and writes them, bucketed by partition (the hash's top bits),
//      with their row positions, as unbound outputs joined in point order;
//   2. "dataframe.join_build", one point per partition (LaunchOptions::points): each gathers
//      its partition's rows (in row order: the buckets of the points in point order), numbers
//      its distinct keys in order of first appearance, and writes its box of the table's
//      arrays (slots of linear probing, each group's rows in row order behind group bounds,
//      each group's key), whose sizes the bucket counts give beforehand.
//   The partition count depends on the build side's length alone (one per 65,536 rows, up to
//   256), and every part is a function of the data, so the table has the same bits on any
//   number of cpus or ranks; the runtime copies its arrays to the ranks that read them.
// - The probe is one launch ("dataframe.join_probe") over the probe side's row tiles, the
//   table's arrays broadcast: each point looks its rows up (in blocks whose slots are fetched
//   ahead, so the cache misses of a block overlap) and writes its pairs of row positions,
//   matches in build-row order, as unbound outputs joined in point order — row order.
// - Outer: the probe gives each left row its right group (or -1); the left rows whose key the
//   right side lacks are grouped by a second table (built the same way from their keys); the
//   calling thread reads both tables' groups, sorts all keys (lexicographic, NaN last: pandas'
//   order for outer), and one launch over the sorted keys ("dataframe.join_outer") writes
//   each key's pairs, joined in key order.
// The output depends only on the data: the same bits on any number of cpus or ranks.
#include "dataframe/join.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <numeric>

#include "dataframe/group_table.h"
#include "dataframe/table.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::frame {
namespace {

constexpr uint64_t kNaN = 0x7ff8000000000000ULL;
constexpr int64_t kRowsPerPartition = 65536;
constexpr int kMaxPartitionBits = 8;  // a code below holds the partition in 8 bits

// One key value as 64 bits that are equal exactly when pandas' keys are: every NaN one
// value, -0.0 as 0.0.
inline uint64_t canonical(uint64_t v, bool floating) {
  if (!floating) return v;
  const double d = std::bit_cast<double>(v);
  if (d != d) return kNaN;
  if (d == 0) return 0;
  return v;
}

using detail::mix;  // splitmix64's finaliser, groupby's too (group_table.h)

inline uint64_t mix_in(uint64_t h, uint64_t key) { return mix(h ^ (key + 0x9e3779b97f4a7c15ULL + (h << 6))); }

// Key columns seen as canonical 64-bit values: the rows of a tile, or of host vectors.
struct KeyColumns {
  std::vector<const char*> data;
  std::vector<int64_t> stride;  // bytes
  std::vector<char> floating;   // per column (not vector<bool>: read for every key)
  size_t size() const { return data.size(); }
  uint64_t bits(size_t c, int64_t i) const {
    uint64_t v;
    std::memcpy(&v, data[c] + i * stride[c], sizeof v);
    return canonical(v, floating[c] != 0);
  }
  uint64_t hash(int64_t i) const {
    uint64_t h = mix(bits(0, i));
    for (size_t c = 1; c < size(); ++c) h = mix_in(h, bits(c, i));
    return h;
  }
};

KeyColumns tile_columns(const TaskContext& ctx, const std::vector<char>& floating) {
  KeyColumns k;
  k.floating = floating;
  for (size_t c = 0; c < floating.size(); ++c) {
    const Tile& t = ctx.array(c);
    k.data.push_back(static_cast<const char*>(t.data()));
    k.stride.push_back(t.strides()[0] * 8);
  }
  return k;
}

template <class T>
const T* whole(const TaskContext& ctx, size_t i) {  // a broadcast argument's elements
  const Tile& t = ctx.array(i);
  TESSERA_CHECK(t.size() <= 1 || t.strides()[0] == 1, "join table arrays are contiguous");
  return static_cast<const T*>(t.data());
}

inline int partition_of(uint64_t hash, int bits) { return bits == 0 ? 0 : static_cast<int>(hash >> (64 - bits)); }

// Where each partition's part of the table lies in the table's arrays (the same on every
// rank: it is computed from the sizes the launches return).
struct Layout {
  size_t ncols = 0;
  std::vector<char> floating;
  int bits = 0;  // 1 << bits partitions
  int64_t rows = 0;
  // Per partition: its rows, slots and distinct keys; where its slots (two int64 each: tag,
  // group) start, where its rows, group bounds and group keys start (`base`: count + 1
  // entries each, keys ncols times that), and the number of its first group among all.
  std::vector<int64_t> count, capacity, groups, slot_off, base, group_off;
  int64_t total_groups = 0;
  size_t partitions() const { return size_t{1} << bits; }
  /// The first slot to look at for a key of hash h in partition p: the bits below the
  /// partition's, scaled to its capacity.
  int64_t slot_of(uint64_t h, size_t p) const {
    return static_cast<int64_t>((static_cast<unsigned __int128>(h << bits) * static_cast<uint64_t>(capacity[p])) >> 64);
  }
};

// A group is found as a code: its number within its partition times 256, plus the partition.
inline int64_t code_of(int64_t group, int partition) { return (group << kMaxPartitionBits) | partition; }
inline int partition_in(int64_t code) { return static_cast<int>(code & ((1 << kMaxPartitionBits) - 1)); }
inline int64_t group_in(int64_t code) { return code >> kMaxPartitionBits; }

// The table read through pointers to its arrays (a point's broadcast tiles, or host copies).
struct TableView {
  const Layout* layout;
  const int64_t* slots;  // per slot: tag (the key for one column, else its hash), group or -1
  const int64_t* begin;  // per partition: count + 1 bounds into its rows, by group
  const int64_t* rows;   // build row positions, by partition, by group, ascending
  const uint64_t* keys;  // per partition: count x ncols, the first `groups` used

  /// The code of the group of each of rows [0, n) of `cols`, or -1, into `code`. A row's
  /// slot is fetched kAhead rows before it is looked at: a large table misses the cache on
  /// nearly every probe, and so the misses overlap.
  void find(const KeyColumns& cols, int64_t n, int64_t* code) const {
    constexpr int64_t kAhead = 32, kRing = 64;  // a ring of the rows fetched, not yet looked at
    const Layout& l = *layout;
    uint64_t tag[kRing];
    int64_t slot[kRing];
    int part[kRing];
    for (int64_t i = 0; i < n + kAhead; ++i) {
      if (i < n) {
        const int64_t r = i & (kRing - 1);
        uint64_t hash;
        if (l.ncols == 1) {
          tag[r] = cols.bits(0, i);
          hash = mix(tag[r]);
        } else {
          tag[r] = hash = cols.hash(i);
        }
        const int p = part[r] = partition_of(hash, l.bits);
        slot[r] = l.slot_of(hash, static_cast<size_t>(p));
        __builtin_prefetch(slots + 2 * (l.slot_off[static_cast<size_t>(p)] + slot[r]));
      }
      if (const int64_t j = i - kAhead; j >= 0) {
        const int64_t r = j & (kRing - 1);
        code[j] = lookup(part[r], slot[r], tag[r], cols, j);
      }
    }
  }
  int64_t count(int64_t code) const {
    const size_t p = static_cast<size_t>(partition_in(code));
    const Layout& l = *layout;
    if (l.groups[p] == l.count[p]) return 1;
    const int64_t* b = begin + l.base[p] + group_in(code);
    return b[1] - b[0];
  }
  /// Calls f(row) for the rows of the group, ascending.
  template <class F>
  void each_row(int64_t code, F&& f) const {
    const size_t p = static_cast<size_t>(partition_in(code));
    const Layout& l = *layout;
    const int64_t* r = rows + l.base[p];
    const int64_t g = group_in(code);
    if (l.groups[p] == l.count[p]) return f(r[g]);
    const int64_t* b = begin + l.base[p] + g;
    for (int64_t k = b[0]; k < b[1]; ++k) f(r[k]);
  }
  /// Fetches where each_row(code) starts reading ahead of it (a random place in a large table).
  void prefetch(int64_t code) const {
    if (code < 0) return;
    const size_t p = static_cast<size_t>(partition_in(code));
    const Layout& l = *layout;
    if (l.groups[p] == l.count[p]) __builtin_prefetch(rows + l.base[p] + group_in(code));
    else __builtin_prefetch(begin + l.base[p] + group_in(code));
  }
  uint64_t key(int64_t code, size_t c) const {
    const Layout& l = *layout;
    return keys[static_cast<size_t>(l.base[static_cast<size_t>(partition_in(code))] + group_in(code)) * l.ncols + c];
  }
  /// The group's number among all the table's groups.
  int64_t global(int64_t code) const {
    return layout->group_off[static_cast<size_t>(partition_in(code))] + group_in(code);
  }

 private:
  int64_t lookup(int p, int64_t s, uint64_t tag, const KeyColumns& cols, int64_t i) const {
    const Layout& l = *layout;
    const size_t pp = static_cast<size_t>(p);
    const int64_t* part = slots + 2 * l.slot_off[pp];
    const int64_t capacity = l.capacity[pp];
    for (;; s = s + 1 == capacity ? 0 : s + 1) {
      const int64_t g = part[2 * s + 1];
      if (g < 0) return -1;
      if (static_cast<uint64_t>(part[2 * s]) != tag) continue;
      if (l.ncols > 1) {
        const uint64_t* k = keys + static_cast<size_t>(l.base[pp] + g) * l.ncols;
        bool same = true;
        for (size_t c = 0; c < l.ncols && same; ++c) same = k[c] == cols.bits(c, i);
        if (!same) continue;
      }
      return code_of(g, p);
    }
  }
};

// A built table: its layout and arrays.
struct HashTable {
  std::shared_ptr<const Layout> layout;
  ndarray slots, begin, rows, keys;
  bool empty() const { return layout->rows == 0; }
};

// ---- Building ---------------------------------------------------------------------------

struct PartitionPlan {
  std::vector<char> floating;
  int bits;
};

// Inputs: the build side's key columns (aligned). Outputs (unbound): row positions, hashes,
// keys (ncols per row), all bucketed by partition; the number of rows per partition.
void partition_body(TaskContext& ctx) {
  const PartitionPlan& plan = ctx.payload<PartitionPlan>();
  const size_t ncols = plan.floating.size(), parts = size_t{1} << plan.bits;
  const KeyColumns cols = tile_columns(ctx, plan.floating);
  const int64_t n = ctx.array(0).size(), row0 = ctx.array(0).lo()[0];
  std::vector<uint64_t> hash(static_cast<size_t>(n));
  std::vector<int64_t> at(parts + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    hash[static_cast<size_t>(i)] = cols.hash(i);
    ++at[static_cast<size_t>(partition_of(hash[static_cast<size_t>(i)], plan.bits)) + 1];
  }
  auto* counts = static_cast<int64_t*>(ctx.bind_output(ncols + 3, static_cast<int64_t>(parts)));
  for (size_t p = 0; p < parts; ++p) counts[p] = at[p + 1];
  for (size_t p = 0; p < parts; ++p) at[p + 1] += at[p];
  auto* rows = static_cast<int64_t*>(ctx.bind_output(ncols, n));
  auto* hashes = static_cast<uint64_t*>(ctx.bind_output(ncols + 1, n));
  auto* keys = static_cast<uint64_t*>(ctx.bind_output(ncols + 2, n * static_cast<int64_t>(ncols)));
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t h = hash[static_cast<size_t>(i)];
    const int64_t k = at[static_cast<size_t>(partition_of(h, plan.bits))]++;
    rows[k] = row0 + i;
    hashes[k] = h;
    for (size_t c = 0; c < ncols; ++c) keys[static_cast<size_t>(k) * ncols + c] = cols.bits(c, i);
  }
}

struct BuildPlan {
  Layout layout;                 // count, capacity and offsets known; groups not yet
  int64_t points = 0;            // of the partition launch
  std::vector<int64_t> segment;  // [partition * points + point]: where its bucket starts
  std::vector<int64_t> length;   // and its length
};

// One point per partition (LaunchOptions::points). Inputs: the partition launch's rows,
// hashes and keys, whole. Outputs: the partition's boxes of the table's slots, group bounds,
// rows and group keys, and its number of groups.
void build_body(TaskContext& ctx) {
  const BuildPlan& plan = ctx.payload<BuildPlan>();
  const Layout& l = plan.layout;
  const size_t ncols = l.ncols, p = static_cast<size_t>(ctx.point());
  const int64_t* in_rows = whole<int64_t>(ctx, 0);
  const uint64_t* in_hash = whole<uint64_t>(ctx, 1);
  const uint64_t* in_keys = whole<uint64_t>(ctx, 2);
  auto* slots = static_cast<int64_t*>(ctx.array(3).data());
  auto* bound = static_cast<int64_t*>(ctx.array(4).data());
  auto* rows = static_cast<int64_t*>(ctx.array(5).data());
  auto* gkeys = static_cast<uint64_t*>(ctx.array(6).data());
  const int64_t m = l.count[p], capacity = l.capacity[p];
  for (int64_t s = 0; s < capacity; ++s) slots[2 * s] = 0, slots[2 * s + 1] = -1;
  std::fill(gkeys, gkeys + static_cast<size_t>(m + 1) * ncols, uint64_t{0});
  std::vector<int64_t> gid, row;
  gid.reserve(static_cast<size_t>(m));
  row.reserve(static_cast<size_t>(m));
  int64_t ng = 0;
  for (int64_t t = 0; t < plan.points; ++t) {  // the buckets in point order: rows ascending
    const size_t at = p * static_cast<size_t>(plan.points) + static_cast<size_t>(t);
    for (int64_t i = plan.segment[at], end = i + plan.length[at]; i < end; ++i) {
      const uint64_t h = in_hash[i];
      const uint64_t* key = in_keys + static_cast<size_t>(i) * ncols;
      const uint64_t tag = ncols == 1 ? key[0] : h;
      for (int64_t s = l.slot_of(h, p);; s = s + 1 == capacity ? 0 : s + 1) {
        const int64_t g = slots[2 * s + 1];
        if (g < 0) {
          slots[2 * s] = static_cast<int64_t>(tag);
          slots[2 * s + 1] = ng;
          std::memcpy(gkeys + static_cast<size_t>(ng) * ncols, key, ncols * sizeof(uint64_t));
          gid.push_back(ng++);
          break;
        }
        if (static_cast<uint64_t>(slots[2 * s]) == tag &&
            (ncols == 1 || std::memcmp(gkeys + static_cast<size_t>(g) * ncols, key, ncols * sizeof(uint64_t)) == 0)) {
          gid.push_back(g);
          break;
        }
      }
      row.push_back(in_rows[i]);
    }
  }
  // Each group's rows in row order (a counting sort) behind count + 1 bounds.
  std::fill(bound, bound + m + 1, int64_t{0});
  for (int64_t g : gid) ++bound[g + 1];
  for (int64_t g = 0; g < m; ++g) bound[g + 1] += bound[g];
  std::vector<int64_t> at(bound, bound + ng);
  for (size_t j = 0; j < gid.size(); ++j) rows[at[static_cast<size_t>(gid[j])]++] = row[j];
  rows[m] = -1;  // the partition's padding entry
  *static_cast<int64_t*>(ctx.array(7).data()) = ng;
}

// The table of `keys` (the build side; `floating`: which columns hold float64 bits).
HashTable build(const std::vector<ndarray>& keys, const std::vector<char>& floating) {
  static const Task partition_task("dataframe.join_partition", partition_body);
  static const Task build_task("dataframe.join_build", build_body);
  auto layout = std::make_shared<Layout>();
  Layout& l = *layout;
  l.ncols = keys.size();
  l.floating = floating;
  l.rows = keys[0].size();
  const int64_t wanted = (l.rows + kRowsPerPartition - 1) / kRowsPerPartition;
  l.bits = std::min(kMaxPartitionBits,
                    static_cast<int>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(wanted, 1) - 1))));
  const size_t parts = l.partitions();
  HashTable table;
  table.layout = layout;
  if (l.rows == 0) return table;  // probe() knows nothing matches
  std::vector<Argument> args;
  std::vector<Constraint> constraints;
  for (size_t c = 0; c < keys.size(); ++c) {
    if (c > 0) constraints.push_back(align(static_cast<int>(c), 0));
    args.push_back(in(keys[c]));
  }
  for (int i = 0; i < 4; ++i) args.push_back(unbound(DType::Int64));
  const std::vector<ndarray> bucketed =
      launch(partition_task, std::move(args), {}, std::move(constraints),
             {.name = "join", .weight = 2, .payload = Payload::of(PartitionPlan{floating, l.bits})});
  const std::vector<int64_t> counts = bucketed[3].to_vector<int64_t>();
  auto plan = std::make_shared<BuildPlan>();
  plan->points = static_cast<int64_t>(counts.size() / parts);
  plan->segment.resize(counts.size());
  plan->length.resize(counts.size());
  l.count.assign(parts, 0);
  int64_t at = 0;
  for (int64_t t = 0; t < plan->points; ++t)
    for (size_t p = 0; p < parts; ++p) {
      const size_t i = p * static_cast<size_t>(plan->points) + static_cast<size_t>(t);
      const int64_t n = counts[static_cast<size_t>(t) * parts + p];
      plan->segment[i] = at;
      plan->length[i] = n;
      at += n;
      l.count[p] += n;
    }
  // Slots for 1.5 times the rows (a load of at most 2/3 for linear probing), and every part
  // of a partition at least one entry long (a padding row), so no point's box is empty.
  l.capacity.resize(parts);
  l.slot_off.assign(parts + 1, 0);
  l.base.assign(parts + 1, 0);
  for (size_t p = 0; p < parts; ++p) {
    l.capacity[p] = l.count[p] + l.count[p] / 2 + 8;
    l.slot_off[p + 1] = l.slot_off[p] + l.capacity[p];
    l.base[p + 1] = l.base[p] + l.count[p] + 1;
  }
  const auto ncols = static_cast<int64_t>(l.ncols);
  const int64_t entries = l.base[parts];
  table.slots = new_array({2 * l.slot_off[parts]}, DType::Int64);
  table.begin = new_array({entries}, DType::Int64);
  table.rows = new_array({entries}, DType::Int64);
  table.keys = new_array({entries * ncols}, DType::Int64);
  ndarray groups = new_array({static_cast<int64_t>(parts)}, DType::Int64);
  std::vector<std::vector<Rect>> points;
  const Rect all_rows({0}, {l.rows}), all_keys({0}, {l.rows * ncols});
  for (size_t p = 0; p < parts; ++p)
    points.push_back({all_rows, all_rows, all_keys, Rect({2 * l.slot_off[p]}, {2 * l.slot_off[p + 1]}),
                      Rect({l.base[p]}, {l.base[p + 1]}), Rect({l.base[p]}, {l.base[p + 1]}),
                      Rect({l.base[p] * ncols}, {l.base[p + 1] * ncols}),
                      Rect({static_cast<int64_t>(p)}, {static_cast<int64_t>(p) + 1})});
  plan->layout = l;
  launch(build_task,
         {in(bucketed[0]), in(bucketed[1]), in(bucketed[2]), out(table.slots), out(table.begin), out(table.rows),
          out(table.keys), out(groups)},
         {}, {},
         {.name = "join", .payload = Payload(std::shared_ptr<const BuildPlan>(std::move(plan))), .points = points});
  l.groups = groups.to_vector<int64_t>();
  l.group_off.assign(parts, 0);
  for (size_t p = 1; p < parts; ++p) l.group_off[p] = l.group_off[p - 1] + l.groups[p - 1];
  l.total_groups = l.group_off.back() + l.groups.back();
  return table;
}

// A table's arrays copied to the calling thread (for outer joins), and a view of them.
struct HostHashTable {
  std::shared_ptr<const Layout> layout;
  std::vector<int64_t> begin, rows;
  std::vector<uint64_t> keys;
  std::vector<int64_t> codes;  // by global group number
  explicit HostHashTable(const HashTable& t) : layout(t.layout) {
    if (t.empty()) return;
    begin = t.begin.to_vector<int64_t>();
    rows = t.rows.to_vector<int64_t>();
    keys.resize(static_cast<size_t>(t.keys.size()));
    t.keys.copy_to(keys.data());
    for (size_t p = 0; p < layout->partitions(); ++p)
      for (int64_t g = 0; g < layout->groups[p]; ++g) codes.push_back(code_of(g, static_cast<int>(p)));
  }
  TableView view() const { return TableView{layout.get(), nullptr, begin.data(), rows.data(), keys.data()}; }
  int64_t groups() const { return layout->total_groups; }
};

// ---- Probing ----------------------------------------------------------------------------

// What a probe point writes: pairs (inner; keep: unmatched rows too, with -1), the global
// group of each row (outer), or the number of pairs (join_size).
enum class Probe : int { Inner, Keep, Groups, CountInner, CountKeep };

struct ProbePlan {
  std::shared_ptr<const Layout> layout;
  Probe mode;
};

// Inputs: the probe side's key columns (aligned), the table's slots, bounds, rows and keys
// (broadcast). Outputs (unbound): two int64 arrays (pairs; groups and nothing; counts and
// nothing).
void probe_body(TaskContext& ctx) {
  const ProbePlan& plan = ctx.payload<ProbePlan>();
  const Layout& l = *plan.layout;
  const size_t ncols = l.ncols;
  const TableView table{&l, whole<int64_t>(ctx, ncols), whole<int64_t>(ctx, ncols + 1), whole<int64_t>(ctx, ncols + 2),
                        whole<uint64_t>(ctx, ncols + 3)};
  const size_t out = ncols + 4;
  const KeyColumns keys = tile_columns(ctx, l.floating);
  const int64_t n = ctx.array(0).size(), row0 = ctx.array(0).lo()[0];
  std::vector<int64_t> code(static_cast<size_t>(n));
  table.find(keys, n, code.data());
  if (plan.mode == Probe::Groups) {
    auto* g = static_cast<int64_t*>(ctx.bind_output(out, n));
    for (int64_t i = 0; i < n; ++i)
      g[i] = code[static_cast<size_t>(i)] < 0 ? -1 : table.global(code[static_cast<size_t>(i)]);
    ctx.bind_output(out + 1, 0);
    return;
  }
  const bool keep = plan.mode == Probe::Keep || plan.mode == Probe::CountKeep;
  int64_t total = 0;
  for (int64_t c : code) total += c < 0 ? (keep ? 1 : 0) : table.count(c);
  if (plan.mode == Probe::CountInner || plan.mode == Probe::CountKeep) {
    *static_cast<int64_t*>(ctx.bind_output(out, 1)) = total;
    ctx.bind_output(out + 1, 0);
    return;
  }
  auto* a = static_cast<int64_t*>(ctx.bind_output(out, total));
  auto* b = static_cast<int64_t*>(ctx.bind_output(out + 1, total));
  int64_t k = 0;
  constexpr int64_t kAhead = 48;
  for (int64_t i = 0; i < n; ++i) {
    if (i + kAhead < n) table.prefetch(code[static_cast<size_t>(i + kAhead)]);
    const int64_t c = code[static_cast<size_t>(i)];
    if (c >= 0) table.each_row(c, [&](int64_t r) { a[k] = row0 + i, b[k++] = r; });
    else if (keep) a[k] = row0 + i, b[k++] = -1;
  }
}

// Runs the probe launch over `keys` (the probe side); returns its two outputs.
std::vector<ndarray> probe(const std::vector<ndarray>& keys, const HashTable& table, Probe mode) {
  static const Task task("dataframe.join_probe", probe_body);
  const int64_t n = keys[0].size();
  const bool counting = mode == Probe::CountInner || mode == Probe::CountKeep;
  if (n == 0) return {zeros({counting ? 1 : 0}, DType::Int64), zeros({0}, DType::Int64)};
  if (table.empty()) {  // nothing matches
    const ndarray none = full({n}, Scalar(int64_t{-1}), DType::Int64);
    switch (mode) {
      case Probe::Inner: return {zeros({0}, DType::Int64), zeros({0}, DType::Int64)};
      case Probe::Keep: return {arange(Scalar(int64_t{0}), Scalar(n), Scalar(int64_t{1}), DType::Int64), none};
      case Probe::Groups: return {none, zeros({0}, DType::Int64)};
      case Probe::CountInner: return {zeros({1}, DType::Int64), zeros({0}, DType::Int64)};
      case Probe::CountKeep: return {full({1}, Scalar(n), DType::Int64), zeros({0}, DType::Int64)};
    }
  }
  std::vector<Argument> args;
  std::vector<Constraint> constraints;
  for (size_t c = 0; c < keys.size(); ++c) {
    if (c > 0) constraints.push_back(align(static_cast<int>(c), 0));
    args.push_back(in(keys[c]));
  }
  for (const ndarray* a : {&table.slots, &table.begin, &table.rows, &table.keys}) {
    constraints.push_back(broadcast(static_cast<int>(args.size())));
    args.push_back(in(*a));
  }
  args.push_back(unbound(DType::Int64));
  args.push_back(unbound(DType::Int64));
  auto plan = std::make_shared<const ProbePlan>(ProbePlan{table.layout, mode});
  return launch(task, std::move(args), {}, std::move(constraints),
                {.name = "join", .weight = 8, .payload = Payload(plan)});
}

// ---- Outer joins ------------------------------------------------------------------------

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
// the left rows that matched it, `lbegin`/`lrows`), the rest are the groups of the left rows
// the right side lacks (`left_rows` maps their table's rows to left rows).
struct OuterPlan {
  std::unique_ptr<HostHashTable> right, left_only;
  std::vector<int64_t> left_rows, order, lbegin, lrows;
};

void outer_body(TaskContext& ctx) {
  const OuterPlan& p = ctx.payload<OuterPlan>();
  const TableView right = p.right->view(), left_only = p.left_only->view();
  const int64_t lo = ctx.array(0).lo()[0], hi = ctx.array(0).hi()[0], gr = p.right->groups();
  std::vector<int64_t> a, b;
  for (int64_t k = lo; k < hi; ++k) {
    const int64_t e = p.order[static_cast<size_t>(k)];
    if (e >= gr) {
      left_only.each_row(p.left_only->codes[static_cast<size_t>(e - gr)],
                         [&](int64_t l) { a.push_back(p.left_rows[static_cast<size_t>(l)]), b.push_back(-1); });
      continue;
    }
    const int64_t code = p.right->codes[static_cast<size_t>(e)];
    const int64_t *l = p.lrows.data() + p.lbegin[static_cast<size_t>(e)],
                  *lend = p.lrows.data() + p.lbegin[static_cast<size_t>(e) + 1];
    if (l == lend) {
      right.each_row(code, [&](int64_t r) { a.push_back(-1), b.push_back(r); });
      continue;
    }
    for (; l != lend; ++l) right.each_row(code, [&](int64_t r) { a.push_back(*l), b.push_back(r); });
  }
  const int64_t m = static_cast<int64_t>(a.size());
  std::memcpy(ctx.bind_output(1, m), a.data(), a.size() * sizeof(int64_t));
  std::memcpy(ctx.bind_output(2, m), b.data(), b.size() * sizeof(int64_t));
}

// The key columns of rows `ids` of `keys`, as new arrays of canonical bits (int64).
std::vector<ndarray> gather_keys(const std::vector<ndarray>& keys, const std::vector<int64_t>& ids) {
  std::vector<ndarray> out;
  std::vector<uint64_t> all(static_cast<size_t>(keys[0].size())), some(ids.size());
  for (const ndarray& k : keys) {
    k.copy_to(all.data());
    for (size_t j = 0; j < ids.size(); ++j) some[j] = all[static_cast<size_t>(ids[j])];
    out.push_back(from_host(some.data(), {static_cast<int64_t>(some.size())}, DType::Int64));
  }
  return out;
}

JoinIndices outer_join(const std::vector<ndarray>& left, const HashTable& right_table) {
  static const Task task("dataframe.join_outer", outer_body);
  const std::vector<int64_t> gid = probe(left, right_table, Probe::Groups)[0].to_vector<int64_t>();
  auto plan = std::make_shared<OuterPlan>();
  plan->right = std::make_unique<HostHashTable>(right_table);
  const int64_t gr = plan->right->groups();
  std::vector<int64_t>& lbegin = plan->lbegin;
  lbegin.assign(static_cast<size_t>(gr) + 1, 0);
  for (size_t i = 0; i < gid.size(); ++i) {
    if (gid[i] < 0) plan->left_rows.push_back(static_cast<int64_t>(i));
    else ++lbegin[static_cast<size_t>(gid[i]) + 1];
  }
  for (int64_t g = 0; g < gr; ++g) lbegin[static_cast<size_t>(g) + 1] += lbegin[static_cast<size_t>(g)];
  plan->lrows.resize(static_cast<size_t>(lbegin.back()));
  {
    std::vector<int64_t> at(lbegin.begin(), lbegin.end() - 1);
    for (size_t i = 0; i < gid.size(); ++i)
      if (gid[i] >= 0) plan->lrows[static_cast<size_t>(at[static_cast<size_t>(gid[i])]++)] = static_cast<int64_t>(i);
  }
  const Layout& rl = *right_table.layout;
  if (plan->left_rows.empty())
    plan->left_only = std::make_unique<HostHashTable>(build({zeros({0}, DType::Int64)}, {0}));
  else plan->left_only = std::make_unique<HostHashTable>(build(gather_keys(left, plan->left_rows), rl.floating));
  const int64_t groups = gr + plan->left_only->groups();
  if (groups == 0) return {zeros({0}, DType::Int64), zeros({0}, DType::Int64)};
  plan->order.resize(static_cast<size_t>(groups));
  std::iota(plan->order.begin(), plan->order.end(), int64_t{0});
  const TableView r = plan->right->view(), l = plan->left_only->view();
  const OuterPlan& q = *plan;
  auto key = [&](int64_t e, size_t c) {
    return e < gr ? r.key(q.right->codes[static_cast<size_t>(e)], c)
                  : l.key(q.left_only->codes[static_cast<size_t>(e - gr)], c);
  };
  std::sort(plan->order.begin(), plan->order.end(), [&](int64_t x, int64_t y) {  // keys are distinct
    for (size_t c = 0; c < rl.ncols; ++c)
      if (const int o = compare_key(key(x, c), key(y, c), rl.floating[c] != 0); o != 0) return o < 0;
    return false;
  });
  std::vector<ndarray> pairs =
      launch(task, {space({groups}), unbound(DType::Int64), unbound(DType::Int64)}, {}, {},
             {.name = "join", .payload = Payload(std::shared_ptr<const OuterPlan>(std::move(plan)))});
  return {std::move(pairs[0]), std::move(pairs[1])};
}

// ---- Arguments --------------------------------------------------------------------------

enum class How { Inner, Left, Right, Outer };

// Checks the arguments and gives each pair of key columns one dtype (an int64 column paired
// with a float64 one becomes float64, as pandas compares them); returns which columns are
// float64 in `floating`.
How prepare(std::vector<ndarray>& left, std::vector<ndarray>& right, const std::string& how,
            std::vector<char>& floating) {
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
  floating.clear();
  for (size_t c = 0; c < left.size(); ++c) {
    if (left[c].dtype() != right[c].dtype()) {
      if (left[c].dtype() == DType::Int64) left[c] = astype(left[c], DType::Float64);
      else right[c] = astype(right[c], DType::Float64);
    }
    floating.push_back(left[c].dtype() == DType::Float64 ? 1 : 0);
  }
  return h;
}

}  // namespace

JoinIndices join_indices(const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys,
                         const std::string& how) {
  std::vector<ndarray> left = left_keys, right = right_keys;
  std::vector<char> floating;
  const How h = prepare(left, right, how, floating);
  if (h == How::Outer) return outer_join(left, build(right, floating));
  if (h == How::Right) {
    std::vector<ndarray> pairs = probe(right, build(left, floating), Probe::Keep);
    return {std::move(pairs[1]), std::move(pairs[0])};
  }
  std::vector<ndarray> pairs = probe(left, build(right, floating), h == How::Left ? Probe::Keep : Probe::Inner);
  return {std::move(pairs[0]), std::move(pairs[1])};
}

int64_t join_size(const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys,
                  const std::string& how) {
  std::vector<ndarray> left = left_keys, right = right_keys;
  std::vector<char> floating;
  const How h = prepare(left, right, how, floating);
  if (h == How::Outer) {
    const HashTable table = build(right, floating);
    const std::vector<int64_t> gid = probe(left, table, Probe::Groups)[0].to_vector<int64_t>();
    const HostHashTable host(table);
    const TableView view = host.view();
    std::vector<char> matched(static_cast<size_t>(host.groups()), 0);
    int64_t total = 0;
    for (int64_t g : gid) {
      if (g < 0) {
        ++total;
      } else {
        total += view.count(host.codes[static_cast<size_t>(g)]);
        matched[static_cast<size_t>(g)] = 1;
      }
    }
    for (int64_t g = 0; g < host.groups(); ++g)
      if (!matched[static_cast<size_t>(g)]) total += view.count(host.codes[static_cast<size_t>(g)]);
    return total;
  }
  const bool swap = h == How::Right;
  const std::vector<int64_t> counts = probe(swap ? right : left, build(swap ? left : right, floating),
                                            h == How::Inner ? Probe::CountInner : Probe::CountKeep)[0]
                                          .to_vector<int64_t>();
  return std::accumulate(counts.begin(), counts.end(), int64_t{0});
}

}  // namespace tessera::frame
