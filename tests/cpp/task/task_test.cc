// User tasks over partitioned arrays: each constraint (align, broadcast, bloat framed and
// clipped, scale, image) gives the tiles its header promises, and the results equal a host
// loop under every configuration.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "task_fixture.h"

namespace tessera {
namespace {

using testing::host_array;

class TaskTest : public testing::ConfiguredTest {};

// The largest number of points a launch ran with, and the fewest elements a tile held.
struct Seen {
  std::atomic<int> points{0};
  std::atomic<int64_t> smallest{INT64_MAX};
  void note(const TaskContext& ctx, int64_t extent) {
    int p = points.load();
    while (ctx.points() > p && !points.compare_exchange_weak(p, ctx.points())) {
    }
    int64_t s = smallest.load();
    while (extent < s && !smallest.compare_exchange_weak(s, extent)) {
    }
  }
};

TEST_P(TaskTest, AlignedArraysMatchAHostLoop) {
  const Shape shape{37, 23};
  const int64_t n = 37 * 23;
  std::vector<double> x(n), z(n);
  for (int64_t i = 0; i < n; ++i) x[i] = 0.5 * i, z[i] = 100.0 - i;
  ndarray y = zeros(shape);
  Seen seen;
  Task axpz("axpz", [&seen](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 2>();
    auto x = ctx.array(1).view<const double, 2>();
    auto z = ctx.array(2).view<const double, 2>();
    const double a = ctx.scalar(0).as_double();
    // Aligned: the same box of every array.
    if (ctx.array(1).lo() != ctx.array(0).lo() || ctx.array(2).hi() != ctx.array(0).hi())
      throw std::logic_error("aligned tiles differ");
    if (y.lo(0) != ctx.array(0).lo()[0] || y.lo(1) != ctx.array(0).lo()[1]) throw std::logic_error("lo differs");
    seen.note(ctx, ctx.array(0).size());
    for (int64_t i = 0; i < y.extent(0); ++i)
      for (int64_t j = 0; j < y.extent(1); ++j) y(i, j) = a * x(i, j) + z(i, j);
  });
  EXPECT_TRUE(launch(axpz, {out(y), in(host_array(x, shape)), in(host_array(z, shape))}, {Scalar(3.0)},
                     {align(0, 1), align(0, 2)})
                  .empty());
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 3.0 * x[i] + z[i]) << "element " << i;
  if (many_workers()) {
    EXPECT_GT(seen.points.load(), 1) << "test mode should cut the launch";
  }
}

TEST_P(TaskTest, InoutUpdatesInPlace) {
  const int64_t n = 101;
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = i * 3 - 50;
  ndarray a = host_array(v, {n});
  Task twice("twice", [](TaskContext& ctx) {
    auto a = ctx.array(0).view<int64_t, 1>();
    for (int64_t i = 0; i < a.extent(0); ++i) a(i) = 2 * a(i) + a.lo(0) + i;  // + the global index
  });
  launch(twice, {inout(a)});
  launch(twice, {inout(a)});
  const std::vector<int64_t> got = a.to_vector<int64_t>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 2 * (2 * v[i] + i) + i);
}

TEST_P(TaskTest, BroadcastArgumentIsWholeOnEveryPoint) {
  const int64_t n = 50, m = 7;
  std::vector<double> x(n), w(m);
  for (int64_t i = 0; i < n; ++i) x[i] = i;
  for (int64_t i = 0; i < m; ++i) w[i] = 1.0 + i;
  ndarray y = zeros({n});
  Task plus_sum("plus_sum", [m](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    auto x = ctx.array(1).view<const double, 1>();
    auto w = ctx.array(2).view<const double, 1>();
    if (w.extent(0) != m || w.lo(0) != 0) throw std::logic_error("the broadcast argument is cut");
    double s = 0;
    for (int64_t i = 0; i < w.extent(0); ++i) s += w(i);
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = x(i) + s;
  });
  launch(plus_sum, {out(y), in(host_array(x, {n})), in(host_array(w, {m}))}, {}, {align(0, 1), broadcast(2)});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i + 28.0);
}

TEST_P(TaskTest, BroadcastAlongAnAxisKeepsRowsWhole) {
  const int64_t n = 40, m = 9;
  std::vector<double> x(n * m);
  for (int64_t i = 0; i < n * m; ++i) x[i] = (i % 11) - 3.0;
  ndarray y = zeros({n, m});
  Seen seen;
  Task row_sums("row_sums", [&seen, m](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 2>();
    auto x = ctx.array(1).view<const double, 2>();
    if (y.extent(1) != m || x.extent(1) != m) throw std::logic_error("rows are cut along the broadcast axis");
    seen.note(ctx, y.extent(0));
    for (int64_t i = 0; i < y.extent(0); ++i) {
      double s = 0;
      for (int64_t j = 0; j < m; ++j) s += x(i, j);
      for (int64_t j = 0; j < m; ++j) y(i, j) = s;
    }
  });
  launch(row_sums, {out(y), in(host_array(x, {n, m}))}, {}, {align(0, 1), broadcast(0, {1})});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < m; ++j) s += x[i * m + j];
    for (int64_t j = 0; j < m; ++j) ASSERT_EQ(got[i * m + j], s) << i << ", " << j;
  }
  if (many_workers()) {
    EXPECT_GT(seen.points.load(), 1);
  }
}

// A framed array (the interior's shape plus the halo): each tile of the interior comes with
// the same box of the frame grown by the halo, so u(i + 1, j + 1) is v(i, j)'s centre.
TEST_P(TaskTest, FramedBloatGivesTheTileWithItsHalo) {
  const int64_t n = 30, m = 17;
  std::vector<double> u((n + 2) * (m + 2));
  for (size_t i = 0; i < u.size(); ++i) u[i] = std::sin(0.37 * static_cast<double>(i));
  ndarray v = zeros({n, m});
  Task laplace("laplace", [](TaskContext& ctx) {
    auto v = ctx.array(0).view<double, 2>();
    auto u = ctx.array(1).view<const double, 2>();
    for (int d = 0; d < 2; ++d)
      if (u.lo(d) != v.lo(d) || u.extent(d) != v.extent(d) + 2) throw std::logic_error("wrong framed halo");
    for (int64_t i = 0; i < v.extent(0); ++i)
      for (int64_t j = 0; j < v.extent(1); ++j)
        v(i, j) = 4 * u(i + 1, j + 1) - u(i, j + 1) - u(i + 2, j + 1) - u(i + 1, j) - u(i + 1, j + 2);
  });
  launch(laplace, {out(v), in(host_array(u, {n + 2, m + 2}))}, {}, {bloat(1, 0, {1, 1}, {1, 1})});
  const std::vector<double> got = v.to_vector<double>();
  auto U = [&](int64_t i, int64_t j) { return u[i * (m + 2) + j]; };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j)
      ASSERT_EQ(got[i * m + j], 4 * U(i + 1, j + 1) - U(i, j + 1) - U(i + 2, j + 1) - U(i + 1, j) - U(i + 1, j + 2));
}

// Same shape: the grown tile is clipped at the array's edges, so the body finds its
// neighbours through lo() (global index minus the tile's start).
TEST_P(TaskTest, ClippedBloatIsCutAtTheEdges) {
  const int64_t n = 57;
  std::vector<double> u(n);
  for (int64_t i = 0; i < n; ++i) u[i] = 1.0 + i * i;
  ndarray v = zeros({n});
  Task window("window", [n](TaskContext& ctx) {
    auto v = ctx.array(0).view<double, 1>();
    auto u = ctx.array(1).view<const double, 1>();
    if (u.lo(0) != std::max<int64_t>(0, v.lo(0) - 1) ||
        u.lo(0) + u.extent(0) != std::min<int64_t>(n, v.lo(0) + v.extent(0) + 2))
      throw std::logic_error("wrong clipped halo");
    for (int64_t i = 0; i < v.extent(0); ++i) {
      const int64_t g = v.lo(0) + i;
      double s = 0;
      for (int64_t k = std::max<int64_t>(0, g - 1); k <= std::min<int64_t>(n - 1, g + 2); ++k) s += u(k - u.lo(0));
      v(i) = s;
    }
  });
  launch(window, {out(v), in(host_array(u, {n}))}, {}, {bloat(1, 0, {1}, {2})});
  const std::vector<double> got = v.to_vector<double>();
  for (int64_t g = 0; g < n; ++g) {
    double s = 0;
    for (int64_t k = std::max<int64_t>(0, g - 1); k <= std::min<int64_t>(n - 1, g + 2); ++k) s += u[k];
    ASSERT_EQ(got[g], s) << g;
  }
}

// y is x coarsened by 2 x 3 blocks: y's tile [lo, hi) reads x's [2 lo, 2 hi) x [3 lo, 3 hi).
TEST_P(TaskTest, ScaleFollowsTheTileTimesTheFactors) {
  const int64_t n = 21, m = 8;
  std::vector<double> x(2 * n * 3 * m);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 13);
  ndarray y = zeros({n, m});
  Task coarsen("coarsen", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 2>();
    auto x = ctx.array(1).view<const double, 2>();
    if (x.lo(0) != 2 * y.lo(0) || x.lo(1) != 3 * y.lo(1) || x.extent(0) != 2 * y.extent(0) ||
        x.extent(1) != 3 * y.extent(1))
      throw std::logic_error("wrong scaled tile");
    for (int64_t i = 0; i < y.extent(0); ++i)
      for (int64_t j = 0; j < y.extent(1); ++j) {
        double s = 0;
        for (int64_t a = 0; a < 2; ++a)
          for (int64_t b = 0; b < 3; ++b) s += x(2 * i + a, 3 * j + b);
        y(i, j) = s;
      }
  });
  launch(coarsen, {out(y), in(host_array(x, {2 * n, 3 * m}))}, {}, {scale(1, 0, {2, 3})});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      double s = 0;
      for (int64_t a = 0; a < 2; ++a)
        for (int64_t b = 0; b < 3; ++b) s += x[(2 * i + a) * 3 * m + 3 * j + b];
      ASSERT_EQ(got[i * m + j], s);
    }
}

// y[i] = src[idx[i]]: src's tile is the box of the indices idx's tile holds; the body throws
// if an index falls outside it.
Task gather_task() {
  return Task("gather", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    auto idx = ctx.array(1).view<const int64_t, 1>();
    auto src = ctx.array(2).view<const double, 1>();
    for (int64_t i = 0; i < y.extent(0); ++i) {
      const int64_t k = idx(i) - src.lo(0);
      if (k < 0 || k >= src.extent(0)) throw IndexError("index " + std::to_string(idx(i)) + " outside the image");
      y(i) = src(k);
    }
  });
}

TEST_P(TaskTest, ImageGathersThroughUnevenIndices) {
  const int64_t n = 64, m = 1000;
  std::vector<double> src(m);
  for (int64_t i = 0; i < m; ++i) src[i] = 0.25 * i - 7;
  const Task gather = gather_task();
  // Sorted and crowded near 0 (tiles of uneven images), then scattered.
  for (int pattern = 0; pattern < 2; ++pattern) {
    std::vector<int64_t> idx(n);
    for (int64_t i = 0; i < n; ++i) idx[i] = pattern == 0 ? i * i * (m - 1) / ((n - 1) * (n - 1)) : (i * 7919) % m;
    ndarray y = zeros({n});
    launch(gather, {out(y), in(host_array(idx, {n})), in(host_array(src, {m}))}, {}, {align(0, 1), image(2, 1)});
    const std::vector<double> got = y.to_vector<double>();
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], src[idx[i]]) << "pattern " << pattern << " element " << i;
  }
}

TEST_P(TaskTest, ImageOfComputedIndicesWaitsForTheirWriter) {
  const int64_t n = 48, m = 300;
  std::vector<double> src(m);
  for (int64_t i = 0; i < m; ++i) src[i] = i;
  ndarray idx = zeros({n}, DType::Int64);
  Task make_idx("make_idx", [m](TaskContext& ctx) {
    auto idx = ctx.array(0).view<int64_t, 1>();
    for (int64_t i = 0; i < idx.extent(0); ++i) idx(i) = (m - 1) - 5 * (idx.lo(0) + i);
  });
  launch(make_idx, {out(idx)});
  ndarray y = zeros({n});
  launch(gather_task(), {out(y), in(idx), in(host_array(src, {m}))}, {}, {align(0, 1), image(2, 1)});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], (m - 1) - 5 * i);
}

// With ranges: row r of a CSR-like layout sums src[start_r, stop_r).
TEST_P(TaskTest, ImageOfRangesCoversEveryPair) {
  const int64_t rows = 33, m = 500;
  std::vector<int64_t> pairs(rows * 2);
  int64_t at = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t len = (r * 37) % 29;  // uneven, some empty
    pairs[2 * r] = at, pairs[2 * r + 1] = at + len;
    at += len;
  }
  ASSERT_LE(at, m);
  std::vector<double> src(m);
  for (int64_t i = 0; i < m; ++i) src[i] = i % 10;
  ndarray y = zeros({rows, 1});
  Task row_sum("csr_sum", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 2>();
    auto p = ctx.array(1).view<const int64_t, 2>();
    auto src = ctx.array(2).view<const double, 1>();
    for (int64_t r = 0; r < y.extent(0); ++r) {
      double s = 0;
      for (int64_t k = p(r, 0); k < p(r, 1); ++k) {
        if (k < src.lo(0) || k >= src.lo(0) + src.extent(0)) throw IndexError("range outside the image");
        s += src(k - src.lo(0));
      }
      y(r, 0) = s;
    }
  });
  launch(row_sum, {out(y), in(host_array(pairs, {rows, 2})), in(host_array(src, {m}))}, {},
         {scale(1, 0, {1, 2}), image(2, 1, true)});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t k = pairs[2 * r]; k < pairs[2 * r + 1]; ++k) s += src[k];
    ASSERT_EQ(got[r], s) << r;
  }
}

TEST_P(TaskTest, MinExtentsKeepTilesLargeEnough) {
  const int64_t n = 64;
  ndarray y = zeros({n});
  Seen seen;
  Task count("count", [&seen](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    seen.note(ctx, y.extent(0));
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = static_cast<double>(y.lo(0) + i);
  });
  launch(count, {out(y)}, {}, {min_extents(0, {20})});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i);
  EXPECT_GE(seen.smallest.load(), 20);
}

INSTANTIATE_TEST_SUITE_P(Configs, TaskTest, ::testing::ValuesIn(testing::kTaskConfigs));

}  // namespace
}  // namespace tessera
