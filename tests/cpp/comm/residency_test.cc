// Residency: the record of which ranks hold which parts of a storage, from which every
// rank derives the same copies; and packing a box of a storage into a message and back.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "comm/residency.h"
#include "data/storage.h"
#include "machine/memory_pool.h"
#include "runtime/transfer.h"

namespace tessera::detail {
namespace {

Rect box(Shape lo, Shape hi) { return Rect(std::move(lo), std::move(hi)); }

int64_t total_volume(const std::vector<Rect>& rects) {
  int64_t v = 0;
  for (const Rect& r : rects) v += r.volume();
  return v;
}

TEST(Subtract, LeavesDisjointPiecesCoveringTheDifference) {
  const Rect a = box({0, 0}, {10, 10});
  const Rect b = box({3, 4}, {6, 20});
  std::vector<Rect> rest = subtract(a, b);
  EXPECT_EQ(total_volume(rest), a.volume() - intersect(a, b).volume());
  for (size_t i = 0; i < rest.size(); ++i) {
    EXPECT_FALSE(rest[i].overlaps(b));
    EXPECT_TRUE(a.contains(rest[i]));
    for (size_t j = i + 1; j < rest.size(); ++j) EXPECT_FALSE(rest[i].overlaps(rest[j]));
  }
  EXPECT_EQ(subtract(a, box({20, 20}, {30, 30})).size(), 1u);  // no overlap: a itself
  EXPECT_TRUE(subtract(a, a).empty());
}

TEST(RankSet, AddsAndFindsRanksBeyondOneWord) {
  RankSet s = RankSet::one(70);
  EXPECT_TRUE(s.has(70));
  EXPECT_FALSE(s.has(6));
  EXPECT_EQ(s.first(), 70);
  s.add(3);
  EXPECT_EQ(s.first(), 3);
  EXPECT_TRUE(RankSet::all(100).covers_all(100));
  EXPECT_FALSE(s.covers_all(4));
  EXPECT_EQ(RankSet().first(), -1);
  EXPECT_EQ(s.nearest(60), 70);
  EXPECT_EQ(s.nearest(5), 3);
  EXPECT_EQ(RankSet().nearest(0), -1);
}

TEST(Residency, UnwrittenPartsNeedNoCopy) {
  Residency r;
  EXPECT_TRUE(r.missing(box({0}, {100}), 1).empty());
  EXPECT_TRUE(r.everywhere(box({0}, {100}), 4));
}

TEST(Residency, HaloComesFromTheRankThatWroteIt) {
  // Two ranks each write half the rows of a 100 x 10 array; rank 0 then reads one row more.
  Residency r;
  r.write(box({0, 0}, {50, 10}), RankSet::one(0));
  r.write(box({50, 0}, {100, 10}), RankSet::one(1));
  std::vector<Transfer> m = r.missing(box({0, 0}, {51, 10}), 0);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].source, 1);
  EXPECT_EQ(m[0].box.lo, (Shape{50, 0}));
  EXPECT_EQ(m[0].box.hi, (Shape{51, 10}));
  r.add_copy(m[0].box, 0);
  EXPECT_TRUE(r.missing(box({0, 0}, {51, 10}), 0).empty());  // received once, held after
  EXPECT_FALSE(r.everywhere(box({0, 0}, {100, 10}), 2));
  // Rank 1 writes its rows again: rank 0's copy of row 50 is stale and must come again.
  r.write(box({50, 0}, {100, 10}), RankSet::one(1));
  EXPECT_EQ(r.missing(box({0, 0}, {51, 10}), 0).size(), 1u);
}

TEST(Residency, WrittenEverywhereIsHeldEverywhere) {
  Residency r;
  r.write(box({0}, {10}), RankSet::one(2));
  r.write(box({0}, {10}), RankSet::all(3));
  EXPECT_TRUE(r.everywhere(box({0}, {10}), 3));
  EXPECT_TRUE(r.missing(box({0}, {10}), 1).empty());
}

TEST(Residency, RepeatedHaloTrafficDoesNotFragmentTheRecord) {
  Residency r;
  for (int sweep = 0; sweep < 100; ++sweep) {
    for (int rank = 0; rank < 4; ++rank) r.write(box({rank * 25 + 1, 1}, {rank * 25 + 25, 99}), RankSet::one(rank));
    for (int rank = 0; rank < 4; ++rank)
      for (const Transfer& t :
           r.missing(box({std::max(0, rank * 25 - 1), 0}, {std::min(100, rank * 25 + 26), 100}), rank))
        r.add_copy(t.box, rank);
  }
  EXPECT_LT(r.pieces(), 64u);
}

TEST(PackBox, RoundTripsAnyBoxOfAStorage) {
  auto pool = std::make_shared<MemoryPool>(MemoryKind::Sysmem, int64_t{1} << 26);
  auto storage = std::make_shared<Storage>(DType::Int32, Shape{4, 5, 6}, pool, "test");
  storage->allocate("test");
  auto* v = reinterpret_cast<int32_t*>(storage->data());
  std::iota(v, v + 120, 0);
  for (const Rect& b :
       {box({1, 2, 3}, {3, 4, 5}), box({0, 0, 0}, {4, 5, 6}), box({2, 0, 0}, {3, 5, 6}), box({1, 1, 0}, {2, 3, 6})}) {
    std::vector<int32_t> packed(static_cast<size_t>(b.volume()));
    pack_box(*storage, b, reinterpret_cast<char*>(packed.data()));
    size_t k = 0;
    for (int64_t i = b.lo[0]; i < b.hi[0]; ++i)
      for (int64_t j = b.lo[1]; j < b.hi[1]; ++j)
        for (int64_t l = b.lo[2]; l < b.hi[2]; ++l) EXPECT_EQ(packed[k++], i * 30 + j * 6 + l);
    for (auto& x : packed) x = -x - 1;
    unpack_box(*storage, b, reinterpret_cast<const char*>(packed.data()));
    for (int64_t i = b.lo[0]; i < b.hi[0]; ++i)
      for (int64_t j = b.lo[1]; j < b.hi[1]; ++j)
        for (int64_t l = b.lo[2]; l < b.hi[2]; ++l) {
          EXPECT_EQ(v[i * 30 + j * 6 + l], -(i * 30 + j * 6 + l) - 1);
          v[i * 30 + j * 6 + l] = static_cast<int32_t>(i * 30 + j * 6 + l);
        }
  }
}

}  // namespace
}  // namespace tessera::detail
