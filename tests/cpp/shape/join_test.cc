// concatenate and the stacks: values, result dtypes, `out`, and NumPy's errors.
#include <gtest/gtest.h>

#include <numeric>

#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/shape.h"

namespace tessera {
namespace {

ndarray iota(const Shape& shape, int64_t start = 0) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return from_host(v.data(), shape, DType::Int64);
}

std::vector<int64_t> values(const ndarray& a) { return a.to_vector<int64_t>(); }

TEST(Concatenate, AlongEachAxis) {
  ndarray a = iota({2, 2}), b = iota({2, 1}, 10);
  ndarray c = concatenate({a, b}, 1);
  EXPECT_EQ(c.shape(), (Shape{2, 3}));
  EXPECT_EQ(values(c), (std::vector<int64_t>{0, 1, 10, 2, 3, 11}));
  EXPECT_EQ(values(concatenate({a, transpose(a)}, 0)), (std::vector<int64_t>{0, 1, 2, 3, 0, 2, 1, 3}));
  EXPECT_EQ(values(concatenate({a, b}, std::nullopt)), (std::vector<int64_t>{0, 1, 2, 3, 10, 11}));
  EXPECT_FALSE(concatenate({a}, 0).shares_storage(a));
}

TEST(Concatenate, PromotesAndCasts) {
  ndarray f = full({2}, Scalar(1.5), DType::Float32);
  ndarray c = concatenate({iota({2}), f});
  EXPECT_EQ(c.dtype(), DType::Float64);
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{0, 1, 1.5, 1.5}));
  EXPECT_EQ(concatenate({iota({2}), f}, 0, nullptr, DType::Float32).dtype(), DType::Float32);
  EXPECT_THROW(concatenate({f}, 0, nullptr, DType::Int32), TypeError);
  EXPECT_EQ(concatenate({f}, 0, nullptr, DType::Int32, "unsafe").to_vector<int32_t>(), (std::vector<int32_t>{1, 1}));
  EXPECT_THROW(concatenate({f}, 0, nullptr, std::nullopt, "sideways"), ValueError);
}

TEST(Concatenate, IntoOut) {
  ndarray out = zeros({5}, DType::Float64);
  ndarray r = concatenate({iota({2}), iota({3}, 5)}, 0, &out);
  EXPECT_TRUE(r.shares_storage(out));
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{0, 1, 5, 6, 7}));
  ndarray small = zeros({4});
  EXPECT_THROW(concatenate({iota({2}), iota({3})}, 0, &small), ValueError);
  EXPECT_THROW(concatenate({iota({2})}, 0, &out, DType::Float64), TypeError);
}

TEST(Concatenate, Errors) {
  EXPECT_THROW(concatenate({}), ValueError);
  EXPECT_THROW(concatenate({iota({}), iota({})}), ValueError);
  EXPECT_THROW(concatenate({iota({2, 3}), iota({3})}), ValueError);
  EXPECT_THROW(concatenate({iota({2, 3}), iota({3, 3})}, 1), ValueError);
  EXPECT_THROW(concatenate({iota({2, 3})}, 2), AxisError);
  try {
    concatenate({iota({2, 3}), iota({2, 5})}, 0);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "all the input array dimensions except for the concatenation axis must match exactly, but "
                 "along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 5");
  }
}

TEST(Stack, NewAxisAndVariants) {
  ndarray a = iota({3}), b = iota({3}, 10);
  EXPECT_EQ(values(stack({a, b})), (std::vector<int64_t>{0, 1, 2, 10, 11, 12}));
  EXPECT_EQ(values(stack({a, b}, -1)), (std::vector<int64_t>{0, 10, 1, 11, 2, 12}));
  EXPECT_THROW(stack({a, iota({4})}), ValueError);
  EXPECT_THROW(stack({a, b}, 2), AxisError);
  EXPECT_THROW(stack({}), ValueError);
  EXPECT_EQ(hstack({a, b}).shape(), (Shape{6}));
  EXPECT_EQ(vstack({a, b}).shape(), (Shape{2, 3}));
  EXPECT_EQ(dstack({a, b}).shape(), (Shape{1, 3, 2}));
  ndarray cs = column_stack({a, b});
  EXPECT_EQ(cs.shape(), (Shape{3, 2}));
  EXPECT_EQ(values(cs), (std::vector<int64_t>{0, 10, 1, 11, 2, 12}));
  EXPECT_EQ(hstack({iota({2, 1}), iota({2, 2})}).shape(), (Shape{2, 3}));
}

}  // namespace
}  // namespace tessera
