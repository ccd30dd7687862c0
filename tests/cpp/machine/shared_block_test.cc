// Storages that share one pool block (copy-on-write, runtime/copy_on_write.h), at the level
// of data/storage.h: the block is charged once and listed under its first user, goes back
// with its last; unshare gives fresh memory to the one written; a partial storage (this
// rank's range) shares its range and grows with its copies; memory that cannot be shared is
// copied; the copy groups the program thread keeps.
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

// The pool hands out 64-byte blocks.
int64_t block_bytes(int64_t bytes) { return (bytes + 63) / 64 * 64; }

double* values(const Storage& s) { return reinterpret_cast<double*>(s.data()); }

void fill(Storage& s, double first) {
  for (int64_t i = s.range_lo(); i < s.range_hi(); ++i) values(s)[i] = first + double(i);
}

TEST(SharedBlockTest, OneBlockChargedOnceUntilOneIsUnshared) {
  auto pool = pool_of(64 * kKiB);
  auto a = std::make_shared<Storage>(DType::Float64, Shape{128}, pool, "a.py:1");
  a->allocate("arange", "a.py:1");
  fill(*a, 0.0);
  auto b = std::make_shared<Storage>(DType::Float64, Shape{128}, pool, "a.py:2");
  b->await_memory();
  b->allocate("add", "a.py:2");  // a writer's allocation does nothing while it awaits its memory
  EXPECT_FALSE(b->allocated());
  EXPECT_TRUE(b->try_reserve("add", "a.py:2"));
  EXPECT_FALSE(b->reserved()) << "no room is claimed for memory that comes from another storage";
  b->take_memory_of(*a, "lazy copy", "a.py:2");
  EXPECT_EQ(b->data(), a->data());
  EXPECT_TRUE(a->shares_memory() && b->shares_memory());
  EXPECT_FALSE(a->movable() || b->movable());
  EXPECT_EQ(pool->used(), 128 * 8);
  const std::string report = pool->live_report();
  EXPECT_NE(report.find("in 1 live allocation"), std::string::npos) << report;
  EXPECT_NE(report.find("store of shape (128,) float64 created at a.py:1"), std::string::npos) << report;
  EXPECT_NE(report.find("shared until written with store of shape (128,) float64 created at a.py:2"), std::string::npos)
      << report;

  b->unshare_memory("copy on write", "a.py:3");
  EXPECT_NE(b->data(), a->data());
  EXPECT_FALSE(a->shares_memory() || b->shares_memory());
  EXPECT_EQ(pool->used(), 2 * 128 * 8);
  EXPECT_EQ(values(*b)[127], 127.0);
  values(*b)[0] = -1;
  EXPECT_EQ(values(*a)[0], 0.0);
  EXPECT_TRUE(a->movable() && b->movable());
  a->swap_memory(*b);  // a, alone in what was a shared block, owns it again
  EXPECT_EQ(values(*a)[0], -1.0);
  EXPECT_EQ(values(*b)[0], 0.0);
  a.reset();
  EXPECT_EQ(pool->used(), 128 * 8);
  b.reset();
  EXPECT_EQ(pool->used(), 0);
}

TEST(SharedBlockTest, TheBlockGoesWithItsLastUser) {
  auto pool = pool_of(64 * kKiB);
  auto a = std::make_shared<Storage>(DType::Float64, Shape{64}, pool, "");
  a->allocate("ones", "");
  fill(*a, 1.0);
  auto b = std::make_shared<Storage>(DType::Float64, Shape{64}, pool, "");
  auto c = std::make_shared<Storage>(DType::Float64, Shape{64}, pool, "");
  b->await_memory();
  b->take_memory_of(*a, "lazy copy", "");
  c->await_memory();
  c->take_memory_of(*b, "lazy copy", "");  // a copy of a copy: the same block
  EXPECT_EQ(c->data(), a->data());
  a.reset();
  b.reset();
  EXPECT_EQ(pool->used(), 64 * 8);
  EXPECT_FALSE(c->shares_memory());
  EXPECT_EQ(values(*c)[63], 64.0);
  c->unshare_memory("copy on write", "");  // alone: keeps its memory
  EXPECT_EQ(pool->used(), 64 * 8);
  const std::string report = pool->live_report();
  EXPECT_EQ(report.find("shared"), std::string::npos) << report;
  c.reset();
  EXPECT_EQ(pool->used(), 0);
}

TEST(SharedBlockTest, APartialStorageSharesItsRangeAndGrowsWithItsCopies) {
  auto pool = pool_of(64 * kKiB);
  auto a = std::make_shared<Storage>(DType::Float64, Shape{100}, pool, "");
  ASSERT_TRUE(a->make_partial());
  a->cover(40, 60);
  a->allocate("fill", "");
  fill(*a, 0.0);
  auto b = std::make_shared<Storage>(DType::Float64, Shape{100}, pool, "");
  b->await_memory();
  b->take_memory_of(*a, "lazy copy", "");
  EXPECT_TRUE(b->partial());
  EXPECT_EQ(b->range_lo(), 40);
  EXPECT_EQ(b->range_hi(), 60);
  EXPECT_EQ(pool->used(), block_bytes(20 * 8));
  EXPECT_FALSE(b->cover(30, 50));
  b->grow(30, 50);  // both move to one larger block
  EXPECT_EQ(a->range_lo(), 30);
  EXPECT_EQ(b->data(), a->data());
  EXPECT_EQ(pool->used(), block_bytes(30 * 8));
  EXPECT_EQ(values(*a)[45], 45.0);
  EXPECT_EQ(values(*b)[59], 59.0);
  a->unshare_memory("copy on write", "");
  EXPECT_EQ(pool->used(), 2 * block_bytes(30 * 8));
  EXPECT_EQ(values(*a)[59], 59.0);
  EXPECT_TRUE(a->cover(30, 60));
  a->grow(0, 10);  // alone now: only a moves
  EXPECT_EQ(b->range_lo(), 30);
  EXPECT_EQ(a->range_lo(), 0);
  EXPECT_EQ(values(*a)[40], 40.0);
}

TEST(SharedBlockTest, ARangeTheSourceDoesNotHoldIsCopied) {
  auto pool = pool_of(64 * kKiB);
  auto a = std::make_shared<Storage>(DType::Float64, Shape{100}, pool, "");
  ASSERT_TRUE(a->make_partial());
  a->cover(50, 100);
  a->allocate("fill", "");
  fill(*a, 0.0);
  auto b = std::make_shared<Storage>(DType::Float64, Shape{100}, pool, "");
  b->await_memory();
  ASSERT_TRUE(b->make_partial());
  b->cover(0, 100);  // planned wider than a holds
  b->take_memory_of(*a, "lazy copy", "");
  EXPECT_NE(b->data(), a->data());
  EXPECT_FALSE(a->shares_memory());
  EXPECT_EQ(values(*b)[77], 77.0);
  EXPECT_EQ(pool->used(), block_bytes(50 * 8) + block_bytes(100 * 8));
}

TEST(SharedBlockTest, MemoryThatCannotBeSharedIsCopied) {
  auto pool = pool_of(64 * kKiB);
  auto other = pool_of(64 * kKiB, MemoryKind::Numamem);
  Storage a(DType::Float64, {16}, pool, "");
  a.allocate("arange", "");
  fill(a, 0.0);
  Storage elsewhere(DType::Float64, {16}, other, "");  // another pool
  elsewhere.await_memory();
  elsewhere.take_memory_of(a, "lazy copy", "");
  EXPECT_NE(elsewhere.data(), a.data());
  EXPECT_EQ(values(elsewhere)[15], 15.0);
  a.pin();  // its address was handed out
  Storage after_pin(DType::Float64, {16}, pool, "");
  after_pin.await_memory();
  after_pin.take_memory_of(a, "lazy copy", "");
  EXPECT_NE(after_pin.data(), a.data());
  EXPECT_EQ(values(after_pin)[3], 3.0);
  EXPECT_EQ(pool->used(), 2 * 16 * 8);
}

TEST(SharedBlockTest, MovingToAnotherPoolLeavesTheOthersTheBlock) {
  auto pool = pool_of(64 * kKiB);
  auto numa = pool_of(64 * kKiB, MemoryKind::Numamem);
  Storage a(DType::Float64, {32}, pool, "");
  a.allocate("arange", "");
  fill(a, 0.0);
  Storage b(DType::Float64, {32}, pool, "");
  b.await_memory();
  b.take_memory_of(a, "lazy copy", "");
  b.move_to(numa);
  EXPECT_EQ(pool->used(), 32 * 8);
  EXPECT_EQ(numa->used(), 32 * 8);
  EXPECT_FALSE(a.shares_memory());
  EXPECT_EQ(values(b)[31], 31.0);
  EXPECT_EQ(values(a)[31], 31.0);
}

TEST(SharedBlockTest, AFailedUnshareLeavesTheOthersTheirValues) {
  auto pool = pool_of(3 * 1024);  // room for one block of 2 KiB
  Storage a(DType::Float64, {256}, pool, "");
  a.allocate("arange", "");
  fill(a, 0.0);
  Storage b(DType::Float64, {256}, pool, "");
  b.await_memory();
  b.take_memory_of(a, "lazy copy", "");
  EXPECT_THROW(b.unshare_memory("copy on write", "f.py:9"), OutOfMemoryError);
  EXPECT_TRUE(b.failed());
  EXPECT_FALSE(b.allocated());
  EXPECT_FALSE(a.shares_memory());
  EXPECT_EQ(values(a)[255], 255.0);
}

TEST(SharedBlockTest, CopyGroupsCountWhoHasNotLeftByAWrite) {
  auto pool = pool_of(64 * kKiB);
  Storage a(DType::Float64, {8}, pool, "");
  auto b = std::make_unique<Storage>(DType::Float64, Shape{8}, pool, "");
  Storage c(DType::Float64, {8}, pool, "");
  EXPECT_FALSE(a.in_copy_group());
  EXPECT_FALSE(a.leave_copies());
  b->join_copies_of(a);
  c.join_copies_of(*b);
  EXPECT_TRUE(a.in_copy_group() && c.in_copy_group());
  EXPECT_TRUE(a.leave_copies());  // b and c remain
  EXPECT_FALSE(a.in_copy_group());
  b.reset();  // gone, but it still counts: what is issued never depends on lifetimes
  EXPECT_TRUE(c.leave_copies());
  EXPECT_FALSE(c.leave_copies());
}

}  // namespace
}  // namespace tessera::detail
