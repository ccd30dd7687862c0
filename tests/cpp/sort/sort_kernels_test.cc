// The sort family's kernel table: the cpu kernels against std::sort and hand-made answers,
// and no table for the kinds without kernels (GPUs: none is written yet; thread teams).
#include "numeric/sort/kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "tessera/dtype.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

const SortKernels& cpu() { return sort_kernels(ProcessorKind::CPU); }

TEST(SortKernelsTest, ValuesSortInNumpysOrderNanLast) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  for (bool stable : {false, true}) {
    std::vector<double> v{3.5, nan, -inf, 0.0, inf, -2.0, nan, 1e300, -0.5};
    cpu().sort_values(DType::Float64, v.data(), static_cast<int64_t>(v.size()), stable);
    const std::vector<double> numbers(v.begin(), v.end() - 2);
    EXPECT_EQ(numbers, (std::vector<double>{-inf, -2.0, -0.5, 0.0, 3.5, 1e300, inf})) << stable;
    EXPECT_TRUE(std::isnan(v[7]) && std::isnan(v[8]));
  }
  std::mt19937 gen(7);
  std::vector<int32_t> ints(1000);
  for (int32_t& x : ints) x = static_cast<int32_t>(gen() % 200) - 100;
  std::vector<int32_t> expected = ints;
  std::sort(expected.begin(), expected.end());
  cpu().sort_values(DType::Int32, ints.data(), 1000, false);
  EXPECT_EQ(ints, expected);
}

TEST(SortKernelsTest, PositionsSortStablyFromAnyFirstPosition) {
  // Keys with a stride of 2 (every other element), positions 3..8.
  const std::vector<int64_t> key{0, 0, 0, 0, 0, 0, 5, 0, 1, 0, 5, 0, 1, 0, 0, 0, 7, 0};
  std::vector<int64_t> pos(6);
  cpu().sort_positions(DType::Int64, key.data(), 2, 3, 6, pos.data());
  // Keys of positions 3..8: 5, 1, 5, 1, 0, 7; equal keys keep their positions' order.
  EXPECT_EQ(pos, (std::vector<int64_t>{7, 4, 6, 3, 5, 8}));
}

TEST(SortKernelsTest, MergeRangesJoinTwoRunsStably) {
  const std::vector<float> from{1, 4, 4, 9, /* second run */ 2, 4, 10};
  const std::vector<int64_t> pfrom{0, 1, 2, 3, 4, 5, 6};
  std::vector<float> to(7, -1);
  std::vector<int64_t> pto(7, -1);
  // Any cut of the output into ranges gives the same merge.
  for (int64_t cut = 0; cut <= 7; ++cut) {
    cpu().merge_range(DType::Float32, from.data(), to.data(), pfrom.data(), pto.data(), 0, 4, 7, 0, cut, false);
    cpu().merge_range(DType::Float32, from.data(), to.data(), pfrom.data(), pto.data(), 0, 4, 7, cut, 7, false);
    EXPECT_EQ(to, (std::vector<float>{1, 2, 4, 4, 4, 9, 10})) << cut;
    EXPECT_EQ(pto, (std::vector<int64_t>{0, 4, 1, 2, 5, 3, 6})) << cut;  // the first run's 4s first
  }
}

TEST(SortKernelsTest, InsertionPointsLeftAndRight) {
  // The sorted array with a stride of 2; the values with a stride of 3; the results with 2.
  const std::vector<int16_t> sorted{1, 0, 3, 0, 3, 0, 3, 0, 8, 0};
  const std::vector<int16_t> x{0, 9, 9, 1, 9, 9, 3, 9, 9, 5, 9, 9, 8, 9, 9, 9, 9, 9};
  const std::vector<int16_t> plain{1, 3, 3, 3, 8};
  for (bool right : {false, true}) {
    std::vector<int64_t> out(12, -1);
    cpu().insertion_points(DType::Int16, sorted.data(), 5, 2, x.data(), 3, 6, out.data(), 2, right);
    for (int64_t i = 0; i < 6; ++i) {
      const int16_t v = x[static_cast<size_t>(i * 3)];
      const auto at =
          right ? std::upper_bound(plain.begin(), plain.end(), v) : std::lower_bound(plain.begin(), plain.end(), v);
      EXPECT_EQ(out[static_cast<size_t>(i * 2)], at - plain.begin()) << v << " " << right;
      EXPECT_EQ(out[static_cast<size_t>(i * 2 + 1)], -1);
    }
  }
}

TEST(SortKernelsTest, NoTableForKindsWithoutKernels) {
  EXPECT_THROW(sort_kernels(ProcessorKind::GPU), NotImplementedError);
  EXPECT_THROW(sort_kernels(ProcessorKind::OMP), NotImplementedError);
}

}  // namespace
}  // namespace tessera::detail
