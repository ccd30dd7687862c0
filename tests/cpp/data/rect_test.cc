// Rect: volume, emptiness, overlap and containment — the predicates dependence analysis uses.
#include "data/rect.h"

#include <gtest/gtest.h>

namespace tessera::detail {
namespace {

TEST(RectTest, OfAndVolume) {
  Rect r = Rect::of({3, 4});
  EXPECT_EQ(r.lo, (Shape{0, 0}));
  EXPECT_EQ(r.hi, (Shape{3, 4}));
  EXPECT_EQ(r.volume(), 12);
  EXPECT_EQ(r.ndim(), 2);
  EXPECT_EQ(Rect::of({}).volume(), 1);  // a 0-d rect is one point
  EXPECT_FALSE(Rect::of({}).empty());
  EXPECT_TRUE(Rect::of({3, 0}).empty());
  EXPECT_TRUE(Rect({5}, {2}).empty());
  EXPECT_EQ(volume(Shape{2, 3, 4}), 24);
  EXPECT_EQ(volume(Shape{}), 1);
}

TEST(RectTest, OverlapsIsHalfOpen) {
  Rect a({0, 0}, {4, 4});
  EXPECT_TRUE(a.overlaps(Rect({3, 3}, {5, 5})));
  EXPECT_FALSE(a.overlaps(Rect({4, 0}, {6, 4})));  // touching edges do not overlap
  EXPECT_FALSE(a.overlaps(Rect({0, 4}, {4, 8})));
  EXPECT_TRUE(a.overlaps(Rect({1, 1}, {2, 2})));
  EXPECT_FALSE(Rect({0, 0}, {2, 2}).overlaps(Rect({0, 2}, {2, 3})));
  EXPECT_TRUE(Rect::of({}).overlaps(Rect::of({})));  // 0-d stores: the one element
}

TEST(RectTest, Contains) {
  Rect a({0, 0}, {4, 4});
  EXPECT_TRUE(a.contains(a));
  EXPECT_TRUE(a.contains(Rect({1, 2}, {3, 4})));
  EXPECT_FALSE(a.contains(Rect({1, 2}, {3, 5})));
  EXPECT_FALSE(Rect({1, 2}, {3, 4}).contains(a));
}

}  // namespace
}  // namespace tessera::detail
