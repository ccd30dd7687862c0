// Store view transforms against NumPy: for a storage holding arange(n), a view's values are
// the storage offsets it reaches, so each case compares shape and offsets with what NumPy
// prints for the same view. Slices here take normalised bounds as numeric/index passes them.
#include "data/store.h"

#include <gtest/gtest.h>

#include <functional>

#include "store_fixture.h"

namespace tessera::detail {
namespace {

using testing::make_store;
using testing::offsets;
using V = std::vector<int64_t>;

TEST(StoreViewTest, CreatedStoreIsWholeAndContiguous) {
  auto m = make_store({4, 6});
  EXPECT_TRUE(m->is_whole());
  EXPECT_TRUE(m->is_c_contiguous());
  EXPECT_EQ(m->strides(), (Shape{6, 1}));
  EXPECT_EQ(m->size(), 24);
  EXPECT_EQ(m->storage()->bytes(), 24 * 8);
  EXPECT_FALSE(m->storage()->allocated());
  EXPECT_TRUE(m->same_view(*m->slice(0, 0, 4, 1)));
  EXPECT_FALSE(m->same_view(*make_store({4, 6})));  // same shape, another storage
}

TEST(StoreViewTest, SliceWithNegativeSteps) {
  auto a = make_store({10});
  auto r = a->slice(0, 9, -1, -1);  // a[::-1]
  EXPECT_EQ(r->shape(), (Shape{10}));
  EXPECT_EQ(offsets(*r), (V{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(offsets(*a->slice(0, 8, 1, -3)), (V{8, 5, 2}));     // a[8:1:-3]
  EXPECT_EQ(offsets(*a->slice(0, 8, 1, -2)), (V{8, 6, 4, 2}));  // a[-2:-9:-2]
  EXPECT_EQ(offsets(*a->slice(0, 1, 10, 4)), (V{1, 5, 9}));     // a[1::4]
  EXPECT_FALSE(r->is_c_contiguous());
  EXPECT_FALSE(r->is_whole());
  // Reversing twice gives the original elements.
  EXPECT_EQ(offsets(*r->slice(0, 9, -1, -1)), offsets(*a));
}

TEST(StoreViewTest, EmptySlices) {
  auto a = make_store({10});
  auto e = a->slice(0, 5, 2, 1);  // a[5:2]
  EXPECT_EQ(e->shape(), (Shape{0}));
  EXPECT_EQ(e->size(), 0);
  EXPECT_EQ(a->slice(0, 2, 5, -1)->size(), 0);   // a[2:5:-1]
  EXPECT_EQ(a->slice(0, 10, 10, 1)->size(), 0);  // a[10:]
}

TEST(StoreViewTest, SlicesOfBothAxes) {
  auto m = make_store({4, 6});
  auto v = m->slice(0, 3, -1, -1)->slice(1, 1, 6, 2);  // m[::-1, 1::2]
  EXPECT_EQ(v->shape(), (Shape{4, 3}));
  EXPECT_EQ(offsets(*v), (V{19, 21, 23, 13, 15, 17, 7, 9, 11, 1, 3, 5}));
  EXPECT_EQ(v->strides(), (Shape{-6, 2}));
  auto inner = m->slice(0, 1, 3, 1)->slice(1, 2, 6, 1);  // m[1:3, 2:]
  EXPECT_EQ(inner->offset(), 8);
  EXPECT_EQ(offsets(*inner), (V{8, 9, 10, 11, 14, 15, 16, 17}));
}

TEST(StoreViewTest, IndexDropsTheAxis) {
  auto m = make_store({4, 6});
  auto row = m->index(0, 2);  // m[2]
  EXPECT_EQ(row->shape(), (Shape{6}));
  EXPECT_EQ(offsets(*row), (V{12, 13, 14, 15, 16, 17}));
  EXPECT_TRUE(row->is_c_contiguous());
  auto col = m->index(1, 5);  // m[:, -1]
  EXPECT_EQ(offsets(*col), (V{5, 11, 17, 23}));
  EXPECT_FALSE(col->is_c_contiguous());
  auto elem = row->index(0, 3);  // m[2, 3]: 0-d
  EXPECT_EQ(elem->ndim(), 0);
  EXPECT_EQ(offsets(*elem), (V{15}));
}

TEST(StoreViewTest, NewAxisAddsALengthOneAxis) {
  auto m = make_store({4, 6});
  auto v = m->slice(0, 1, 3, 1)->new_axis(1)->slice(2, 5, -1, -2);  // m[1:3, None, ::-2]
  EXPECT_EQ(v->shape(), (Shape{2, 1, 3}));
  EXPECT_EQ(offsets(*v), (V{11, 9, 7, 17, 15, 13}));
  auto front = m->new_axis(0);
  EXPECT_EQ(front->shape(), (Shape{1, 4, 6}));
  EXPECT_EQ(offsets(*front), offsets(*m));
  EXPECT_TRUE(front->is_c_contiguous());
}

TEST(StoreViewTest, Transpose) {
  auto m = make_store({4, 6});
  auto t = m->transpose({1, 0});  // m.T
  EXPECT_EQ(t->shape(), (Shape{6, 4}));
  EXPECT_EQ(offsets(*t), (V{0, 6, 12, 18, 1, 7, 13, 19, 2, 8, 14, 20, 3, 9, 15, 21, 4, 10, 16, 22, 5, 11, 17, 23}));
  EXPECT_FALSE(t->is_c_contiguous());
  auto c = make_store({2, 3, 4})->transpose({2, 0, 1});  // c.transpose(2, 0, 1)
  EXPECT_EQ(c->shape(), (Shape{4, 2, 3}));
  EXPECT_EQ(offsets(*c), (V{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}));
  EXPECT_EQ(offsets(*t->transpose({1, 0})), offsets(*m));
}

TEST(StoreViewTest, BroadcastTo) {
  auto a = make_store({10});
  auto b = a->slice(0, 0, 4, 1)->broadcast_to({3, 4});  // broadcast_to(a[:4], (3, 4))
  EXPECT_EQ(b->shape(), (Shape{3, 4}));
  EXPECT_EQ(b->strides(), (Shape{0, 1}));
  EXPECT_EQ(offsets(*b), (V{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}));
  auto m = make_store({4, 6});
  auto col = m->slice(1, 0, 1, 1)->broadcast_to({4, 5});  // broadcast_to(m[:, :1], (4, 5))
  EXPECT_EQ(offsets(*col), (V{0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 12, 12, 12, 12, 12, 18, 18, 18, 18, 18}));
  auto sub = m->slice(0, 1, 4, 2)->slice(1, 0, 6, 3)->broadcast_to({2, 2, 2});  // m[1::2, ::3]
  EXPECT_EQ(offsets(*sub), (V{6, 9, 18, 21, 6, 9, 18, 21}));
  EXPECT_FALSE(b->is_c_contiguous());
}

struct ReshapeCase {
  const char* what;
  std::function<StorePtr()> view;
  Shape shape;
  bool ok;
  V values;  // when ok
};

// np: w = v.view(); w.shape = shape  (raises when a copy would be needed)
TEST(StoreViewTest, ReshapeViewLikeNumPy) {
  auto a = make_store({10});
  auto m = make_store({4, 6});
  const V iota24 = [] {
    V v(24);
    for (int i = 0; i < 24; ++i) v[i] = i;
    return v;
  }();
  const V mt = offsets(*m->transpose({1, 0}));
  const std::vector<ReshapeCase> cases = {
      {"m -> (3, 8)", [&] { return m; }, {3, 8}, true, iota24},
      {"m -> (2, 2, 6)", [&] { return m; }, {2, 2, 6}, true, iota24},
      {"m -> (1, 24, 1)", [&] { return m; }, {1, 24, 1}, true, iota24},
      {"m.T -> (24,)",
       [&] {
         return m->transpose({1, 0});
       },
       {24},
       false,
       {}},
      {"m.T -> (2, 3, 4)",
       [&] {
         return m->transpose({1, 0});
       },
       {2, 3, 4},
       true,
       mt},
      {"m.T -> (3, 2, 4)",
       [&] {
         return m->transpose({1, 0});
       },
       {3, 2, 4},
       true,
       mt},
      {"m[:, ::2] -> (12,)",
       [&] { return m->slice(1, 0, 6, 2); },
       {12},
       true,
       {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}},
      {"m[:, ::2] -> (2, 2, 3)",
       [&] { return m->slice(1, 0, 6, 2); },
       {2, 2, 3},
       true,
       {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}},
      {"m[::2] -> (12,)", [&] { return m->slice(0, 0, 4, 2); }, {12}, false, {}},
      {"m[::2] -> (2, 3, 2)",
       [&] { return m->slice(0, 0, 4, 2); },
       {2, 3, 2},
       true,
       {0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17}},
      {"a[::-1] -> (2, 5)", [&] { return a->slice(0, 9, -1, -1); }, {2, 5}, true, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {"bcast -> (12,)",
       [&] {
         return a->slice(0, 0, 4, 1)->broadcast_to({3, 4});
       },
       {12},
       false,
       {}},
      {"bcast -> (3, 2, 2)",
       [&] {
         return a->slice(0, 0, 4, 1)->broadcast_to({3, 4});
       },
       {3, 2, 2},
       true,
       {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}},
      {"m[:, :4] -> (8, 2)", [&] { return m->slice(1, 0, 4, 1); }, {8, 2}, false, {}},
      {"m[:, :4] -> (4, 2, 2)",
       [&] { return m->slice(1, 0, 4, 1); },
       {4, 2, 2},
       true,
       {0, 1, 2, 3, 6, 7, 8, 9, 12, 13, 14, 15, 18, 19, 20, 21}},
      {"m[None] -> (6, 4)", [&] { return m->new_axis(0); }, {6, 4}, true, iota24},
      {"m[:, None] -> (24,)", [&] { return m->new_axis(1); }, {24}, true, iota24},
      {"a[3:3] -> (0, 5)", [&] { return a->slice(0, 3, 3, 1); }, {0, 5}, true, {}},
      {"m[2, 3] -> (1, 1)", [&] { return m->index(0, 2)->index(0, 3); }, {1, 1}, true, {15}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    auto r = c.view()->reshape_view(c.shape);
    if (!c.ok) {
      EXPECT_EQ(r, nullptr);
      continue;
    }
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->shape(), c.shape);
    EXPECT_EQ(offsets(*r), c.values);
    EXPECT_EQ(r->storage(), c.view()->storage());
  }
}

TEST(StoreViewTest, ViewsShareTheStorage) {
  auto m = make_store({4, 6});
  for (const StorePtr& v : {m->slice(0, 3, -1, -1), m->index(1, 2), m->new_axis(0), m->transpose({1, 0}),
                            m->broadcast_to({2, 4, 6}), m->reshape_view({24})})
    EXPECT_EQ(v->storage(), m->storage());
  EXPECT_EQ(m->storage().use_count(), 1);  // the views above are gone
}

TEST(StoreViewTest, PtrAddressesTheViewedElement) {
  auto m = make_store({4, 6}, DType::Int32);
  m->storage()->allocate("test");
  auto* data = reinterpret_cast<int32_t*>(m->storage()->data());
  for (int i = 0; i < 24; ++i) data[i] = i;
  auto v = m->slice(0, 3, -1, -1)->slice(1, 1, 6, 2);  // m[::-1, 1::2]
  EXPECT_EQ(*reinterpret_cast<int32_t*>(v->ptr({0, 0})), 19);
  EXPECT_EQ(*reinterpret_cast<int32_t*>(v->ptr({3, 2})), 5);
  EXPECT_EQ(*reinterpret_cast<int32_t*>(v->base_ptr()), 19);
  EXPECT_EQ(*reinterpret_cast<int32_t*>(m->transpose({1, 0})->ptr({5, 1})), 11);
}

}  // namespace
}  // namespace tessera::detail
