// integer_item: a number stored into an integer dtype converts as NumPy's setitem converts a
// Python number (int()), with NumPy's exception types and messages.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>

#include "tessera/elementwise.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

template <class E>
std::string message_of(const Scalar& v, DType t) {
  try {
    integer_item(v, t);
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

TEST(IntegerItemTest, NaNAndInfinitiesRaise) {
  EXPECT_EQ(message_of<ValueError>(Scalar(NAN), DType::Int64), "cannot convert float NaN to integer");
  EXPECT_EQ(message_of<OverflowError>(Scalar(INFINITY), DType::Int8), "cannot convert float infinity to integer");
  EXPECT_EQ(message_of<OverflowError>(Scalar(-INFINITY), DType::UInt8), "cannot convert float infinity to integer");
  EXPECT_EQ(message_of<ValueError>(Scalar(std::complex<double>(NAN, 0)), DType::Int32),
            "cannot convert float NaN to integer");
}

TEST(IntegerItemTest, OutOfRangeValuesRaiseAsNumPySays) {
  EXPECT_EQ(message_of<OverflowError>(Scalar::weak(Scalar(int64_t{300})), DType::Int8),
            "Python integer 300 out of bounds for int8");
  EXPECT_EQ(message_of<OverflowError>(Scalar(300.5), DType::Int8), "Python integer 300 out of bounds for int8");
  EXPECT_EQ(message_of<OverflowError>(Scalar(-1.0), DType::UInt64), "Python integer -1 out of bounds for uint64");
  EXPECT_EQ(message_of<OverflowError>(Scalar(1e30), DType::Int8), "Python int too large to convert to C long");
  EXPECT_EQ(message_of<OverflowError>(Scalar(9.3e18), DType::Int64), "Python int too large to convert to C long");
  EXPECT_EQ(message_of<OverflowError>(Scalar(uint64_t{1} << 63), DType::Int64),
            "Python int too large to convert to C long");
  EXPECT_EQ(message_of<OverflowError>(Scalar::weak_big_int(1.8446744073709552e19), DType::UInt64),
            "Python int too large to convert to C long");
  EXPECT_EQ(message_of<TypeError>(Scalar::weak(Scalar(std::complex<double>(1, 1))), DType::Int64),
            "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
}

TEST(IntegerItemTest, ValuesInRangeAreTruncated) {
  EXPECT_EQ(integer_item(Scalar(127.9), DType::Int8).as_int(), 127);
  EXPECT_EQ(integer_item(Scalar(-0.9), DType::UInt8).as_int(), 0);
  EXPECT_EQ(integer_item(Scalar(1e19), DType::UInt64).as_uint(), 10000000000000000000ull);
  EXPECT_EQ(integer_item(Scalar(uint64_t{1} << 63), DType::UInt64).as_uint(), uint64_t{1} << 63);
  EXPECT_EQ(integer_item(Scalar(-9.223372036854775808e18), DType::Int64).as_int(), INT64_MIN);
  // Other dtypes, and bools, take the value as it is.
  EXPECT_TRUE(std::isnan(integer_item(Scalar(NAN), DType::Float32).as_double()));
  EXPECT_TRUE(integer_item(Scalar(NAN), DType::Bool).as_double() != 0);
  EXPECT_EQ(integer_item(Scalar(true), DType::Int8).as_int(), 1);
}

}  // namespace
}  // namespace tessera
