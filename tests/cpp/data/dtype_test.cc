// dtype rules against NumPy's answers: the full promote_types and can_cast('safe') tables
// (generated with NumPy 2.4 on Linux, so int64 is 'l'), names and type codes, and the
// helper rules that pick the dtypes of sqrt, complex results and sums.
#include "tessera/dtype.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "tessera/errors.h"

namespace tessera {
namespace {

// Row and column order of the tables: the DType enum's order.
constexpr std::array<DType, kNumDTypes> kAll = {
    DType::Bool,   DType::Int8,   DType::Int16,   DType::Int32,   DType::Int64,   DType::UInt8,     DType::UInt16,
    DType::UInt32, DType::UInt64, DType::Float16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

// np.promote_types(row, column).char
constexpr std::array<const char*, kNumDTypes> kPromote = {
    "?bhilBHILefdFD",  // bool
    "bbhilhildefdFD",  // int8
    "hhhilhildffdFD",  // int16
    "iiiiliilddddDD",  // int32
    "llllllllddddDD",  // int64
    "BhhilBHILefdFD",  // uint8
    "HiiilHHILffdFD",  // uint16
    "IllllIIILdddDD",  // uint32
    "LddddLLLLdddDD",  // uint64
    "eefddefddefdFD",  // float16
    "fffddffddffdFD",  // float32
    "ddddddddddddDD",  // float64
    "FFFDDFFDDFFDFD",  // complex64
    "DDDDDDDDDDDDDD",  // complex128
};

// np.can_cast(row, column, 'safe'): '1' yes, '.' no
constexpr std::array<const char*, kNumDTypes> kSafe = {
    "11111111111111",  // bool
    ".1111....11111",  // int8
    "..111.....1111",  // int16
    "...11......1.1",  // int32
    "....1......1.1",  // int64
    "..111111111111",  // uint8
    "...11.111.1111",  // uint16
    "....1..11..1.1",  // uint32
    "........1..1.1",  // uint64
    ".........11111",  // float16
    "..........1111",  // float32
    "...........1.1",  // float64
    "............11",  // complex64
    ".............1",  // complex128
};

DType from_char(char c) { return dtype_from_name(std::string(1, c)); }

TEST(DTypeTest, PromoteTypesMatchesNumPyForEveryPair) {
  for (int i = 0; i < kNumDTypes; ++i)
    for (int j = 0; j < kNumDTypes; ++j)
      EXPECT_EQ(promote_types(kAll[i], kAll[j]), from_char(kPromote[i][j]))
          << dtype_name(kAll[i]) << " + " << dtype_name(kAll[j]) << ": expected " << kPromote[i][j];
}

TEST(DTypeTest, PromoteTypesWellKnownPairs) {
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int8), DType::Int16);
  EXPECT_EQ(promote_types(DType::UInt64, DType::Int64), DType::Float64);
  EXPECT_EQ(promote_types(DType::Int16, DType::Float16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Float32, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::Int64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::UInt32, DType::Int32), DType::Int64);
  EXPECT_EQ(promote_types(DType::Float64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Bool, DType::Bool), DType::Bool);
}

TEST(DTypeTest, PromoteTypesIsSymmetric) {
  for (DType a : kAll)
    for (DType b : kAll) EXPECT_EQ(promote_types(a, b), promote_types(b, a));
}

TEST(DTypeTest, CanCastSafeMatchesNumPyForEveryPair) {
  for (int i = 0; i < kNumDTypes; ++i)
    for (int j = 0; j < kNumDTypes; ++j)
      EXPECT_EQ(can_cast_safe(kAll[i], kAll[j]), kSafe[i][j] == '1')
          << dtype_name(kAll[i]) << " -> " << dtype_name(kAll[j]);
}

TEST(DTypeTest, NamesCodesAndSizes) {
  const std::array<int, kNumDTypes> sizes = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};
  const char* codes = "?bhilBHILefdFD";
  for (int i = 0; i < kNumDTypes; ++i) {
    EXPECT_EQ(itemsize(kAll[i]), sizes[i]) << dtype_name(kAll[i]);
    EXPECT_EQ(dtype_char(kAll[i]), codes[i]);
    EXPECT_EQ(dtype_from_name(dtype_name(kAll[i])), kAll[i]);
    EXPECT_EQ(dtype_from_name(std::string(1, codes[i])), kAll[i]);
  }
  EXPECT_STREQ(dtype_name(DType::Complex128), "complex128");
  EXPECT_EQ(dtype_from_name("float"), DType::Float64);
  EXPECT_EQ(dtype_from_name("int"), DType::Int64);
  EXPECT_EQ(dtype_from_name("f4"), DType::Float32);
  EXPECT_EQ(dtype_from_name("u1"), DType::UInt8);
  EXPECT_EQ(dtype_from_name("c16"), DType::Complex128);
  EXPECT_EQ(dtype_from_name("half"), DType::Float16);
}

TEST(DTypeTest, UnknownNameIsATypeErrorNamingIt) {
  try {
    dtype_from_name("float128x");
    FAIL() << "no error";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("float128x"), std::string::npos) << e.what();
  }
}

TEST(DTypeTest, KindsAndPredicates) {
  EXPECT_EQ(dtype_kind(DType::Bool), DKind::Bool);
  EXPECT_EQ(dtype_kind(DType::Int32), DKind::Int);
  EXPECT_EQ(dtype_kind(DType::UInt16), DKind::UInt);
  EXPECT_EQ(dtype_kind(DType::Float16), DKind::Float);
  EXPECT_EQ(dtype_kind(DType::Complex64), DKind::Complex);
  EXPECT_TRUE(is_integer(DType::UInt64));
  EXPECT_FALSE(is_integer(DType::Bool));
  EXPECT_TRUE(is_inexact(DType::Float16));
  EXPECT_TRUE(is_inexact(DType::Complex128));
  EXPECT_FALSE(is_inexact(DType::Int64));
}

// np.sqrt's result dtype for each input dtype.
TEST(DTypeTest, InexactForMatchesNumPySqrt) {
  const char* expected = "eefddefddefdFD";
  for (int i = 0; i < kNumDTypes; ++i) EXPECT_EQ(inexact_for(kAll[i]), from_char(expected[i])) << dtype_name(kAll[i]);
}

TEST(DTypeTest, ComplexAndRealCounterparts) {
  EXPECT_EQ(complex_for(DType::Float16), DType::Complex64);
  EXPECT_EQ(complex_for(DType::Float32), DType::Complex64);
  EXPECT_EQ(complex_for(DType::Float64), DType::Complex128);
  EXPECT_EQ(complex_for(DType::Int8), DType::Complex64);
  EXPECT_EQ(complex_for(DType::Int32), DType::Complex128);
  EXPECT_EQ(complex_for(DType::Complex64), DType::Complex64);
  EXPECT_EQ(real_for(DType::Complex64), DType::Float32);
  EXPECT_EQ(real_for(DType::Complex128), DType::Float64);
  EXPECT_EQ(real_for(DType::Int16), DType::Int16);
}

// np.sum(np.zeros(3, t)).dtype on Linux.
TEST(DTypeTest, SumDTypeMatchesNumPy) {
  const char* expected = "lllllLLLLefdFD";
  for (int i = 0; i < kNumDTypes; ++i) EXPECT_EQ(sum_dtype(kAll[i]), from_char(expected[i])) << dtype_name(kAll[i]);
}

TEST(DTypeTest, VisitDTypeGivesTheMatchingCppType) {
  for (DType t : kAll) {
    int size = visit_dtype(t, [](auto tag) { return static_cast<int>(sizeof(tag)); });
    EXPECT_EQ(size, itemsize(t)) << dtype_name(t);
    DType back = visit_dtype(t, [](auto tag) { return dtype_of<decltype(tag)>::value; });
    EXPECT_EQ(back, t);
  }
}

}  // namespace
}  // namespace tessera
