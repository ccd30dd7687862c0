// Reduction arguments: every point adds into a private buffer that starts at the identity;
// the buffers are combined by the reductions' fixed tree and folded into the array after its
// value before the launch (combine_test.cc checks the grouping). Into a scalar
// every point shares, and into a partitioned array whose tiles overlap between points; the
// values are exact, so every configuration must give the host loop's result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "task_fixture.h"

namespace tessera {
namespace {

using testing::host_array;

class ReductionTest : public testing::ConfiguredTest {};

using Combine = std::function<double(double, double)>;

struct Case {
  const char* name;
  Reduction reduction;
  Combine combine;
};

std::vector<Case> cases() {
  const Combine sum = [](double a, double b) { return a + b; };
  const Combine prod = [](double a, double b) { return a * b; };
  const Combine mn = [](double a, double b) { return std::min(a, b); };
  const Combine mx = [](double a, double b) { return std::max(a, b); };
  const Combine absmax = [](double a, double b) { return std::max(std::abs(a), std::abs(b)); };
  return {{"sum", Reduction::sum(), sum},
          {"prod", Reduction::prod(), prod},
          {"min", Reduction::min(), mn},
          {"max", Reduction::max(), mx},
          {"custom", Reduction::custom<double>(0.0, absmax), absmax}};
}

// Products of these stay exact (powers of two), sums too (small integers).
double value(int64_t i, const std::string& op) {
  if (op == "prod") {
    static const double f[] = {1.0, 2.0, 0.5, -1.0, 1.0, 2.0, 1.0};
    return f[i % 7];
  }
  return static_cast<double>((i * 37) % 101) - 50.0;
}

TEST_P(ReductionTest, IntoABroadcastScalar) {
  const int64_t n = 257;
  for (const Case& c : cases()) {
    std::vector<double> x(n);
    for (int64_t i = 0; i < n; ++i) x[i] = value(i, c.name);
    // The scalar's value before the launch takes part.
    const double before = std::string(c.name) == "prod" ? 3.0 : std::string(c.name) == "max" ? 60.0 : -1.0;
    ndarray s = full({}, Scalar(before));
    const Combine combine = c.combine;
    Task t(std::string("reduce_") + c.name, [combine](TaskContext& ctx) {
      auto x = ctx.array(0).view<const double, 1>();
      auto acc = ctx.array(1).view<double, 0>();
      for (int64_t i = 0; i < x.extent(0); ++i) acc() = combine(acc(), x(i));
    });
    launch(t, {in(host_array(x, {n})), reduce(s, c.reduction)}, {}, {broadcast(1)});
    double expected = before;
    for (double v : x) expected = c.combine(expected, v);
    EXPECT_EQ(s.item().as_double(), expected) << c.name;
  }
}

TEST_P(ReductionTest, IntegerSumIntoAScalar) {
  const int64_t n = 1000;
  ndarray total = zeros({}, DType::Int64);
  Task t("count_up", [](TaskContext& ctx) {
    auto x = ctx.array(0).view<const int64_t, 1>();
    auto acc = ctx.array(1).view<int64_t, 0>();
    for (int64_t i = 0; i < x.extent(0); ++i) acc() += x(i);
  });
  std::vector<int64_t> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = i * i;
  launch(t, {in(host_array(x, {n})), reduce(total)});
  launch(t, {in(host_array(x, {n})), reduce(total)});  // folds into the first result
  int64_t expected = 0;
  for (int64_t v : x) expected += v;
  EXPECT_EQ(total.item().as_int(), 2 * expected);
}

// Each x[i] is added to y[i - 1], y[i] and y[i + 1] (the transpose of a 3-point stencil):
// the clipped bloat makes neighbouring points' tiles of y overlap, which the fold sums.
TEST_P(ReductionTest, IntoAPartitionedArrayWithOverlappingTiles) {
  const int64_t n = 90;
  std::vector<double> x(n), y0(n);
  for (int64_t i = 0; i < n; ++i) x[i] = value(i, "sum"), y0[i] = 1000.0 + i;
  ndarray y = host_array(y0, {n});
  Task scatter("scatter3", [n](TaskContext& ctx) {
    auto x = ctx.array(0).view<const double, 1>();
    auto y = ctx.array(1).view<double, 1>();
    for (int64_t i = 0; i < x.extent(0); ++i) {
      const int64_t g = x.lo(0) + i;
      for (int64_t k = std::max<int64_t>(0, g - 1); k <= std::min<int64_t>(n - 1, g + 1); ++k) {
        if (k < y.lo(0) || k >= y.lo(0) + y.extent(0)) throw IndexError("outside the reduction tile");
        y(k - y.lo(0)) += x(i);
      }
    }
  });
  launch(scatter, {in(host_array(x, {n})), reduce(y, Reduction::sum())}, {}, {bloat(1, 0, {1}, {1})});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t k = 0; k < n; ++k) {
    double e = y0[k];
    for (int64_t g = std::max<int64_t>(0, k - 1); g <= std::min<int64_t>(n - 1, k + 1); ++g) e += x[g];
    ASSERT_EQ(got[k], e) << k;
  }
}

TEST_P(ReductionTest, IntoAnAlignedTwoDimensionalArray) {
  const int64_t n = 19, m = 13;
  for (const Case& c : cases()) {
    std::vector<double> x(n * m), y0(n * m);
    for (int64_t i = 0; i < n * m; ++i) x[i] = value(i, c.name), y0[i] = value(i + 5, c.name);
    ndarray y = host_array(y0, {n, m});
    const Combine combine = c.combine;
    Task t(std::string("reduce2d_") + c.name, [combine](TaskContext& ctx) {
      auto x = ctx.array(0).view<const double, 2>();
      auto y = ctx.array(1).view<double, 2>();
      for (int64_t i = 0; i < x.extent(0); ++i)
        for (int64_t j = 0; j < x.extent(1); ++j) {
          y(i, j) = combine(y(i, j), x(i, j));
          y(i, j) = combine(y(i, j), x(i, j));  // twice: a point may add several times
        }
    });
    launch(t, {in(host_array(x, {n, m})), reduce(y, c.reduction)}, {}, {align(0, 1)});
    const std::vector<double> got = y.to_vector<double>();
    for (int64_t i = 0; i < n * m; ++i)
      ASSERT_EQ(got[i], c.combine(y0[i], c.combine(x[i], x[i]))) << c.name << " element " << i;
  }
}

TEST_P(ReductionTest, ReductionResultFeedsTheNextTask) {
  const int64_t n = 64;
  ndarray s = zeros({});
  ndarray y = zeros({n});
  Task total("total", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<const double, 1>();
    auto acc = ctx.array(1).view<double, 0>();
    for (int64_t i = 0; i < y.extent(0); ++i) acc() += y(i);
  });
  Task fill_index("fill_index", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    auto s = ctx.array(1).view<const double, 0>();
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = s() + static_cast<double>(y.lo(0) + i);
  });
  for (int round = 0; round < 3; ++round) {
    launch(total, {in(y), reduce(s)});
    launch(fill_index, {out(y), in(s)}, {}, {broadcast(1)});
  }
  // Host: the same three rounds.
  double hs = 0;
  std::vector<double> hy(n, 0.0);
  for (int round = 0; round < 3; ++round) {
    for (double v : hy) hs += v;
    for (int64_t i = 0; i < n; ++i) hy[i] = hs + i;
  }
  EXPECT_EQ(s.item().as_double(), hs);
  EXPECT_EQ(y.to_vector<double>(), hy);
}

TEST_P(ReductionTest, MinMaxOfComplexIsATypeError) {
  ndarray c = zeros({}, DType::Complex128);
  Task t("complex_min", [](TaskContext&) {});
  try {
    launch(t, {in(zeros({4})), reduce(c, Reduction::min())});
    FAIL() << "no TypeError";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("complex_min"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, ReductionTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
