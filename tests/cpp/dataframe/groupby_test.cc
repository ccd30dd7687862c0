// group_aggregate: groups in ascending key order with the sums, counts, minima and maxima of a
// host loop, NaN keys and NaN values left out as pandas leaves them, under every
// configuration (tiles hashed on their own, partials combined in point order).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

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
      frame::group_aggregate(host_array(key, {n}), {host_array(v, {n}), host_array(w, {n})});
  struct Want {
    int64_t size = 0, count = 0, wsum = 0, wmin = INT64_MAX, wmax = INT64_MIN;
    double sum = 0, mn = INFINITY, mx = -INFINITY;
  };
  std::map<double, Want> want;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(key[i])) continue;
    Want& x = want[key[i] == 0 ? 0.0 : key[i]];
    ++x.size;
    x.wsum += w[i];
    x.wmin = std::min(x.wmin, w[i]);
    x.wmax = std::max(x.wmax, w[i]);
    if (std::isnan(v[i])) continue;
    ++x.count;
    x.sum += v[i];
    x.mn = std::min(x.mn, v[i]);
    x.mx = std::max(x.mx, v[i]);
  }
  const auto keys = g.keys.to_vector<double>();
  ASSERT_EQ(keys.size(), want.size());
  const auto size = g.size.to_vector<int64_t>(), count = g.count[0].to_vector<int64_t>();
  const auto sum = g.sum[0].to_vector<double>(), mn = g.min[0].to_vector<double>(), mx = g.max[0].to_vector<double>();
  const auto wsum = g.sum[1].to_vector<int64_t>(), wmin = g.min[1].to_vector<int64_t>(),
             wmax = g.max[1].to_vector<int64_t>();
  size_t k = 0;
  for (const auto& [key_value, x] : want) {
    ASSERT_EQ(keys[k], key_value);
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

TEST_P(GroupByTest, BadColumns) {
  const ndarray key = zeros({10}, DType::Int64);
  EXPECT_THROW(frame::group_aggregate(key, {zeros({9})}), ValueError);
  EXPECT_THROW(frame::group_aggregate(zeros({10}, DType::Int32), {}), TypeError);
  EXPECT_THROW(frame::group_aggregate(key, {zeros({10}, DType::Complex128)}), TypeError);
}

INSTANTIATE_TEST_SUITE_P(Configs, GroupByTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
