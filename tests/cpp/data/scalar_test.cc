// Scalar: construction dtypes, weak (Python) scalars, conversions between storage types
// with NumPy's results (float->int truncation and x86 out-of-range values, modular integer
// narrowing, complex->real), byte round trips, range checks and printing.
#include "tessera/scalar.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tessera {
namespace {

TEST(ScalarTest, ConstructorsPickNumPyDTypes) {
  EXPECT_EQ(Scalar(true).dtype(), DType::Bool);
  EXPECT_EQ(Scalar(3).dtype(), DType::Int64);
  EXPECT_EQ(Scalar(int64_t{3}).dtype(), DType::Int64);
  EXPECT_EQ(Scalar(uint64_t{3}).dtype(), DType::UInt64);
  EXPECT_EQ(Scalar(3.5).dtype(), DType::Float64);
  EXPECT_EQ(Scalar(std::complex<double>(1, 2)).dtype(), DType::Complex128);
  EXPECT_EQ(Scalar().dtype(), DType::Float64);
  EXPECT_EQ(Scalar().as_double(), 0.0);
}

TEST(ScalarTest, WeakMarksPythonScalarsAndCastMakesStrong) {
  Scalar w = Scalar::weak(Scalar(2.5));
  EXPECT_TRUE(w.is_weak());
  EXPECT_FALSE(Scalar(2.5).is_weak());
  EXPECT_EQ(w.as_double(), 2.5);
  Scalar c = w.cast(DType::Float32);
  EXPECT_FALSE(c.is_weak());
  EXPECT_EQ(c.dtype(), DType::Float32);
}

TEST(ScalarTest, FloatToIntegerTruncatesTowardZero) {
  EXPECT_EQ(Scalar(2.7).cast(DType::Int32).as_int(), 2);
  EXPECT_EQ(Scalar(-2.7).cast(DType::Int8).as_int(), -2);
  EXPECT_EQ(Scalar(-0.5).cast(DType::Int64).as_int(), 0);
  EXPECT_EQ(Scalar(1e19).cast(DType::UInt64).as_uint(), 10000000000000000000ull);
}

// What NumPy gives on x86 for values that do not fit (np.array(v).astype(t)).
TEST(ScalarTest, FloatOutOfRangeMatchesNumPyOnX86) {
  EXPECT_EQ(Scalar(1e20).cast(DType::Int32).as_int(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(Scalar(std::nan("")).cast(DType::Int64).as_int(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Scalar(-1.0).cast(DType::UInt8).as_uint(), 255u);
  EXPECT_EQ(Scalar(-3.9).cast(DType::UInt16).as_uint(), 65533u);
  EXPECT_EQ(Scalar(-1e19).cast(DType::UInt64).as_uint(), uint64_t{1} << 63);
  EXPECT_EQ(Scalar(std::nan("")).cast(DType::UInt64).as_uint(), uint64_t{1} << 63);
  EXPECT_EQ(Scalar(1.5e19).cast(DType::UInt64).as_uint(), 15000000000000000000ull);
  EXPECT_EQ(Scalar(1e30).cast(DType::UInt64).as_uint(), 0u);  // from 2**64 on: 0, as +inf
  EXPECT_EQ(Scalar(HUGE_VAL).cast(DType::UInt64).as_uint(), 0u);
  // Types narrower than 32 bits go through int32 (cvttsd2si) and wrap.
  EXPECT_EQ(Scalar(300.0).cast(DType::Int8).as_int(), 44);
  EXPECT_EQ(Scalar(1e10).cast(DType::Int16).as_int(), 0);
  EXPECT_EQ(Scalar(3e9).cast(DType::UInt32).as_uint(), 3000000000u);
  EXPECT_EQ(Scalar(-1e10).cast(DType::UInt32).as_uint(), 2884901888u);
}

TEST(ScalarTest, IntegerNarrowingWrapsLikeNumPy) {
  EXPECT_EQ(Scalar(300).cast(DType::UInt8).as_uint(), 44u);
  EXPECT_EQ(Scalar(200).cast(DType::Int8).as_int(), -56);
  EXPECT_EQ(Scalar(-1).cast(DType::UInt64).as_uint(), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(Scalar(uint64_t{1} << 63).cast(DType::Int64).as_int(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Scalar(65537).cast(DType::Int16).as_int(), 1);
}

TEST(ScalarTest, ToBoolIsNonZero) {
  EXPECT_TRUE(Scalar(0.5).cast(DType::Bool).as_bool());
  EXPECT_FALSE(Scalar(0.0).cast(DType::Bool).as_bool());
  EXPECT_TRUE(Scalar(-7).cast(DType::Bool).as_bool());
  EXPECT_TRUE(Scalar(std::complex<double>(2, 0)).cast(DType::Bool).as_bool());
  EXPECT_FALSE(Scalar(std::complex<double>(0, 0)).cast(DType::Bool).as_bool());
  EXPECT_TRUE(Scalar(std::complex<double>(0, 1)).as_bool());
  EXPECT_EQ(Scalar(true).cast(DType::Float64).as_double(), 1.0);
  EXPECT_EQ(Scalar(true).as_int(), 1);
}

// np.array([1j]).astype(bool) is [True]: a complex is true when either part is non-zero.
TEST(ScalarTest, ImaginaryComplexCastsToTrue) {
  EXPECT_TRUE(Scalar(std::complex<double>(0, 1)).cast(DType::Bool).as_bool());
  alignas(16) unsigned char buf[16] = {};
  Scalar(std::complex<double>(0, -2)).to_bytes(DType::Bool, buf);
  EXPECT_EQ(buf[0], 1);
}

TEST(ScalarTest, ComplexToRealKeepsTheRealPart) {
  Scalar z(std::complex<double>(3.75, -4));
  EXPECT_EQ(z.cast(DType::Float64).as_double(), 3.75);
  EXPECT_EQ(z.cast(DType::Int16).as_int(), 3);
  EXPECT_EQ(z.as_double(), 3.75);
  EXPECT_EQ(z.as_complex(), std::complex<double>(3.75, -4));
  EXPECT_EQ(Scalar(2.0).as_complex(), std::complex<double>(2, 0));
  Scalar c64 = z.cast(DType::Complex64);
  EXPECT_EQ(c64.dtype(), DType::Complex64);
  EXPECT_EQ(c64.as_complex(), std::complex<double>(3.75, -4));
}

TEST(ScalarTest, FloatNarrowingRounds) {
  const double third = 1.0 / 3.0;
  EXPECT_EQ(Scalar(third).cast(DType::Float32).as_double(), static_cast<double>(static_cast<float>(third)));
  EXPECT_TRUE(std::isinf(Scalar(65520.0).cast(DType::Float16).as_double()));
  EXPECT_EQ(Scalar(65504.0).cast(DType::Float16).as_double(), 65504.0);
  EXPECT_EQ(Scalar(0.1).cast(DType::Float16).as_double(), static_cast<double>(static_cast<_Float16>(0.1)));
  EXPECT_EQ(Scalar(int64_t{1} << 53 | 1).cast(DType::Float64).as_double(), 9007199254740992.0);
}

TEST(ScalarTest, BytesRoundTripForEveryDType) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    alignas(16) unsigned char buf[16] = {};
    Scalar(7).to_bytes(t, buf);
    Scalar back = Scalar::from_bytes(t, buf);
    EXPECT_EQ(back.dtype(), t);
    EXPECT_EQ(back.as_double(), t == DType::Bool ? 1.0 : 7.0) << dtype_name(t);
  }
  int16_t raw = -1234;
  Scalar s = Scalar::from_bytes(DType::Int16, &raw);
  EXPECT_EQ(s.as_int(), -1234);
  float f = 0;
  Scalar(2.5).to_bytes(DType::Float32, &f);
  EXPECT_EQ(f, 2.5f);
  std::complex<float> z;
  Scalar(std::complex<double>(1, -2)).to_bytes(DType::Complex64, &z);
  EXPECT_EQ(z, std::complex<float>(1, -2));
}

TEST(ScalarTest, UnsignedValuesSurviveAsUnsigned) {
  const uint64_t big = std::numeric_limits<uint64_t>::max();
  Scalar s(big);
  EXPECT_EQ(s.as_uint(), big);
  EXPECT_EQ(s.as_double(), 18446744073709551615.0);
  EXPECT_EQ(s.cast(DType::UInt64).as_uint(), big);
  EXPECT_EQ(s.to_string(), "18446744073709551615");
}

TEST(ScalarTest, FitsChecksIntegerRanges) {
  EXPECT_TRUE(Scalar(255).fits(DType::UInt8));
  EXPECT_FALSE(Scalar(256).fits(DType::UInt8));
  EXPECT_FALSE(Scalar(-1).fits(DType::UInt8));
  EXPECT_TRUE(Scalar(-128).fits(DType::Int8));
  EXPECT_FALSE(Scalar(-129).fits(DType::Int8));
  EXPECT_FALSE(Scalar(std::numeric_limits<uint64_t>::max()).fits(DType::Int64));
  EXPECT_TRUE(Scalar(std::numeric_limits<uint64_t>::max()).fits(DType::UInt64));
  EXPECT_TRUE(Scalar(1000).fits(DType::Float16));  // only integer targets are range-checked
  EXPECT_TRUE(Scalar(1e300).fits(DType::Int8));    // only integer values are range-checked
}

TEST(ScalarTest, ToStringLooksLikePython) {
  EXPECT_EQ(Scalar(true).to_string(), "True");
  EXPECT_EQ(Scalar(false).to_string(), "False");
  EXPECT_EQ(Scalar(-42).to_string(), "-42");
}

}  // namespace
}  // namespace tessera
