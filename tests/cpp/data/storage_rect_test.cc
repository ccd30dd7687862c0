// Store::storage_rect: the rect of the storage that a tile of a view touches, which the
// dependence analyser compares. Hand-checked cases for slices, steps, transposes,
// broadcasts, indices and reshapes, then a randomised check over chains of transforms:
// the rect must hold every element the tile reaches (soundness), and for views without
// a reshape it must be exactly their bounding box.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <sstream>

#include "data/store.h"
#include "store_fixture.h"

namespace tessera::detail {
namespace {

using testing::make_store;

Rect R(Shape lo, Shape hi) { return Rect(std::move(lo), std::move(hi)); }

void expect_rect(const Rect& got, const Rect& want) {
  EXPECT_EQ(got.lo, want.lo);
  EXPECT_EQ(got.hi, want.hi);
}

TEST(StorageRectTest, WholeStoreIsTheIdentity) {
  auto p = make_store({10, 10});
  expect_rect(p->storage_rect(R({2, 3}, {5, 9})), R({2, 3}, {5, 9}));
  expect_rect(p->storage_rect(Rect::of({10, 10})), Rect::of({10, 10}));
}

TEST(StorageRectTest, InteriorSliceShiftsTiles) {
  auto p = make_store({10, 10});
  auto v = p->slice(0, 1, 9, 1)->slice(1, 2, 10, 1);  // p[1:-1, 2:]
  ASSERT_EQ(v->shape(), (Shape{8, 8}));
  expect_rect(v->storage_rect(R({0, 0}, {4, 8})), R({1, 2}, {5, 10}));
  expect_rect(v->storage_rect(R({4, 3}, {8, 5})), R({5, 5}, {9, 7}));
  expect_rect(v->storage_rect(R({7, 7}, {8, 8})), R({8, 9}, {9, 10}));
}

TEST(StorageRectTest, NegativeAndLargeSteps) {
  auto p = make_store({10, 10});
  auto flip = p->slice(0, 9, -1, -1);  // p[::-1]
  expect_rect(flip->storage_rect(R({0, 0}, {3, 10})), R({7, 0}, {10, 10}));
  expect_rect(flip->storage_rect(R({8, 2}, {10, 4})), R({0, 2}, {2, 4}));
  auto step = p->slice(0, 1, 9, 3)->slice(1, 0, 10, 2);  // p[1:9:3, ::2]: rows 1, 4, 7
  expect_rect(step->storage_rect(R({1, 0}, {3, 2})), R({4, 0}, {8, 3}));
  auto back = p->slice(1, 8, 0, -3);  // p[:, 8:0:-3]: cols 8, 5, 2
  expect_rect(back->storage_rect(R({0, 1}, {2, 3})), R({0, 2}, {2, 6}));
}

TEST(StorageRectTest, TransposedViews) {
  auto p = make_store({10, 10});
  auto t = p->transpose({1, 0});  // t[i, j] = p[j, i]
  expect_rect(t->storage_rect(R({0, 3}, {2, 6})), R({3, 0}, {6, 2}));
  auto vt = p->slice(0, 1, 9, 1)->slice(1, 2, 10, 1)->transpose({1, 0});  // p[1:-1, 2:].T
  expect_rect(vt->storage_rect(R({0, 2}, {4, 6})), R({3, 2}, {7, 6}));
  auto c = make_store({2, 3, 4})->transpose({2, 0, 1});  // c'[i, j, k] = c[j, k, i]
  expect_rect(c->storage_rect(R({1, 0, 2}, {3, 1, 3})), R({0, 2, 1}, {1, 3, 3}));
}

TEST(StorageRectTest, BroadcastViewsTouchTheirSourceOnly) {
  auto row = make_store({10});
  auto b = row->broadcast_to({5, 10});
  expect_rect(b->storage_rect(R({2, 3}, {4, 7})), R({3}, {7}));
  auto col = make_store({10, 1});
  auto bc = col->broadcast_to({10, 10});
  expect_rect(bc->storage_rect(R({2, 0}, {5, 10})), R({2, 0}, {5, 1}));
  auto p = make_store({10, 10});
  auto br = p->index(0, 3)->broadcast_to({4, 10});  // broadcast_to(p[3], (4, 10))
  expect_rect(br->storage_rect(R({1, 5}, {3, 8})), R({3, 5}, {4, 8}));
}

TEST(StorageRectTest, IndicesAndNewAxes) {
  auto p = make_store({10, 10});
  expect_rect(p->index(0, 3)->storage_rect(R({2}, {5})), R({3, 2}, {4, 5}));  // p[3]
  expect_rect(p->index(1, 7)->storage_rect(R({2}, {5})), R({2, 7}, {5, 8}));  // p[:, 7]
  expect_rect(p->index(0, 9)->index(0, 9)->storage_rect(Rect::of({})), R({9, 9}, {10, 10}));
  auto a = make_store({10});
  expect_rect(a->new_axis(0)->storage_rect(R({0, 4}, {1, 6})), R({4}, {6}));
  expect_rect(p->new_axis(1)->storage_rect(R({2, 0, 1}, {3, 1, 4})), R({2, 1}, {3, 4}));
}

TEST(StorageRectTest, ReshapedViewsUseLinearExtents) {
  auto m = make_store({4, 6});
  auto flat = m->reshape_view({24});
  ASSERT_NE(flat, nullptr);
  expect_rect(flat->storage_rect(R({6}, {12})), R({1, 0}, {2, 6}));
  expect_rect(flat->storage_rect(R({7}, {9})), R({1, 1}, {2, 3}));
  expect_rect(flat->storage_rect(R({5}, {13})), R({0, 0}, {3, 6}));  // spans rows: whole rows
  auto wide = m->reshape_view({2, 12});
  ASSERT_NE(wide, nullptr);
  expect_rect(wide->storage_rect(R({1, 0}, {2, 12})), R({2, 0}, {4, 6}));
  expect_rect(wide->storage_rect(R({0, 3}, {1, 5})), R({0, 3}, {1, 5}));
  auto band = m->slice(0, 2, 4, 1)->reshape_view({12});  // m[2:4].reshape(12)
  ASSERT_NE(band, nullptr);
  expect_rect(band->storage_rect(R({0}, {6})), R({2, 0}, {3, 6}));
}

// ---- randomised soundness --------------------------------------------------------------

struct Built {
  StorePtr view;
  bool reshaped = false;
  std::string how;
};

Built random_view(std::mt19937& rng) {
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  Shape base(pick(1, 3));
  for (auto& e : base) e = pick(1, 6);
  Built b{make_store(base), false, "storage"};
  std::ostringstream how;
  for (int step = pick(1, 4); step > 0; --step) {
    const StorePtr& v = b.view;
    const int nd = v->ndim();
    switch (pick(0, 5)) {
      case 0: {  // slice
        if (nd == 0) break;
        int d = static_cast<int>(pick(0, nd - 1));
        int64_t n = v->shape()[d];
        if (n == 0) break;
        int64_t st = std::array<int64_t, 5>{1, 2, 3, -1, -2}[pick(0, 4)];
        int64_t start, stop;
        if (st > 0) {
          start = pick(0, n - 1);
          stop = pick(start + 1, n);
        } else {
          start = pick(0, n - 1);
          stop = pick(-1, start - 1);
        }
        b.view = v->slice(d, start, stop, st);
        how << " slice(" << d << "," << start << "," << stop << "," << st << ")";
        break;
      }
      case 1: {  // index
        if (nd == 0) break;
        int d = static_cast<int>(pick(0, nd - 1));
        if (v->shape()[d] == 0) break;
        int64_t i = pick(0, v->shape()[d] - 1);
        b.view = v->index(d, i);
        how << " index(" << d << "," << i << ")";
        break;
      }
      case 2: {  // new axis
        if (nd >= 4) break;
        int pos = static_cast<int>(pick(0, nd));
        b.view = v->new_axis(pos);
        how << " new_axis(" << pos << ")";
        break;
      }
      case 3: {  // transpose
        std::vector<int> perm(nd);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        b.view = v->transpose(perm);
        how << " transpose";
        break;
      }
      case 4: {  // broadcast: expand length-1 axes, maybe add a leading one
        Shape s = v->shape();
        for (auto& e : s)
          if (e == 1) e = pick(1, 3);
        if (nd < 4 && pick(0, 1)) s.insert(s.begin(), pick(1, 3));
        b.view = v->broadcast_to(s);
        how << " broadcast";
        break;
      }
      case 5: {  // reshape: flatten, or split an even axis
        Shape s;
        if (nd > 0 && pick(0, 1)) {
          int d = static_cast<int>(pick(0, nd - 1));
          if (v->shape()[d] % 2) break;
          s = v->shape();
          s[d] /= 2;
          s.insert(s.begin() + d, 2);
        } else {
          s = {v->size()};
        }
        if (auto r = v->reshape_view(s)) {
          b.view = r;
          b.reshaped = true;
          how << " reshape";
        }
        break;
      }
    }
  }
  b.how = how.str();
  return b;
}

TEST(StorageRectTest, RandomViewsCoverEveryTouchedElement) {
  std::mt19937 rng(12345);
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Built b = random_view(rng);
    const Store& v = *b.view;
    if (v.size() == 0) continue;
    Rect tile{Shape(v.ndim()), Shape(v.ndim())};
    for (int d = 0; d < v.ndim(); ++d) {
      tile.lo[d] = std::uniform_int_distribution<int64_t>(0, v.shape()[d] - 1)(rng);
      tile.hi[d] = std::uniform_int_distribution<int64_t>(tile.lo[d] + 1, v.shape()[d])(rng);
    }
    const Rect got = v.storage_rect(tile);
    const Shape& sshape = v.storage()->shape();
    const Shape& sstr = v.storage()->strides();
    const int rn = static_cast<int>(sshape.size());
    Rect box{Shape(rn, INT64_MAX), Shape(rn, INT64_MIN)};
    Shape idx = tile.lo;
    while (true) {
      int64_t off = v.offset();
      for (int d = 0; d < v.ndim(); ++d) off += idx[d] * v.strides()[d];
      Shape coord(rn);
      for (int d = 0; d < rn; ++d) {
        coord[d] = off / sstr[d];
        off -= coord[d] * sstr[d];
        box.lo[d] = std::min(box.lo[d], coord[d]);
        box.hi[d] = std::max(box.hi[d], coord[d] + 1);
      }
      for (int d = 0; d < rn; ++d)
        ASSERT_TRUE(coord[d] >= got.lo[d] && coord[d] < got.hi[d]) << b.how << " storage dim " << d;
      int d = v.ndim() - 1;
      while (d >= 0 && ++idx[d] == tile.hi[d]) idx[d] = tile.lo[d], --d;
      if (d < 0) break;
    }
    for (int d = 0; d < rn; ++d) {
      ASSERT_GE(got.lo[d], 0) << b.how;
      ASSERT_LE(got.hi[d], sshape[d]) << b.how;
    }
    if (!b.reshaped) {
      EXPECT_EQ(got.lo, box.lo) << b.how;
      EXPECT_EQ(got.hi, box.hi) << b.how;
    }
    ++checked;
  }
  EXPECT_GT(checked, 2000);
}

}  // namespace
}  // namespace tessera::detail
