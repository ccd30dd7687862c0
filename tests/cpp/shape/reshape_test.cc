// reshape, ravel, flatten and the axis permutations: values in C order, which results share
// the input's storage (views) and which are copies, and NumPy's errors.
#include <gtest/gtest.h>

#include <numeric>

#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/index.h"
#include "tessera/shape.h"

namespace tessera {
namespace {

// 0, 1, ..., volume-1 as int64 in `shape`.
ndarray iota(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return from_host(v.data(), shape, DType::Int64);
}

std::vector<int64_t> values(const ndarray& a) { return a.to_vector<int64_t>(); }

TEST(Reshape, ContiguousIsAViewWithUnknownDimension) {
  ndarray a = iota({2, 3, 4});
  ndarray r = reshape(a, {4, -1});
  EXPECT_EQ(r.shape(), (Shape{4, 6}));
  EXPECT_TRUE(r.shares_storage(a));
  EXPECT_EQ(values(r), values(a));
  assign(view(r, {int64_t{0}}), Operand(int64_t{-1}));
  EXPECT_EQ(values(a)[5], -1);
  EXPECT_EQ(values(a)[6], 6);
}

TEST(Reshape, NonContiguousIsACopyInCOrder) {
  ndarray a = iota({2, 3});
  ndarray r = reshape(transpose(a), {6});
  EXPECT_FALSE(r.shares_storage(a));
  EXPECT_EQ(values(r), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_THROW(reshape(transpose(a), {6}, Order::C, false), ValueError);
  EXPECT_FALSE(reshape(a, {3, 2}, Order::C, true).shares_storage(a));
}

TEST(Reshape, FortranOrder) {
  ndarray a = iota({2, 3});
  EXPECT_EQ(values(reshape(a, {3, 2}, Order::F)), (std::vector<int64_t>{0, 4, 3, 2, 1, 5}));
  EXPECT_EQ(values(ravel(a, Order::F)), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_THROW(reshape(a, {6}, Order::K), ValueError);
}

TEST(Reshape, Errors) {
  ndarray a = iota({2, 3});
  try {
    reshape(a, {4});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "cannot reshape array of size 6 into shape (4,)");
  }
  EXPECT_THROW(reshape(a, {-1, -1}), ValueError);
  EXPECT_THROW(reshape(a, {5, -1}), ValueError);
  EXPECT_EQ(reshape(iota({0}), {-1, 3}).shape(), (Shape{0, 3}));
  EXPECT_THROW(reshape(iota({0}), {0, -1, 3}), ValueError);
  EXPECT_THROW(reshape(iota({0}), {-1, 0}), ValueError);
}

TEST(Ravel, ViewOnlyWhenContiguous) {
  ndarray a = iota({2, 3});
  EXPECT_TRUE(ravel(a).shares_storage(a));
  EXPECT_FALSE(flatten(a).shares_storage(a));
  ndarray strided = view(a, {Slice{}, Slice{std::nullopt, std::nullopt, 2}});
  EXPECT_FALSE(ravel(strided).shares_storage(a));
  EXPECT_EQ(values(ravel(strided)), (std::vector<int64_t>{0, 2, 3, 5}));
  // K order follows the strides: a transpose ravels in memory order, as a view.
  EXPECT_TRUE(ravel(transpose(a), Order::K).shares_storage(a));
  EXPECT_EQ(values(ravel(transpose(a), Order::K)), values(a));
}

TEST(Transpose, PermutationsAreViews) {
  ndarray a = iota({2, 3, 4});
  ndarray t = transpose(a, {2, 0, 1});
  EXPECT_EQ(t.shape(), (Shape{4, 2, 3}));
  EXPECT_TRUE(t.shares_storage(a));
  EXPECT_EQ(values(t)[1], 4);  // t[0, 0, 1] = a[0, 1, 0]
  EXPECT_EQ(transpose(a).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(swapaxes(a, 0, -1).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(moveaxis(a, {0}, {-1}).shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(moveaxis(a, {0, 1}, {-1, -2}).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(matrix_transpose(a).shape(), (Shape{2, 4, 3}));
  EXPECT_THROW(transpose(a, {0, 1}), ValueError);
  EXPECT_THROW(transpose(a, {0, 0, 1}), ValueError);
  EXPECT_THROW(transpose(a, {0, 1, 3}), AxisError);
  EXPECT_THROW(swapaxes(a, 0, 3), AxisError);
  EXPECT_THROW(moveaxis(a, {0, 0}, {1, 2}), ValueError);
  EXPECT_THROW(matrix_transpose(iota({3})), ValueError);
}

TEST(Dims, SqueezeExpandBroadcastAtleast) {
  ndarray a = iota({1, 3, 1});
  EXPECT_EQ(squeeze(a).shape(), (Shape{3}));
  EXPECT_EQ(squeeze(a, {-1}).shape(), (Shape{1, 3}));
  EXPECT_THROW(squeeze(a, {1}), ValueError);
  EXPECT_THROW(squeeze(a, {3}), AxisError);
  EXPECT_THROW(squeeze(a, {0, 0}), ValueError);
  EXPECT_EQ(expand_dims(iota({2, 3}), {0, -1}).shape(), (Shape{1, 2, 3, 1}));
  EXPECT_THROW(expand_dims(iota({2, 3}), {4}), AxisError);
  EXPECT_THROW(expand_dims(iota({2, 3}), {0, 0}), ValueError);
  ndarray b = broadcast_to(iota({3}), {2, 3});
  EXPECT_EQ(b.strides_bytes(), (Shape{0, 8}));
  EXPECT_EQ(values(b), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_THROW(broadcast_to(iota({3}), {2, 4}), ValueError);
  EXPECT_THROW(broadcast_to(iota({2, 3}), {3}), ValueError);
  EXPECT_EQ(atleast_2d(iota({3})).shape(), (Shape{1, 3}));
  EXPECT_EQ(atleast_3d(iota({3})).shape(), (Shape{1, 3, 1}));
  EXPECT_EQ(atleast_3d(iota({2, 3})).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(atleast_1d(reshape(iota({1}), {})).shape(), (Shape{1}));
}

}  // namespace
}  // namespace tessera
