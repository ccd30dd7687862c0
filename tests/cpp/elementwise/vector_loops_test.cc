// The vector loops on every instruction set this CPU can run (Highway's targets, forced
// one at a time): arithmetic bit for bit the scalar loops', math within 4 ulp of libm with
// libm's special values, power's shortcuts, and each element's value the same wherever a
// block starts (the last, partial vector computed like the others).
#include "numeric/elementwise/vector_loops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "config/instruction_sets.h"
#include "numeric/elementwise/ops.h"
#include "numeric/elementwise/vector_targets.h"
// After vector_targets.h: HWY_TARGETS is then the set the vector loops are compiled for.
#include "hwy/highway.h"

namespace tessera::detail {
namespace {

// The targets the vector loops are compiled for that this CPU has.
std::vector<int64_t> runnable_targets() {
  std::vector<int64_t> r;
  for (int64_t bits = HWY_TARGETS & hwy::SupportedTargets(); bits != 0; bits &= bits - 1) r.push_back(bits & -bits);
  return r;
}

template <class F>
void on_every_target(F f) {
  for (int64_t t : runnable_targets()) {
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(hwy::TargetName(t));
    EXPECT_STREQ(vector_target(), hwy::TargetName(t));
    f();
  }
  hwy::SetSupportedTargetsForTest(0);
}

// --simd's restriction (config/instruction_sets.h) lands the vector loops on the set it names,
// for every set this CPU has: the flag's names are the targets the loops are compiled for.
TEST(VectorLoops, RestrictingInstructionSetsChoosesThatTarget) {
  const std::vector<std::string> sets = supported_instruction_sets();
  EXPECT_EQ(sets.size(), runnable_targets().size());
  for (const std::string& set : sets) {
    restrict_instruction_sets(set);
    EXPECT_STREQ(vector_target(), highway_target_name(set));
  }
  restrict_instruction_sets("best");
  EXPECT_STREQ(vector_target(), hwy::TargetName(runnable_targets().front()));
}

template <class T>
DType dtype_for() {
  return std::is_same_v<T, float> ? DType::Float32 : DType::Float64;
}

template <class T>
std::vector<T> samples(size_t n, unsigned seed) {
  const T inf = std::numeric_limits<T>::infinity();
  std::vector<T> v = {std::numeric_limits<T>::quiet_NaN(),
                      inf,
                      -inf,
                      T(0),
                      -T(0),
                      T(1),
                      T(-1),
                      T(0.5),
                      T(2),
                      std::numeric_limits<T>::denorm_min(),
                      std::numeric_limits<T>::min(),
                      std::numeric_limits<T>::max(),
                      -std::numeric_limits<T>::max(),
                      T(88.5),
                      T(709.9)};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> mag(-30, 30), sign(-1, 1);
  while (v.size() < n) v.push_back(static_cast<T>(std::copysign(std::exp2(mag(rng)), sign(rng))));
  return v;
}

template <class T>
int64_t ulp_distance(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  auto ordered = [](T x) {
    I i;
    std::memcpy(&i, &x, sizeof i);
    return i < 0 ? static_cast<double>(std::numeric_limits<I>::min()) - i : static_cast<double>(i);
  };
  return static_cast<int64_t>(std::abs(ordered(a) - ordered(b)));
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

// The vector loop for op (which must exist) over x, one call.
template <class T>
std::vector<T> run_unary(UnaryOp op, const std::vector<T>& x) {
  UnaryLoop loop = vector_unary_loop(op, dtype_for<T>());
  EXPECT_NE(loop, nullptr) << unary_name(op);
  std::vector<T> out(x.size());
  if (loop) loop(out.data(), x.data(), 1, static_cast<int64_t>(x.size()));
  return out;
}

template <class T>
void expect_close_to_libm(UnaryOp op, T (*libm)(T)) {
  const std::vector<T> x = samples<T>(301, 1);
  const std::vector<T> got = run_unary(op, x);
  for (size_t i = 0; i < x.size(); ++i) {
    const T want = libm(x[i]);
    ASSERT_EQ(std::isnan(got[i]), std::isnan(want)) << unary_name(op) << "(" << x[i] << ")";
    ASSERT_EQ(std::isinf(got[i]), std::isinf(want)) << unary_name(op) << "(" << x[i] << ")";
    if (want == 0) {
      ASSERT_EQ(std::signbit(got[i]), std::signbit(want)) << unary_name(op) << "(" << x[i] << ")";
    }
    ASSERT_LE(ulp_distance(got[i], want), 4) << unary_name(op) << "(" << x[i] << ") = " << got[i] << ", libm " << want;
  }
}

template <class T>
void expect_math_close() {
  expect_close_to_libm<T>(UnaryOp::Exp, std::exp);
  expect_close_to_libm<T>(UnaryOp::Expm1, std::expm1);
  expect_close_to_libm<T>(UnaryOp::Log, std::log);
  expect_close_to_libm<T>(UnaryOp::Log1p, std::log1p);
  expect_close_to_libm<T>(UnaryOp::Sin, std::sin);
  expect_close_to_libm<T>(UnaryOp::Tan, std::tan);
  expect_close_to_libm<T>(UnaryOp::Arccos, std::acos);
  expect_close_to_libm<T>(UnaryOp::Sinh, std::sinh);
  expect_close_to_libm<T>(UnaryOp::Cosh, std::cosh);
  expect_close_to_libm<T>(UnaryOp::Arcsinh, std::asinh);
  expect_close_to_libm<T>(UnaryOp::Arccosh, std::acosh);
  expect_close_to_libm<T>(UnaryOp::Arctanh, std::atanh);
  expect_close_to_libm<T>(UnaryOp::Cbrt, std::cbrt);
}

TEST(VectorLoops, MathWithinFourUlpOfLibmOnEveryTarget) {
  on_every_target([] {
    expect_math_close<float>();
    expect_math_close<double>();
  });
}

template <class T>
void expect_arithmetic_exact() {
  const std::vector<T> a = samples<T>(67, 2), b = samples<T>(67, 3);
  const int64_t n = static_cast<int64_t>(a.size());
  for (BinaryOp op : {BinaryOp::Add, BinaryOp::Subtract, BinaryOp::Multiply, BinaryOp::TrueDivide, BinaryOp::Maximum,
                      BinaryOp::Minimum}) {
    DType out_t;
    BinaryLoop vec = vector_binary_loop(op, dtype_for<T>()), any = binary_loop(op, dtype_for<T>(), &out_t);
    ASSERT_NE(vec, nullptr) << binary_name(op);
    std::vector<T> got(a.size());
    vec(got.data(), a.data(), 1, b.data(), 1, n);
    for (size_t i = 0; i < a.size(); ++i) {
      const T x = a[i], y = b[i];
      T want;
      switch (op) {
        case BinaryOp::Add: want = x + y; break;
        case BinaryOp::Subtract: want = x - y; break;
        case BinaryOp::Multiply: want = x * y; break;
        case BinaryOp::TrueDivide: want = x / y; break;
        case BinaryOp::Maximum: want = std::isnan(x) ? x : std::isnan(y) ? y : (x < y ? y : x); break;
        default: want = std::isnan(x) ? x : std::isnan(y) ? y : (y < x ? y : x); break;
      }
      ASSERT_TRUE(same_bits(got[i], want)) << binary_name(op) << "(" << x << ", " << y << ")";
    }
    EXPECT_NE(any, nullptr);
  }
  std::vector<uint8_t> less(a.size());
  vector_binary_loop(BinaryOp::Less, dtype_for<T>())(less.data(), a.data(), 1, b.data(), 0, n);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(less[i], a[i] < b[0] ? 1 : 0);
  std::vector<T> root = run_unary(UnaryOp::Sqrt, a);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same_bits(root[i], std::sqrt(a[i])));
}

TEST(VectorLoops, ArithmeticIsExactOnEveryTarget) {
  on_every_target([] {
    expect_arithmetic_exact<float>();
    expect_arithmetic_exact<double>();
    std::vector<double> d = samples<double>(41, 4);
    std::vector<int32_t> i(d.size());
    vector_cast_loop(DType::Float64, DType::Int32)(i.data(), d.data(), 1, static_cast<int64_t>(d.size()));
    for (size_t k = 0; k < d.size(); ++k) {
      const bool fits = d[k] > -2147483649.0 && d[k] < 2147483648.0;
      ASSERT_EQ(i[k], fits ? static_cast<int32_t>(d[k]) : INT32_MIN) << d[k];
    }
  });
}

// Element i computed from block starts 0, 1, ..., 36 (the body of a vector in one, its
// padded tail in another) and as a broadcast scalar: always the same bits.
template <class T>
void expect_independent_of_block_start(UnaryOp op) {
  const std::vector<T> x = samples<T>(37, 5);
  const std::vector<T> whole = run_unary(op, x);
  UnaryLoop loop = vector_unary_loop(op, dtype_for<T>());
  for (size_t start = 1; start < x.size(); ++start) {
    std::vector<T> part(x.size() - start);
    loop(part.data(), x.data() + start, 1, static_cast<int64_t>(part.size()));
    for (size_t i = 0; i < part.size(); ++i)
      ASSERT_TRUE(same_bits(part[i], whole[start + i])) << unary_name(op) << " from " << start << " at " << i;
    T one;
    loop(&one, x.data() + start, 0, 1);
    ASSERT_TRUE(same_bits(one, whole[start])) << unary_name(op) << " broadcast at " << start;
  }
}

TEST(VectorLoops, ValueIndependentOfBlockStartOnEveryTarget) {
  on_every_target([] {
    for (UnaryOp op : {UnaryOp::Exp, UnaryOp::Sin, UnaryOp::Log1p, UnaryOp::Tanh, UnaryOp::Cbrt, UnaryOp::Arcsinh}) {
      expect_independent_of_block_start<float>(op);
      expect_independent_of_block_start<double>(op);
    }
  });
}

template <class T>
void expect_power_shortcuts() {
  const std::vector<T> x = samples<T>(53, 6);
  BinaryLoop power = vector_binary_loop(BinaryOp::Power, dtype_for<T>());
  ASSERT_NE(power, nullptr);
  std::vector<T> got(x.size());
  auto with = [&](T e) { power(got.data(), x.data(), 1, &e, 0, static_cast<int64_t>(x.size())); };
  with(T(2));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(same_bits(got[i], T(x[i] * x[i]))) << x[i];
  with(T(0.5));  // NumPy's sqrt: -0 stays -0 and -inf is nan, unlike pow
  for (size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(same_bits(got[i], std::sqrt(x[i]))) << x[i];
  with(T(-1));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(same_bits(got[i], T(T(1) / x[i]))) << x[i];
  with(T(1));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(same_bits(got[i], x[i])) << x[i];
  with(T(0));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(got[i], T(1)) << x[i];
  with(T(3));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_LE(ulp_distance(got[i], std::pow(x[i], T(3))), 1) << x[i];
  with(T(2.5));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_LE(ulp_distance(got[i], std::pow(x[i], T(2.5))), 4) << x[i];
}

TEST(VectorLoops, PowerShortcutsOnEveryTarget) {
  on_every_target([] {
    expect_power_shortcuts<float>();
    expect_power_shortcuts<double>();
  });
}

}  // namespace
}  // namespace tessera::detail
