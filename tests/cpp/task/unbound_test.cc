// Unbound outputs: each point binds the part of the output it makes; launch() waits and
// returns the parts joined in point order, which for a filter is the host's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "task_fixture.h"

namespace tessera {
namespace {

using testing::host_array;

class UnboundTest : public testing::ConfiguredTest {};

// Keeps x[i] > 0.3 and its index; a run of negatives longer than a tile leaves some points
// with nothing to bind.
TEST_P(UnboundTest, FilterKeepsTheHostOrder) {
  const int64_t n = 211;
  std::vector<double> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = (i >= 60 && i < 150) ? -1.0 : std::sin(0.7 * static_cast<double>(i));
  Task filter("filter", [](TaskContext& ctx) {
    auto x = ctx.array(0).view<const double, 1>();
    std::vector<double> kept;
    std::vector<int64_t> where;
    for (int64_t i = 0; i < x.extent(0); ++i)
      if (x(i) > 0.3) kept.push_back(x(i)), where.push_back(x.lo(0) + i);
    if (kept.empty() && ctx.point() % 2 == 0) return;  // binding nothing at all is allowed
    // std::copy, as an empty vector's data() may be null, which memcpy must not be given.
    std::copy(kept.begin(), kept.end(), static_cast<double*>(ctx.bind_output(1, static_cast<int64_t>(kept.size()))));
    std::copy(where.begin(), where.end(),
              static_cast<int64_t*>(ctx.bind_output(2, static_cast<int64_t>(where.size()))));
  });
  const std::vector<ndarray> outs =
      launch(filter, {in(host_array(x, {n})), unbound(DType::Float64), unbound(DType::Int64)});
  ASSERT_EQ(outs.size(), 2u);
  std::vector<double> kept;
  std::vector<int64_t> where;
  for (int64_t i = 0; i < n; ++i)
    if (x[i] > 0.3) kept.push_back(x[i]), where.push_back(i);
  EXPECT_EQ(outs[0].dtype(), DType::Float64);
  EXPECT_EQ(outs[1].dtype(), DType::Int64);
  EXPECT_EQ(outs[0].shape(), Shape{static_cast<int64_t>(kept.size())});
  EXPECT_EQ(outs[0].to_vector<double>(), kept);
  EXPECT_EQ(outs[1].to_vector<int64_t>(), where);
  // The result is an ordinary array: later operations use it.
  EXPECT_EQ(sum(outs[1]).item().as_int(), [&] {
    int64_t s = 0;
    for (int64_t w : where) s += w;
    return s;
  }());
}

TEST_P(UnboundTest, NothingKeptGivesAnEmptyArray) {
  Task none("keep_none", [](TaskContext& ctx) { ctx.bind_output(1, 0); });
  const std::vector<ndarray> outs = launch(none, {in(zeros({40})), unbound(DType::Int32)});
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_EQ(outs[0].shape(), Shape{0});
  EXPECT_EQ(outs[0].dtype(), DType::Int32);
}

TEST_P(UnboundTest, BindingABoundArgumentIsAnIndexError) {
  Task bad("bind_input", [](TaskContext& ctx) { ctx.bind_output(0, 1); });
  try {
    launch(bad, {out(zeros({8})), unbound(DType::Float64)});  // waits for the task: raises
    fence();
    FAIL() << "no error";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("bind_input"), std::string::npos) << e.what();
  }
}

TEST_P(UnboundTest, AConstraintOnAnUnboundOutputIsRefused) {
  Task t("unbound_align", [](TaskContext&) {});
  try {
    launch(t, {in(zeros({8})), unbound(DType::Float64)}, {}, {align(0, 1)});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("unbound_align"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, UnboundTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
