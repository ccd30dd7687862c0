// The library interface (tessera/library.h): passes run over every flushed window in the
// order libraries registered, a pass may take its own operations out, the write hook sees
// every storage an operation writes, a name registers once, and the start hook sees the
// running runtime. The NumPy library registers through the same interface.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "data/store.h"
#include "numeric/library.h"
#include "runtime/operation.h"
#include "runtime_fixture.h"
#include "tessera/library.h"
#include "tessera/task.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

const char* kConfig = "--auto-config=0 --cpus=2 --test=0 --min-cpu-chunk=1024 --sysmem=64";
constexpr int64_t kN = 1 << 14;

// Registrations last for the process: each test library acts only while its test says so.
bool g_active = false;
std::vector<std::string> g_log;
std::vector<const detail::Storage*> g_written;

void register_test_libraries() {
  static const bool registered = [] {
    for (const char* name : {"first", "second"}) {
      Library lib;
      lib.name = std::string("library-test-") + name;
      lib.passes.push_back({"log", [name](Window& w) {
                              if (!g_active) return;
                              // The first library takes out the operations named "skipped".
                              if (std::string(name) == "first")
                                for (auto& op : w.operations())
                                  if (op && op->name == "skipped") op.reset();
                              size_t live = 0;
                              for (const auto& op : w.operations()) live += op != nullptr;
                              g_log.push_back(std::string(name) + ":" + std::to_string(live));
                            }});
      if (std::string(name) == "second")
        lib.before_write = [](const detail::Storage& s) {
          if (g_active) g_written.push_back(&s);
        };
      register_library(std::move(lib));
    }
    return true;
  }();
  (void)registered;
  g_log.clear();
  g_written.clear();
  g_active = true;
}

struct Inactive {
  ~Inactive() { g_active = false; }
};

Task fill_task(const char* name) {
  return Task::unregistered(name, [](TaskContext& ctx) {
    auto y = ctx.array(0).view<double, 1>();
    for (int64_t i = 0; i < y.extent(0); ++i) y(i) = ctx.scalar(0).as_double();
  });
}

TEST(LibraryTest, PassesRunInRegistrationOrderAndMayTakeTheirOperationsOut) {
  testing::ScopedConfig config(kConfig);
  Inactive off;
  ndarray a = zeros({kN}), b = zeros({kN}), c = zeros({kN});
  fence();
  register_test_libraries();
  launch(fill_task("kept"), {out(a)}, {1.0});
  launch(fill_task("skipped"), {out(b)}, {2.0});
  launch(fill_task("kept"), {out(c)}, {3.0});
  fence();
  ASSERT_EQ(g_log, (std::vector<std::string>{"first:2", "second:2"}));
  EXPECT_EQ(a.item(kN - 1).as_double(), 1.0);
  EXPECT_EQ(b.item(kN - 1).as_double(), 0.0) << "the operation the pass took out ran";
  EXPECT_EQ(c.item(kN - 1).as_double(), 3.0);
}

TEST(LibraryTest, TheWriteHookSeesWhatEachOperationWritesAndNothingItOnlyReads) {
  testing::ScopedConfig config(kConfig);
  Inactive off;
  ndarray x = ones({kN}), y = zeros({kN});
  fence();
  register_test_libraries();
  Task copy = Task::unregistered("copy", [](TaskContext& ctx) {
    auto out = ctx.array(0).view<double, 1>();
    auto in = ctx.array(1).view<const double, 1>();
    for (int64_t i = 0; i < out.extent(0); ++i) out(i) = in(i);
  });
  launch(copy, {out(y), in(x)}, {}, {align(0, 1)});
  g_active = false;
  const detail::Storage* written = y.store()->storage().get();
  const detail::Storage* read = x.store()->storage().get();
  EXPECT_NE(std::find(g_written.begin(), g_written.end(), written), g_written.end());
  EXPECT_EQ(std::find(g_written.begin(), g_written.end(), read), g_written.end());
  EXPECT_EQ(y.item(0).as_double(), 1.0);
}

TEST(LibraryTest, ANameRegistersOnceAndStartsWithTheRunningRuntime) {
  testing::ScopedConfig config(kConfig);
  static int starts = 0;
  static int cpus = 0;
  Library lib;
  lib.name = "library-test-start";
  lib.start = [](const RuntimeInfo& info) {
    ++starts;
    cpus = info.cpus;
  };
  register_library(lib);
  register_library(lib);
  EXPECT_EQ(starts, 1);
  EXPECT_EQ(cpus, 2);
  const auto names = registered_libraries();
  EXPECT_EQ(std::count(names.begin(), names.end(), "library-test-start"), 1);
}

TEST(LibraryTest, AStartHookThatRefusesTheConfigurationRaisesAtRegistration) {
  testing::ScopedConfig config(kConfig);
  Library lib;
  lib.name = "library-test-refuses";
  lib.start = [](const RuntimeInfo&) { throw ConfigError("library-test-refuses: needs a GPU"); };
  EXPECT_THROW(register_library(lib), ConfigError);
}

TEST(LibraryTest, TheNumpyLibraryRegistersThroughTheInterface) {
  testing::ScopedConfig config(kConfig);
  ndarray a = ones({8});
  ndarray b = a + a;
  fence();
  const auto names = registered_libraries();
  EXPECT_NE(std::find(names.begin(), names.end(), "numpy"), names.end());
  EXPECT_EQ(b.item(0).as_double(), 2.0);
}

TEST(LibraryTest, ALibraryNeedsAName) { EXPECT_THROW(register_library(Library{}), ValueError); }

}  // namespace
}  // namespace tessera
