// tile_domain: the default partition of a launch domain. Tiles must cover the domain
// exactly once, number at most `pieces`, hold at least `min_chunk` elements each when the
// domain is cut at all, and cut outer dims first (so a tile of a C-ordered store is a
// band of rows). 0-d, empty and 1xN domains are edge cases of the runtime's launches.
#include "partition/tiling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <vector>

namespace tessera::detail {
namespace {

std::string describe(const Shape& domain, int pieces, int64_t min_chunk) {
  std::ostringstream s;
  s << "domain (";
  for (auto e : domain) s << e << ",";
  s << ") pieces " << pieces << " min_chunk " << min_chunk;
  return s.str();
}

// Every point of `domain` lies in exactly one tile, and every tile lies inside `domain`.
void expect_exact_cover(const Shape& domain, const std::vector<Rect>& tiles) {
  const int64_t total = volume(domain);
  std::vector<int> count(static_cast<size_t>(total), 0);
  for (const Rect& t : tiles) {
    ASSERT_EQ(t.ndim(), static_cast<int>(domain.size()));
    ASSERT_FALSE(t.empty());
    for (size_t d = 0; d < domain.size(); ++d) {
      ASSERT_GE(t.lo[d], 0);
      ASSERT_LE(t.hi[d], domain[d]);
    }
    Shape idx = t.lo;
    while (true) {
      int64_t flat = 0;
      for (size_t d = 0; d < domain.size(); ++d) flat = flat * domain[d] + idx[d];
      ++count[static_cast<size_t>(flat)];
      int d = t.ndim() - 1;
      while (d >= 0 && ++idx[d] == t.hi[d]) idx[d] = t.lo[d], --d;
      if (d < 0) break;
    }
  }
  for (int64_t i = 0; i < total; ++i) ASSERT_EQ(count[i], 1) << "point " << i;
}

const std::vector<Shape> kShapes = {{1},      {2},      {7},       {100},     {1000},     {1, 1},    {1, 9},
                                    {9, 1},   {2, 2},   {3, 3},    {4, 6},    {5, 100},   {2, 1000}, {1, 500},
                                    {17, 13}, {64, 64}, {2, 2, 2}, {3, 5, 7}, {1, 1, 40}, {6, 1, 9}, {2, 3, 4, 5}};

TEST(TilingTest, CoversTheDomainExactlyOnce) {
  for (const Shape& domain : kShapes)
    for (int pieces : {1, 2, 3, 4, 7, 8, 16})
      for (int64_t min_chunk : {1, 2, 5, 64}) {
        SCOPED_TRACE(describe(domain, pieces, min_chunk));
        expect_exact_cover(domain, tile_domain(domain, pieces, min_chunk));
      }
}

TEST(TilingTest, ZeroDimensionalDomainIsOneTile) {
  for (int pieces : {1, 4}) {
    auto tiles = tile_domain({}, pieces, 1);
    ASSERT_EQ(tiles.size(), 1u);
    EXPECT_EQ(tiles[0].ndim(), 0);
    EXPECT_EQ(tiles[0].volume(), 1);
  }
}

TEST(TilingTest, EmptyDomainHasNoTiles) {
  for (const Shape& domain : {Shape{0}, Shape{0, 5}, Shape{5, 0}, Shape{3, 0, 4}})
    EXPECT_TRUE(tile_domain(domain, 4, 1).empty()) << describe(domain, 4, 1);
}

TEST(TilingTest, OnePieceOrSmallDomainIsOneWholeTile) {
  auto tiles = tile_domain({40, 40}, 1, 1);
  ASSERT_EQ(tiles.size(), 1u);
  EXPECT_EQ(tiles[0].lo, (Shape{0, 0}));
  EXPECT_EQ(tiles[0].hi, (Shape{40, 40}));
  // Fewer than 2 * min_chunk elements: cutting would leave a tile below the minimum.
  EXPECT_EQ(tile_domain({100}, 8, 51).size(), 1u);
  EXPECT_EQ(tile_domain({10, 10}, 8, 65536).size(), 1u);
  EXPECT_EQ(tile_domain({100}, 8, 50).size(), 2u);
}

TEST(TilingTest, OneDimensionalTilesAreNearEqual) {
  for (int64_t n : {7, 100, 1000, 1001})
    for (int pieces : {2, 3, 4, 7}) {
      auto tiles = tile_domain({n}, pieces, 1);
      ASSERT_EQ(static_cast<int>(tiles.size()), std::min<int64_t>(pieces, n));
      int64_t lo = INT64_MAX, hi = 0;
      for (auto& t : tiles) lo = std::min(lo, t.volume()), hi = std::max(hi, t.volume());
      EXPECT_LE(hi - lo, 1) << n << " in " << pieces;
    }
}

TEST(TilingTest, OneDimensionalRespectsMinChunk) {
  for (int64_t n : {10, 99, 100, 1000, 4097})
    for (int pieces : {2, 4, 8, 64})
      for (int64_t min_chunk : {2, 7, 33, 500}) {
        auto tiles = tile_domain({n}, pieces, min_chunk);
        ASSERT_FALSE(tiles.empty());
        EXPECT_LE(static_cast<int>(tiles.size()), pieces);
        if (tiles.size() > 1) {
          for (auto& t : tiles) EXPECT_GE(t.volume(), min_chunk) << describe({n}, pieces, min_chunk);
        }
      }
}

TEST(TilingTest, RowBandsWhenTheOuterDimSuffices) {
  auto tiles = tile_domain({64, 100}, 4, 1);
  ASSERT_EQ(tiles.size(), 4u);
  int64_t row = 0;
  for (auto& t : tiles) {
    EXPECT_EQ(t.lo[0], row);
    EXPECT_EQ(t.lo[1], 0);
    EXPECT_EQ(t.hi[1], 100);
    EXPECT_EQ(t.hi[0] - t.lo[0], 16);
    row = t.hi[0];
  }
  EXPECT_EQ(row, 64);
}

TEST(TilingTest, OneByNSplitsTheInnerDim) {
  auto tiles = tile_domain({1, 1000}, 4, 1);
  ASSERT_EQ(tiles.size(), 4u);
  for (auto& t : tiles) {
    EXPECT_EQ(t.lo[0], 0);
    EXPECT_EQ(t.hi[0], 1);
    EXPECT_EQ(t.volume(), 250);
  }
  auto deep = tile_domain({1, 1, 40}, 8, 5);
  ASSERT_EQ(deep.size(), 8u);
  expect_exact_cover({1, 1, 40}, deep);
  // Fewer columns than pieces: one column each.
  EXPECT_EQ(tile_domain({1, 3}, 8, 1).size(), 3u);
}

TEST(TilingTest, NeverMoreTilesThanElements) {
  EXPECT_EQ(tile_domain({2, 2}, 16, 1).size(), 4u);
  EXPECT_EQ(tile_domain({1}, 16, 1).size(), 1u);
  EXPECT_EQ(tile_domain({1, 1}, 16, 1).size(), 1u);
}

TEST(TilingTest, IsDeterministic) {
  for (const Shape& domain : kShapes) {
    auto a = tile_domain(domain, 7, 3), b = tile_domain(domain, 7, 3);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].lo, b[i].lo);
      EXPECT_EQ(a[i].hi, b[i].hi);
    }
  }
}

// Header contract: "at most `pieces` rects". With fewer rows than pieces the cut count of the
// next dim is rounded up: (3, 3) in 4 pieces gives 3 x 2 = 6 tiles, (2, 1000) in 3 gives 4.
TEST(TilingTest, AtMostPiecesTilesInEveryShape) {
  for (const Shape& domain : kShapes)
    for (int pieces : {2, 3, 4, 7, 8})
      EXPECT_LE(static_cast<int>(tile_domain(domain, pieces, 1).size()), pieces) << describe(domain, pieces, 1);
}

// Header contract: tiles of "at least `min_chunk` elements each". (3, 3) with min_chunk 4
// wants 2 tiles and cuts rows 1 | 2, leaving a tile of 3 elements.
TEST(TilingTest, EveryTileHoldsMinChunkInEveryShape) {
  for (const Shape& domain : kShapes)
    for (int pieces : {2, 3, 4, 8})
      for (int64_t min_chunk : {2, 4, 64}) {
        auto tiles = tile_domain(domain, pieces, min_chunk);
        if (tiles.size() < 2) continue;
        for (auto& t : tiles) EXPECT_GE(t.volume(), min_chunk) << describe(domain, pieces, min_chunk);
      }
}

}  // namespace
}  // namespace tessera::detail

namespace tessera::detail {
namespace {

// The tile-count rule (tiling.h): grows with the work up to kMaxTiles, never below the minimum
// chunk, at least kMinTiles when the minimum chunk allows it, and nothing of the machine
// enters (the function has no such input).
TEST(TileCountTest, GrowsWithTheDataUpToTheCap) {
  const int64_t chunk = 65536;
  EXPECT_EQ(tile_count(0, chunk), 1);
  EXPECT_EQ(tile_count(1000, chunk), 1);
  EXPECT_EQ(tile_count(2 * chunk - 1, chunk), 1);  // two tiles would fall below the minimum
  EXPECT_EQ(tile_count(2 * chunk, chunk), 2);
  EXPECT_EQ(tile_count(300000, chunk), 4);
  EXPECT_EQ(tile_count(kMinTiles * kTileWork, chunk), kMinTiles);
  EXPECT_EQ(tile_count(10 * kTileWork, chunk), 10);
  EXPECT_EQ(tile_count(kMaxTiles * kTileWork, chunk), kMaxTiles);
  EXPECT_EQ(tile_count(int64_t{1} << 40, chunk), kMaxTiles);
  int64_t last = 0;
  for (int64_t work = 1; work < (int64_t{1} << 36); work = work * 3 / 2 + 1) {
    const int64_t n = tile_count(work, chunk);
    EXPECT_GE(n, last) << work;  // monotone
    EXPECT_LE(n, kMaxTiles);
    if (n > 1) {
      EXPECT_GE(work / n, chunk) << work;  // tiles of at least the minimum chunk
    }
    last = n;
  }
}

// Test mode (minimum chunk 2) cuts tiny arrays into kMinTiles tiles, and from kMinTiles
// default minimum chunks on cuts exactly as a normal run does.
TEST(TileCountTest, TestModeTilesLargeArraysAsANormalRunDoes) {
  EXPECT_EQ(tile_count(10, 2), kMinTiles);
  EXPECT_EQ(tile_count(5, 2), 2);
  EXPECT_EQ(tile_count(1, 2), 1);
  for (int64_t work = kMinTiles * 65536; work < (int64_t{1} << 34); work = work * 5 / 4 + 7)
    EXPECT_EQ(tile_count(work, 2), tile_count(work, 65536)) << work;
}

}  // namespace
}  // namespace tessera::detail
