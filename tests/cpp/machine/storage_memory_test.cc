// A Storage in its pool: how it describes itself in the out-of-memory report (shape,
// creation site, the elements it covers, the operation that made it, a stencil halo), its
// claim made at flush and consumed by the allocation, a failed allocation marking it, and
// moving its data to another pool (offload_to).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "data/storage.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

constexpr int64_t kKiB = 1024;

std::shared_ptr<MemoryPool> pool_of(int64_t bytes, MemoryKind kind = MemoryKind::Sysmem) {
  return std::make_shared<MemoryPool>(kind, bytes);
}

TEST(StorageMemoryTest, DescribesItselfForTheReport) {
  auto pool = pool_of(64 * kKiB);
  Storage s(DType::Float64, {3, 4}, pool, "f.py:3");
  EXPECT_EQ(s.describe(), "store of shape (3, 4) float64 created at f.py:3");
  EXPECT_EQ(s.allocation_detail(), "covering elements <0,0>..<2,3>");
  s.allocate("add", "f.py:5");
  EXPECT_EQ(s.made_by(), "'add' issued at f.py:5");
  EXPECT_EQ(s.allocation_detail(), "covering elements <0,0>..<2,3>, made by 'add' issued at f.py:5");
  EXPECT_EQ(pool->live_report(),
            "SYSMEM holds 128 of 65536 bytes (0.0 of 0.1 MiB, 65408 bytes free) in 1 live allocation:\n"
            "  128 bytes for store of shape (3, 4) float64 created at f.py:3, covering elements <0,0>..<2,3>, "
            "made by 'add' issued at f.py:5\n");
  Storage v(DType::Int32, {5}, pool, "");
  v.allocate("arange", "");
  EXPECT_EQ(v.describe(), "store of shape (5,) int32");
  EXPECT_EQ(v.allocation_detail(), "covering elements <0>..<4>, made by 'arange'");
  Storage e(DType::Bool, {0}, pool, "g.py:1");
  EXPECT_EQ(e.allocation_detail(), "covering no elements");
}

TEST(StorageMemoryTest, SynchronousAllocationsAreMadeWhereTheStoreIsCreated) {
  auto pool = pool_of(64 * kKiB);
  Storage s(DType::Float32, {8}, pool, "prog.py:12");
  s.allocate("empty");
  EXPECT_EQ(s.made_by(), "'empty' issued at prog.py:12");
}

TEST(StorageMemoryTest, AClaimIsConsumedByTheAllocationAndDroppedWithTheStorage) {
  auto pool = pool_of(16 * kKiB);
  {
    Storage s(DType::Float64, {1024}, pool, "f.py:1");  // 8 KiB
    EXPECT_TRUE(s.try_reserve("add", "f.py:2"));
    EXPECT_TRUE(s.reserved());
    EXPECT_EQ(pool->reserved(), 8 * kKiB);
    EXPECT_EQ(s.made_by(), "'add' issued at f.py:2");
    EXPECT_TRUE(s.try_reserve("mul", "f.py:3"));  // claimed already
    EXPECT_EQ(pool->reserved(), 8 * kKiB);
    s.allocate("add", "f.py:2");
    EXPECT_FALSE(s.reserved());
    EXPECT_EQ(pool->reserved(), 0);
    EXPECT_EQ(pool->used(), 8 * kKiB);
    EXPECT_EQ(s.made_by(), "'add' issued at f.py:2");
  }
  EXPECT_EQ(pool->committed(), 0);
  {
    Storage never(DType::Float64, {1024}, pool, "f.py:4");
    never.reserve("add", "f.py:4");
    EXPECT_EQ(pool->reserved(), 8 * kKiB);
  }
  EXPECT_EQ(pool->committed(), 0);  // a storage that dies unwritten gives its claim back
  Storage u(DType::Float64, {1024}, pool, "f.py:5");
  u.reserve("add", "f.py:5");
  u.unreserve();
  EXPECT_FALSE(u.reserved());
  EXPECT_EQ(u.made_by(), "");
  EXPECT_EQ(pool->committed(), 0);
}

TEST(StorageMemoryTest, AClaimThatDoesNotFitNamesTheOperationAndTheStore) {
  auto pool = pool_of(8 * kKiB);
  Storage held(DType::Float64, {768}, pool, "f.py:1");  // 6 KiB
  held.allocate("full", "f.py:1");
  Storage s(DType::Float64, {1024}, pool, "f.py:2");
  EXPECT_FALSE(s.try_reserve("add", "f.py:2"));
  EXPECT_FALSE(s.reserved());
  try {
    s.reserve("add", "f.py:2");
    FAIL() << "no OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.substr(0, msg.find('\n')),
              "Out of memory in SYSMEM: cannot allocate 8192 bytes for operation 'add' issued at f.py:2");
    EXPECT_NE(msg.find("\n  for store of shape (1024,) float64 created at f.py:2\n"), std::string::npos) << msg;
    EXPECT_NE(msg.find("  6144 bytes for store of shape (768,) float64 created at f.py:1, covering elements "
                       "<0>..<767>, made by 'full' issued at f.py:1"),
              std::string::npos)
        << msg;
  }
  EXPECT_EQ(s.made_by(), "");  // nothing was made
  EXPECT_EQ(pool->reserved(), 0);
}

TEST(StorageMemoryTest, AFailedAllocationMarksTheStorageUntilOneSucceeds) {
  auto pool = pool_of(8 * kKiB);
  auto held = std::make_unique<Storage>(DType::Float64, std::vector<int64_t>{768}, pool, "");
  held->allocate("full", "");
  Storage s(DType::Float64, {1024}, pool, "");
  EXPECT_FALSE(s.failed());
  EXPECT_THROW(s.allocate("add", ""), OutOfMemoryError);
  EXPECT_TRUE(s.failed());
  EXPECT_FALSE(s.allocated());
  EXPECT_EQ(s.made_by(), "");
  held.reset();
  s.allocate("copy", "");
  EXPECT_FALSE(s.failed());
  EXPECT_EQ(s.made_by(), "'copy'");
}

TEST(StorageMemoryTest, HaloShowsInTheDetail) {
  auto pool = pool_of(64 * kKiB);
  Storage s(DType::Float64, {16, 16}, pool, "");
  EXPECT_TRUE(s.halo_low().empty());
  s.set_halo({1, 2}, {3, 1});
  EXPECT_EQ(s.halo_low(), (Shape{1, 2}));
  EXPECT_EQ(s.halo_high(), (Shape{3, 1}));
  EXPECT_EQ(s.allocation_detail(), "covering elements <0,0>..<15,15> (stencil halo <1,2> below, <3,1> above)");
}

TEST(StorageMemoryTest, MovingToAnotherPoolKeepsTheDataAndMovesTheAccounting) {
  auto sys = pool_of(64 * kKiB);
  auto numa = pool_of(64 * kKiB, MemoryKind::Numamem);
  Storage s(DType::Int64, {100}, sys, "f.py:1");
  s.allocate("arange", "f.py:1");
  auto* values = reinterpret_cast<int64_t*>(s.data());
  for (int i = 0; i < 100; ++i) values[i] = i * i;
  s.move_to(numa);
  EXPECT_EQ(s.kind(), MemoryKind::Numamem);
  EXPECT_EQ(sys->used(), 0);
  EXPECT_EQ(numa->used(), 832);  // 800 rounded to 64
  values = reinterpret_cast<int64_t*>(s.data());
  for (int i = 0; i < 100; ++i) ASSERT_EQ(values[i], i * i);
  EXPECT_NE(numa->live_report().find("made by 'arange' issued at f.py:1"), std::string::npos);
  s.move_to(numa);  // already there
  EXPECT_EQ(numa->used(), 832);
  // An unwritten storage takes its claim along: nothing is left behind.
  Storage t(DType::Int64, {100}, sys, "");
  t.reserve("add", "");
  t.move_to(numa);
  EXPECT_EQ(sys->committed(), 0);
  EXPECT_EQ(numa->reserved(), 832);
  EXPECT_TRUE(t.reserved());
  t.allocate("add", "");
  EXPECT_EQ(numa->reserved(), 0);
  EXPECT_EQ(numa->used(), 2 * 832);
}

}  // namespace
}  // namespace tessera::detail

namespace tessera::detail {
namespace {

// With several ranks a storage holds only the range of C order its rank touches: the
// allocation covers it (and the pool counts only it), element addresses stay those of the
// whole array, and growing keeps the values already there.
TEST(StoragePartialTest, CoversARangeAndGrowsKeepingValues) {
  auto pool = std::make_shared<MemoryPool>(MemoryKind::Sysmem, 1 << 20);
  Storage s(DType::Float64, {100, 10}, pool, "p.py:1");
  ASSERT_TRUE(s.make_partial());
  EXPECT_TRUE(s.cover(200, 296));  // a band of rows
  EXPECT_TRUE(s.cover(192, 200));  // and a halo below it
  s.allocate("fill", "p.py:2");
  EXPECT_EQ(s.range_lo(), 192);
  EXPECT_EQ(s.range_hi(), 296);
  EXPECT_EQ(pool->used(), 104 * 8);
  auto* x = reinterpret_cast<double*>(s.data());
  for (int64_t i = 192; i < 296; ++i) x[i] = static_cast<double>(i);
  EXPECT_TRUE(s.cover(200, 250));   // inside: nothing to do
  EXPECT_FALSE(s.cover(296, 304));  // outside an allocated range: the caller must grow
  s.grow(296, 304);
  EXPECT_EQ(s.range_hi(), 304);
  EXPECT_EQ(pool->used(), 112 * 8);
  x = reinterpret_cast<double*>(s.data());
  for (int64_t i = 192; i < 296; ++i) ASSERT_EQ(x[i], static_cast<double>(i));
  EXPECT_NE(s.allocation_detail().find("covering elements 192..303 in C order (this rank's part)"), std::string::npos);
}

// A temporary that will exchange memory with another storage (renaming) covers what that one
// covers, with no margin of its own.
TEST(StoragePartialTest, ATwinCoversItsTwinsRange) {
  auto pool = std::make_shared<MemoryPool>(MemoryKind::Sysmem, 64 << 20);
  auto p = std::make_shared<Storage>(DType::Float64, Shape{1000, 100}, pool, "p.py:1");
  ASSERT_TRUE(p->make_partial());
  EXPECT_TRUE(p->cover(0, 50000));
  p->allocate("fill", "p.py:2");
  Storage f(DType::Float64, {1000, 100}, pool, "p.py:3");
  f.set_twin(p);
  ASSERT_TRUE(f.make_partial());
  EXPECT_TRUE(f.cover(100, 49900));
  f.allocate("stencil", "p.py:4");
  EXPECT_EQ(f.range_lo(), p->range_lo());
  EXPECT_EQ(f.range_hi(), p->range_hi());
  EXPECT_TRUE(f.can_swap(*p));
  f.swap_memory(*p);
  EXPECT_EQ(f.range_hi(), p->range_hi());
}

TEST(StoragePartialTest, OnlyAStorageNobodyAllocatedBecomesPartial) {
  auto pool = std::make_shared<MemoryPool>(MemoryKind::Sysmem, 1 << 20);
  Storage s(DType::Float32, {16}, pool, "");
  s.allocate("array");
  EXPECT_FALSE(s.make_partial());
  EXPECT_TRUE(s.cover(3, 5));  // a whole storage covers everything
  EXPECT_EQ(s.range_lo(), 0);
  EXPECT_EQ(s.range_hi(), 16);
}

}  // namespace
}  // namespace tessera::detail
