// tessera::ranks() (tessera/runtime.h): the number of ranks a library sees from C++ at any
// time, the same as its start hook is told (tessera/library.h RuntimeInfo).
#include <gtest/gtest.h>

#include "runtime_fixture.h"
#include "tessera/library.h"
#include "tessera/runtime.h"

namespace tessera {
namespace {

TEST(RanksTest, TheRanksAreWhatALibrarysStartHookIsTold) {
  testing::ScopedConfig config("--auto-config=0 --cpus=2 --test=0");
  static int told = -1;
  Library lib;
  lib.name = "ranks-test";
  lib.start = [](const RuntimeInfo& info) { told = info.ranks; };
  register_library(lib);
  ASSERT_EQ(told, 1) << "a test binary runs on one rank";
  EXPECT_EQ(ranks(), told);
}

}  // namespace
}  // namespace tessera
