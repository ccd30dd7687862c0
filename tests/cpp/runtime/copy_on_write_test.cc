// Copy-on-write stores (tessera::lazy_copy, runtime/copy_on_write.h): a lazy copy shares its
// source's memory — one pool allocation — until either of them or a view of either is
// written; the one written then takes fresh memory and the other keeps its values. Run
// under the configurations other runtime tests use: tiles of 1024 elements, test mode
// (tiny tiles), and one worker with the small-array fast path.
#include <gtest/gtest.h>

#include <numeric>

#include "runtime/runtime.h"
#include "runtime_fixture.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

using detail::Runtime;

constexpr int64_t kN = 1 << 14;  // 128 KiB of float64
constexpr int64_t kBytes = kN * 8;

class CopyOnWriteTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { config_.emplace(GetParam()); }
  void TearDown() override { config_.reset(); }
  detail::MemoryPool& pool() { return Runtime::get().sysmem(); }
  // pool.used() once nothing in flight can still hold a storage.
  int64_t used(int64_t expected) { return testing::used_when_settled(pool(), expected); }

  std::optional<testing::ScopedConfig> config_;
};

std::vector<double> iota_values(double first = 0.0) {
  std::vector<double> v(kN);
  std::iota(v.begin(), v.end(), first);
  return v;
}

ndarray iota_array() { return arange(Scalar(0.0), Scalar(double(kN)), Scalar(1.0)); }

TEST_P(CopyOnWriteTest, SharesUntilTheSourceIsWritten) {
  const int64_t base = pool().used();
  ndarray a = iota_array();
  ndarray b = lazy_copy(a);
  EXPECT_EQ(b.to_vector<double>(), iota_values());
  EXPECT_FALSE(b.shares_storage(a));
  EXPECT_EQ(used(base + kBytes), base + kBytes) << "one allocation while neither is written";
  binary("add", a, 1.0, &a);  // a += 1
  EXPECT_EQ(a.to_vector<double>(), iota_values(1.0));
  EXPECT_EQ(b.to_vector<double>(), iota_values()) << "the copy keeps the values it was made with";
  EXPECT_EQ(used(base + 2 * kBytes), base + 2 * kBytes);
}

TEST_P(CopyOnWriteTest, SharesUntilTheCopyIsWritten) {
  const int64_t base = pool().used();
  ndarray a = iota_array();
  ndarray b = lazy_copy(a);
  fence();
  EXPECT_EQ(used(base + kBytes), base + kBytes);
  binary("multiply", b, 2.0, &b);
  std::vector<double> twice = iota_values();
  for (double& x : twice) x *= 2;
  EXPECT_EQ(b.to_vector<double>(), twice);
  EXPECT_EQ(a.to_vector<double>(), iota_values()) << "the source keeps its values";
  EXPECT_EQ(used(base + 2 * kBytes), base + 2 * kBytes);
  // Separated: more writes allocate nothing more.
  binary("add", a, 1.0, &a);
  binary("add", b, 1.0, &b);
  fence();
  EXPECT_EQ(used(base + 2 * kBytes), base + 2 * kBytes);
  EXPECT_EQ(a.item(5).as_double(), 6.0);
  EXPECT_EQ(b.item(5).as_double(), 11.0);
}

TEST_P(CopyOnWriteTest, SeesTheWritesIssuedBeforeItAndNoneAfter) {
  ndarray a = zeros({kN});
  binary("add", a, 3.0, &a);  // pending when the copy is made
  ndarray b = lazy_copy(a);
  binary("add", a, 4.0, &a);
  ndarray c = lazy_copy(a);
  assign(a, 9.0);
  EXPECT_EQ(b.item(kN - 1).as_double(), 3.0);
  EXPECT_EQ(c.item(kN - 1).as_double(), 7.0);
  EXPECT_EQ(a.item(0).as_double(), 9.0);
}

TEST_P(CopyOnWriteTest, WritesThroughViewsOfEitherSide) {
  const int64_t base = pool().used();
  ndarray a = iota_array();
  ndarray b = lazy_copy(a);
  ndarray tail = view(a, {Slice{kN / 2, std::nullopt, std::nullopt}});  // a[kN/2:]
  assign(tail, -1.0);
  std::vector<double> expect_a = iota_values();
  for (int64_t i = kN / 2; i < kN; ++i) expect_a[i] = -1.0;
  EXPECT_EQ(a.to_vector<double>(), expect_a);
  EXPECT_EQ(b.to_vector<double>(), iota_values());

  ndarray c = lazy_copy(b);
  ndarray every_other = view(c, {Slice{std::nullopt, std::nullopt, 2}});  // c[::2]
  assign(every_other, 0.5);
  std::vector<double> expect_c = iota_values();
  for (int64_t i = 0; i < kN; i += 2) expect_c[i] = 0.5;
  EXPECT_EQ(c.to_vector<double>(), expect_c);
  EXPECT_EQ(b.to_vector<double>(), iota_values());
  EXPECT_EQ(used(base + 3 * kBytes), base + 3 * kBytes);
}

TEST_P(CopyOnWriteTest, ChainsOfCopiesShareOneAllocation) {
  const int64_t base = pool().used();
  ndarray a = iota_array();
  ndarray b = lazy_copy(a);
  ndarray c = lazy_copy(b);  // a copy of a copy
  ndarray d = lazy_copy(a);
  fence();
  EXPECT_EQ(used(base + kBytes), base + kBytes);
  binary("add", b, 1.0, &b);  // b leaves; a, c and d still share
  fence();
  EXPECT_EQ(used(base + 2 * kBytes), base + 2 * kBytes);
  binary("add", c, 2.0, &c);
  fence();
  EXPECT_EQ(used(base + 3 * kBytes), base + 3 * kBytes);
  binary("add", a, 3.0, &a);  // d is left alone with the old memory
  EXPECT_EQ(a.to_vector<double>(), iota_values(3.0));
  EXPECT_EQ(b.to_vector<double>(), iota_values(1.0));
  EXPECT_EQ(c.to_vector<double>(), iota_values(2.0));
  EXPECT_EQ(d.to_vector<double>(), iota_values());
  EXPECT_EQ(used(base + 4 * kBytes), base + 4 * kBytes);
  binary("add", d, 4.0, &d);  // alone: writes in place
  EXPECT_EQ(d.to_vector<double>(), iota_values(4.0));
  EXPECT_EQ(used(base + 4 * kBytes), base + 4 * kBytes);
}

TEST_P(CopyOnWriteTest, ACopyDroppedBeforeAnyWriteCostsNothing) {
  const int64_t base = pool().used();
  ndarray a = iota_array();
  {
    ndarray b = lazy_copy(a);
    fence();
  }
  binary("add", a, 1.0, &a);
  EXPECT_EQ(a.to_vector<double>(), iota_values(1.0));
  EXPECT_EQ(used(base + kBytes), base + kBytes);
  EXPECT_EQ(pool().peak() >= base + kBytes, true);
  // Dropped before its share even ran: a is written in place once that has run.
  { ndarray b = lazy_copy(a); }
  binary("add", a, 1.0, &a);
  EXPECT_EQ(a.to_vector<double>(), iota_values(2.0));
  EXPECT_EQ(used(base + kBytes), base + kBytes);
  a = ndarray();
  EXPECT_EQ(used(base), base);
}

TEST_P(CopyOnWriteTest, TheMemoryGoesWithItsLastUser) {
  const int64_t base = pool().used();
  ndarray a = iota_array();
  ndarray b = lazy_copy(a);
  fence();
  a = ndarray();  // b alone keeps the memory
  EXPECT_EQ(used(base + kBytes), base + kBytes);
  EXPECT_EQ(b.to_vector<double>(), iota_values());
  binary("add", b, 1.0, &b);
  EXPECT_EQ(b.item(0).as_double(), 1.0);
  EXPECT_EQ(used(base + kBytes), base + kBytes);
  b = ndarray();
  EXPECT_EQ(used(base), base);
}

TEST_P(CopyOnWriteTest, HostWritesSeparateFirst) {
  ndarray a = iota_array();
  ndarray b = lazy_copy(a);
  // What a host write does (Python's `b[0] = 5` on a NumPy view of b): acquire, then write.
  Runtime::get().acquire(b.store());
  testing::at(b.store(), {0}) = 5.0;
  EXPECT_EQ(a.item(0).as_double(), 0.0);
  EXPECT_EQ(b.item(0).as_double(), 5.0);
  Runtime::get().acquire(a.store());
  testing::at(a.store(), {1}) = 7.0;
  EXPECT_EQ(a.item(1).as_double(), 7.0);
  EXPECT_EQ(b.item(1).as_double(), 1.0);
}

TEST_P(CopyOnWriteTest, ViewsThatCannotShareAreCopiedAtOnce) {
  ndarray a = iota_array();
  ndarray odd = view(a, {Slice{1, std::nullopt, 2}});  // a[1::2]: not its whole storage
  ndarray b = lazy_copy(odd);
  assign(a, 0.0);
  std::vector<double> expect(kN / 2);
  for (int64_t i = 0; i < kN / 2; ++i) expect[i] = double(2 * i + 1);
  EXPECT_EQ(b.to_vector<double>(), expect);
  EXPECT_EQ(b.shape(), (Shape{kN / 2}));
  // 2-D transposed view: the copy is C-ordered.
  ndarray m = reshape(arange(Scalar(0.0), Scalar(12.0), Scalar(1.0)), {3, 4});
  ndarray t = lazy_copy(transpose(m));
  EXPECT_EQ(t.shape(), (Shape{4, 3}));
  EXPECT_EQ(t.to_vector<double>(), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(t.strides_bytes(), (Shape{24, 8}));
}

TEST_P(CopyOnWriteTest, ReadOnlySourcesGiveWriteableCopies) {
  ndarray a = iota_array();
  a.store()->lock_read_only();
  ndarray b = lazy_copy(a);
  EXPECT_TRUE(b.store()->writeable());
  binary("add", b, 1.0, &b);
  EXPECT_EQ(b.item(0).as_double(), 1.0);
  EXPECT_EQ(a.item(0).as_double(), 0.0);
}

TEST_P(CopyOnWriteTest, OtherDtypesAndShapes) {
  ndarray m = reshape(arange(Scalar(int64_t{0}), Scalar(int64_t{60}), Scalar(int64_t{1})), {3, 4, 5});
  ndarray m2 = reshape(m, {3, 4, 5});
  ndarray c = lazy_copy(m2);
  assign(view(m2, {int64_t{1}}), Scalar(int64_t{-1}));
  std::vector<int64_t> expect(60);
  std::iota(expect.begin(), expect.end(), 0);
  EXPECT_EQ(c.to_vector<int64_t>(), expect);
  EXPECT_EQ(c.dtype(), DType::Int64);
  ndarray s = full({}, Scalar(2.5));
  ndarray s2 = lazy_copy(s);
  assign(s, 1.0);
  EXPECT_EQ(s2.item().as_double(), 2.5);
  ndarray e = lazy_copy(zeros({0, 3}));
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
}

TEST_P(CopyOnWriteTest, TheReportNamesTheCopiesThatShare) {
  ndarray a = iota_array();
  ndarray b = lazy_copy(a);
  fence();
  const std::string report = pool().live_report();
  EXPECT_NE(report.find("shared until written with"), std::string::npos) << report;
}

// Many copies and writes in flight at once, in a loop: values stay those of a sequential run.
TEST_P(CopyOnWriteTest, ManyCopiesInFlight) {
  const int64_t base = pool().used();
  {
    ndarray a = zeros({kN});
    std::vector<ndarray> copies;
    for (int i = 0; i < 12; ++i) {
      copies.push_back(lazy_copy(a));
      binary("add", (i % 2 ? a : copies.back()), 1.0, i % 2 ? &a : &copies.back());
    }
    // a was written at odd i after copy i: copy i holds the number of odd j < i (plus 1 at even i).
    double a_value = 0;
    for (int i = 0; i < 12; ++i) {
      const double expect = (i % 2) ? a_value : a_value + 1;
      EXPECT_EQ(copies[static_cast<size_t>(i)].item(kN - 1).as_double(), expect) << "copy " << i;
      if (i % 2) a_value += 1;
    }
    EXPECT_EQ(a.item(0).as_double(), a_value);
  }
  EXPECT_EQ(used(base), base);
}

INSTANTIATE_TEST_SUITE_P(Configs, CopyOnWriteTest,
                         ::testing::Values("--auto-config=0 --cpus=2 --test=0 --min-cpu-chunk=1024 --sysmem=64",
                                           "--auto-config=0 --cpus=2 --test --sysmem=64",
                                           "--auto-config=0 --cpus=1 --test=0 --sysmem=64"));

}  // namespace
}  // namespace tessera
