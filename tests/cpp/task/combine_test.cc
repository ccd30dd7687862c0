// The combine stage (task/combine.h): partial results combined by one fixed tree — the
// tree of the reductions' blocks (reduce_block.h's combine_blocks) — whether they come from
// blocks of a NumPy reduction or from the points of a task launch's reduction argument.
// A task reduction's value is `before (op) tree(point partials)`: with an operator that is
// not associative the grouping shows, so these tests fail for a fold in point order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <utility>
#include <vector>

#include "numeric/reduce/reduce_block.h"
#include "partition/tiling.h"
#include "task/combine.h"
#include "task_fixture.h"

namespace tessera {
namespace {

using testing::host_array;

// Not associative: 3a + b shows how the values were grouped (and it wraps, as int64 does).
int64_t skew(int64_t a, int64_t b) {
  return static_cast<int64_t>(3 * static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

int64_t tree_of(const std::vector<int64_t>& v) {
  return detail::combine_blocks<int64_t>(
      0, static_cast<int64_t>(v.size()), [&](int64_t i) { return v[static_cast<size_t>(i)]; }, skew);
}

int64_t in_order(int64_t init, const std::vector<int64_t>& v) {
  for (int64_t x : v) init = skew(init, x);
  return init;
}

detail::Combiner skew_combiner() {
  detail::Combiner c;
  c.itemsize = sizeof(int64_t);
  c.fold = [](void* acc, const void* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      static_cast<int64_t*>(acc)[i] = skew(static_cast<int64_t*>(acc)[i], static_cast<const int64_t*>(x)[i]);
  };
  return c;
}

TEST(CombinePieces, IsTheBlocksTreeForEveryCount) {
  for (int64_t n = 1; n <= 70; ++n) {
    // Pieces of three outputs each: output k of piece p is p * 10 + k + 1.
    std::vector<int64_t> pieces(static_cast<size_t>(n * 3));
    for (int64_t p = 0; p < n; ++p)
      for (int64_t k = 0; k < 3; ++k) pieces[static_cast<size_t>(p * 3 + k)] = p * 10 + k + 1;
    int64_t out[3];
    detail::combine_pieces(skew_combiner(), reinterpret_cast<char*>(out), nullptr,
                           reinterpret_cast<const char*>(pieces.data()), 3 * sizeof(int64_t), nullptr, 0, n, 3);
    for (int64_t k = 0; k < 3; ++k) {
      std::vector<int64_t> column;
      for (int64_t p = 0; p < n; ++p) column.push_back(pieces[static_cast<size_t>(p * 3 + k)]);
      EXPECT_EQ(out[k], tree_of(column)) << n << " pieces, output " << k;
    }
  }
}

TEST(CombinePieces, TheFirstBestPieceWins) {
  // Values with ties and a NaN-free maximum repeated: the earliest position of the best wins.
  const std::vector<double> values = {1, 5, 3, 5, 2, 5, 0};
  const std::vector<int64_t> positions = {10, 11, 12, 13, 14, 15, 16};
  detail::Combiner c;
  c.itemsize = sizeof(double);
  c.better = [](const void* x, const void* best) {
    return *static_cast<const double*>(x) > *static_cast<const double*>(best);
  };
  for (int64_t n = 1; n <= static_cast<int64_t>(values.size()); ++n) {
    double v = 0;
    int64_t at = -1;
    detail::combine_pieces(c, reinterpret_cast<char*>(&v), &at, reinterpret_cast<const char*>(values.data()),
                           sizeof(double), positions.data(), 1, n, 1);
    int64_t best = 0;
    for (int64_t p = 1; p < n; ++p)
      if (values[static_cast<size_t>(p)] > values[static_cast<size_t>(best)]) best = p;
    EXPECT_EQ(v, values[static_cast<size_t>(best)]);
    EXPECT_EQ(at, positions[static_cast<size_t>(best)]) << n << " pieces";
  }
}

// Each point adds its tile's elements and folds the sum into the reduction with `skew`; the
// points' sums are recorded, so the expected value follows from this run's tiles.
struct TaskRun {
  int64_t value = 0;
  std::vector<int64_t> partials;  // per point, in point order
};

TaskRun skewed_sum(const std::vector<int64_t>& x, int64_t before) {
  const int64_t n = static_cast<int64_t>(x.size());
  auto seen = std::make_shared<std::pair<std::mutex, std::vector<std::pair<int64_t, int64_t>>>>();
  ndarray total = full({}, Scalar(before), DType::Int64);
  Task t("skewed_sum", [seen](TaskContext& ctx) {
    auto v = ctx.array(0).view<const int64_t, 1>();
    auto acc = ctx.array(1).view<int64_t, 0>();
    int64_t part = 0;
    for (int64_t i = 0; i < v.extent(0); ++i) part += v(i);
    acc() = skew(acc(), part);
    std::lock_guard lock(seen->first);
    seen->second.emplace_back(ctx.point(), part);
  });
  launch(t, {in(host_array(x, {n})), reduce(total, Reduction::custom<int64_t>(0, skew))});
  TaskRun r;
  r.value = total.item().as_int();
  std::sort(seen->second.begin(), seen->second.end());
  for (const auto& [point, part] : seen->second) r.partials.push_back(part);
  return r;
}

std::vector<int64_t> counting(int64_t n) {
  std::vector<int64_t> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = (i * 7919) % 1009 - 500;
  return x;
}

class CombineTaskTest : public testing::ConfiguredTest {};

TEST_P(CombineTaskTest, ACustomReductionGoesThroughTheTree) {
  for (int64_t n : {7, 1000, 100000}) {
    const TaskRun r = skewed_sum(counting(n), 5);
    ASSERT_FALSE(r.partials.empty());
    EXPECT_EQ(r.value, skew(5, tree_of(r.partials))) << n << " elements, " << r.partials.size() << " points";
    if (r.partials.size() >= 3) {
      EXPECT_NE(r.value, in_order(5, r.partials)) << "the grouping does not show";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, CombineTaskTest, ::testing::ValuesIn(testing::kTaskConfigs));

// A large array is cut by its size alone (test mode cuts it as a normal run): the same
// points, so the same bits, on any number of workers; a float sum shows any other grouping.
TEST(CombineTask, SameTilesSameBitsOnAnyNumberOfWorkers) {
  const char* const configs[] = {"--auto-config=0 --cpus=1 --test=0", "--auto-config=0 --cpus=2 --test=0",
                                 "--auto-config=0 --cpus=4 --test=0", "--auto-config=0 --cpus=2 --test=1"};
  const int64_t n = 1000000;
  ASSERT_GE(detail::tile_count(n, Config().min_cpu_chunk), 8);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = u(gen);
  std::vector<int64_t> first_skewed;
  uint64_t first_bits = 0;
  for (const char* config : configs) {
    SCOPED_TRACE(config);
    testing::ScopedConfig scoped(config);
    ndarray total = zeros({});
    Task t("float_sum", [](TaskContext& ctx) {
      auto v = ctx.array(0).view<const double, 1>();
      auto acc = ctx.array(1).view<double, 0>();
      for (int64_t i = 0; i < v.extent(0); ++i) acc() += v(i);
    });
    launch(t, {in(host_array(x, {n})), reduce(total)});
    const double sum = total.item().as_double();
    uint64_t bits;
    std::memcpy(&bits, &sum, sizeof bits);
    const TaskRun skewed = skewed_sum(counting(n), 1);
    EXPECT_EQ(skewed.value, skew(1, tree_of(skewed.partials)));
    if (first_skewed.empty()) {
      first_skewed = skewed.partials;
      first_bits = bits;
      continue;
    }
    EXPECT_EQ(skewed.partials, first_skewed) << "the tiles changed";
    EXPECT_EQ(bits, first_bits);
  }
}

}  // namespace
}  // namespace tessera
