// group_aggregate: groups in order of first appearance with the sums, counts, minima, maxima
// and squared deviations of a host loop, NaN keys and NaN values left out as pandas leaves
// them, under every configuration (tiles hashed on their own, partials combined in point order).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>

#include "../task/task_fixture.h"
#include "dataframe/groupby.h"

namespace tessera {
namespace {

using testing::host_array;

class GroupByTest : public testing::ConfiguredTest {};

TEST_P(GroupByTest, AggregatesMatchAHostLoop) {
  const int64_t n = 20000;
  std::vector<double> key(n), v(n);
  std::vector<int64_t> w(n);
  for (int64_t i = 0; i < n; ++i) {
    key[i] = (i % 11 == 5) ? NAN : static_cast<double>((i * 7) % 13) - 6.0;
    v[i] = (i % 5 == 0) ? NAN : 0.5 * static_cast<double>(i % 17);
    w[i] = i % 9 - 4;
  }
  const frame::GroupAggregates g =
      frame::group_aggregate({host_array(key, {n})}, {host_array(v, {n}), host_array(w, {n})}, {.squares = true});
  struct Want {
    int64_t size = 0, count = 0, wsum = 0, wmin = INT64_MAX, wmax = INT64_MIN;
    double sum = 0, mn = INFINITY, mx = -INFINITY;
    std::vector<double> seen;
  };
  std::map<double, Want> want;
  std::vector<double> order;  // keys in order of first appearance
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(key[i])) continue;
    const double kv = key[i] == 0 ? 0.0 : key[i];
    if (!want.count(kv)) order.push_back(kv);
    Want& x = want[kv];
    ++x.size;
    x.wsum += w[i];
    x.wmin = std::min(x.wmin, w[i]);
    x.wmax = std::max(x.wmax, w[i]);
    if (std::isnan(v[i])) continue;
    ++x.count;
    x.sum += v[i];
    x.seen.push_back(v[i]);
    x.mn = std::min(x.mn, v[i]);
    x.mx = std::max(x.mx, v[i]);
  }
  const auto keys = g.keys[0].to_vector<double>();
  ASSERT_EQ(keys.size(), want.size());
  const auto m2 = g.squares[0].to_vector<double>();
  const auto size = g.size.to_vector<int64_t>(), count = g.count[0].to_vector<int64_t>();
  const auto sum = g.sum[0].to_vector<double>(), mn = g.min[0].to_vector<double>(), mx = g.max[0].to_vector<double>();
  const auto wsum = g.sum[1].to_vector<int64_t>(), wmin = g.min[1].to_vector<int64_t>(),
             wmax = g.max[1].to_vector<int64_t>();
  size_t k = 0;
  for (double key_value : order) {
    const Want& x = want[key_value];
    ASSERT_EQ(keys[k], key_value);
    double ss = 0;
    for (double e : x.seen)
      ss += (e - x.sum / static_cast<double>(x.count)) * (e - x.sum / static_cast<double>(x.count));
    EXPECT_NEAR(m2[k], ss, 1e-9 * ss);
    EXPECT_EQ(size[k], x.size);
    EXPECT_EQ(count[k], x.count);
    EXPECT_NEAR(sum[k], x.sum, 1e-9 * std::abs(x.sum));  // summed per tile, then the tiles in order
    EXPECT_EQ(mn[k], x.mn);
    EXPECT_EQ(mx[k], x.mx);
    EXPECT_EQ(wsum[k], x.wsum);
    EXPECT_EQ(wmin[k], x.wmin);
    EXPECT_EQ(wmax[k], x.wmax);
    ++k;
  }
}

// Several keys of different dtypes, categorical codes whose negatives are nulls, and null keys
// kept as groups of their own (dropna=false); the bits do not depend on the configuration.
TEST_P(GroupByTest, SeveralKeysAndNullGroups) {
  const int64_t n = 5000;
  std::vector<int8_t> code(n);
  std::vector<int32_t> b(n);
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) {
    code[i] = static_cast<int8_t>(i % 7 == 3 ? -1 : (i * 5) % 4);
    b[i] = static_cast<int32_t>((i / 3) % 3) - 1;
    v[i] = i;
  }
  for (int variant = 0; variant < 4; ++variant) {
    const bool dropna = variant % 2 == 0;
    // Hashed, or found in a dense table of the keys' ranges (the same groups, in the same order).
    std::vector<std::pair<int64_t, int64_t>> ranges;
    if (variant >= 2) ranges = {{0, 3}, {-1, 1}};
    const frame::GroupAggregates g =
        frame::group_aggregate({host_array(code, {n}), host_array(b, {n})}, {host_array(v, {n})},
                               {.dropna = dropna, .negative_is_null = {true, false}, .ranges = ranges});
    std::map<std::tuple<int, int>, int64_t> sums, sizes;
    std::vector<std::tuple<int, int>> order;
    for (int64_t i = 0; i < n; ++i) {
      if (dropna && code[i] < 0) continue;
      const auto t = std::make_tuple(static_cast<int>(code[i]), static_cast<int>(b[i]));
      if (!sizes.count(t)) order.push_back(t);
      sums[t] += v[i];
      ++sizes[t];
    }
    const auto c0 = g.keys[0].to_vector<int8_t>();
    const auto c1 = g.keys[1].to_vector<int32_t>();
    const auto sum = g.sum[0].to_vector<int64_t>(), size = g.size.to_vector<int64_t>();
    ASSERT_EQ(c0.size(), order.size());
    for (size_t k = 0; k < order.size(); ++k) {
      EXPECT_EQ(std::make_tuple(static_cast<int>(c0[k]), static_cast<int>(c1[k])), order[k]);
      EXPECT_EQ(sum[k], sums[order[k]]);
      EXPECT_EQ(size[k], sizes[order[k]]);
    }
  }
}

// Each row's group (the groups of group_aggregate, in its order) and its position in the group.
TEST_P(GroupByTest, RowsKnowTheirGroupAndPosition) {
  const int64_t n = 7000;
  std::vector<double> key(n);
  for (int64_t i = 0; i < n; ++i) key[i] = (i % 13 == 4) ? NAN : static_cast<double>((i * 7919) % 97 % 10);
  const ndarray k = host_array(key, {n});
  const frame::GroupRows rows = frame::group_rows({k});
  const frame::GroupAggregates agg = frame::group_aggregate({k}, {});
  const auto group = rows.group.to_vector<int64_t>(), position = rows.position.to_vector<int64_t>();
  const auto keys = rows.keys[0].to_vector<double>(), agg_keys = agg.keys[0].to_vector<double>();
  EXPECT_EQ(keys, agg_keys);
  EXPECT_EQ(rows.size.to_vector<int64_t>(), agg.size.to_vector<int64_t>());
  std::map<double, int64_t> id, seen;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(key[i])) {
      EXPECT_EQ(group[i], -1);
      EXPECT_EQ(position[i], -1);
      continue;
    }
    if (!id.count(key[i])) id[key[i]] = static_cast<int64_t>(id.size());
    ASSERT_EQ(group[i], id[key[i]]) << i;
    ASSERT_EQ(keys[static_cast<size_t>(group[i])], key[i]);
    EXPECT_EQ(position[i], seen[key[i]]++) << i;
  }
}

// Many groups (a fifth of the rows, met again across tiles) give the same groups whether their
// keys are packed and indexed (small ranges), packed and hashed (wide ranges) or hashed as a word
// per key (no ranges); first_rows marks each group's first row.
TEST_P(GroupByTest, ManyGroupsTheSameInEveryKeyMode) {
  const int64_t n = 50000;
  std::vector<int64_t> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = (i * 7919) % 2003;
    b[i] = (i * 104729) % 5 - 2;
  }
  const std::vector<ndarray> keys{host_array(a, {n}), host_array(b, {n})};
  std::map<std::pair<int64_t, int64_t>, int64_t> size;
  std::vector<std::pair<int64_t, int64_t>> order;
  std::vector<bool> first(n);
  for (int64_t i = 0; i < n; ++i) {
    const auto k = std::make_pair(a[i], b[i]);
    first[i] = size[k]++ == 0;
    if (first[i]) order.push_back(k);
  }
  const std::vector<std::vector<std::pair<int64_t, int64_t>>> modes{
      {{0, 2002}, {-2, 2}}, {{-(int64_t{1} << 40), 2002}, {-2, 2}}, {}};
  for (const auto& ranges : modes) {
    const frame::GroupAggregates g = frame::group_aggregate(keys, {}, {.ranges = ranges});
    const auto ka = g.keys[0].to_vector<int64_t>(), kb = g.keys[1].to_vector<int64_t>();
    const auto sz = g.size.to_vector<int64_t>();
    ASSERT_EQ(ka.size(), order.size());
    for (size_t j = 0; j < order.size(); ++j) {
      ASSERT_EQ(std::make_pair(ka[j], kb[j]), order[j]) << j;
      ASSERT_EQ(sz[j], size[order[j]]) << j;
    }
    std::vector<uint8_t> mark(static_cast<size_t>(n));
    frame::first_rows(keys, {.ranges = ranges}).copy_to(mark.data());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(mark[i] != 0, first[i]) << i;
    const frame::GroupRows rows = frame::group_rows(keys, {.ranges = ranges});
    const auto group = rows.group.to_vector<int64_t>();
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(order[static_cast<size_t>(group[i])], std::make_pair(a[i], b[i])) << i;
  }
}

TEST_P(GroupByTest, KeysOutsideTheirRangesAreRefused) {
  const ndarray key = host_array(std::vector<int64_t>{0, 5, 2}, {3});
  EXPECT_THROW(frame::group_aggregate({key}, {}, {.ranges = {{0, 3}}}), ValueError);
  EXPECT_EQ(frame::group_aggregate({key}, {}, {.ranges = {{0, 5}}}).size.to_vector<int64_t>(),
            (std::vector<int64_t>{1, 1, 1}));
}

TEST_P(GroupByTest, BadColumns) {
  const ndarray key = zeros({10}, DType::Int64);
  EXPECT_THROW(frame::group_aggregate({key}, {zeros({9})}), ValueError);
  EXPECT_THROW(frame::group_aggregate({}, {}), ValueError);
  EXPECT_THROW(frame::group_aggregate({zeros({10}, DType::Complex64)}, {}), TypeError);
  EXPECT_THROW(frame::group_aggregate({key}, {zeros({10}, DType::Complex128)}), TypeError);
}

INSTANTIATE_TEST_SUITE_P(Configs, GroupByTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
