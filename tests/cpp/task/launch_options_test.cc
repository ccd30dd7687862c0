// What a launch may say beyond arguments and constraints (tessera/task.h LaunchOptions,
// viewed(), space()): a payload every point reads, a profile name, a weight that cuts a
// costly launch finer, arguments seen through views, index spaces, points a launch names
// itself, and the bytes its points move. Results equal a host loop under every configuration; bad options are
// refused at launch() with a ValueError naming the task.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "partition/tiling.h"
#include "runtime/runtime.h"
#include "task_fixture.h"
#include "tessera/library.h"

namespace tessera {
namespace {

using testing::host_array;

class LaunchOptionsTest : public testing::ConfiguredTest {};

TEST_P(LaunchOptionsTest, PayloadIsReadByEveryPoint) {
  const int64_t n = 1000;
  const std::vector<double> table{1.5, -2.0, 3.25};
  static const Task fill("fill_from_table", [](TaskContext& ctx) {
    const auto& t = ctx.payload<std::vector<double>>();
    auto y = ctx.array(0).view<double, 1>();
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = t[static_cast<size_t>((y.lo(0) + i) % 3)];
  });
  ndarray y = zeros({n});
  launch(fill, {out(y)}, {}, {}, {.payload = Payload::of(table)});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], table[static_cast<size_t>(i % 3)]) << i;
}

TEST_P(LaunchOptionsTest, ANewArrayIsAllocatedByTheLaunchThatWritesIt) {
  static const Task ramp("ramp", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<int32_t, 2>();
    for (int64_t i = 0; i < y.extent(0); ++i)
      for (int64_t j = 0; j < y.extent(1); ++j) y(i, j) = static_cast<int32_t>((y.lo(0) + i) * 100 + y.lo(1) + j);
  });
  ndarray never = new_array({3}, DType::Float64);
  EXPECT_THROW(never.to_vector<double>(), ValueError);
  EXPECT_THROW(new_array({2, -1}, DType::Float64), ValueError);
  ndarray y = new_array({40, 7}, DType::Int32);
  EXPECT_EQ(y.dtype(), DType::Int32);
  launch(ramp, {out(y)});
  const std::vector<int32_t> got = y.to_vector<int32_t>();
  for (int64_t i = 0; i < 40; ++i)
    for (int64_t j = 0; j < 7; ++j) ASSERT_EQ(got[static_cast<size_t>(i * 7 + j)], i * 100 + j);
}

TEST_P(LaunchOptionsTest, PayloadOfAnotherTypeIsATypeError) {
  const Payload p = Payload::of(std::vector<double>{1.0});
  EXPECT_EQ(p.as<std::vector<double>>().at(0), 1.0);
  EXPECT_THROW(p.as<std::vector<float>>(), TypeError);
  EXPECT_THROW(Payload().as<int>(), TypeError);
}

TEST_P(LaunchOptionsTest, TheLaunchNameIsWhatErrorsShow) {
  static const Task fails("generic_body", [](TaskContext&) { throw ValueError("bad value"); });
  ndarray y = zeros({100});
  try {
    launch(fails, {out(y)}, {}, {}, {.name = "special_call"});
    y.to_vector<double>();
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("special_call"), std::string::npos) << e.what();
  }
}

// C = A @ B with C seen as (M, N, K) through a promoted axis: every point gets a box of C and
// the rows of A and columns of B it needs, whole along K.
TEST_P(LaunchOptionsTest, ViewedArgumentsMakeAMatrixProduct) {
  const int64_t m = 37, k = 11, n = 29;
  std::vector<double> a(m * k), b(k * n);
  for (int64_t i = 0; i < m * k; ++i) a[i] = 0.25 * (i % 17) - 1.0;
  for (int64_t i = 0; i < k * n; ++i) b[i] = 0.5 * (i % 13) - 2.0;
  static const Task product("tile_product", [](TaskContext& ctx) {
    auto c = ctx.array(0).view<double, 2>();
    auto a = ctx.array(1).view<const double, 2>();
    auto b = ctx.array(2).view<const double, 2>();
    if (a.extent(1) != ctx.array(1).array_shape()[1]) throw std::logic_error("A is cut along K");
    for (int64_t i = 0; i < c.extent(0); ++i)
      for (int64_t j = 0; j < c.extent(1); ++j) {
        double s = 0;
        for (int64_t l = 0; l < a.extent(1); ++l) s += a(i, l) * b(l, j);
        c(i, j) = s;
      }
  });
  ndarray c = zeros({m, n});
  ndarray ha = host_array(a, {m, k}), hb = host_array(b, {k, n});
  launch(product,
         {viewed(out(c), ArgView({m, n}).promote(2, k)), viewed(in(ha), ArgView({m, k}).promote(1, n)),
          viewed(in(hb), ArgView({k, n}).transpose({1, 0}).promote(0, m))},
         {}, {align(1, 0), align(2, 0), broadcast(0, {2}), broadcast(1, {2}), broadcast(2, {2})});
  const std::vector<double> got = c.to_vector<double>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l) s += a[i * k + l] * b[l * n + j];
      ASSERT_EQ(got[static_cast<size_t>(i * n + j)], s) << i << ", " << j;
    }
}

TEST_P(LaunchOptionsTest, AnIndexSpaceLeadsTheTiles) {
  const int64_t n = 5000;
  static const Task iota("iota_over_space", [](TaskContext& ctx) {
    const Tile& s = ctx.array(0);
    if (s.data() != nullptr) throw std::logic_error("an index space has data");
    auto y = ctx.array(1).view<int64_t, 1>();
    if (y.lo(0) != s.lo()[0] || y.extent(0) != s.hi()[0] - s.lo()[0]) throw std::logic_error("not aligned");
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = s.lo()[0] + i;
  });
  ndarray y = zeros({n}, DType::Int64);
  launch(iota, {space({n}), out(y)}, {}, {align(1, 0)});
  const std::vector<int64_t> got = y.to_vector<int64_t>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], i);
}

// Two points write halves of y and both read all of x (reads may overlap).
TEST_P(LaunchOptionsTest, PointsTheLaunchNamesItself) {
  const int64_t n = 10;
  std::vector<double> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<double>(i * i);
  static const Task reverse("reverse_halves", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    auto x = ctx.array(1).view<const double, 1>();
    const int64_t all = x.extent(0);
    // Each point gets the box named for it, small as the launch is (never one point over all).
    if (ctx.points() != 2 || y.lo(0) != 5 * ctx.point() || y.extent(0) != 5)
      throw std::logic_error("not the named box");
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = x(all - 1 - (y.lo(0) + i));
  });
  ndarray y = zeros({n});
  ndarray hx = host_array(x, {n});
  std::vector<std::vector<Rect>> points{{Rect({0}, {5}), Rect({0}, {n})}, {Rect({5}, {n}), Rect({0}, {n})}};
  launch(reverse, {out(y), in(hx)}, {}, {}, {.points = points});
  const std::vector<double> got = y.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], x[static_cast<size_t>(n - 1 - i)]) << i;
}

TEST_P(LaunchOptionsTest, BadOptionsAreRefusedAtLaunch) {
  static const Task t("refused_options", [](TaskContext&) {});
  ndarray y = zeros({10});
  auto refused = [](const std::function<void()>& f, const std::string& what) {
    try {
      f();
      ADD_FAILURE() << "no error: " << what;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("refused_options"), std::string::npos) << e.what();
    }
  };
  refused([&] { launch(t, {out(y)}, {}, {}, {.weight = 0}); }, "weight 0");
  refused(
      [&] {
        launch(t, {out(y)}, {}, {}, {.points = {{Rect({0}, {5}), Rect({0}, {5})}}});
      },
      "two boxes, one argument");
  refused([&] { launch(t, {out(y)}, {}, {}, {.points = {{Rect({0}, {11})}}}); }, "box outside the array");
  refused([&] { launch(t, {out(y)}, {}, {broadcast(0)}, {.points = {{Rect({0}, {10})}}}); }, "points and constraints");
  refused(
      [&] {
        launch(t, {out(y), reduce(zeros({1}))}, {}, {}, {.points = {{Rect({0}, {10}), Rect({0}, {1})}}});
      },
      "points and a reduction");
  refused([&] { launch(t, {viewed(out(y), ArgView({11}).promote(1, 2))}); }, "a view of another shape");
  Argument written = space({10});
  written.privilege = Privilege::Write;
  refused([&] { launch(t, {written, out(y)}); }, "a written index space");
  EXPECT_THROW(ArgView({3, 4}).transpose({0, 0}), ValueError);
  EXPECT_THROW(ArgView({3, 4}).promote(3, 2), ValueError);
  EXPECT_THROW(ArgView({3, 4}).fold(1, 2), ValueError);
  // The runtime is usable after.
  ndarray z = zeros({10});
  launch(t, {out(z)});
  EXPECT_EQ(z.to_vector<double>().size(), 10u);
}

// tessera::combine: the rows of the partials joined by the fixed tree (half = n / 2, the
// first half then the rest), shown by an operator whose grouping changes the value.
int64_t tree(const std::vector<int64_t>& rows, size_t first, size_t n) {
  if (n == 1) return rows[first];
  const int64_t low = tree(rows, first, n / 2), high = tree(rows, first + n / 2, n - n / 2);
  return 3 * low + high;
}

TEST_P(LaunchOptionsTest, CombineJoinsPartialsByTheTree) {
  for (int64_t pieces : {1, 2, 5, 37}) {
    std::vector<int64_t> rows(static_cast<size_t>(pieces * 2));
    for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int64_t>(i * 7 % 11) - 3;
    ndarray out = new_array({2}, DType::Int64);
    combine(out, host_array(rows, {pieces, 2}),
            Reduction::custom<int64_t>(0, [](int64_t a, int64_t b) { return 3 * a + b; }));
    const std::vector<int64_t> got = out.to_vector<int64_t>();
    for (size_t k = 0; k < 2; ++k) {
      std::vector<int64_t> column;
      for (int64_t p = 0; p < pieces; ++p) column.push_back(rows[static_cast<size_t>(p) * 2 + k]);
      EXPECT_EQ(got[k], tree(column, 0, column.size())) << pieces << " pieces";
    }
  }
  ndarray out = zeros({3});
  EXPECT_THROW(combine(out, zeros({4, 2}), Reduction::sum()), ValueError);
  EXPECT_THROW(combine(out, zeros({4, 3}, DType::Float32), Reduction::sum()), ValueError);
  EXPECT_THROW(combine(out, zeros({0, 3}), Reduction::sum()), ValueError);
}

// The bytes a point moves (what profiles show as GB/s): LaunchOptions::traffic when given,
// else each argument the point touches once per direction. Read from the operation a window
// pass sees, as the profiler reads it.
TEST(LaunchTraffic, ALaunchMaySayWhatItsPointsMove) {
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=1");
  static std::mutex mu;
  static std::map<std::string, int64_t> seen;
  Library probe;
  probe.name = "traffic_probe";
  probe.passes.push_back({"traffic_probe", [](Window& w) {
                            for (const auto& op : w.operations()) {
                              if (!op || op->name.rfind("traffic_", 0) != 0) continue;
                              std::lock_guard lock(mu);
                              seen[op->name] = op->traffic({Rect({0}, {10}), Rect({0}, {40})});
                            }
                          }});
  register_library(std::move(probe));
  static const Task copy_head("copy_head", [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    auto x = ctx.array(1).view<const double, 1>();
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = x(i);
  });
  ndarray x = zeros({40}), y = zeros({10}), z = zeros({10});
  const std::vector<std::vector<Rect>> points{{Rect({0}, {10}), Rect({0}, {40})}};
  // Reads a quarter of the box it names of x.
  launch(copy_head, {out(y), in(x)}, {}, {},
         {.name = "traffic_given", .points = points, .traffic = [](const std::vector<Rect>& boxes) {
            return (boxes[0].volume() + boxes[1].volume() / 4) * 8;
          }});
  launch(copy_head, {out(z), in(x)}, {}, {}, {.name = "traffic_default", .points = points});
  fence();
  std::lock_guard lock(mu);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen["traffic_given"], (10 + 10) * 8);
  EXPECT_EQ(seen["traffic_default"], (10 + 40) * 8);
  EXPECT_EQ(y.to_vector<double>(), std::vector<double>(10, 0.0));
}

INSTANTIATE_TEST_SUITE_P(Configs, LaunchOptionsTest, ::testing::ValuesIn(testing::kTaskConfigs));

// A costlier launch (weight) is cut into more tiles than a pass over memory of the same size.
TEST(LaunchWeight, ACostlyLaunchIsCutFiner) {
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=0");
  const int64_t n = 1 << 17;
  const int64_t chunk = detail::Runtime::get().min_chunk();
  const int64_t light = detail::tiles_of({n}, 1, chunk), heavy = detail::tiles_of({n}, 64, chunk);
  ASSERT_LT(light, heavy) << "the size chosen must show the weight";
  std::atomic<int> points{0};
  Task count("count_points", [&points](TaskContext& ctx) { points.store(ctx.points()); });
  ndarray y = zeros({n});
  launch(count, {out(y)});
  y.to_vector<double>();
  EXPECT_EQ(points.load(), light);
  ndarray fresh = empty({n});  // y keeps the tiles of its last launch (data stays where it is); zeros would too
  launch(count, {out(fresh)}, {}, {}, {.weight = 64});
  fresh.to_vector<double>();
  EXPECT_EQ(points.load(), heavy);
}

}  // namespace
}  // namespace tessera
