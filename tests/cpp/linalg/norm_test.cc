// linalg.norm's orders and axes, and isclose / allclose / array_equal.
#include <gtest/gtest.h>

#include <cmath>

#include "tessera/linalg.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

ndarray host(const std::vector<double>& v, const Shape& shape) { return from_host(v.data(), shape, DType::Float64); }

double value(const ndarray& a) { return a.item().as_double(); }

TEST(NormTest, VectorOrders) {
  ndarray v = host({3, -4, 0, 12}, {4});
  EXPECT_DOUBLE_EQ(value(norm(v)), 13);
  EXPECT_DOUBLE_EQ(value(norm(v, NormOrder::number(1))), 19);
  EXPECT_DOUBLE_EQ(value(norm(v, NormOrder::number(INFINITY))), 12);
  EXPECT_DOUBLE_EQ(value(norm(v, NormOrder::number(-INFINITY))), 0);
  EXPECT_DOUBLE_EQ(value(norm(v, NormOrder::number(0))), 3);
  EXPECT_NEAR(value(norm(v, NormOrder::number(3))), std::cbrt(27.0 + 64 + 1728), 1e-12);
  EXPECT_THROW(norm(v, NormOrder::fro(), std::vector<int64_t>{0}), ValueError);
}

TEST(NormTest, MatrixOrdersAndAxes) {
  ndarray m = host({1, -2, 3, 4, 5, -6}, {2, 3});
  EXPECT_DOUBLE_EQ(value(norm(m, NormOrder::fro())), std::sqrt(91.0));
  EXPECT_DOUBLE_EQ(value(norm(m, NormOrder::number(1))), 9);          // largest column sum
  EXPECT_DOUBLE_EQ(value(norm(m, NormOrder::number(INFINITY))), 15);  // largest row sum
  EXPECT_DOUBLE_EQ(value(norm(m, NormOrder::number(-1))), 5);
  ndarray d = host({3, 0, 0, -5}, {2, 2});
  EXPECT_NEAR(value(norm(d, NormOrder::number(2))), 5, 1e-12);
  EXPECT_NEAR(value(norm(d, NormOrder::number(-2))), 3, 1e-12);
  EXPECT_NEAR(value(norm(d, NormOrder::nuc())), 8, 1e-12);
  ndarray rows = norm(m, {}, std::vector<int64_t>{1}, true);
  EXPECT_EQ(rows.shape(), (Shape{2, 1}));
  EXPECT_DOUBLE_EQ(rows.to_vector<double>()[0], std::sqrt(14.0));
  EXPECT_EQ(norm(m, NormOrder::fro(), std::vector<int64_t>{1, 0}, true).shape(), (Shape{1, 1}));
  EXPECT_THROW(norm(m, {}, std::vector<int64_t>{0, 0}), ValueError);
  EXPECT_THROW(norm(m, {}, std::vector<int64_t>{2}), AxisError);
  EXPECT_THROW(norm(m, NormOrder::number(3), std::vector<int64_t>{0, 1}), ValueError);
  EXPECT_THROW(norm(zeros({2, 2, 2}), NormOrder::number(1)), ValueError);  // three axes
}

TEST(NormTest, IntegerInputsAreNormedAsFloat64) {
  std::vector<int32_t> v{3, 4};
  ndarray n = norm(from_host(v.data(), {2}, DType::Int32));
  EXPECT_EQ(n.dtype(), DType::Float64);
  EXPECT_DOUBLE_EQ(value(n), 5);
}

TEST(CloseTest, IscloseAllcloseArrayEqual) {
  ndarray a = host({1, 2, NAN, INFINITY}, {4}), b = host({1, 2 + 1e-9, NAN, INFINITY}, {4});
  std::vector<bool> want{true, true, false, true};
  std::vector<char> got(4);
  isclose(a, b).copy_to(got.data());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i] != 0, want[i]) << i;
  EXPECT_FALSE(allclose(a, b));
  EXPECT_TRUE(allclose(a, b, 1e-5, 1e-8, true));
  EXPECT_FALSE(array_equal(a, a));
  EXPECT_TRUE(array_equal(a, a, true));
  EXPECT_FALSE(array_equal(a, host({1, 2}, {2})));
  EXPECT_TRUE(array_equal(zeros({0}), zeros({0})));
  ndarray big = arange(Scalar(int64_t{0}), Scalar(int64_t{100000}), Scalar(int64_t{1}));
  EXPECT_TRUE(array_equal(big, copy(big)));
  EXPECT_FALSE(array_equal(big, binary("minimum", big, 99998)));
}

}  // namespace
}  // namespace tessera
