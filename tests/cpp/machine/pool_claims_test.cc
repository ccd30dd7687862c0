// MemoryPool claims and reports: a claim (reserve) holds room until its owner allocates,
// so that allocation cannot fail; try_reserve never runs the reclaim hook, reserve does
// and raises the out-of-memory report; the report lists allocations and claims in the
// order they were made, with each owner's detail and the hint; usage_summary for
// --show-memory-usage.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "machine/memory_pool.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

constexpr int64_t kKiB = 1024;

// An owner whose texts are its name and "detail of <name>".
struct Owner {
  std::string name;
  AllocationInfo info() const {
    return {this, [](const void* o) { return static_cast<const Owner*>(o)->name; },
            [](const void* o) { return "detail of " + static_cast<const Owner*>(o)->name; }};
  }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string oom_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const OutOfMemoryError& e) {
    return e.what();
  }
  return "";
}

TEST(PoolClaimsTest, AClaimHoldsRoomUntilItsOwnerAllocates) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  Owner a{"a"}, b{"b"};
  pool.reserve(8 * kKiB, a.info(), "'add'");
  EXPECT_EQ(pool.used(), 0);
  EXPECT_EQ(pool.reserved(), 8 * kKiB);
  EXPECT_EQ(pool.committed(), 8 * kKiB);
  // Others cannot take the claimed room...
  EXPECT_THROW(pool.allocate(12 * kKiB, b.info(), "'mul'"), OutOfMemoryError);
  void* pb = pool.allocate(8 * kKiB, b.info(), "'mul'");
  EXPECT_EQ(pool.committed(), 16 * kKiB);
  // ...and the owner's allocation comes out of its claim, with the pool full.
  void* pa = pool.allocate(8 * kKiB, a.info(), "'add'");
  EXPECT_EQ(pool.used(), 16 * kKiB);
  EXPECT_EQ(pool.reserved(), 0);
  EXPECT_EQ(pool.peak(), 16 * kKiB);
  pool.release(pa, 8 * kKiB);
  pool.release(pb, 8 * kKiB);
  EXPECT_EQ(pool.committed(), 0);
}

TEST(PoolClaimsTest, ClaimsRoundUpAndASecondClaimOfTheSameOwnerIsANoOp) {
  MemoryPool pool(MemoryKind::Sysmem, 4 * kKiB);
  Owner a{"a"};
  EXPECT_TRUE(pool.try_reserve(100, a.info()));
  EXPECT_EQ(pool.reserved(), 128);
  EXPECT_TRUE(pool.try_reserve(100, a.info()));
  pool.reserve(100, a.info(), "'x'");
  EXPECT_EQ(pool.reserved(), 128);
  pool.unreserve(&a);
  EXPECT_EQ(pool.reserved(), 0);
  pool.unreserve(&a);  // no claim: nothing happens
  EXPECT_EQ(pool.committed(), 0);
}

TEST(PoolClaimsTest, TryReserveNeverReclaimsReserveDoes) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  Owner dead{"dead temporary"}, a{"a"};
  void* held = pool.allocate(12 * kKiB, dead.info(), "'t'");
  int calls = 0;
  pool.set_reclaim_hook([&] {
    ++calls;
    if (held) pool.release(held, 12 * kKiB), held = nullptr;
  });
  EXPECT_FALSE(pool.try_reserve(8 * kKiB, a.info()));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(pool.reserved(), 0);  // a failed try claims nothing
  pool.reserve(8 * kKiB, a.info(), "'add'");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(pool.reserved(), 8 * kKiB);
  Owner big{"big"};
  EXPECT_THROW(pool.reserve(12 * kKiB, big.info(), "'big'"), OutOfMemoryError);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(pool.reserved(), 8 * kKiB);  // a failure changes nothing
  pool.set_reclaim_hook(nullptr);
  pool.unreserve(&a);
}

TEST(PoolClaimsTest, OutOfMemoryMessageLineByLine) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  pool.set_report_hint("Free arrays.\n");
  Owner a{"store a"}, b{"store b"}, c{"store c"}, want{"store want"};
  void* pa = pool.allocate(4 * kKiB, a.info(), "'a'");
  pool.reserve(2 * kKiB, b.info(), "'b'");
  void* pc = pool.allocate(8 * kKiB, c.info(), "'c'");
  const std::string msg = oom_text([&] { pool.reserve(4 * kKiB, want.info(), "'add' issued at f.py:9"); });
  const std::string expected =
      "Out of memory in SYSMEM: cannot allocate 4096 bytes for operation 'add' issued at f.py:9\n"
      "  for store want\n"
      "SYSMEM holds 14336 of 16384 bytes (0.0 of 0.0 MiB, 2048 bytes free) in 2 live allocations and 1 claim:\n"
      "  4096 bytes for store a, detail of store a\n"
      "  2048 bytes for store b, detail of store b (claimed, not yet written)\n"
      "  8192 bytes for store c, detail of store c\n"
      "Free arrays.";
  EXPECT_EQ(msg, expected);
  // Converting the claim keeps its place in the list: the order is the program's.
  void* pb = pool.allocate(2 * kKiB, b.info(), "'b'");
  const std::string report = pool.live_report();
  EXPECT_LT(report.find("store a"), report.find("store b"));
  EXPECT_LT(report.find("store b"), report.find("store c"));
  EXPECT_FALSE(contains(report, "claimed")) << report;
  pool.release(pa, 4 * kKiB);
  pool.release(pb, 2 * kKiB);
  pool.release(pc, 8 * kKiB);
}

TEST(PoolClaimsTest, EmptyPoolReportAndOperationlessMessage) {
  MemoryPool pool(MemoryKind::Fbmem, 1 * kKiB);
  Owner a{"a"};
  const std::string msg = oom_text([&] { pool.allocate(2 * kKiB, a.info(), ""); });
  EXPECT_EQ(msg,
            "Out of memory in FBMEM: cannot allocate 2048 bytes\n"
            "  for a\n"
            "FBMEM holds 0 of 1024 bytes (0.0 of 0.0 MiB, 1024 bytes free) in 0 live allocations");
}

TEST(PoolClaimsTest, UsageSummaryShowsPeakUseAndCapacity) {
  MemoryPool pool(MemoryKind::Sysmem, 4 << 20);
  Owner a{"a"}, b{"b"};
  void* pa = pool.allocate(1 << 20, a.info(), "'a'");
  void* pb = pool.allocate(2 << 20, b.info(), "'b'");
  pool.release(pb, 2 << 20);
  EXPECT_EQ(pool.usage_summary(),
            "SYSMEM: peak 3145728 bytes (3.0 MiB), in use 1048576 bytes (1.0 MiB), capacity 4194304 bytes (4.0 MiB)");
  pool.release(pa, 1 << 20);
}

TEST(PoolClaimsTest, CachedBlocksAreNotHandedOutBeyondTheClaims) {
  MemoryPool pool(MemoryKind::Sysmem, 16 * kKiB);
  Owner a{"a"}, b{"b"}, c{"c"};
  void* pa = pool.allocate(8 * kKiB, a.info(), "'a'");
  pool.release(pa, 8 * kKiB);  // kept in the cache
  pool.reserve(12 * kKiB, b.info(), "'b'");
  // The cached 8 KiB block fits the size but not the room left beside the claim.
  EXPECT_THROW(pool.allocate(8 * kKiB, c.info(), "'c'"), OutOfMemoryError);
  void* pb = pool.allocate(12 * kKiB, b.info(), "'b'");
  EXPECT_EQ(pool.used(), 12 * kKiB);
  pool.release(pb, 12 * kKiB);
}

}  // namespace
}  // namespace tessera::detail
