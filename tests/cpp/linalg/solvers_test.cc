// The factorizations and solvers of the C++ API: known answers, stacks, NumPy's result
// types and LinAlgError at the call.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tessera/linalg.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

ndarray host(const std::vector<double>& v, const Shape& shape) { return from_host(v.data(), shape, DType::Float64); }

TEST(SolversTest, SolveInvDet) {
  ndarray a = host({4, 1, 2, 3}, {2, 2});
  std::vector<double> x = solve(a, host({1, 2}, {2})).to_vector<double>();
  EXPECT_NEAR(x[0], 0.1, 1e-15);
  EXPECT_NEAR(x[1], 0.6, 1e-15);
  std::vector<double> ai = inv(a).to_vector<double>();
  EXPECT_NEAR(ai[0], 0.3, 1e-15);
  EXPECT_NEAR(ai[3], 0.4, 1e-15);
  EXPECT_NEAR(det(a).item().as_double(), 10, 1e-12);
  auto [sign, logdet] = slogdet(a);
  EXPECT_EQ(sign.item().as_double(), 1);
  EXPECT_NEAR(logdet.item().as_double(), std::log(10.0), 1e-15);
}

TEST(SolversTest, StacksAndTypes) {
  std::vector<float> v{2, 0, 0, 2, 1, 1, 0, 1, 3, 0, 0, 1};
  ndarray a = from_host(v.data(), {3, 2, 2}, DType::Float32);
  ndarray d = det(a);
  EXPECT_EQ(d.dtype(), DType::Float32);
  EXPECT_EQ(d.shape(), (Shape{3}));
  std::vector<float> got = d.to_vector<float>();
  EXPECT_NEAR(got[0], 4, 1e-6);
  EXPECT_NEAR(got[1], 1, 1e-6);
  EXPECT_NEAR(got[2], 3, 1e-6);
  std::vector<int32_t> iv{2, 1, 1, 2};
  auto [w, vecs] = eigh(from_host(iv.data(), {2, 2}, DType::Int32));
  EXPECT_EQ(w.dtype(), DType::Float64);
  std::vector<double> wv = w.to_vector<double>();
  EXPECT_NEAR(wv[0], 1, 1e-14);
  EXPECT_NEAR(wv[1], 3, 1e-14);
}

TEST(SolversTest, ErrorsAtTheCall) {
  ndarray singular = host({1, 2, 2, 4}, {2, 2});
  EXPECT_THROW(inv(singular), LinAlgError);
  EXPECT_THROW(solve(singular, host({1, 1}, {2})), LinAlgError);
  EXPECT_THROW(cholesky(host({-1, 0, 0, 1}, {2, 2})), LinAlgError);
  EXPECT_THROW(inv(host({1, 2, 3}, {3})), LinAlgError);
  EXPECT_THROW(det(zeros({2, 3})), LinAlgError);
  EXPECT_THROW(qr(zeros({2, 2}), "bad"), ValueError);
  EXPECT_NEAR(inv(host({2, 0, 0, 2}, {2, 2})).to_vector<double>()[0], 0.5, 1e-15);  // still usable
}

TEST(SolversTest, FactorizationsReconstruct) {
  ndarray a = host({1, 2, 3, 4, 5, 6}, {3, 2});
  std::vector<ndarray> qrs = qr(a);
  ndarray back = matmul(qrs[0], qrs[1]);
  std::vector<double> b = back.to_vector<double>();
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(b[i], i + 1, 1e-12);
  std::vector<double> s = svdvals(a).to_vector<double>();
  EXPECT_NEAR(s[0] * s[0] + s[1] * s[1], 91, 1e-10);  // the Frobenius norm squared
  LstsqResult l = lstsq(a, host({1, 2, 3}, {3}));
  EXPECT_EQ(l.rank, 2);
  EXPECT_EQ(l.residuals.shape(), (Shape{1}));
}

// A matrix of 600 rows is factored by tiles (256, 256 and 88 rows).
TEST(SolversTest, LargeMatricesByTiles) {
  const int64_t n = 600;
  std::vector<double> a(n * n), spd(n * n), b(n * 2);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      a[i * n + j] = std::cos(double(i * 7 + j * 3)) + (i == j ? n : 0);
      spd[i * n + j] = 1.0 / (1.0 + std::abs(double(i - j))) + (i == j ? n : 0);
    }
  for (int64_t i = 0; i < 2 * n; ++i) b[i] = std::sin(double(i));
  // a · x = b to rounding.
  std::vector<double> x = solve(host(a, {n, n}), host(b, {n, 2})).to_vector<double>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < 2; ++c) {
      double r = -b[i * 2 + c];
      for (int64_t j = 0; j < n; ++j) r += a[i * n + j] * x[j * 2 + c];
      EXPECT_NEAR(r, 0, 1e-12);
    }
  // L lower with L · L^T = spd; the upper factor is L^T.
  std::vector<double> l = cholesky(host(spd, {n, n})).to_vector<double>();
  std::vector<double> u = cholesky(host(spd, {n, n}), true).to_vector<double>();
  for (int64_t i = 0; i < n; i += 37)
    for (int64_t j = 0; j < n; j += 41) {
      double s = 0;
      for (int64_t k = 0; k < n; ++k) s += l[i * n + k] * l[j * n + k];
      EXPECT_NEAR(s, spd[i * n + j], 1e-10);
      if (j > i) {
        EXPECT_EQ(l[i * n + j], 0);
      }
      EXPECT_NEAR(u[j * n + i], l[i * n + j], 1e-12);
    }
  std::vector<double> singular = a;
  for (int64_t j = 0; j < n; ++j) singular[j * n + 300] = 0;
  EXPECT_THROW(solve(host(singular, {n, n}), host(b, {n, 2})), LinAlgError);
  spd[450 * n + 450] = -1;
  EXPECT_THROW(cholesky(host(spd, {n, n})), LinAlgError);
}

}  // namespace
}  // namespace tessera
