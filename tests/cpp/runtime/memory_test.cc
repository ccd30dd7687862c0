// Storage lifetime and pool accounting through the runtime: a storage returns to SYSMEM when
// the last handle (array or view) goes and no pending task uses it; an allocation that does
// not fit raises OutOfMemoryError at the program's next sync point, naming SYSMEM, the bytes
// and the operation, and the program can go on.
#include <gtest/gtest.h>

#include "runtime_fixture.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

using detail::Rect;
using detail::Runtime;
using testing::Gate;
using testing::LambdaOp;

constexpr int64_t kN = 1 << 16;  // 512 KiB of float64
constexpr int64_t kBytes = kN * 8;
const char* kConfig = "--auto-config=0 --cpus=2 --test=0 --min-cpu-chunk=1024 --sysmem=64";

TEST(PoolAccountingTest, StorageReturnsWhenTheLastHandleGoes) {
  testing::ScopedConfig config(kConfig);
  auto& pool = Runtime::get().sysmem();
  const int64_t base = pool.used();
  {
    ndarray a = ones({kN});
    ndarray b = a * 2.0;
    fence();
    EXPECT_EQ(pool.used(), base + 2 * kBytes);
    a = ndarray();
    EXPECT_EQ(testing::used_when_settled(pool, base + kBytes), base + kBytes);
    EXPECT_EQ(b.item(kN - 1).as_double(), 2.0);
  }
  EXPECT_EQ(testing::used_when_settled(pool, base), base);
}

// Repeats create / fence / drop: right after a fence nothing of the runtime may still hold
// the operations that used the array.
TEST(PoolAccountingTest, NothingHoldsAnArrayAfterAFence) {
  testing::ScopedConfig config(kConfig);
  auto& pool = Runtime::get().sysmem();
  const int64_t base = pool.used();
  int late = 0;
  for (int i = 0; i < 300; ++i) {
    ndarray a = full({kN}, Scalar(double(i)));
    fence();
    a = ndarray();
    if (pool.used() != base) ++late;
    fence();
  }
  EXPECT_EQ(late, 0) << "storages freed late in " << late << " of 300 rounds";
  EXPECT_EQ(pool.used(), base);
}

TEST(PoolAccountingTest, ViewsKeepTheStorage) {
  testing::ScopedConfig config(kConfig);
  auto& pool = Runtime::get().sysmem();
  const int64_t base = pool.used();
  ndarray a = ones({kN});
  ndarray v = view(a, {Slice{10, 20, std::nullopt}});
  fence();
  a = ndarray();
  EXPECT_EQ(pool.used(), base + kBytes);
  EXPECT_EQ(v.item(3).as_double(), 1.0);
  v = ndarray();
  EXPECT_EQ(testing::used_when_settled(pool, base), base);
}

TEST(PoolAccountingTest, PendingTasksKeepTheirStoragesUntilTheyRun) {
  testing::Watchdog dog(std::chrono::seconds(60), "PoolAccountingTest.PendingTasksKeepTheirStoragesUntilTheyRun");
  testing::ScopedConfig config(kConfig);
  auto& pool = Runtime::get().sysmem();
  const int64_t base = pool.used();
  ndarray a = ones({kN});
  fence();
  Gate gate;
  std::atomic<double> seen{0};
  auto store = a.store();
  Runtime::get().submit(std::make_shared<LambdaOp>(
      "slow reader", detail::Shape{kN}, std::vector{testing::reads(a.store())},
      [&gate, &seen, store](const Rect&) {
        gate.wait();
        seen = testing::at(store, {kN - 1});
      },
      true));
  store.reset();
  Runtime::get().flush();
  a = ndarray();
  EXPECT_EQ(pool.used(), base + kBytes) << "freed while a task still reads it";
  gate.open();
  fence();
  EXPECT_EQ(seen.load(), 1.0);
  EXPECT_EQ(testing::used_when_settled(pool, base), base);
}

TEST(PoolAccountingTest, TemporariesAreFreedAfterUse) {
  testing::ScopedConfig config(kConfig);
  auto& pool = Runtime::get().sysmem();
  const int64_t base = pool.used();
  ndarray a = ones({kN});
  for (int i = 0; i < 20; ++i) a = a * 1.5 + 1.0;
  fence();
  EXPECT_EQ(testing::used_when_settled(pool, base + kBytes), base + kBytes);
}

TEST(OutOfMemoryTest, RaisesAtTheCallNamingSysmemTheBytesAndTheOperation) {
  testing::Watchdog dog(std::chrono::seconds(60), "OutOfMemoryTest.RaisesAtTheCallNamingSysmemTheBytesAndTheOperation");
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=0 --sysmem=1");
  ndarray keep = ones({1000});
  ndarray big;
  try {
    big = zeros({200000});  // 1.6 MB in a 1 MiB pool: the call that runs out raises
    FAIL() << "no OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("SYSMEM"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1600000 bytes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(200000,) float64"), std::string::npos) << msg;
    EXPECT_NE(msg.find("8000 bytes for store of shape (1000,) float64"), std::string::npos) << msg;
  }
  // The program goes on: the failed array was never made, the others work.
  EXPECT_EQ(big.store(), nullptr);
  ndarray c = keep + 1.0;
  EXPECT_EQ(c.item(999).as_double(), 2.0);
  ndarray d = zeros({100000});  // fits now
  EXPECT_EQ(d.item(99999).as_double(), 0.0);
}

TEST(OutOfMemoryTest, MessageNamesTheOperationsProvenance) {
  testing::Watchdog dog(std::chrono::seconds(60), "OutOfMemoryTest.MessageNamesTheOperationsProvenance");
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=0 --sysmem=1");
  Runtime::set_provenance("model.cc:77");
  try {
    ndarray big = zeros({200000});
    FAIL() << "no OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("model.cc:77"), std::string::npos) << e.what();
  }
  Runtime::set_provenance("");
}

// NumPy holds at most three arrays at a time here (a, b and the new a): 3 MiB of the 4.
TEST(OutOfMemoryTest, ProgramsThatFitUnderNumPyFit) {
  testing::Watchdog dog(std::chrono::seconds(60), "OutOfMemoryTest.ProgramsThatFitUnderNumPyFit");
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=0 --min-cpu-chunk=1024 --sysmem=4");
  const int64_t n = (int64_t{1} << 20) / 8;  // 1 MiB arrays
  ndarray a = ones({n});
  fence();
  double expect = 1;
  EXPECT_NO_THROW({
    for (int i = 0; i < 6; ++i) {
      ndarray b = a + 1.0;
      a = b * b;  // b is read twice: it cannot be fused away
      expect = (expect + 1) * (expect + 1);
    }
    fence();
  });
  EXPECT_EQ(a.item(0).as_double(), expect);
}

}  // namespace
}  // namespace tessera
