// join_indices: the exact rows pandas.merge(sort=False) gives (the expected pairs below are
// pandas 3's), for inner, left, right and outer joins with duplicate keys on both sides,
// keys of one side only, NaN keys (NaN matches NaN), -0.0 and 0.0, several key columns,
// int64 against float64 and empty sides; under every configuration, and against a host loop
// on arrays of many tiles.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

#include "../task/task_fixture.h"
#include "dataframe/join.h"

namespace tessera {
namespace {

using testing::host_array;
using Pairs = std::vector<std::pair<int64_t, int64_t>>;

class JoinTest : public testing::ConfiguredTest {};

template <class T>
ndarray col(const std::vector<T>& v) {
  return host_array(v, {static_cast<int64_t>(v.size())});
}

Pairs pairs_of(const frame::JoinIndices& j) {
  const auto l = j.left.to_vector<int64_t>(), r = j.right.to_vector<int64_t>();
  EXPECT_EQ(l.size(), r.size());
  Pairs p;
  for (size_t i = 0; i < l.size() && i < r.size(); ++i) p.emplace_back(l[i], r[i]);
  return p;
}

Pairs join(const std::vector<ndarray>& l, const std::vector<ndarray>& r, const std::string& how) {
  const Pairs p = pairs_of(frame::join_indices(l, r, how));
  EXPECT_EQ(frame::join_size(l, r, how), static_cast<int64_t>(p.size())) << how;
  return p;
}

TEST_P(JoinTest, OneFloatKeyWithDuplicatesAndNaN) {
  const ndarray l = col<double>({3.0, 1.0, NAN, 2.0, 1.0, -0.0, 5.0});
  const ndarray r = col<double>({1.0, NAN, 0.0, 3.0, 1.0, 4.0, NAN, 7.0});
  EXPECT_EQ(join({l}, {r}, "inner"), (Pairs{{0, 3}, {1, 0}, {1, 4}, {2, 1}, {2, 6}, {4, 0}, {4, 4}, {5, 2}}));
  EXPECT_EQ(join({l}, {r}, "left"),
            (Pairs{{0, 3}, {1, 0}, {1, 4}, {2, 1}, {2, 6}, {3, -1}, {4, 0}, {4, 4}, {5, 2}, {6, -1}}));
  EXPECT_EQ(join({l}, {r}, "right"),
            (Pairs{{1, 0}, {4, 0}, {2, 1}, {5, 2}, {0, 3}, {1, 4}, {4, 4}, {-1, 5}, {2, 6}, {-1, 7}}));
  EXPECT_EQ(
      join({l}, {r}, "outer"),
      (Pairs{{5, 2}, {1, 0}, {1, 4}, {4, 0}, {4, 4}, {3, -1}, {0, 3}, {-1, 5}, {6, -1}, {-1, 7}, {2, 1}, {2, 6}}));
}

TEST_P(JoinTest, SeveralKeyColumns) {
  // (a, b) pairs; outer sorts lexicographically with NaN last in each column.
  const std::vector<ndarray> l{col<double>({2.0, NAN, 1.0, 1.0}), col<int64_t>({1, 2, 3, 1})};
  const std::vector<ndarray> r{col<double>({1.0, NAN, 0.0, 2.0}), col<int64_t>({1, 2, 5, 0})};
  EXPECT_EQ(join(l, r, "outer"), (Pairs{{-1, 2}, {3, 0}, {2, -1}, {-1, 3}, {0, -1}, {1, 1}}));
  EXPECT_EQ(join(l, r, "inner"), (Pairs{{1, 1}, {3, 0}}));
  EXPECT_EQ(join(l, r, "left"), (Pairs{{0, -1}, {1, 1}, {2, -1}, {3, 0}}));
  EXPECT_EQ(join(l, r, "right"), (Pairs{{3, 0}, {1, 1}, {-1, 2}, {-1, 3}}));
  // A key equal in one column only does not match.
  const std::vector<ndarray> l2{col<int64_t>({1, 1, 2}), col<int64_t>({1, 2, 1})};
  const std::vector<ndarray> r2{col<int64_t>({1, 2, 1, 1}), col<int64_t>({2, 2, 2, 1})};
  EXPECT_EQ(join(l2, r2, "inner"), (Pairs{{0, 3}, {1, 0}, {1, 2}}));
  EXPECT_EQ(join(l2, r2, "outer"), (Pairs{{0, 3}, {1, 0}, {1, 2}, {2, -1}, {-1, 1}}));
}

TEST_P(JoinTest, IntegerKeysAndMixedTypes) {
  const ndarray l = col<int64_t>({5, -3, 2});
  const ndarray r = col<int64_t>({2, -7});
  EXPECT_EQ(join({l}, {r}, "outer"), (Pairs{{-1, 1}, {1, -1}, {2, 0}, {0, -1}}));
  EXPECT_EQ(join({l}, {r}, "left"), (Pairs{{0, -1}, {1, -1}, {2, 0}}));
  // int64 against float64 compares as float64.
  EXPECT_EQ(join({col<int64_t>({1, 2, 3})}, {col<double>({1.0, 2.5, 3.0})}, "inner"), (Pairs{{0, 0}, {2, 2}}));
  EXPECT_EQ(join({col<double>({3.0, 2.5})}, {col<int64_t>({3, 3})}, "inner"), (Pairs{{0, 0}, {0, 1}}));
}

TEST_P(JoinTest, EmptySides) {
  const ndarray e = zeros({0}, DType::Int64);
  const ndarray x = col<int64_t>({3, 1, 2, 1});
  for (const char* how : {"inner", "left", "right", "outer"}) EXPECT_EQ(join({e}, {e}, how), Pairs{}) << how;
  EXPECT_EQ(join({e}, {x}, "inner"), Pairs{});
  EXPECT_EQ(join({e}, {x}, "left"), Pairs{});
  EXPECT_EQ(join({e}, {x}, "right"), (Pairs{{-1, 0}, {-1, 1}, {-1, 2}, {-1, 3}}));
  EXPECT_EQ(join({e}, {x}, "outer"), (Pairs{{-1, 1}, {-1, 3}, {-1, 2}, {-1, 0}}));
  EXPECT_EQ(join({x}, {e}, "inner"), Pairs{});
  EXPECT_EQ(join({x}, {e}, "left"), (Pairs{{0, -1}, {1, -1}, {2, -1}, {3, -1}}));
  EXPECT_EQ(join({x}, {e}, "right"), Pairs{});
  EXPECT_EQ(join({x}, {e}, "outer"), (Pairs{{1, -1}, {3, -1}, {2, -1}, {0, -1}}));
}

// Many tiles on both sides: inner and left against a host nested loop in pandas' order.
TEST_P(JoinTest, ManyTilesMatchAHostLoop) {
  const int64_t n = 5000, m = 700;
  std::vector<int64_t> lk(n), rk(m);
  for (int64_t i = 0; i < n; ++i) lk[i] = (i * 37) % 911;
  for (int64_t j = 0; j < m; ++j) rk[j] = (j * 13) % 500 + (j % 3 == 0 ? 400 : 0);
  std::map<int64_t, std::vector<int64_t>> rows;
  for (int64_t j = 0; j < m; ++j) rows[rk[j]].push_back(j);
  Pairs inner, left;
  for (int64_t i = 0; i < n; ++i) {
    auto it = rows.find(lk[i]);
    if (it == rows.end()) {
      left.emplace_back(i, -1);
      continue;
    }
    for (int64_t j : it->second) inner.emplace_back(i, j), left.emplace_back(i, j);
  }
  EXPECT_EQ(join({col(lk)}, {col(rk)}, "inner"), inner);
  EXPECT_EQ(join({col(lk)}, {col(rk)}, "left"), left);
  // right is left with the sides swapped.
  Pairs right;
  for (auto [a, b] : join({col(rk)}, {col(lk)}, "left")) right.emplace_back(b, a);
  EXPECT_EQ(join({col(lk)}, {col(rk)}, "right"), right);
}

// A build side of several partitions (more than 65,536 rows), float keys with NaN and -0.0,
// every join against a host reference in pandas' order.
TEST_P(JoinTest, LargeBuildSideMatchesAHostReference) {
  const int64_t n = 30000, m = 150000;
  auto key = [](int64_t i, int64_t mod) {
    if (i % 97 == 3) return static_cast<double>(NAN);
    const double k = static_cast<double>((i * 7919) % mod) - 200.0;
    return k == 0 && i % 2 ? -0.0 : k;
  };
  std::vector<double> lk(n), rk(m);
  for (int64_t i = 0; i < n; ++i) lk[i] = key(i, 90001);
  for (int64_t j = 0; j < m; ++j) rk[j] = key(j, 60013);
  // Keys ascending with NaN last, -0.0 as 0.0: pandas' order for outer.
  auto less = [](double a, double b) { return std::isnan(a) ? false : (std::isnan(b) ? true : a < b); };
  std::map<double, std::pair<std::vector<int64_t>, std::vector<int64_t>>, decltype(less)> by_key(less);
  for (int64_t i = 0; i < n; ++i) by_key[lk[i] == 0 ? 0.0 : lk[i]].first.push_back(i);
  for (int64_t j = 0; j < m; ++j) by_key[rk[j] == 0 ? 0.0 : rk[j]].second.push_back(j);
  auto rows_of = [&](double k) -> const std::vector<int64_t>& { return by_key.at(k == 0 ? 0.0 : k).second; };
  Pairs inner, left, outer;
  for (int64_t i = 0; i < n; ++i) {
    const auto& r = rows_of(lk[i]);
    if (r.empty()) left.emplace_back(i, -1);
    for (int64_t j : r) inner.emplace_back(i, j), left.emplace_back(i, j);
  }
  for (const auto& [k, sides] : by_key) {
    const auto& [ls, rs] = sides;
    if (rs.empty())
      for (int64_t i : ls) outer.emplace_back(i, -1);
    else if (ls.empty())
      for (int64_t j : rs) outer.emplace_back(-1, j);
    else
      for (int64_t i : ls)
        for (int64_t j : rs) outer.emplace_back(i, j);
  }
  EXPECT_EQ(join({col(lk)}, {col(rk)}, "inner"), inner);
  EXPECT_EQ(join({col(lk)}, {col(rk)}, "left"), left);
  EXPECT_EQ(join({col(lk)}, {col(rk)}, "outer"), outer);
  Pairs right;  // right joins build the left side: the roles swapped
  for (auto [a, b] : join({col(rk)}, {col(lk)}, "left")) right.emplace_back(b, a);
  EXPECT_EQ(join({col(lk)}, {col(rk)}, "right"), right);
}

TEST_P(JoinTest, BadArguments) {
  const ndarray k = zeros({4}, DType::Int64);
  EXPECT_THROW(frame::join_indices({k}, {k}, "cross"), ValueError);
  EXPECT_THROW(frame::join_indices({}, {}, "inner"), ValueError);
  EXPECT_THROW(frame::join_indices({k, k}, {k}, "inner"), ValueError);
  EXPECT_THROW(frame::join_indices({k, zeros({3}, DType::Int64)}, {k, k}, "inner"), ValueError);
  EXPECT_THROW(frame::join_indices({zeros({2, 2}, DType::Int64)}, {k}, "inner"), ValueError);
  EXPECT_THROW(frame::join_indices({zeros({4}, DType::Int32)}, {k}, "inner"), TypeError);
}

INSTANTIATE_TEST_SUITE_P(Configs, JoinTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
