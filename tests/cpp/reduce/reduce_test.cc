// Reductions on arrays large enough for several blocks: bitwise the same under any
// number of cpus and tiles, the same through both walks (blocks of values and rows of a
// vector), NumPy's results for argmax/argmin with NaN, empty and masked reductions.
#include "tessera/reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "data/store.h"
#include "numeric/reduce/reduce_block.h"
#include "runtime/runtime.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/runtime.h"

namespace tessera {
namespace {

std::vector<double> random_values(size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mag(-8, 8), unit(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = unit(rng) * std::exp2(mag(rng));  // varied magnitudes: order matters
  return v;
}

ndarray host(const std::vector<double>& v, const Shape& shape) { return from_host(v.data(), shape, DType::Float64); }

ndarray transposed(const ndarray& a) { return ndarray(a.store()->transpose({1, 0})); }

template <class T>
T scalar_of(const ndarray& a) {
  EXPECT_EQ(a.ndim(), 0);
  if constexpr (std::is_same_v<T, bool>) return a.item().as_bool();
  else return a.to_vector<T>()[0];
}

// Restarts the runtime with `config` (TESSERA_TEST on or off) for the rest of a test.
void restart(const char* config, bool test_mode) {
  tessera::finish();
  setenv("TESSERA_CONFIG", config, 1);
  if (test_mode) setenv("TESSERA_TEST", "1", 1);
  else unsetenv("TESSERA_TEST");
  tessera::start();
}

// Runs `f` under several runtimes and returns its results.
template <class F>
std::vector<std::vector<double>> under_configs(F&& f) {
  const char* saved = std::getenv("TESSERA_CONFIG");
  const std::string before = saved ? saved : "";
  const char* saved_test = std::getenv("TESSERA_TEST");
  const bool test_before = saved_test != nullptr;
  std::vector<std::vector<double>> results;
  for (auto [config, test] : {std::pair{"--cpus=1", false}, std::pair{"--cpus=3", true}, std::pair{"--cpus=4", false},
                              std::pair{"--cpus=2 --min-cpu-chunk=5000", false}}) {
    restart(config, test);
    results.push_back(f());
  }
  restart(before.c_str(), test_before);
  return results;
}

TEST(Reduce, FullSumIsBitwiseTheSameForAnyCpus) {
  const auto values = random_values(1009 * 991, 1);
  auto results = under_configs([&] {
    ndarray a = host(values, {1009 * 991});
    ndarray m = host(values, {1009, 991});
    return std::vector<double>{scalar_of<double>(sum(a)), scalar_of<double>(sum(m)),
                               scalar_of<double>(sum(transposed(m))), scalar_of<double>(mean(a)),
                               scalar_of<double>(var(a))};
  });
  for (size_t i = 1; i < results.size(); ++i)
    for (size_t k = 0; k < results[0].size(); ++k)
      EXPECT_EQ(std::memcmp(&results[0][k], &results[i][k], sizeof(double)), 0) << "config " << i << " value " << k;
  long double exact = 0;
  for (double v : values) exact += v;
  EXPECT_NEAR(results[0][0], static_cast<double>(exact), 1e-9 * std::abs(static_cast<double>(exact)) + 1e-9);
  // The same elements in the same order (a C-ordered (1009, 991) array): the same bits.
  EXPECT_EQ(results[0][0], results[0][1]);
  EXPECT_EQ(results[0][1], results[0][2]);  // transposed: reduced in memory order, the same bits
}

TEST(Reduce, AxisSumsAreBitwiseTheSameForAnyCpusAndBothWalks) {
  const int64_t rows = 20'011, cols = 7;
  const auto values = random_values(rows * cols, 2);
  auto results = under_configs([&] {
    ndarray a = host(values, {rows, cols});
    // Axis 0 of a C-ordered matrix runs as rows of a vector; its transposed copy along axis 1
    // runs as blocks of values: the same order of additions either way.
    std::vector<double> r = sum(a, {.axis = Axes{{0}}}).to_vector<double>();
    std::vector<double> t = sum(copy(transposed(a)), {.axis = Axes{{1}}}).to_vector<double>();
    std::vector<double> w = sum(a, {.axis = Axes{{1}}}).to_vector<double>();
    r.insert(r.end(), t.begin(), t.end());
    r.insert(r.end(), w.begin(), w.end());
    return r;
  });
  for (int64_t c = 0; c < cols; ++c) EXPECT_EQ(results[0][c], results[0][cols + c]) << "column " << c;
  for (size_t i = 1; i < results.size(); ++i) EXPECT_EQ(results[0], results[i]) << "config " << i;
  long double exact = 0;
  for (int64_t r = 0; r < rows; ++r) exact += values[r * cols + 3];
  EXPECT_NEAR(results[0][3], static_cast<double>(exact), 1e-9);
}

TEST(Reduce, FloatSumsAccumulateInTheirOwnPrecisionPairwise) {
  // 2^25 ones in float32: a running sum sticks at 2^24, a pairwise one is exact.
  ndarray a = ones({int64_t{1} << 25}, DType::Float32);
  ndarray s = sum(a);
  EXPECT_EQ(s.dtype(), DType::Float32);
  EXPECT_EQ(scalar_of<float>(s), static_cast<float>(int64_t{1} << 25));
  EXPECT_EQ(scalar_of<float>(mean(a)), 1.0f);
}

TEST(Reduce, ArgmaxFindsTheFirstBestAcrossBlocks) {
  std::vector<double> v(50'000, 1.0);
  v[12'345] = 7.0;
  v[40'000] = 7.0;
  ndarray a = host(v, {50'000});
  EXPECT_EQ(scalar_of<int64_t>(argmax(a)), 12'345);
  EXPECT_EQ(scalar_of<double>(amax(a)), 7.0);
  v[30'000] = std::nan("");
  v[45'000] = std::nan("");
  ndarray b = host(v, {50'000});
  EXPECT_EQ(scalar_of<int64_t>(argmax(b)), 30'000);
  EXPECT_EQ(scalar_of<int64_t>(argmin(b)), 30'000);
  EXPECT_TRUE(std::isnan(scalar_of<double>(amin(b))));
  // Along axis 0 of a (10000, 5) matrix (rows of a vector, several blocks).
  ndarray m = host(std::vector<double>(v.begin(), v.end()), {10'000, 5});
  std::vector<int64_t> at = argmax(m, 0).to_vector<int64_t>();
  EXPECT_EQ(at[0], 6'000);  // flat 30000 = row 6000, column 0 (nan)
  EXPECT_EQ(at[1], 0);      // all ones elsewhere but the 7 at flat 40000 is column 0 too
  EXPECT_EQ(at[4], 0);
}

TEST(Reduce, ExtremesAgreeBitwiseAcrossWalksWithSignedZerosAndNaN) {
  // Zeros of both signs and NaNs in some columns: max/min along axis 0 (rows of a vector)
  // and along axis 1 of the transposed copy (blocks of values) give the same bits.
  const int64_t rows = 9'000, cols = 6;
  std::vector<double> v(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t c = 0; c < cols; ++c)
      v[i * cols + c] = c < 3 ? ((i + c) % 2 ? -0.0 : 0.0) - (c == 2) : std::sin(i * 0.1 + c);
  v[7'000 * cols + 4] = -std::nan("");
  v[8'000 * cols + 4] = std::nan("");
  v[5 * cols + 5] = std::numeric_limits<double>::infinity();
  ndarray a = host(v, {rows, cols});
  ndarray t = copy(transposed(a));
  for (auto f : {&amax, &amin}) {
    std::vector<double> r = f(a, {.axis = Axes{{0}}}).to_vector<double>();
    std::vector<double> b = f(t, {.axis = Axes{{1}}}).to_vector<double>();
    EXPECT_EQ(std::memcmp(r.data(), b.data(), r.size() * sizeof(double)), 0);
    EXPECT_TRUE(std::isnan(r[4]) && std::signbit(r[4]));  // the first NaN
  }
  EXPECT_FALSE(std::signbit(amax(a, {.axis = Axes{{0}}}).to_vector<double>()[0]));  // +0 beats -0
  EXPECT_TRUE(std::signbit(amin(a, {.axis = Axes{{0}}}).to_vector<double>()[1]));
  std::vector<int64_t> r = argmax(a, 0).to_vector<int64_t>(), b = argmax(t, 1).to_vector<int64_t>();
  EXPECT_EQ(r, b);
  EXPECT_EQ(r[4], 7'000);
  EXPECT_EQ(r[5], 5);
}

TEST(Reduce, IntegerAndLogicalReductionsOverManyBlocks) {
  const int64_t n = 100'000;
  ndarray r = arange(Scalar(int64_t{0}), Scalar(n), Scalar(int64_t{1}), DType::Int32);
  EXPECT_EQ(sum(r).dtype(), DType::Int64);
  EXPECT_EQ(scalar_of<int64_t>(sum(r)), n * (n - 1) / 2);
  EXPECT_EQ(scalar_of<int32_t>(amax(r)), n - 1);
  EXPECT_EQ(scalar_of<int64_t>(count_nonzero(r)), n - 1);
  EXPECT_FALSE(scalar_of<bool>(all(r)));
  EXPECT_TRUE(scalar_of<bool>(any(r)));
  ndarray even = binary("equal", binary("remainder", r, 2), 0);
  EXPECT_EQ(scalar_of<int64_t>(count_nonzero(even)), n / 2);
  EXPECT_EQ(scalar_of<int64_t>(sum(r, {.where = even})), (n / 2) * (n / 2 - 1));
}

TEST(Reduce, AxesKeepdimsAndErrors) {
  ndarray a = arange(Scalar(int64_t{0}), Scalar(int64_t{24}), Scalar(int64_t{1}), DType::Float64);
  ndarray b(a.store()->reshape_view({2, 3, 4}));
  ndarray s = sum(b, {.axis = Axes{{0, -1}}, .keepdims = true});
  EXPECT_EQ(s.shape(), (Shape{1, 3, 1}));
  EXPECT_EQ(s.to_vector<double>(), (std::vector<double>{60, 92, 124}));
  EXPECT_THROW(sum(b, {.axis = Axes{{3}}}), AxisError);
  EXPECT_THROW(sum(b, {.axis = Axes{{0, 0}}}), ValueError);
  EXPECT_THROW(amax(zeros({0, 3}), {.axis = Axes{{0}}}), ValueError);
  EXPECT_EQ(amax(zeros({0, 3}), {.axis = Axes{{1}}}).shape(), Shape{0});
  EXPECT_THROW(argmin(zeros({0})), ValueError);
  EXPECT_EQ(scalar_of<double>(prod(zeros({0}))), 1.0);
  EXPECT_TRUE(std::isnan(scalar_of<double>(mean(zeros({0})))));
  ndarray out = zeros({3}, DType::Float32);
  ndarray r = sum(b, {.axis = Axes{{0, 2}}, .out = out});
  EXPECT_TRUE(r.shares_storage(out));
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{60, 92, 124}));
}

TEST(Reduce, BlocksCombineByTheFixedTree) {
  // The shape of the tree that sums, dots and norms share: halves, the smaller first.
  auto block = [](int64_t b) { return std::to_string(b); };
  auto join = [](const std::string& a, const std::string& b) { return "(" + a + " " + b + ")"; };
  EXPECT_EQ(detail::combine_blocks<std::string>(0, 1, block, join), "0");
  EXPECT_EQ(detail::combine_blocks<std::string>(0, 3, block, join), "(0 (1 2))");
  EXPECT_EQ(detail::combine_blocks<std::string>(0, 5, block, join), "((0 1) (2 (3 4)))");
  EXPECT_EQ(detail::combine_blocks<std::string>(2, 2, block, join), "(2 3)");
  EXPECT_EQ(detail::reduce_blocks(1), 1);
  EXPECT_EQ(detail::reduce_blocks(detail::kReduceBlock), 1);
  EXPECT_EQ(detail::reduce_blocks(detail::kReduceBlock + 1), 2);
}

}  // namespace
}  // namespace tessera
