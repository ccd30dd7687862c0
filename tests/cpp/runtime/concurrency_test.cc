// Point-task scheduling on a private runtime: independent operations overlap in time on two
// workers, conflicting ones (read-after-write, write-after-read, write-after-write) never do,
// and dependences are per rect, so a task waits only for the tiles it overlaps. Timings use
// generous margins: a task sleeps, and overlap means start < the other's end.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime_fixture.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

using detail::Rect;
using detail::Runtime;
using detail::StorePtr;
using namespace std::chrono_literals;
using testing::Clock;
using testing::LambdaOp;
using testing::private_config;

struct Span {
  Clock::time_point start, end;
};

bool overlap(const Span& a, const Span& b) { return a.start < b.end && b.start < a.end; }
bool before(const Span& a, const Span& b) { return a.end <= b.start; }

// One point task that records when it ran and sleeps for `d`.
std::shared_ptr<LambdaOp> timed(const std::string& name, std::vector<detail::OpArg> args, Span& span,
                                std::chrono::milliseconds d) {
  detail::Shape domain = args.empty() ? detail::Shape{1} : args[0].store->shape();
  return std::make_shared<LambdaOp>(
      name, domain, std::move(args),
      [&span, d](const Rect&) {
        span.start = Clock::now();
        std::this_thread::sleep_for(d);
        span.end = Clock::now();
      },
      /*one_tile=*/true);
}

TEST(ConcurrencyTest, IndependentOperationsOverlapOnTwoWorkers) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {16}), y = testing::store_in(rt.sysmem_ptr(), {16});
  Span a, b;
  rt.submit(timed("a", {testing::writes(x)}, a, 300ms));
  rt.submit(timed("b", {testing::writes(y)}, b, 300ms));
  rt.fence();
  EXPECT_TRUE(overlap(a, b)) << "independent writes to different stores ran one after the other";
}

TEST(ConcurrencyTest, ReadersOfOneStoreOverlap) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {16});
  auto y = testing::store_in(rt.sysmem_ptr(), {16}), z = testing::store_in(rt.sysmem_ptr(), {16});
  Span w, r1, r2;
  rt.submit(timed("w", {testing::writes(x)}, w, 10ms));
  rt.submit(timed("r1", {testing::writes(y), testing::reads(x)}, r1, 300ms));
  rt.submit(timed("r2", {testing::writes(z), testing::reads(x)}, r2, 300ms));
  rt.fence();
  EXPECT_TRUE(before(w, r1));
  EXPECT_TRUE(before(w, r2));
  EXPECT_TRUE(overlap(r1, r2)) << "two readers of one store were serialised";
}

TEST(ConcurrencyTest, ConflictingAccessesAreSerialised) {
  Runtime rt(private_config(4));
  auto x = testing::store_in(rt.sysmem_ptr(), {16}), y = testing::store_in(rt.sysmem_ptr(), {16});
  Span w1, raw, war, waw;
  rt.submit(timed("write x", {testing::writes(x)}, w1, 100ms));
  rt.submit(timed("read x", {testing::writes(y), testing::reads(x)}, raw, 100ms));  // RAW on x
  rt.submit(timed("write x again", {testing::writes(x)}, war, 100ms));              // WAR on x, WAW
  rt.submit(timed("write y", {testing::writes(y)}, waw, 10ms));                     // WAW on y
  rt.fence();
  EXPECT_TRUE(before(w1, raw));
  EXPECT_TRUE(before(raw, war));
  EXPECT_TRUE(before(w1, war));
  EXPECT_TRUE(before(raw, waw));
}

TEST(ConcurrencyTest, DisjointSlicesOfOneStoreOverlap) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {100});
  Span lo, hi, mid;
  rt.submit(timed("x[:50]", {testing::writes(x->slice(0, 0, 50, 1))}, lo, 300ms));
  rt.submit(timed("x[50:]", {testing::writes(x->slice(0, 50, 100, 1))}, hi, 300ms));
  rt.submit(timed("x[40:60]", {testing::reads(x->slice(0, 40, 60, 1))}, mid, 10ms));
  rt.fence();
  EXPECT_TRUE(overlap(lo, hi)) << "writes to disjoint slices were serialised";
  EXPECT_TRUE(before(lo, mid));
  EXPECT_TRUE(before(hi, mid));
}

// A reader of x[:25] waits for the tiles that wrote it (fast ones), not for the slow tiles
// that wrote the rest of x.
TEST(ConcurrencyTest, DependencesArePerTile) {
  testing::Watchdog dog(std::chrono::seconds(60), "ConcurrencyTest.DependencesArePerTile");
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {100}), y = testing::store_in(rt.sysmem_ptr(), {25});
  std::mutex mu;
  Clock::time_point fast_end{}, slow_start = Clock::time_point::max(), slow_end{};
  int slow_tiles = 0;
  rt.submit(
      std::make_shared<LambdaOp>("tiles", detail::Shape{100}, std::vector{testing::writes(x)}, [&](const Rect& tile) {
        const bool is_slow = tile.lo[0] >= 25;
        const auto start = Clock::now();
        std::this_thread::sleep_for(is_slow ? 400ms : 10ms);
        std::lock_guard lock(mu);
        if (is_slow) {
          ++slow_tiles;
          slow_start = std::min(slow_start, start);
          slow_end = std::max(slow_end, Clock::now());
        } else {
          fast_end = std::max(fast_end, Clock::now());
        }
      }));
  Span reader;
  rt.submit(timed("read x[:25]", {testing::writes(y), testing::reads(x->slice(0, 0, 25, 1))}, reader, 10ms));
  rt.fence();
  ASSERT_GT(slow_tiles, 0) << "x was not cut into tiles";
  EXPECT_LE(fast_end, reader.start);
  EXPECT_TRUE(overlap(Span{slow_start, slow_end}, reader)) << "the reader waited for tiles it does not touch";
}

TEST(ConcurrencyTest, TilesOfOneOperationRunInParallel) {
  Runtime rt(private_config(2));
  auto x = testing::store_in(rt.sysmem_ptr(), {1000});
  std::atomic<int> running{0}, most{0};
  rt.submit(std::make_shared<LambdaOp>("tiles", detail::Shape{1000}, std::vector{testing::writes(x)}, [&](const Rect&) {
    int now = ++running;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(200ms);
    --running;
  }));
  rt.fence();
  EXPECT_GE(most.load(), 2);  // tiles run side by side (workers, and the fence's thread helps)
}

// With several utility threads, analysis must still see operations in program order.
TEST(ConcurrencyTest, SeveralUtilityThreadsKeepProgramOrder) {
  testing::Watchdog dog(std::chrono::seconds(60), "ConcurrencyTest.SeveralUtilityThreadsKeepProgramOrder");
  // v = (3 v + k) mod p: exact in doubles, and any reordering changes the result.
  auto step = [](double v, int k) { return std::fmod(3 * v + k, 1000003.0); };
  for (int round = 0; round < 20; ++round) {
    Runtime rt(private_config(2, 1, 1, /*utility=*/4));
    auto x = testing::store_in(rt.sysmem_ptr(), {1});
    x->storage()->allocate("test");
    testing::at(x, {0}) = 0;
    double expected = 0;
    for (int k = 0; k < 2000; ++k) {
      expected = step(expected, k);
      rt.submit(std::make_shared<LambdaOp>("step", detail::Shape{1}, std::vector{testing::updates(x)},
                                           [x, k, step](const Rect&) {
                                             double& v = testing::at(x, {0});
                                             v = step(v, k);
                                           }));
    }
    rt.fence();
    ASSERT_EQ(testing::at(x, {0}), expected) << "round " << round;
  }
}

// Threads of one program issue at once: each thread's operations keep its program order, and
// an error is raised at a sync point of the thread whose operation raised it.
TEST(ConcurrencyTest, ThreadsIssueAtOnceEachInItsOwnOrder) {
  testing::Watchdog dog(std::chrono::seconds(120), "ConcurrencyTest.ThreadsIssueAtOnceEachInItsOwnOrder");
  auto step = [](double v, int k) { return std::fmod(3 * v + k, 1000003.0); };
  Runtime rt(private_config(2, 1, 4));
  constexpr int kThreads = 4, kSteps = 500;
  std::vector<detail::StorePtr> xs;
  for (int t = 0; t < kThreads; ++t) {
    xs.push_back(testing::store_in(rt.sysmem_ptr(), {1}));
    xs.back()->storage()->allocate("test");
    testing::at(xs.back(), {0}) = t;
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < kSteps; ++k) {
        auto x = xs[static_cast<size_t>(t)];
        rt.submit(std::make_shared<LambdaOp>("step", detail::Shape{1}, std::vector{testing::updates(x)},
                                             [x, k, step](const Rect&) {
                                               double& v = testing::at(x, {0});
                                               v = step(v, k);
                                             }));
        if (k % 100 == 99) rt.fence();
      }
    });
  for (auto& th : threads) th.join();
  rt.fence();
  for (int t = 0; t < kThreads; ++t) {
    double expected = t;
    for (int k = 0; k < kSteps; ++k) expected = step(expected, k);
    EXPECT_EQ(testing::at(xs[static_cast<size_t>(t)], {0}), expected) << "thread " << t;
  }
}

TEST(ConcurrencyTest, AnErrorIsRaisedToTheThreadThatIssuedIt) {
  testing::Watchdog dog(std::chrono::seconds(60), "ConcurrencyTest.AnErrorIsRaisedToTheThreadThatIssuedIt");
  Runtime rt(private_config(2));
  auto bad = testing::store_in(rt.sysmem_ptr(), {8}), good = testing::store_in(rt.sysmem_ptr(), {8});
  std::promise<void> issued;
  std::string caught;
  std::thread failing([&] {
    rt.submit(std::make_shared<LambdaOp>(
        "thrower", bad->shape(), std::vector{testing::writes(bad)}, [](const Rect&) { throw ValueError("bad value"); },
        true));
    issued.set_value();
    try {
      rt.fence();
    } catch (const ValueError& e) {
      caught = e.what();
    }
  });
  issued.get_future().wait();
  rt.submit(std::make_shared<LambdaOp>(
      "fill", good->shape(), std::vector{testing::writes(good)}, [](const Rect&) {}, true));
  EXPECT_NO_THROW(rt.fence()) << "a fence raised another thread's error";
  failing.join();
  EXPECT_NE(caught.find("bad value"), std::string::npos) << caught;
}

}  // namespace
}  // namespace tessera
