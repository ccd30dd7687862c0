// Products: values against plain loops for BLAS and loop dtypes, NumPy's shapes and errors,
// and the determinism of the matrix product and of vector dot products for any tiling.
#include <gtest/gtest.h>

#include <cblas.h>

#include <array>
#include <complex>
#include <cstring>
#include <random>

#include "../runtime/runtime_fixture.h"
#include "numeric/linalg/block_reduce.h"
#include "tessera/linalg.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

template <class T>
ndarray host(const std::vector<T>& v, const Shape& shape) {
  return from_host(v.data(), shape, dtype_of<T>::value);
}

std::vector<double> random_values(int64_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(-8, 8);
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(g) * 0.25;  // exact products and sums
  return v;
}

// C = A · B by the definition, for row-major A (m × k) and B (k × n).
template <class T>
std::vector<T> reference(const std::vector<T>& a, const std::vector<T>& b, int64_t m, int64_t k, int64_t n) {
  std::vector<T> c(static_cast<size_t>(m * n), T{});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

TEST(ProductsTest, MatmulMatchesTheDefinitionForFloatAndComplex) {
  const int64_t m = 37, k = 19, n = 23;
  auto a = random_values(m * k, 1), b = random_values(k * n, 2);
  EXPECT_EQ(matmul(host(a, {m, k}), host(b, {k, n})).to_vector<double>(), reference(a, b, m, k, n));
  std::vector<std::complex<double>> ca(a.size()), cb(b.size());
  for (size_t i = 0; i < a.size(); ++i) ca[i] = {a[i], -a[(i + 1) % a.size()]};
  for (size_t i = 0; i < b.size(); ++i) cb[i] = {b[i], b[(i + 3) % b.size()]};
  EXPECT_EQ(matmul(host(ca, {m, k}), host(cb, {k, n})).to_vector<std::complex<double>>(), reference(ca, cb, m, k, n));
}

TEST(ProductsTest, IntegerProductsWrapLikeNumPy) {
  std::vector<int8_t> a{100, 100, -100, 7}, b{100, 1, 2, 3};  // 100*100 + 100*2 wraps in int8
  std::vector<int8_t> want(4);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      want[i * 2 + j] =
          static_cast<int8_t>(static_cast<int>(a[i * 2]) * b[j] + static_cast<int>(a[i * 2 + 1]) * b[2 + j]);
  ndarray c = matmul(host(a, {2, 2}), host(b, {2, 2}));
  EXPECT_EQ(c.dtype(), DType::Int8);
  EXPECT_EQ(c.to_vector<int8_t>(), want);
  std::vector<int8_t> x{100, 100}, y{100, 2};
  EXPECT_EQ(dot(host(x, {2}), host(y, {2})).item().as_int(), static_cast<int8_t>(100 * 100 + 100 * 2));
}

TEST(ProductsTest, ShapesFollowNumPy) {
  auto v = [](const Shape& s) { return zeros(s); };
  EXPECT_EQ(matmul(v({4}), v({4, 3})).shape(), (Shape{3}));
  EXPECT_EQ(matmul(v({3, 4}), v({4})).shape(), (Shape{3}));
  EXPECT_EQ(matmul(v({4}), v({4})).shape(), (Shape{}));
  EXPECT_EQ(matmul(v({2, 1, 3, 4}), v({5, 4, 6})).shape(), (Shape{2, 5, 3, 6}));
  EXPECT_EQ(dot(v({2, 3, 4}), v({5, 4, 6})).shape(), (Shape{2, 3, 5, 6}));
  EXPECT_EQ(dot(v({2, 3, 4}), v({4})).shape(), (Shape{2, 3}));
  EXPECT_EQ(inner(v({2, 4}), v({3, 5, 4})).shape(), (Shape{2, 3, 5}));
  EXPECT_EQ(outer(v({2, 2}), v({3})).shape(), (Shape{4, 3}));
  EXPECT_EQ(vdot(v({2, 3}), v({6})).shape(), (Shape{}));
}

TEST(ProductsTest, MismatchedShapesRaiseNumPysErrors) {
  try {
    dot(zeros({2, 3}), zeros({4}));
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)");
  }
  try {
    matmul(zeros({2, 3}), zeros({4}));
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                 "(n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)");
  }
  EXPECT_THROW(matmul(zeros({}), zeros({3})), ValueError);
  EXPECT_THROW(matmul(zeros({2, 3, 4}), zeros({3, 4, 5})), ValueError);  // batch does not broadcast
  EXPECT_THROW(vdot(zeros({3}), zeros({4})), ValueError);
}

// The configurations the products are compared under: one tile or many (the minimum chunk
// sets how finely the grid of blocks is cut), one worker or several.
const char* const kTilings[] = {
    "--auto-config=0 --cpus=1 --test=0",
    "--auto-config=0 --cpus=2 --test=1",
    "--auto-config=0 --cpus=3 --test=0 --min-cpu-chunk=1000",
    "--auto-config=0 --cpus=4 --test=0 --min-cpu-chunk=1",
};

TEST(ProductsTest, MatmulResultsDoNotDependOnTheTiling) {
  for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{{300, 211, 173}, {1, 500, 301}, {517, 300, 1}}) {
    auto av = random_values(m * k, 3), bv = random_values(k * n, 4);
    for (auto& x : av) x = x * 1.1 + 1e-3;  // inexact sums: any change of order shows
    std::vector<double> first;
    for (const char* config : kTilings) {
      testing::ScopedConfig scoped(config);
      const std::vector<double> got = matmul(host(av, {m, k}), host(bv, {k, n})).to_vector<double>();
      if (first.empty()) first = got;
      else
        EXPECT_EQ(std::memcmp(got.data(), first.data(), got.size() * sizeof(double)), 0)
            << m << "x" << k << "x" << n << " under " << config;
    }
  }
}

TEST(ProductsTest, BatchedMatmulResultsDoNotDependOnTheTiling) {
  auto av = random_values(3 * 50 * 40, 8), bv = random_values(40 * 30, 9);
  for (auto& x : av) x = x * 1.1 + 1e-3;
  std::vector<double> first;
  for (const char* config : kTilings) {
    testing::ScopedConfig scoped(config);
    // b broadcast over the batch (stride 0).
    const std::vector<double> got = matmul(host(av, {3, 50, 40}), host(bv, {1, 40, 30})).to_vector<double>();
    if (first.empty()) first = got;
    else EXPECT_EQ(std::memcmp(got.data(), first.data(), got.size() * sizeof(double)), 0) << config;
  }
  std::vector<double> a0(av.begin(), av.begin() + 50 * 40);
  auto want = reference(a0, bv, 50, 40, 30);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(first[i], want[i], 1e-9);
}

TEST(ProductsTest, VectorDotIsTheFixedBlockedSum) {
  const int64_t n = 5 * detail::kReduceBlock + 123;
  std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
  std::mt19937 g(7);
  std::normal_distribution<double> d;
  for (int64_t i = 0; i < n; ++i) x[i] = d(g), y[i] = d(g);
  std::vector<double> partial;
  for (int64_t lo = 0; lo < n; lo += detail::kReduceBlock)
    partial.push_back(cblas_ddot(static_cast<int>(std::min(detail::kReduceBlock, n - lo)), &x[lo], 1, &y[lo], 1));
  // The reductions' tree: the first half of the blocks, the rest, then the two.
  auto tree = [&](auto& self, size_t first, size_t count) -> double {
    if (count == 1) return partial[first];
    const size_t half = count / 2;
    const double low = self(self, first, half);
    return low + self(self, first + half, count - half);
  };
  const double got = dot(host(x, {n}), host(y, {n})).item().as_double();
  EXPECT_EQ(got, tree(tree, 0, partial.size()));
}

TEST(ProductsTest, NonContiguousAndOutOperands) {
  auto av = random_values(6 * 8, 5), bv = random_values(8 * 6, 6);
  ndarray a = host(av, {6, 8}), b = host(bv, {8, 6});
  ndarray at(a.store()->transpose({1, 0}));  // 8 × 6, column-major
  std::vector<double> att(48);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j) att[i * 6 + j] = av[j * 8 + i];
  ndarray bt(b.store()->transpose({1, 0}));  // 6 × 8, column-major
  ndarray out = zeros({8, 8});
  ndarray r = matmul(at, bt, &out);
  std::vector<double> btt(48);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j) btt[i * 8 + j] = bv[j * 6 + i];
  EXPECT_EQ(out.to_vector<double>(), reference(att, btt, 8, 6, 8));
  EXPECT_TRUE(r.shares_storage(out));
}

}  // namespace
}  // namespace tessera
