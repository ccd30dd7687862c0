// MemoryPool: byte accounting (used, peak, 64-byte rounding), reuse of freed blocks,
// freed-but-cached blocks never causing a failure, the reclaim hook, and the
// OutOfMemoryError report that names the memory kind, the bytes and every live allocation.
#include "machine/memory_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/errors.h"

namespace tessera::detail {
namespace {

constexpr int64_t kKiB = 1024;

// What each allocation is for: the pool keeps a pointer and asks for the text only when it
// prints a report, so the strings live here for the whole test run.
AllocationInfo info(std::string what) {
  static std::deque<std::string> owners;
  static std::mutex mu;
  std::lock_guard lock(mu);
  owners.push_back(std::move(what));
  return {&owners.back(), [](const void* owner) { return *static_cast<const std::string*>(owner); }};
}

// The OutOfMemoryError message for allocating `bytes` from `pool`, or "" if it succeeds.
std::string oom_message(MemoryPool& pool, int64_t bytes, const std::string& store, const std::string& op) {
  try {
    void* p = pool.allocate(bytes, info(store), op);
    pool.release(p, bytes);
  } catch (const OutOfMemoryError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(MemoryPoolTest, KindNames) {
  EXPECT_STREQ(memory_kind_name(MemoryKind::Sysmem), "SYSMEM");
  EXPECT_STREQ(memory_kind_name(MemoryKind::Numamem), "NUMAMEM");
  EXPECT_STREQ(memory_kind_name(MemoryKind::Fbmem), "FBMEM");
  EXPECT_STREQ(memory_kind_name(MemoryKind::Zcmem), "ZCMEM");
  MemoryPool pool(MemoryKind::Zcmem, 4 * kKiB);
  EXPECT_EQ(pool.kind(), MemoryKind::Zcmem);
  EXPECT_EQ(pool.capacity(), 4 * kKiB);
}

TEST(MemoryPoolTest, UsedAndPeakFollowAllocations) {
  MemoryPool pool(MemoryKind::Sysmem, 64 * kKiB);
  EXPECT_EQ(pool.used(), 0);
  EXPECT_EQ(pool.peak(), 0);
  void* a = pool.allocate(4 * kKiB, info("a"), "test");
  void* b = pool.allocate(8 * kKiB, info("b"), "test");
  EXPECT_EQ(pool.used(), 12 * kKiB);
  EXPECT_EQ(pool.peak(), 12 * kKiB);
  pool.release(a, 4 * kKiB);
  EXPECT_EQ(pool.used(), 8 * kKiB);
  EXPECT_EQ(pool.peak(), 12 * kKiB);  // the high-water mark stays
  void* c = pool.allocate(2 * kKiB, info("c"), "test");
  EXPECT_EQ(pool.used(), 10 * kKiB);
  EXPECT_EQ(pool.peak(), 12 * kKiB);
  pool.release(b, 8 * kKiB);
  pool.release(c, 2 * kKiB);
  EXPECT_EQ(pool.used(), 0);
}

TEST(MemoryPoolTest, SizesRoundUpTo64BytesAndAlign) {
  MemoryPool pool(MemoryKind::Sysmem, 64 * kKiB);
  void* a = pool.allocate(1, info("a"), "test");
  EXPECT_EQ(pool.used(), 64);
  void* b = pool.allocate(65, info("b"), "test");
  EXPECT_EQ(pool.used(), 64 + 128);
  void* z = pool.allocate(0, info("empty"), "test");  // empty stores still get a block
  EXPECT_EQ(pool.used(), 64 + 128 + 64);
  for (void* p : {a, b, z}) EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  pool.release(a, 1);
  pool.release(b, 65);
  pool.release(z, 0);
  EXPECT_EQ(pool.used(), 0);
}

TEST(MemoryPoolTest, FreedBlocksAreReused) {
  MemoryPool pool(MemoryKind::Sysmem, 64 * kKiB);
  void* a = pool.allocate(4 * kKiB, info("a"), "test");
  pool.release(a, 4 * kKiB);
  void* again = pool.allocate(4 * kKiB, info("a again"), "test");
  EXPECT_EQ(again, a);
  EXPECT_EQ(pool.used(), 4 * kKiB);
  // A block of another size is not handed out for this one.
  void* other = pool.allocate(2 * kKiB, info("other"), "test");
  EXPECT_NE(other, a);
  pool.release(again, 4 * kKiB);
  pool.release(other, 2 * kKiB);
}

TEST(MemoryPoolTest, AFullCacheGivesUpItsOldestBlocksNotTheOneJustFreed) {
  // The cache holds 16 KiB. Blocks of 4 KiB fill it (set-up work that is over); then a loop
  // frees and allocates 8 KiB blocks: each must be reused, not returned to the system and
  // allocated again (fresh pages fault in on first touch: a whole extra pass over memory).
  MemoryPool pool(MemoryKind::Sysmem, 1024 * kKiB, 16 * kKiB);
  std::vector<void*> setup;
  for (int i = 0; i < 4; ++i) setup.push_back(pool.allocate(4 * kKiB, info("setup"), "test"));
  for (void* p : setup) pool.release(p, 4 * kKiB);
  void* block = pool.allocate(8 * kKiB, info("loop"), "test");
  for (int i = 0; i < 3; ++i) {
    pool.release(block, 8 * kKiB);
    void* again = pool.allocate(8 * kKiB, info("loop"), "test");
    EXPECT_EQ(again, block) << "iteration " << i;
    block = again;
  }
  pool.release(block, 8 * kKiB);
  // The two newest 4 KiB blocks stayed; the two oldest went to make room.
  void* x = pool.allocate(4 * kKiB, info("x"), "test");
  void* y = pool.allocate(4 * kKiB, info("y"), "test");
  EXPECT_TRUE((x == setup[3] && y == setup[2]) || (x == setup[2] && y == setup[3]));
  pool.release(x, 4 * kKiB);
  pool.release(y, 4 * kKiB);
}

TEST(MemoryPoolTest, CachedBlocksNeverCauseAFailure) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  void* a = pool.allocate(6 * kKiB, info("a"), "test");
  void* b = pool.allocate(6 * kKiB, info("b"), "test");
  pool.release(a, 6 * kKiB);
  pool.release(b, 6 * kKiB);
  EXPECT_EQ(pool.used(), 0);
  // 12 KiB sit in the cache; a 16 KiB block must still fit.
  void* big = pool.allocate(16 * kKiB, info("big"), "test");
  EXPECT_EQ(pool.used(), 16 * kKiB);
  pool.release(big, 16 * kKiB);
}

TEST(MemoryPoolTest, FillsToCapacityExactly) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(pool.allocate(4 * kKiB, info("q"), "test"));
  EXPECT_EQ(pool.used(), pool.capacity());
  EXPECT_THROW(pool.allocate(64, info("one more"), "test"), OutOfMemoryError);
  EXPECT_EQ(pool.used(), pool.capacity());  // a failure changes nothing
  for (void* p : blocks) pool.release(p, 4 * kKiB);
  EXPECT_EQ(pool.used(), 0);
}

TEST(MemoryPoolTest, OutOfMemoryNamesTheKindTheBytesAndTheOperation) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  const std::string msg = oom_message(pool, 20 * kKiB, "store of shape (2560,) float64", "multiply");
  ASSERT_FALSE(msg.empty());
  EXPECT_TRUE(contains(msg, "SYSMEM")) << msg;
  EXPECT_TRUE(contains(msg, "20480 bytes")) << msg;
  EXPECT_TRUE(contains(msg, "store of shape (2560,) float64")) << msg;
  EXPECT_TRUE(contains(msg, "multiply")) << msg;
  // A MemoryError in Python: it is a tessera::Error.
  EXPECT_THROW(pool.allocate(20 * kKiB, info("x"), "op"), Error);
}

TEST(MemoryPoolTest, OutOfMemoryListsEveryLiveAllocation) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  void* a = pool.allocate(4 * kKiB, info("store of shape (512,) float64, created at jacobi.py:12"), "zeros");
  void* b = pool.allocate(8 * kKiB, info("store of shape (32, 32) float64, created at jacobi.py:20"), "add");
  const std::string msg = oom_message(pool, 8 * kKiB, "store of shape (1024,) float64", "copy");
  ASSERT_FALSE(msg.empty());
  EXPECT_TRUE(contains(msg, "SYSMEM holds 12288 of 16384 bytes")) << msg;
  EXPECT_TRUE(contains(msg, "4096 bytes free) in 2 live allocations:")) << msg;
  EXPECT_TRUE(contains(msg, "4096 bytes for store of shape (512,) float64, created at jacobi.py:12")) << msg;
  EXPECT_TRUE(contains(msg, "8192 bytes for store of shape (32, 32) float64, created at jacobi.py:20")) << msg;
  pool.release(a, 4 * kKiB);
  const std::string report = pool.live_report();
  EXPECT_FALSE(contains(report, "(512,)")) << report;
  EXPECT_TRUE(contains(report, "(32, 32)")) << report;
  // Once memory is freed the program goes on.
  void* c = pool.allocate(8 * kKiB, info("c"), "copy");
  EXPECT_EQ(pool.used(), 16 * kKiB);
  pool.release(b, 8 * kKiB);
  pool.release(c, 8 * kKiB);
}

TEST(MemoryPoolTest, OwnerTextIsMadeOnlyForAReport) {
  static int calls = 0;
  std::string owner = "lazy owner";
  AllocationInfo lazy{&owner, [](const void* o) {
                        ++calls;
                        return *static_cast<const std::string*>(o);
                      }};
  MemoryPool pool(MemoryKind::Sysmem, 4 * kKiB);
  void* a = pool.allocate(kKiB, lazy, "t");
  void* b = pool.allocate(kKiB, lazy, "t");
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(contains(pool.live_report(), "1024 bytes for lazy owner"));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(AllocationInfo{}.text(), "unknown owner");
  pool.release(a, kKiB);
  pool.release(b, kKiB);
}

TEST(MemoryPoolTest, LiveReportCountsOneLinePerAllocation) {
  MemoryPool pool(MemoryKind::Sysmem, 64 * kKiB);
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(pool.allocate(kKiB, info("block " + std::to_string(i)), "t"));
  const std::string report = pool.live_report();
  EXPECT_TRUE(
      contains(report, "SYSMEM holds 5120 of 65536 bytes (0.0 of 0.1 MiB, 60416 bytes free) in 5 live allocations:\n"))
      << report;
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(contains(report, "1024 bytes for block " + std::to_string(i))) << report;
  EXPECT_EQ(std::count(report.begin(), report.end(), '\n'), 6);
  for (void* p : blocks) pool.release(p, kKiB);
}

TEST(MemoryPoolTest, ReclaimHookRunsBeforeFailing) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  void* held = pool.allocate(12 * kKiB, info("dead temporary"), "t");
  int calls = 0;
  pool.set_reclaim_hook([&] {
    ++calls;
    if (held) pool.release(held, 12 * kKiB), held = nullptr;
  });
  void* small = pool.allocate(2 * kKiB, info("fits"), "t");
  EXPECT_EQ(calls, 0);  // not needed when the block fits
  void* big = pool.allocate(12 * kKiB, info("needs the reclaim"), "t");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(pool.used(), 14 * kKiB);
  EXPECT_THROW(pool.allocate(8 * kKiB, info("too big"), "t"), OutOfMemoryError);
  EXPECT_EQ(calls, 2);  // tried again, nothing left to free
  pool.set_reclaim_hook(nullptr);
  pool.release(small, 2 * kKiB);
  pool.release(big, 12 * kKiB);
}

}  // namespace
}  // namespace tessera::detail
