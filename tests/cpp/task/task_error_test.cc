// Errors of the task API: bad launches are refused at launch() with a ValueError naming the
// task; a body's exception comes back, with its type, at the next sync point naming the
// task (at the launch itself when a small launch runs inline); the runtime is usable after.
#include <gtest/gtest.h>

#include <functional>

#include "task_fixture.h"

namespace tessera {
namespace {

using testing::host_array;

bool names(const std::string& message, const std::string& task) { return message.find(task) != std::string::npos; }
bool names(const std::exception& e, const std::string& task) { return names(std::string(e.what()), task); }

class TaskErrorTest : public testing::ConfiguredTest {};

TEST_P(TaskErrorTest, ConstraintNamingAMissingArgument) {
  Task t("missing_arg", [](TaskContext&) {});
  try {
    launch(t, {in(zeros({10})), out(zeros({10}))}, {}, {align(0, 3)});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_TRUE(names(e, "task 'missing_arg'")) << e.what();
    EXPECT_NE(std::string(e.what()).find("no argument 3"), std::string::npos) << e.what();
  }
}

TEST_P(TaskErrorTest, AlignedArgumentsOfDifferentShapes) {
  Task t("mismatched", [](TaskContext&) {});
  try {
    launch(t, {out(zeros({10})), in(zeros({11}))}, {}, {align(0, 1)});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_TRUE(names(e, "task 'mismatched'")) << e.what();
    EXPECT_NE(std::string(e.what()).find("(10,)"), std::string::npos) << e.what();
  }
  try {
    launch(t, {out(zeros({10})), in(zeros({10, 2}))}, {}, {bloat(1, 0, {1}, {1})});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_TRUE(names(e, "task 'mismatched'")) << e.what();
  }
}

TEST_P(TaskErrorTest, NotAnArray) {
  Task t("no_array", [](TaskContext&) {});
  EXPECT_THROW(launch(t, {in(ndarray())}), ValueError);
}

TEST_P(TaskErrorTest, WritingAReadOnlyArrayIsRefusedAtLaunch) {
  ndarray a = zeros({10});
  a.store()->set_writeable(false);
  Task t("writes_read_only", [](TaskContext&) {});
  EXPECT_THROW(launch(t, {out(a)}), ValueError);
  EXPECT_THROW(launch(t, {inout(a)}), ValueError);
  EXPECT_THROW(launch(t, {in(zeros({8})), reduce(a)}), ValueError);
}

// Runs `launch_it` and a fence; returns the error's message (empty: none). A launch run
// inline (a small array without test mode) raises at launch(); any other at the fence.
template <class E>
std::string error_of(const std::function<void()>& launch_it, bool deferred) {
  try {
    launch_it();
  } catch (const E& e) {
    EXPECT_FALSE(deferred) << "raised at launch: " << e.what();
    return e.what();
  }
  try {
    fence();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

TEST_P(TaskErrorTest, ABodyThatThrowsRaisesAtTheNextFenceNamingTheTask) {
  Task boom("boom", [](TaskContext& ctx) {
    if (ctx.point() == 0) throw ValueError("bad tile");
  });
  ndarray y = zeros({64});
  const std::string msg = error_of<ValueError>([&] { launch(boom, {out(y)}); }, test_mode());
  EXPECT_NE(msg.find("bad tile"), std::string::npos) << msg;
  EXPECT_TRUE(msg.find("boom") != std::string::npos) << msg;
  EXPECT_NO_THROW(fence());  // raised once
  // The runtime is usable after.
  Task fill("fill_after_error", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = 2.0;
  });
  launch(fill, {out(y)});
  EXPECT_EQ(sum(y).item().as_double(), 128.0);
}

TEST_P(TaskErrorTest, OtherErrorTypesKeepTheirType) {
  Task index_error("index_error", [](TaskContext&) { throw IndexError("index 9 is out of bounds"); });
  Task type_error("type_error", [](TaskContext&) { throw TypeError("wrong type"); });
  const std::string a = error_of<IndexError>([&] { launch(index_error, {out(zeros({16}))}); }, test_mode());
  EXPECT_TRUE(names(a, "index_error")) << a;
  const std::string b = error_of<TypeError>([&] { launch(type_error, {out(zeros({16}))}); }, test_mode());
  EXPECT_TRUE(names(b, "type_error")) << b;
}

TEST_P(TaskErrorTest, WritingThroughAReadOnlyInputViewIsAValueError) {
  Task sneaky("sneaky_write", [](TaskContext& ctx) {
    auto x = ctx.array(1).view<double, 1>();  // an input: must be viewed as const
    x(0) = 1.0;
  });
  ndarray x = zeros({32});
  const std::string msg = error_of<ValueError>(
      [&] {
        launch(sneaky, {out(zeros({32})), in(x)}, {}, {align(0, 1)});
      },
      test_mode());
  EXPECT_NE(msg.find("read-only"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sneaky_write"), std::string::npos) << msg;
  EXPECT_EQ(sum(x).item().as_double(), 0.0);
}

TEST_P(TaskErrorTest, ViewingWithTheWrongTypeOrRankIsATypeError) {
  Task wrong_type("wrong_type", [](TaskContext& ctx) { ctx.array(0).view<float, 1>(); });
  Task wrong_rank("wrong_rank", [](TaskContext& ctx) { ctx.array(0).view<double, 2>(); });
  EXPECT_NE(error_of<TypeError>([&] { launch(wrong_type, {out(zeros({8}))}); }, test_mode()).find("float64"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] { launch(wrong_rank, {out(zeros({8}))}); }, test_mode()).find("wrong_rank"),
            std::string::npos);
}

// A body that calls into the runtime (a fence, a launch, a read of an array's values) would
// wait for its own task: it is refused with an Error naming the task, never a hang.
TEST_P(TaskErrorTest, ABodyCallingTheRuntimeIsRefusedNamingTheTask) {
  ndarray outside = zeros({16});
  Task inner("inner", [](TaskContext&) {});
  Task fences("fences_inside", [](TaskContext&) { fence(); });
  Task launches("launches_inside", [&](TaskContext&) { launch(inner, {out(outside)}); });
  Task reads("reads_inside", [&](TaskContext&) { (void)outside.item(0); });
  for (const Task* t : {&fences, &launches, &reads}) {
    ndarray y = zeros({64});
    const std::string msg = error_of<Error>([&] { launch(*t, {out(y)}); }, test_mode());
    EXPECT_TRUE(names(msg, "task '" + t->name() + "'")) << msg;
    EXPECT_TRUE(names(msg, "in its body")) << msg;
  }
  EXPECT_EQ(sum(outside).item().as_double(), 0.0);  // usable after
}

INSTANTIATE_TEST_SUITE_P(Configs, TaskErrorTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
