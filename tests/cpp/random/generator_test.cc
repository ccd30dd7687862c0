// Generator: streams are reproducible and independent of the tiling, values lie in
// their ranges with the right moments, and arguments are checked as NumPy does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "numeric/random/cpu/fill.h"
#include "numeric/random/draw.h"
#include "tessera/random.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

TEST(GeneratorTest, SameSeedSameStreamAndSuccessiveDrawsDiffer) {
  Generator a(42), b(42), c(43);
  auto x = a.random({1000}).to_vector<double>();
  EXPECT_EQ(x, b.random({1000}).to_vector<double>());
  EXPECT_NE(x, c.random({1000}).to_vector<double>());
  EXPECT_NE(x, a.random({1000}).to_vector<double>());
  EXPECT_EQ(Generator(std::vector<uint64_t>{1, 2}).random().as_double(),
            Generator(std::vector<uint64_t>{1, 2}).random().as_double());
}

TEST(GeneratorTest, ArraysEqualTheSerialStreamWhateverTheTiling) {
  // Element i depends on (key, draw, i) only: the array computed in tiles equals `fill` in one go,
  // and any split of the index range gives the same values.
  Generator g(7);
  auto [key, draw] = Generator(7).take_draw();
  ndarray x = g.standard_normal({123, 45});
  detail::DrawSpec spec{detail::Distribution::Normal, DType::Float64, key, draw, 0.0, 1.0};
  std::vector<double> serial(123 * 45), pieces(123 * 45);
  detail::fill(spec, 0, static_cast<int64_t>(serial.size()), serial.data());
  EXPECT_EQ(x.to_vector<double>(), serial);
  for (int64_t lo = 0; lo < static_cast<int64_t>(pieces.size()); lo += 37)
    detail::fill(spec, lo, std::min<int64_t>(37, pieces.size() - lo), pieces.data() + lo);
  EXPECT_EQ(pieces, serial);
}

TEST(GeneratorTest, RangesAndMoments) {
  Generator g(11);
  const int64_t n = 200000;
  auto u = g.uniform(-2.0, 3.0, {n}).to_vector<double>();
  EXPECT_GE(*std::min_element(u.begin(), u.end()), -2.0);
  EXPECT_LT(*std::max_element(u.begin(), u.end()), 3.0);
  EXPECT_NEAR(std::accumulate(u.begin(), u.end(), 0.0) / n, 0.5, 5 * 5 / std::sqrt(12.0 * n));
  auto z = g.standard_normal({n}).to_vector<double>();
  double mean = std::accumulate(z.begin(), z.end(), 0.0) / n, var = 0;
  for (double v : z) var += (v - mean) * (v - mean);
  EXPECT_NEAR(mean, 0, 5 / std::sqrt(double(n)));
  EXPECT_NEAR(var / n, 1, 5 * std::sqrt(2.0 / n));
  auto f = g.random({n}, DType::Float32).to_vector<float>();
  EXPECT_GE(*std::min_element(f.begin(), f.end()), 0.0f);
  EXPECT_LT(*std::max_element(f.begin(), f.end()), 1.0f);
  auto k = g.integers(Scalar(int64_t{-3}), Scalar(int64_t{7}), {n}, DType::Int16).to_vector<int16_t>();
  EXPECT_EQ(*std::min_element(k.begin(), k.end()), -3);
  EXPECT_EQ(*std::max_element(k.begin(), k.end()), 6);
  auto full = g.integers(Scalar(uint64_t{0}), Scalar(std::numeric_limits<uint64_t>::max()), {1000}, DType::UInt64, true)
                  .to_vector<uint64_t>();
  EXPECT_GT(*std::max_element(full.begin(), full.end()), uint64_t{1} << 62);
}

TEST(GeneratorTest, ArgumentErrorsMatchNumPy) {
  Generator g(0);
  EXPECT_THROW(g.integers(Scalar(int64_t{5}), Scalar(int64_t{2}), {3}), ValueError);
  // uniform: NumPy's Generator refuses high < low, its legacy functions draw from [high, low).
  EXPECT_THROW(g.uniform(5.0, 1.0), ValueError);
  EXPECT_THROW(g.uniform(5.0, 1.0, {3}), ValueError);
  EXPECT_THROW(g.uniform(0.0, INFINITY, {3}), OverflowError);
  const double v = g.uniform(5.0, 1.0, Generator::Bounds::Legacy).as_double();
  EXPECT_TRUE(v > 1.0 && v <= 5.0) << v;
  EXPECT_THROW(g.integers(Scalar(int64_t{0}), Scalar(int64_t{300}), {3}, DType::UInt8), ValueError);
  EXPECT_THROW(g.integers(Scalar(int64_t{-1}), Scalar(int64_t{3}), {3}, DType::UInt8), ValueError);
  EXPECT_THROW(g.integers(Scalar(int64_t{0}), Scalar(int64_t{3}), {3}, DType::Float64), TypeError);
  EXPECT_THROW(g.random({3}, DType::Int32), TypeError);
  EXPECT_THROW(g.random({-1}), ValueError);
  EXPECT_THROW(g.normal(0.0, -1.0), ValueError);
  EXPECT_THROW(g.normal(Operand(0.0), Operand(zeros({4})), {3}), ValueError);  // does not broadcast
  EXPECT_EQ(g.integers(Scalar(int64_t{5}), Scalar(int64_t{5}), DType::Int64, true).as_int(), 5);
}

TEST(GeneratorTest, ArrayBoundsAreCheckedAndDrawnPerElement) {
  Generator g(12);
  const std::vector<int64_t> highs{2, 10, 1000};
  ndarray high = from_host(highs.data(), {3}, DType::Int64);
  auto x = g.integers(Operand(0), Operand(high), {20000, 3}, DType::Int32).to_vector<int32_t>();
  for (size_t j = 0; j < 3; ++j) {
    int32_t lo = 1 << 30, hi = -1;
    for (size_t i = j; i < x.size(); i += 3) lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, highs[j] - 1);
  }
  EXPECT_THROW(g.integers(Operand(0), Operand(high), {3}, DType::Int8), ValueError);  // 1000 > int8
  EXPECT_THROW(g.integers(Operand(high), Operand(5), {3}), ValueError);               // low >= high
}

}  // namespace
}  // namespace tessera
