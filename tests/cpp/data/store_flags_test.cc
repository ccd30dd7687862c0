// NumPy's WRITEABLE flag on stores: views inherit read-only-ness, a view cannot be made
// writeable while its base is read-only, locked stores stay read-only; strided and
// reinterpreted views share the storage and record their base.
#include <gtest/gtest.h>

#include "data/store.h"
#include "store_fixture.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

using testing::make_store;
using testing::offsets;
using V = std::vector<int64_t>;

TEST(StoreFlagsTest, NewStoresAreWriteableAndOwnTheirData) {
  auto a = make_store({4});
  EXPECT_TRUE(a->writeable());
  EXPECT_EQ(a->base(), nullptr);
  EXPECT_NO_THROW(a->require_writeable());
}

TEST(StoreFlagsTest, ViewsOfAReadOnlyStoreAreReadOnly) {
  auto a = make_store({4, 4});
  a->set_writeable(false);
  EXPECT_THROW(a->require_writeable(), ValueError);
  for (const StorePtr& v : {a->slice(0, 1, 3, 1), a->index(1, 2), a->transpose({1, 0}), a->new_axis(0),
                            a->reshape_view({16}), a->reinterpret(DType::Int64), a->strided(5, {3}, {5})}) {
    EXPECT_FALSE(v->writeable());
    EXPECT_EQ(v->base(), a);
    // NumPy: "cannot set WRITEABLE flag to True of this array" while the base is read-only.
    EXPECT_THROW(v->set_writeable(true), ValueError);
  }
}

TEST(StoreFlagsTest, AViewMayBeWriteableAgainOnceItsBaseIs) {
  auto a = make_store({6});
  auto v = a->slice(0, 1, 5, 1);
  v->set_writeable(false);
  EXPECT_TRUE(a->writeable());  // only the view changed
  EXPECT_NO_THROW(v->set_writeable(true));
  EXPECT_TRUE(v->writeable());
}

TEST(StoreFlagsTest, ViewsOfViewsRecordTheOwner) {
  auto a = make_store({6});
  auto v = a->slice(0, 1, 5, 1)->slice(0, 0, 2, 1);
  EXPECT_EQ(v->base(), a);
}

TEST(StoreFlagsTest, LockedStoresStayReadOnly) {
  auto a = make_store({3});
  a->lock_read_only();
  EXPECT_THROW(a->set_writeable(true), ValueError);
  EXPECT_THROW(a->slice(0, 0, 2, 1)->set_writeable(true), ValueError);
}

TEST(StoreFlagsTest, StridedViewsReachTheGivenOffsets) {
  auto m = make_store({4, 4});
  auto diagonal = m->strided(0, {4}, {5});  // einsum('ii->i')
  EXPECT_EQ(offsets(*diagonal), (V{0, 5, 10, 15}));
  auto reversed = m->strided(15, {2, 2}, {-4, -1});
  EXPECT_EQ(offsets(*reversed), (V{15, 14, 11, 10}));
  EXPECT_TRUE(diagonal->writeable());
}

TEST(StoreFlagsTest, ReinterpretKeepsLayoutAndChangesDtype) {
  auto a = make_store({2, 3});
  auto r = a->slice(1, 2, -1, -1)->reinterpret(DType::UInt64);
  EXPECT_EQ(r->dtype(), DType::UInt64);
  EXPECT_EQ(offsets(*r), (V{2, 1, 0, 5, 4, 3}));
}

TEST(StoreFlagsTest, ComplexComponentsAreHalfItemViews) {
  auto z = make_store({3, 4}, DType::Complex128);
  auto re = z->component(0), im = z->slice(1, 1, 4, 2)->component(1);  // z.real, z[:, 1::2].imag
  EXPECT_EQ(re->dtype(), DType::Float64);
  EXPECT_EQ(re->strides(), (Shape{8, 2}));
  EXPECT_EQ(offsets(*im), (V{3, 7, 11, 15, 19, 23}));  // in float64 units
  // Rects map back onto the complex storage's elements.
  auto expect_rect = [](const Rect& r, const Shape& lo, const Shape& hi) {
    EXPECT_EQ(r.lo, lo);
    EXPECT_EQ(r.hi, hi);
  };
  expect_rect(re->storage_rect(Rect({1, 0}, {2, 4})), {1, 0}, {2, 4});
  expect_rect(im->storage_rect(Rect({0, 0}, {3, 2})), {0, 0}, {3, 4});  // a bounding box of rows
  expect_rect(im->storage_rect(Rect({2, 1}, {3, 2})), {2, 3}, {3, 4});
}

}  // namespace
}  // namespace tessera::detail
