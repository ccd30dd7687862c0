// Tiles are a property of the data (DESIGN §5): a floating-point sum a task makes per tile
// — stl::transform_reduce, a task reducing into a scalar — has the same bits with any
// number of workers and in test mode (for arrays of at least kMinTiles minimum chunks).
// The values are random and inexact, so any other grouping of the additions shows.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "partition/tiling.h"
#include "task_fixture.h"
#include "tessera/stl.h"

namespace tessera {
namespace {

using testing::host_array;

// The configurations whose bits must agree: one to four workers, normal and test mode.
const char* const kConfigs[] = {
    "--auto-config=0 --cpus=1 --test=0", "--auto-config=0 --cpus=2 --test=0", "--auto-config=0 --cpus=4 --test=0",
    "--auto-config=0 --cpus=1 --test=1", "--auto-config=0 --cpus=2 --test=1",
};

std::vector<double> random_doubles(int64_t n) {
  std::mt19937_64 gen(20261129);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = u(gen);
  return v;
}

uint64_t bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

struct Sums {
  double stl = 0, task = 0, stl_2d = 0;
};

// Sum of squares three ways, under `config`.
Sums sums_under(const char* config, const std::vector<double>& x) {
  testing::ScopedConfig scoped(config);
  const int64_t n = static_cast<int64_t>(x.size());
  Sums s;
  s.stl = stl::transform_reduce<double>(host_array(x, {n}), 0.0, std::plus<>(), [](double v) { return v * v; });
  s.stl_2d =
      stl::transform_reduce<double>(host_array(x, {n / 600, 600}), 0.0, std::plus<>(), [](double v) { return v * v; });
  ndarray total = zeros({});
  Task t("sum_of_squares", [](TaskContext& ctx) {
    auto v = ctx.array(0).view<const double, 1>();
    auto acc = ctx.array(1).view<double, 0>();
    double part = 0;
    for (int64_t i = 0; i < v.extent(0); ++i) part += v(i) * v(i);
    acc() += part;
  });
  launch(t, {in(host_array(x, {n})), reduce(total)});
  s.task = total.item().as_double();
  return s;
}

TEST(TileBits, PerTileSumsDoNotDependOnTheMachine) {
  const std::vector<double> x = random_doubles(300000);
  double exact = 0;
  for (double v : x) exact += v * v;
  const Sums first = sums_under(kConfigs[0], x);
  // Cut at all: the sum of one tile would agree trivially.
  EXPECT_GT(detail::tile_count(300000, Config().min_cpu_chunk), 1);
  EXPECT_NEAR(first.stl, exact, 1e-9 * exact);
  EXPECT_NEAR(first.task, exact, 1e-9 * exact);
  EXPECT_NEAR(first.stl_2d, exact, 1e-9 * exact);
  for (const char* config : kConfigs) {
    SCOPED_TRACE(config);
    const Sums s = sums_under(config, x);
    EXPECT_EQ(bits(s.stl), bits(first.stl));
    EXPECT_EQ(bits(s.task), bits(first.task));
    EXPECT_EQ(bits(s.stl_2d), bits(first.stl_2d));
  }
}

}  // namespace
}  // namespace tessera
