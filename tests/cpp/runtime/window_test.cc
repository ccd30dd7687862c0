// The window and the program thread: fusion of element-wise chains (one operation; no
// storage for temporaries the program dropped, results it keeps still written), the small-array
// inline path (runs on the calling thread before submit returns, but only when nothing is
// pending), and deferred execution (issuing operations returns while they cannot yet run).
#include <gtest/gtest.h>

#include <thread>
#include <utility>
#include <vector>

#include "numeric/library.h"
#include "runtime_fixture.h"
#include "tessera/library.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

using detail::Rect;
using detail::Runtime;
using testing::Gate;
using testing::LambdaOp;

constexpr int64_t kN = 1 << 16;  // 512 KiB of float64
constexpr int64_t kBytes = kN * 8;
const char* kConfig = "--auto-config=0 --cpus=2 --test=0 --min-cpu-chunk=1024 --sysmem=64";

// The operations of each flushed window after the NumPy library's passes, while counting: a
// library of the test's own (tessera/library.h), registered after the NumPy library, whose
// pass sees the window as fusion left it.
std::vector<size_t> g_flushes;
bool g_counting = false;
void count_flushed_windows() {
  detail::register_numeric_library();
  static const bool registered = [] {
    Library counter;
    counter.name = "window-test-counter";
    counter.passes.push_back({"count", [](Window& w) {
                                if (g_counting) g_flushes.push_back(w.operations().size());
                              }});
    register_library(std::move(counter));
    return true;
  }();
  (void)registered;
  g_flushes.clear();
  g_counting = true;
}

void expect_all(const ndarray& a, double value) {
  const auto v = a.to_vector<double>();
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], value) << "element " << i;
}

TEST(FusionTest, DroppedTemporariesFuseIntoOneOperation) {
  testing::ScopedConfig config(kConfig);
  ndarray a = ones({kN}), b = ones({kN});
  fence();
  auto& pool = Runtime::get().sysmem();
  EXPECT_EQ(pool.peak(), 2 * kBytes);
  count_flushed_windows();
  ndarray c = (a + b) * 3.0 - a;  // two temporaries, gone before the window flushes
  fence();
  ASSERT_EQ(g_flushes.size(), 1u);
  EXPECT_EQ(g_flushes[0], 1u);  // the three operations issued became one
  EXPECT_EQ(pool.peak(), 3 * kBytes) << "a temporary was allocated";
  expect_all(c, 5.0);
}

TEST(FusionTest, ResultsTheProgramKeepsFuseAndAreStillWritten) {
  testing::ScopedConfig config(kConfig);
  ndarray a = ones({kN}), b = ones({kN});
  fence();
  count_flushed_windows();
  ndarray t = a + b;
  ndarray c = t * 3.0;
  fence();
  ASSERT_EQ(g_flushes.size(), 1u);
  EXPECT_EQ(g_flushes[0], 1u);  // of two: one pass writes t and c
  EXPECT_EQ(Runtime::get().sysmem().peak(), 4 * kBytes);
  expect_all(t, 2.0);
  expect_all(c, 6.0);
}

TEST(FusionTest, TemporaryReadTwiceIsComputedOnceAndNeverStored) {
  testing::ScopedConfig config(kConfig);
  ndarray a = full({kN}, Scalar(3.0));
  fence();
  auto& pool = Runtime::get().sysmem();
  count_flushed_windows();
  ndarray c;
  {
    ndarray t = a + 1.0;
    c = t * t;
  }
  fence();
  ASSERT_EQ(g_flushes.size(), 1u);
  EXPECT_EQ(g_flushes[0], 1u);  // of two
  EXPECT_EQ(pool.peak(), 2 * kBytes) << "the temporary was allocated";
  expect_all(c, 16.0);
}

TEST(FusionTest, ReassignedChainFusesAndKeepsOneArrayAlive) {
  testing::ScopedConfig config(kConfig);
  ndarray a = ones({kN});
  fence();
  auto& pool = Runtime::get().sysmem();
  count_flushed_windows();
  double expect = 1;
  for (int i = 0; i < 6; ++i) {  // 12 operations: fewer than the window of 16
    a = a * 1.5 + 1.0;
    expect = expect * 1.5 + 1.0;
  }
  fence();
  ASSERT_EQ(g_flushes.size(), 1u);
  EXPECT_EQ(g_flushes[0], 1u);         // of twelve
  EXPECT_EQ(pool.peak(), 2 * kBytes);  // the first a and the last
  EXPECT_EQ(testing::used_when_settled(pool, kBytes), kBytes);
  expect_all(a, expect);
}

TEST(InlinePathTest, TinyOperationRunsOnTheCallingThreadBeforeSubmitReturns) {
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=0");  // min chunk 65536
  ndarray small = ones({100});
  ASSERT_TRUE(small.store()->storage()->allocated()) << "not run inline";
  EXPECT_EQ(testing::at(small.store(), {99}), 1.0);  // no fence needed
  ndarray c = small + 2.0;
  ASSERT_TRUE(c.store()->storage()->allocated());
  EXPECT_EQ(testing::at(c.store(), {0}), 3.0);
  std::thread::id ran_on;
  Runtime::get().submit(std::make_shared<LambdaOp>("probe", detail::Shape{10},
                                                   std::vector{testing::writes(c.store()->slice(0, 0, 10, 1))},
                                                   [&](const Rect&) { ran_on = std::this_thread::get_id(); }));
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

TEST(InlinePathTest, NotTakenWhileWorkIsPending) {
  testing::Watchdog dog(std::chrono::seconds(60), "InlinePathTest.NotTakenWhileWorkIsPending");
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=0");
  ndarray big = zeros({kN});
  fence();
  Gate gate;
  Runtime::get().submit(std::make_shared<LambdaOp>(
      "held", detail::Shape{kN}, std::vector{testing::writes(big.store())}, [&gate](const Rect&) { gate.wait(); },
      true));
  Runtime::get().flush();
  std::atomic<bool> ran{false};
  ndarray small = zeros({10});  // independent of `big`, but must not jump the queue inline
  Runtime::get().submit(std::make_shared<LambdaOp>(
      "tiny", detail::Shape{10}, std::vector{testing::writes(small.store())}, [&ran](const Rect&) { ran = true; }));
  EXPECT_FALSE(ran.load()) << "ran inline with work pending";
  gate.open();
  fence();
  EXPECT_TRUE(ran.load());
}

TEST(DeferredTest, IssuingReturnsBeforeTheWorkRuns) {
  testing::Watchdog dog(std::chrono::seconds(60), "DeferredTest.IssuingReturnsBeforeTheWorkRuns");
  testing::ScopedConfig config(kConfig);
  ndarray a = zeros({kN});
  fence();
  Gate gate;
  std::atomic<bool> released{false};
  auto store = a.store();
  Runtime::get().submit(std::make_shared<LambdaOp>(
      "held writer", detail::Shape{kN}, std::vector{testing::updates(a.store())},
      [&, store](const Rect&) {
        gate.wait();
        released = true;
        for (int64_t i = 0; i < kN; ++i) testing::at(store, {i}) = 2.0;
      },
      true));
  store.reset();
  // Forty operations on large arrays, all depending on the held writer: each call returns.
  ndarray x = a;
  double expect = 2.0;
  for (int i = 0; i < 20; ++i) {
    x = x * 1.5 + 1.0;
    expect = expect * 1.5 + 1.0;
  }
  ndarray y = x - a;
  Runtime::get().flush();
  EXPECT_FALSE(released.load());
  gate.open();
  expect_all(x, expect);
  expect_all(y, expect - 2.0);
}

}  // namespace
}  // namespace tessera
