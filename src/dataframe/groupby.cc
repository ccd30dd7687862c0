// group_aggregate: one launch of "dataframe.groupby_partials" over the rows (the key and the
// value columns aligned), each point hashing its rows' keys to groups and aggregating every
// value column into them; its partial groups are unbound outputs, joined in point order.
// The calling thread then combines the partials of each key in that order — the tiles, and so
// the partials, depend on the data alone, so the bits do not depend on the machine — and
// returns the groups in ascending key order.
#include "dataframe/groupby.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>

#include "dataframe/table.h"
#include "tessera/creation.h"
#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::frame {
namespace {

template <class K>
K normal_key(K k) {
  if constexpr (std::is_floating_point_v<K>) return k == 0 ? K(0) : k;  // -0.0 and 0.0 are one group
  return k;
}

// Aggregates column `v` (V: int64 or double) of `n` rows into `groups` groups by `gid` and
// binds outputs first..first+3 (sum, count, min, max) of this point.
template <class V>
void aggregate(TaskContext& ctx, const Tile& v, const std::vector<int32_t>& gid, size_t groups, size_t first) {
  const V* x = static_cast<const V*>(v.data());
  const int64_t s = v.strides()[0];
  constexpr bool floating = std::is_floating_point_v<V>;
  const V none = floating ? std::numeric_limits<V>::quiet_NaN() : V(0);
  auto* sum = static_cast<V*>(ctx.bind_output(first, static_cast<int64_t>(groups)));
  auto* count = static_cast<int64_t*>(ctx.bind_output(first + 1, static_cast<int64_t>(groups)));
  auto* lo = static_cast<V*>(ctx.bind_output(first + 2, static_cast<int64_t>(groups)));
  auto* hi = static_cast<V*>(ctx.bind_output(first + 3, static_cast<int64_t>(groups)));
  for (size_t g = 0; g < groups; ++g) sum[g] = V(0), count[g] = 0, lo[g] = none, hi[g] = none;
  for (size_t i = 0; i < gid.size(); ++i) {
    const int32_t g = gid[i];
    if (g < 0) continue;
    const V val = x[static_cast<int64_t>(i) * s];
    if constexpr (floating) {
      if (std::isnan(val)) continue;
      sum[g] += val;
    } else {
      sum[g] = static_cast<V>(static_cast<uint64_t>(sum[g]) + static_cast<uint64_t>(val));  // wraps, as NumPy's
    }
    if (count[g] == 0 || val < lo[g]) lo[g] = val;
    if (count[g] == 0 || val > hi[g]) hi[g] = val;
    ++count[g];
  }
}

template <class K>
void partials_by(TaskContext& ctx) {
  const Tile& key = ctx.array(0);
  const int64_t n = key.size(), ks = key.strides()[0];
  const K* k = static_cast<const K*>(key.data());
  std::unordered_map<K, int32_t> slot;
  std::vector<K> keys;
  std::vector<int32_t> gid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    K x = k[i * ks];
    if constexpr (std::is_floating_point_v<K>) {
      if (std::isnan(x)) {
        gid[static_cast<size_t>(i)] = -1;  // pandas leaves NaN keys out (dropna=True)
        continue;
      }
    }
    x = normal_key(x);
    auto [it, fresh] = slot.try_emplace(x, static_cast<int32_t>(keys.size()));
    if (fresh) keys.push_back(x);
    gid[static_cast<size_t>(i)] = it->second;
  }
  const size_t groups = keys.size();
  const size_t columns = (ctx.arrays() - 3) / 5;  // inputs: the key, n values; outputs: keys, size, 4 per value
  const size_t out0 = 1 + columns;
  std::memcpy(ctx.bind_output(out0, static_cast<int64_t>(groups)), keys.data(), groups * sizeof(K));
  auto* size = static_cast<int64_t*>(ctx.bind_output(out0 + 1, static_cast<int64_t>(groups)));
  for (size_t g = 0; g < groups; ++g) size[g] = 0;
  for (int32_t g : gid)
    if (g >= 0) ++size[g];
  for (size_t c = 0; c < columns; ++c) {
    const Tile& v = ctx.array(1 + c);
    if (v.dtype() == DType::Float64) aggregate<double>(ctx, v, gid, groups, out0 + 2 + 4 * c);
    else aggregate<int64_t>(ctx, v, gid, groups, out0 + 2 + 4 * c);
  }
}

// Combines the partial groups (joined in point order) of key type K.
template <class K>
GroupAggregates combine(const std::vector<ndarray>& parts, const std::vector<DType>& value_types) {
  const std::vector<K> keys = parts[0].to_vector<K>();
  const std::vector<int64_t> sizes = parts[1].to_vector<int64_t>();
  std::map<K, size_t> order;  // key -> group, ascending
  for (K k : keys) order.try_emplace(k, 0);
  size_t next = 0;
  for (auto& [k, g] : order) g = next++;
  std::vector<size_t> group(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) group[i] = order.at(keys[i]);
  const size_t groups = order.size();
  GroupAggregates out;
  std::vector<K> sorted;
  sorted.reserve(groups);
  for (auto& [k, g] : order) sorted.push_back(k);
  out.keys = from_host(sorted.data(), {static_cast<int64_t>(groups)}, dtype_of<K>::value);
  std::vector<int64_t> size(groups, 0);
  for (size_t i = 0; i < keys.size(); ++i) size[group[i]] += sizes[i];
  out.size = from_host(size.data(), {static_cast<int64_t>(groups)}, DType::Int64);
  for (size_t c = 0; c < value_types.size(); ++c) {
    const std::vector<int64_t> count = parts[3 + 4 * c].to_vector<int64_t>();
    std::vector<int64_t> total(groups, 0);
    for (size_t i = 0; i < keys.size(); ++i) total[group[i]] += count[i];
    auto fold = [&](auto zero) {
      using V = decltype(zero);
      const std::vector<V> sum = parts[2 + 4 * c].to_vector<V>(), lo = parts[4 + 4 * c].to_vector<V>(),
                           hi = parts[5 + 4 * c].to_vector<V>();
      constexpr bool floating = std::is_floating_point_v<V>;
      const V none = floating ? std::numeric_limits<V>::quiet_NaN() : V(0);
      std::vector<V> s(groups, V(0)), mn(groups, none), mx(groups, none);
      std::vector<int64_t> seen(groups, 0);
      for (size_t i = 0; i < keys.size(); ++i) {  // in point order
        const size_t g = group[i];
        if constexpr (floating) s[g] += sum[i];
        else s[g] = static_cast<V>(static_cast<uint64_t>(s[g]) + static_cast<uint64_t>(sum[i]));
        if (count[i] == 0) continue;
        if (seen[g] == 0 || lo[i] < mn[g]) mn[g] = lo[i];
        if (seen[g] == 0 || hi[i] > mx[g]) mx[g] = hi[i];
        seen[g] += count[i];
      }
      const DType t = dtype_of<V>::value;
      const Shape shape{static_cast<int64_t>(groups)};
      out.sum.push_back(from_host(s.data(), shape, t));
      out.min.push_back(from_host(mn.data(), shape, t));
      out.max.push_back(from_host(mx.data(), shape, t));
    };
    if (value_types[c] == DType::Float64) fold(double{});
    else fold(int64_t{});
    out.count.push_back(from_host(total.data(), {static_cast<int64_t>(groups)}, DType::Int64));
  }
  return out;
}

}  // namespace

GroupAggregates group_aggregate(const ndarray& key, const std::vector<ndarray>& values) {
  register_dataframe_library();
  static const Task task("dataframe.groupby_partials", [](TaskContext& ctx) {
    if (ctx.array(0).dtype() == DType::Float64) partials_by<double>(ctx);
    else partials_by<int64_t>(ctx);
  });
  auto require = [](const ndarray& a, const char* what) {
    if (!a.valid() || a.ndim() != 1) throw ValueError(std::string("groupby: the ") + what + " must be one column");
    if (a.dtype() != DType::Int64 && a.dtype() != DType::Float64)
      throw TypeError(std::string("groupby: the ") + what + " must be int64 or float64, not " + dtype_name(a.dtype()));
  };
  require(key, "key");
  std::vector<Argument> args{in(key)};
  std::vector<Constraint> constraints;
  std::vector<DType> types;
  for (const ndarray& v : values) {
    require(v, "value column");
    if (v.shape() != key.shape())
      throw ValueError("groupby: a value column has " + std::to_string(v.shape()[0]) + " rows, the key " +
                       std::to_string(key.shape()[0]));
    constraints.push_back(align(static_cast<int>(args.size()), 0));
    args.push_back(in(v));
    types.push_back(v.dtype());
  }
  args.push_back(unbound(key.dtype()));
  args.push_back(unbound(DType::Int64));
  for (DType t : types) {
    args.push_back(unbound(t));
    args.push_back(unbound(DType::Int64));
    args.push_back(unbound(t));
    args.push_back(unbound(t));
  }
  const std::vector<ndarray> parts = launch(task, std::move(args), {}, std::move(constraints), {.name = "groupby"});
  return key.dtype() == DType::Float64 ? combine<double>(parts, types) : combine<int64_t>(parts, types);
}

}  // namespace tessera::frame
