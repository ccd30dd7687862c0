// Sequential semantics under dependences: long random chains of assignments and ufuncs on
// overlapping slices (any step, reversed, transposed) of two arrays, issued through the
// C++ API and compared element for element with the same program run on the host in
// program order. Run under several configurations: many tiles (test mode), a window of 1,
// a long window, the small-array inline path, and mid-way reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "runtime_fixture.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

constexpr int64_t kN = 20;  // arrays are kN x kN so transposed views fit anywhere

// Python's slice.indices: the positions a slice selects in an axis of length n.
std::vector<int64_t> positions(const Slice& s, int64_t n) {
  const int64_t step = s.step.value_or(1);
  auto norm = [&](std::optional<int64_t> v, int64_t dflt, int64_t lo, int64_t hi) {
    if (!v) return dflt;
    int64_t r = *v < 0 ? *v + n : *v;
    return std::clamp(r, lo, hi);
  };
  std::vector<int64_t> out;
  if (step > 0) {
    for (int64_t i = norm(s.start, 0, 0, n), e = norm(s.stop, n, 0, n); i < e; i += step) out.push_back(i);
  } else {
    for (int64_t i = norm(s.start, n - 1, -1, n - 1), e = norm(s.stop, -1, -1, n - 1); i > e; i += step)
      out.push_back(i);
  }
  return out;
}

// A slice of an axis of length n selecting exactly `len` positions, with a random step and
// a random spelling (negative indices, omitted bounds).
Slice random_slice(std::mt19937& rng, int64_t n, int64_t len) {
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  int64_t step = std::array<int64_t, 6>{1, 1, 2, -1, -2, 3}[pick(0, 5)];
  if ((len - 1) * std::abs(step) > n - 1) step = step > 0 ? 1 : -1;
  const int64_t span = (len - 1) * std::abs(step);
  Slice s;
  s.step = step;
  if (step > 0) {
    int64_t start = pick(0, n - 1 - span), stop = start + span + 1;
    s.start = pick(0, 1) ? start : start - n;
    if (stop == n && pick(0, 1)) s.stop = std::nullopt;
    else s.stop = stop;
    if (start == 0 && pick(0, 1)) s.start = std::nullopt;
  } else {
    int64_t start = pick(span, n - 1), stop = start - span - 1;
    s.start = start == n - 1 && pick(0, 1) ? std::optional<int64_t>() : std::optional<int64_t>(start);
    if (stop < 0) s.stop = std::nullopt;
    else s.stop = pick(0, 1) ? stop : stop - n;
  }
  if (step == 1 && pick(0, 1)) s.step = std::nullopt;
  return s;
}

struct Region {
  int array;        // 0: a, 1: b
  bool transposed;  // a view of the array's transpose
  Slice rows, cols;
};

struct Host {
  std::vector<double> v[2];
  double& at(const Region& r, int64_t i, int64_t j) {
    const auto ri = positions(r.rows, kN), ci = positions(r.cols, kN);
    return r.transposed ? v[r.array][ci[j] * kN + ri[i]] : v[r.array][ri[i] * kN + ci[j]];
  }
};

class Program {
 public:
  explicit Program(uint32_t seed) : rng_(seed) {
    std::vector<double> a(kN * kN), b(kN * kN);
    for (int64_t i = 0; i < kN * kN; ++i) a[i] = static_cast<double>(i), b[i] = 0.25 * static_cast<double>(i % 7) - 1;
    host_.v[0] = a;
    host_.v[1] = b;
    arr_[0] = from_host(a.data(), {kN, kN}, DType::Float64);
    arr_[1] = from_host(b.data(), {kN, kN}, DType::Float64);
  }

  // Issues one random statement on the device arrays and runs it on the host. Values stay
  // finite (at most doubling per statement), so results must be bitwise equal.
  void step() {
    auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); };
    const int64_t h = pick(1, kN), w = pick(1, kN);
    Region dst = region(h, w), x = region(h, w), y = region(h, w);
    const int kind = static_cast<int>(pick(0, 4));
    // The right-hand side is evaluated whole before the store, as NumPy does.
    std::vector<double> rhs(h * w);
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < w; ++j) {
        const double xv = host_.at(x, i, j), yv = host_.at(y, i, j), dv = host_.at(dst, i, j);
        switch (kind) {
          case 0: rhs[i * w + j] = xv; break;
          case 1: rhs[i * w + j] = xv + yv; break;
          case 2: rhs[i * w + j] = xv * 0.5 + yv; break;
          case 3: rhs[i * w + j] = dv * -1.0 + 1.0; break;
          case 4: rhs[i * w + j] = (xv - yv) * 0.5 + dv * 0.25; break;
        }
      }
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < w; ++j) host_.at(dst, i, j) = rhs[i * w + j];
    const ndarray d = device(dst), xd = device(x), yd = device(y);
    switch (kind) {
      case 0: assign(d, xd); break;
      case 1: binary("add", xd, yd, &d); break;
      case 2: assign(d, xd * 0.5 + yd); break;
      case 3: assign(d, d * -1.0 + 1.0); break;
      case 4: binary("add", (xd - yd) * 0.5, d * 0.25, &d); break;
    }
    log_ << kind << describe(dst) << describe(x) << describe(y) << "\n";
  }

  void check(const std::string& when) {
    for (int k = 0; k < 2; ++k) {
      const auto got = arr_[k].to_vector<double>();
      for (int64_t i = 0; i < kN * kN; ++i)
        ASSERT_EQ(got[i], host_.v[k][i]) << when << ": array " << k << " element (" << i / kN << ", " << i % kN
                                         << ")\nprogram:\n"
                                         << log_.str();
    }
  }

  // A random element read back mid-program (a sync point).
  void check_item() {
    const int k = static_cast<int>(rng_() % 2);
    const int64_t i = static_cast<int64_t>(rng_() % (kN * kN));
    ASSERT_EQ(arr_[k].item(i).as_double(), host_.v[k][i]) << "item read\nprogram:\n" << log_.str();
  }

 private:
  Region region(int64_t h, int64_t w) {
    Region r{static_cast<int>(rng_() % 2), rng_() % 3 == 0, {}, {}};
    r.rows = random_slice(rng_, kN, h);
    r.cols = random_slice(rng_, kN, w);
    return r;
  }
  ndarray device(const Region& r) const {
    ndarray base = r.transposed ? ndarray(arr_[r.array].store()->transpose({1, 0})) : arr_[r.array];
    return view(base, {r.rows, r.cols});
  }
  static std::string describe(const Region& r) {
    auto f = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string(); };
    std::ostringstream s;
    s << " "
      << "ab"[r.array] << (r.transposed ? ".T" : "") << "[" << f(r.rows.start) << ":" << f(r.rows.stop) << ":"
      << f(r.rows.step) << ", " << f(r.cols.start) << ":" << f(r.cols.stop) << ":" << f(r.cols.step) << "]";
    return s.str();
  }

  std::mt19937 rng_;
  Host host_;
  ndarray arr_[2];
  std::ostringstream log_;
};

TEST(OrderingHelpersTest, RandomSlicesSelectTheAskedLength) {
  std::mt19937 rng(7);
  for (int t = 0; t < 2000; ++t) {
    const int64_t len = std::uniform_int_distribution<int64_t>(1, kN)(rng);
    Slice s = random_slice(rng, kN, len);
    ASSERT_EQ(static_cast<int64_t>(positions(s, kN).size()), len);
  }
  EXPECT_EQ(positions(Slice{-2, -9, -2}, 10), (std::vector<int64_t>{8, 6, 4, 2}));
  EXPECT_EQ(positions(Slice{1, -1, std::nullopt}, 5), (std::vector<int64_t>{1, 2, 3}));
}

class OrderingTest : public ::testing::TestWithParam<const char*> {};

TEST_P(OrderingTest, OverlappingSliceChainsMatchSequentialExecution) {
  testing::ScopedConfig config(GetParam());
  for (uint32_t seed : {1u, 2u, 3u}) {
    Program program(seed);
    for (int i = 0; i < 150; ++i) program.step();
    program.check("seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
  }
}

TEST_P(OrderingTest, ReadsInTheMiddleSeeEverythingIssuedBefore) {
  testing::ScopedConfig config(GetParam());
  Program program(99);
  for (int i = 0; i < 120; ++i) {
    program.step();
    if (i % 7 == 3) program.check_item();
    if (i % 40 == 39) program.check("after step " + std::to_string(i));
    if (HasFatalFailure()) return;
  }
  program.check("end");
}

INSTANTIATE_TEST_SUITE_P(Configs, OrderingTest,
                         ::testing::Values("--auto-config=0 --cpus=4 --test=1",  // many tiles per op
                                           "--auto-config=0 --cpus=3 --test=0 --min-cpu-chunk=7 --window-size=1",
                                           "--auto-config=0 --cpus=2 --test=1 --window-size=64",  // long window, fusion
                                           "--auto-config=0 --cpus=2 --test=0 --window-size=4",   // mostly inline
                                           "--auto-config=0 --cpus=1 --test=1 --window-size=2"));

}  // namespace
}  // namespace tessera
