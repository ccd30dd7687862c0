// tessera/stl.h against host loops: fill, for_each (with and without the index),
// transform (unary, binary, on a strided view), reduce and transform_reduce (their fixed
// order), and stencil's interior and edge rule, in 1-D, 2-D and 3-D, under every
// configuration of the task tests.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numeric>

#include "task_fixture.h"
#include "tessera/stl.h"

namespace tessera {
namespace {

using testing::host_array;

class StlTest : public testing::ConfiguredTest {};

std::vector<double> ramp(int64_t n, double scale = 1.0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = scale * std::cos(0.3 * static_cast<double>(i)) + 0.01 * i;
  return v;
}

TEST_P(StlTest, Fill) {
  ndarray a = zeros({13, 7});
  stl::fill(a, 2.5);
  for (double v : a.to_vector<double>()) ASSERT_EQ(v, 2.5);
  ndarray b = zeros({100}, DType::Int32);
  stl::fill<int32_t>(b, 7);
  for (int32_t v : b.to_vector<int32_t>()) ASSERT_EQ(v, 7);
  EXPECT_THROW(stl::fill(b, 1.0), TypeError);  // float64 value, int32 array
}

TEST_P(StlTest, ForEachAndItsIndex) {
  const int64_t n = 23, m = 11;
  ndarray a = host_array(ramp(n * m), {n, m});
  stl::for_each<double>(a, [](double& x) { x = 2 * x + 1; });
  stl::for_each<double>(a, [m](double& x, const stl::Index& i) { x += static_cast<double>(i[0] * m + i[1]) * 1000; });
  const std::vector<double> r = ramp(n * m), got = a.to_vector<double>();
  for (int64_t k = 0; k < n * m; ++k) ASSERT_EQ(got[k], (2 * r[k] + 1) + 1000.0 * k) << k;
  // 1-D, index only.
  ndarray b = zeros({50}, DType::Int64);
  stl::for_each<int64_t>(b, [](int64_t& x, const stl::Index& i) { x = i[0] * i[0]; });
  const std::vector<int64_t> gb = b.to_vector<int64_t>();
  for (int64_t k = 0; k < 50; ++k) ASSERT_EQ(gb[k], k * k);
}

TEST_P(StlTest, TransformUnaryBinaryAndOnAView) {
  const int64_t n = 97;
  const std::vector<double> x = ramp(n), y = ramp(n, -2.0);
  ndarray ax = host_array(x, {n}), ay = host_array(y, {n}), out = zeros({n});
  stl::transform<double>(ax, out, [](double v) { return v * v - 1; });
  std::vector<double> got = out.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], x[i] * x[i] - 1);
  stl::transform<double>(ax, ay, out, [](double u, double v) { return 3 * u - v; });
  got = out.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 3 * x[i] - y[i]);
  // Into another dtype, and in place.
  ndarray flags = zeros({n}, DType::Bool);
  stl::transform<double, bool>(ax, flags, [](double v) { return v > 0; });
  const std::vector<bool> f = [&] {
    std::vector<bool> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(flags.item(i).as_bool());
    return v;
  }();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(f[i], x[i] > 0);
  stl::transform<double>(ax, ax, [](double v) { return -v; });
  got = ax.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], -x[i]);
  // A strided 2-D view: every other column of a (9, 12) array.
  ndarray big = zeros({9, 12});
  ndarray cols = view(big, {Slice{}, Slice{std::nullopt, std::nullopt, 2}});
  stl::for_each<double>(cols, [](double& v, const stl::Index& i) { v = static_cast<double>(10 * i[0] + i[1]); });
  const std::vector<double> gb = big.to_vector<double>();
  for (int64_t i = 0; i < 9; ++i)
    for (int64_t j = 0; j < 12; ++j) ASSERT_EQ(gb[i * 12 + j], j % 2 == 0 ? 10.0 * i + j / 2 : 0.0) << i << "," << j;
}

TEST_P(StlTest, ArgumentErrors) {
  ndarray a = zeros({10}), b = zeros({11}), c = zeros({10}, DType::Float32);
  EXPECT_THROW(stl::transform<double>(a, b, [](double v) { return v; }), ValueError);
  EXPECT_THROW(stl::transform<double>(a, c, [](double v) { return v; }), TypeError);
  EXPECT_THROW(stl::reduce(c, 0.0, std::plus<>()), TypeError);
  EXPECT_THROW(stl::stencil<double>(a, a, 1, [](const auto& nb) { return nb(0); }), ValueError);  // shares memory
  EXPECT_THROW(stl::stencil<double>(a, zeros({10}), Shape{1, 1}, [](const auto& nb) { return nb(0); }), ValueError);
}

TEST_P(StlTest, ReduceMatchesTheHostInTileOrder) {
  const int64_t n = 1234;
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = (i * 7919) % 1000 - 500;
  ndarray a = host_array(v, {n});
  EXPECT_EQ(stl::reduce(a, int64_t{5}, std::plus<>()), std::accumulate(v.begin(), v.end(), int64_t{5}));
  EXPECT_EQ(stl::reduce(a, int64_t{1000}, [](int64_t x, int64_t y) { return std::min(x, y); }),
            *std::min_element(v.begin(), v.end()));
  // A non-commutative (associative) op shows the order: the last element wins.
  EXPECT_EQ(stl::reduce(a, int64_t{-1}, [](int64_t, int64_t y) { return y; }), v.back());
  // ...and the first: every partial starts from its tile's first element.
  EXPECT_EQ(stl::reduce(a, int64_t{-1}, [](int64_t x, int64_t y) { return x == -1 ? y : x; }), v.front());
  // Empty array: init.
  EXPECT_EQ(stl::reduce(zeros({0}), 3.5, std::plus<>()), 3.5);
}

TEST_P(StlTest, TransformReduceSquaredDistance) {
  const int64_t n = 40, m = 33;
  const std::vector<double> x = ramp(n * m), y = ramp(n * m, 0.5);
  const double got = stl::transform_reduce(host_array(x, {n, m}), host_array(y, {n, m}), 0.0, std::plus<>(),
                                           [](double u, double v) { return (u - v) * (u - v); });
  double expected = 0;
  for (int64_t i = 0; i < n * m; ++i) expected += (x[i] - y[i]) * (x[i] - y[i]);
  EXPECT_NEAR(got, expected, 1e-12 * expected);
  // Repeated launches on one configuration agree bit for bit.
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(stl::transform_reduce(host_array(x, {n, m}), host_array(y, {n, m}), 0.0, std::plus<>(),
                                    [](double u, double v) { return (u - v) * (u - v); }),
              got);
  // Unary form, into a wider type: count of positives.
  const int64_t positives =
      stl::transform_reduce<double>(host_array(x, {n * m}), int64_t{0}, std::plus<>(), [](double u) { return u > 0; });
  EXPECT_EQ(positives, std::count_if(x.begin(), x.end(), [](double u) { return u > 0; }));
}

// A 5-point Laplacian of a 2-D array: the frame of the output keeps its values.
TEST_P(StlTest, Stencil2DWritesTheInteriorOnly) {
  const int64_t n = 29, m = 18;
  const std::vector<double> u = ramp(n * m);
  ndarray src = host_array(u, {n, m}), dst = full({n, m}, Scalar(-7.0));
  stl::stencil<double>(src, dst, 1,
                       [](const auto& nb) { return 4 * nb(0, 0) - nb(-1, 0) - nb(1, 0) - nb(0, -1) - nb(0, 1); });
  const std::vector<double> got = dst.to_vector<double>();
  auto U = [&](int64_t i, int64_t j) { return u[i * m + j]; };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      const bool frame = i == 0 || j == 0 || i == n - 1 || j == m - 1;
      const double e = frame ? -7.0 : 4 * U(i, j) - U(i - 1, j) - U(i + 1, j) - U(i, j - 1) - U(i, j + 1);
      ASSERT_EQ(got[i * m + j], e) << i << "," << j;
    }
}

TEST_P(StlTest, StencilWithAnUnevenHaloAndTheIndex) {
  // 1-D, halo 2: a 5-point moving sum plus the centre's index.
  const int64_t n = 61;
  const std::vector<double> u = ramp(n);
  ndarray dst = zeros({n});
  stl::stencil<double>(host_array(u, {n}), dst, 2, [](const auto& nb) {
    return nb(-2) + nb(-1) + nb(0) + nb(1) + nb(2) + 1000.0 * static_cast<double>(nb.index()[0]);
  });
  std::vector<double> got = dst.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) {
    const double e = (i < 2 || i >= n - 2) ? 0.0 : u[i - 2] + u[i - 1] + u[i] + u[i + 1] + u[i + 2] + 1000.0 * i;
    ASSERT_EQ(got[i], e) << i;
  }
  // 3-D with a halo along the first axis only.
  const int64_t a = 9, b = 5, c = 4;
  const std::vector<double> w = ramp(a * b * c);
  ndarray d3 = zeros({a, b, c});
  stl::stencil<double>(host_array(w, {a, b, c}), d3, Shape{1, 0, 0},
                       [](const auto& nb) { return nb(1, 0, 0) - nb(-1, 0, 0); });
  got = d3.to_vector<double>();
  for (int64_t i = 0; i < a; ++i)
    for (int64_t j = 0; j < b * c; ++j) {
      const double e = (i == 0 || i == a - 1) ? 0.0 : w[(i + 1) * b * c + j] - w[(i - 1) * b * c + j];
      ASSERT_EQ(got[i * b * c + j], e);
    }
}

// Jacobi sweeps alternating two arrays, then the change's norm, against the host.
TEST_P(StlTest, JacobiSweepsMatchTheHost) {
  const int64_t n = 24;
  std::vector<double> h(n * n, 0.0);
  for (int64_t j = 0; j < n; ++j) h[j] = 1.0;
  ndarray p = host_array(h, {n, n}), q = host_array(h, {n, n});
  auto sweep = [](const auto& nb) { return 0.25 * (nb(0, 1) + nb(0, -1) + nb(1, 0) + nb(-1, 0)); };
  for (int it = 0; it < 6; ++it) {
    stl::stencil<double>(p, q, 1, sweep);
    std::swap(p, q);
  }
  const double l2 =
      std::sqrt(stl::transform_reduce(p, q, 0.0, std::plus<>(), [](double u, double v) { return (u - v) * (u - v); }));
  std::vector<double> hp = h, hq = h;
  for (int it = 0; it < 6; ++it) {
    for (int64_t i = 1; i < n - 1; ++i)
      for (int64_t j = 1; j < n - 1; ++j)
        hq[i * n + j] = 0.25 * (hp[i * n + j + 1] + hp[i * n + j - 1] + hp[(i + 1) * n + j] + hp[(i - 1) * n + j]);
    std::swap(hp, hq);
  }
  EXPECT_EQ(p.to_vector<double>(), hp);
  double s = 0;
  for (int64_t k = 0; k < n * n; ++k) s += (hp[k] - hq[k]) * (hp[k] - hq[k]);
  EXPECT_NEAR(l2, std::sqrt(s), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Configs, StlTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
