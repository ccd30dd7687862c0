// Generator::draw: NumPy's distributions are reproducible, independent of the array's shape
// (element i depends on (key, draw, i) alone), have their laws' means, and check parameters
// as NumPy does.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "tessera/random.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

ndarray host(const std::vector<double>& v) {
  return from_host(v.data(), {static_cast<int64_t>(v.size())}, DType::Float64);
}

double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }

TEST(LawsTest, ElementsDependOnTheirIndexOnly) {
  // A 2-D draw is the prefix of a longer 1-D draw of the same stream, whatever the tiles.
  for (Law law : {Law::Gamma, Law::Beta, Law::Vonmises, Law::Hypergeometric}) {
    std::vector<Operand> p;
    if (law == Law::Gamma) p = {0.5, 2.0};
    if (law == Law::Beta) p = {0.5, 0.7};
    if (law == Law::Vonmises) p = {0.0, 3.0};
    if (law == Law::Hypergeometric) p = {40, 60, 30};
    ndarray square = Generator(5).draw(law, p, {31, 17});
    ndarray line = Generator(5).draw(law, p, {31 * 17 + 9});
    auto a = astype(square, DType::Float64).to_vector<double>(), b = astype(line, DType::Float64).to_vector<double>();
    b.resize(a.size());
    EXPECT_EQ(a, b) << "law " << static_cast<int>(law);
  }
}

TEST(LawsTest, SameSeedSameValues) {
  auto x = Generator(1).draw(Law::Poisson, {Operand(4.0)}, {1000}).to_vector<int64_t>();
  EXPECT_EQ(x, Generator(1).draw(Law::Poisson, {Operand(4.0)}, {1000}).to_vector<int64_t>());
  EXPECT_NE(x, Generator(2).draw(Law::Poisson, {Operand(4.0)}, {1000}).to_vector<int64_t>());
}

TEST(LawsTest, Means) {
  Generator g(3);
  const int64_t n = 100000;
  EXPECT_NEAR(mean_of(g.draw(Law::Exponential, {2.0}, {n}).to_vector<double>()), 2.0, 6 * 2.0 / std::sqrt(n));
  EXPECT_NEAR(mean_of(g.draw(Law::Gamma, {3.0, 1.5}, {n}).to_vector<double>()), 4.5,
              6 * std::sqrt(3.0 * 1.5 * 1.5 / n));
  auto b = astype(g.draw(Law::Binomial, {100, 0.3}, {n}), DType::Float64).to_vector<double>();
  EXPECT_NEAR(mean_of(b), 30.0, 6 * std::sqrt(21.0 / n));
  auto p = g.draw(Law::Poisson, {Operand(500.0)}, {n});
  EXPECT_EQ(p.dtype(), DType::Int64);
  EXPECT_NEAR(mean_of(astype(p, DType::Float64).to_vector<double>()), 500.0, 6 * std::sqrt(500.0 / n));
  auto f = g.draw(Law::StandardExponential, {}, {n}, DType::Float32);
  EXPECT_EQ(f.dtype(), DType::Float32);
}

TEST(LawsTest, ArrayParametersBroadcast) {
  Generator g(4);
  ndarray scale = host({1.0, 100.0});
  auto x = g.draw(Law::Exponential, {scale}, {50000, 2}).to_vector<double>();
  double m0 = 0, m1 = 0;
  for (size_t i = 0; i < x.size(); i += 2) m0 += x[i], m1 += x[i + 1];
  EXPECT_NEAR(m0 / 50000, 1.0, 6 / std::sqrt(50000.0));
  EXPECT_NEAR(m1 / 50000, 100.0, 600 / std::sqrt(50000.0));
}

TEST(LawsTest, ParameterErrorsMatchNumPy) {
  Generator g(0);
  EXPECT_THROW(g.draw(Law::Exponential, {-1.0}), ValueError);
  EXPECT_THROW(g.draw(Law::Exponential, {Operand(host({1.0, -1.0}))}, {2}), ValueError);
  EXPECT_THROW(g.draw(Law::Binomial, {5.0, 1.5}), ValueError);
  EXPECT_THROW(g.draw(Law::Binomial, {NAN, 0.5}), ValueError);
  EXPECT_THROW(g.draw(Law::Binomial, {INFINITY, 0.5}), OverflowError);
  EXPECT_THROW(g.draw(Law::Triangular, {1.0, 0.0, 2.0}), ValueError);
  EXPECT_THROW(g.draw(Law::Hypergeometric, {5.0, 5.0, 11.0}), ValueError);
  EXPECT_THROW(g.draw(Law::Zipf, {1.0}), ValueError);
  EXPECT_THROW(g.draw(Law::Exponential, {Operand(zeros({4}))}, {3}), ValueError);  // does not broadcast
  EXPECT_THROW(g.draw(Law::Gamma, {1.0, 1.0}, {-1}), ValueError);
  EXPECT_THROW(g.draw(Law::Exponential, {1.0}, {3}, DType::Int32), TypeError);
  EXPECT_THROW(law_named("no_such_law"), ValueError);
  EXPECT_EQ(law_named("negative_binomial"), Law::NegativeBinomial);
}

}  // namespace
}  // namespace tessera
