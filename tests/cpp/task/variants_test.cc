// Task variants keyed by processor kind: a task holds a table of variants (one per kind at
// most); a launch runs the variant of the processor each point runs on — the cpu one on this
// machine's workers — and refuses, naming the task and its kinds, a task with no variant for
// any processor the run has.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "machine/processor.h"
#include "machine/scheduler.h"
#include "task/registry.h"
#include "task_fixture.h"

namespace tessera {
namespace {

using testing::host_array;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// y = 2 x on a cpu, y = -1 (never expected here) on a GPU.
void double_it(TaskContext& ctx) {
  auto y = ctx.array(0).view<double, 1>();
  auto x = ctx.array(1).view<const double, 1>();
  for (int64_t i = 0; i < y.extent(0); ++i) y(i) = 2 * x(i);
}

void mark_gpu(TaskContext& ctx) {
  auto y = ctx.array(0).view<double, 1>();
  for (int64_t i = 0; i < y.extent(0); ++i) y(i) = -1;
}

class TaskVariantsTest : public testing::ConfiguredTest {};

TEST_P(TaskVariantsTest, ALaunchRunsTheCpuVariantOnCpuWorkers) {
  const int64_t n = 257;
  std::vector<double> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = 0.5 * static_cast<double>(i) - 7;
  std::atomic<int> gpu_calls{0};
  Task t("double_it", {{ProcessorKind::GPU,
                        [&gpu_calls](TaskContext& ctx) {
                          ++gpu_calls;
                          mark_gpu(ctx);
                        }},
                       {ProcessorKind::CPU, double_it}});
  EXPECT_TRUE(t.has_variant(ProcessorKind::CPU));
  EXPECT_TRUE(t.has_variant(ProcessorKind::GPU));
  EXPECT_FALSE(t.has_variant(ProcessorKind::OMP));
  ndarray y = zeros({n});
  launch(t, {out(y), in(host_array(x, {n}))}, {}, {align(0, 1)});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 2 * x[i]) << i;
  EXPECT_EQ(gpu_calls.load(), 0);
}

TEST_P(TaskVariantsTest, ATaskWithoutACpuVariantIsRefusedAtLaunchNamingItsKinds) {
  Task gpu_only("gpu_only", {{ProcessorKind::GPU, mark_gpu}});
  ndarray y = full({16}, Scalar(3.0));
  try {
    launch(gpu_only, {out(y), in(zeros({16}))}, {}, {align(0, 1)});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "task 'gpu_only'")) << what;
    EXPECT_TRUE(contains(what, "variants for gpu only")) << what;
    EXPECT_TRUE(contains(what, "cpu processors only")) << what;
  }
  // Nothing ran, and the runtime goes on.
  for (double v : y.to_vector<double>()) ASSERT_EQ(v, 3.0);
  Task t("after_refusal", double_it);
  ndarray z = zeros({16});
  launch(t, {out(z), in(full({16}, Scalar(1.5)))}, {}, {align(0, 1)});
  for (double v : z.to_vector<double>()) ASSERT_EQ(v, 3.0);
}

TEST_P(TaskVariantsTest, AnUnregisteredTaskTakesVariantsToo) {
  Task t = Task::unregistered("unregistered_kinds", {{ProcessorKind::CPU, double_it}, {ProcessorKind::OMP, mark_gpu}});
  EXPECT_EQ(t.id(), -1);
  ndarray y = zeros({9});
  launch(t, {out(y), in(full({9}, Scalar(2.0)))}, {}, {align(0, 1)});
  for (double v : y.to_vector<double>()) ASSERT_EQ(v, 4.0);
  Task omp_only = Task::unregistered("omp_only", {{ProcessorKind::OMP, mark_gpu}});
  EXPECT_THROW(launch(omp_only, {out(zeros({4}))}), ValueError);
}

INSTANTIATE_TEST_SUITE_P(Configs, TaskVariantsTest, ::testing::ValuesIn(testing::kTaskConfigs));

TEST(TaskVariantTableTest, BadTablesAreRefusedNamingTheTask) {
  auto message = [](auto make) {
    try {
      make();
    } catch (const ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_TRUE(
      contains(message([] { Task("none", std::vector<TaskVariant>{}); }), "task 'none' needs at least one variant"));
  EXPECT_TRUE(contains(message([] {
                         Task("twice", {{ProcessorKind::CPU, double_it}, {ProcessorKind::CPU, mark_gpu}});
                       }),
                       "task 'twice' has two cpu variants"));
  EXPECT_TRUE(contains(message([] {
                         Task("empty", {{ProcessorKind::GPU, TaskFunction()}});
                       }),
                       "task 'empty': its gpu variant is an empty function"));
  EXPECT_TRUE(contains(message([] { Task("empty_cpu", TaskFunction()); }), "its cpu variant is an empty function"));
}

TEST(TaskVariantTableTest, TheTableIsIndexedByKind) {
  Task t("by_kind", {{ProcessorKind::GPU, mark_gpu}, {ProcessorKind::CPU, double_it}});
  const detail::TaskVariants& v = *t.variants();
  EXPECT_EQ(v.kinds(), "cpu, gpu");
  ASSERT_NE(v.find(ProcessorKind::CPU), nullptr);
  ASSERT_NE(v.find(ProcessorKind::GPU), nullptr);
  EXPECT_EQ(v.find(ProcessorKind::OMP), nullptr);
  using Body = void (*)(TaskContext&);
  const Body* gpu = v.by_kind[static_cast<size_t>(ProcessorKind::GPU)].target<Body>();
  const Body* cpu = v.for_kind(ProcessorKind::CPU).target<Body>();
  ASSERT_TRUE(gpu && cpu);
  EXPECT_EQ(*gpu, &mark_gpu);
  EXPECT_EQ(*cpu, &double_it);
  try {
    v.for_kind(ProcessorKind::OMP);
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_TRUE(contains(e.what(), "task 'by_kind' has no omp variant")) << e.what();
    EXPECT_TRUE(contains(e.what(), "(it has variants for: cpu, gpu)")) << e.what();
  }
  // The registry keeps the table by id.
  EXPECT_EQ(&detail::TaskRegistry::get().at(t.id()), &v);
}

TEST(TaskVariantTableTest, TheCallingThreadIsACpuUnlessAScopeSaysOtherwise) {
  EXPECT_EQ(detail::current_processor_kind(), ProcessorKind::CPU);
  {
    detail::ProcessorScope gpu(ProcessorKind::GPU);
    EXPECT_EQ(detail::current_processor_kind(), ProcessorKind::GPU);
  }
  EXPECT_EQ(detail::current_processor_kind(), ProcessorKind::CPU);
  EXPECT_EQ(detail::Scheduler::worker_kinds(), std::vector<ProcessorKind>{ProcessorKind::CPU});
  EXPECT_STREQ(processor_kind_name(ProcessorKind::CPU), "cpu");
  EXPECT_STREQ(processor_kind_name(ProcessorKind::OMP), "omp");
  EXPECT_STREQ(processor_kind_name(ProcessorKind::GPU), "gpu");
}

}  // namespace
}  // namespace tessera
