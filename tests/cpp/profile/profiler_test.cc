// --profile end to end in C++: the runtime records while it runs and writes
// <logdir>/tessera_<rank>.prof when it stops, with every lane, operation names and the
// caller's provenance, tiles, dependences and pool usage; the rank comes from MPI or SLURM.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <thread>

#include "../runtime/runtime_fixture.h"
#include "observe/observer.h"
#include "profile/profiler.h"
#include "profile/trace.h"
#include "tessera/tessera.h"

namespace tessera::detail {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("tessera-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;  // not created: the profiler makes --logdir when it is missing
}

TEST(ProfilerTest, OffInstallsNoObserver) {
  testing::ScopedConfig config("--auto-config=0 --cpus=2");
  EXPECT_EQ(observer(), nullptr);
}

TEST(ProfilerTest, TheRuntimeWritesItsTraceWhenItStops) {
  const fs::path dir = fresh_dir("profile");
  {
    testing::ScopedConfig config("--auto-config=0 --cpus=2 --min-cpu-chunk=1024 --profile --logdir=" + dir.string());
    EXPECT_NE(observer(), nullptr);
    Runtime::set_provenance("prog.cc:7");
    ndarray a = ones({1 << 16});
    fence();  // the window would fuse the fill into the multiply
    Runtime::set_provenance("prog.cc:8");
    ndarray b = a * 2.0;
    // A task held until the sum is issued reads and writes b: the sum must wait for it.
    testing::Gate gate;
    Runtime::get().submit(std::make_shared<testing::LambdaOp>(
        "held", detail::Shape{1 << 16}, std::vector{testing::updates(b.store())},
        [&gate](const detail::Rect&) { gate.wait(); }, true));
    Runtime::get().flush();
    ndarray c = sum(b);
    Runtime::get().flush();
    // The sum is analysed while the held task still runs: it gets an edge to it.
    while (Runtime::get().unanalysed() > 0) std::this_thread::yield();
    gate.open();
    EXPECT_EQ(c.item().as_double(), 2.0 * (1 << 16));
    Runtime::set_provenance("");
  }
  EXPECT_EQ(observer(), nullptr);
  const Trace t = read_trace_file((dir / "tessera_0.prof").string());
  fs::remove_all(dir);

  std::vector<std::string> lanes;
  for (const Lane& l : t.lanes) lanes.push_back(l.name);
  EXPECT_EQ(lanes, (std::vector<std::string>{"worker 0", "worker 1", "utility 0", "program", "channel", "SYSMEM"}));

  bool ones_at_7 = false, multiply_at_8 = false;
  for (const OpInfo& op : t.ops) {
    ones_at_7 |= op.provenance == "prog.cc:7";
    multiply_at_8 |= op.name == "multiply" && op.provenance == "prog.cc:8" && op.domain == "(65536,)";
  }
  EXPECT_TRUE(ones_at_7);
  EXPECT_TRUE(multiply_at_8);

  int tasks = 0, analyses = 0, fences = 0;
  for (const Span& s : t.spans) {
    EXPECT_LE(s.begin, s.end);
    if (s.kind == SpanKind::Task) {
      ++tasks;
      EXPECT_NE(t.op(s.op), nullptr);
      EXPECT_EQ(s.detail.front(), '[');
    }
    analyses += s.kind == SpanKind::Analysis;
    fences += s.kind == SpanKind::Wait && s.detail == "sync point";
  }
  EXPECT_GE(tasks, 3);  // three operations, split into tiles
  EXPECT_GE(analyses, 3);
  EXPECT_GE(fences, 1);                 // c.item() waits
  EXPECT_FALSE(t.dependences.empty());  // the sum waits for b's tiles

  int64_t peak = 0;
  for (const MemorySample& m : t.memory) peak = std::max(peak, m.used);
  EXPECT_GE(peak, int64_t{2} << 19);  // a and b: 512 KiB each
  bool has_cpus = false;
  for (const auto& [key, value] : t.meta) has_cpus |= key == "cpus" && value == "2";
  EXPECT_TRUE(has_cpus);
}

TEST(ProfilerTest, RankFromTheLauncherEnvironment) {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) ::unsetenv(var);
  EXPECT_EQ(rank_from_environment(), 0);
  ::setenv("SLURM_PROCID", "3", 1);
  EXPECT_EQ(rank_from_environment(), 3);
  ::setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  EXPECT_EQ(rank_from_environment(), 1);
  ::setenv("OMPI_COMM_WORLD_RANK", "x", 1);
  EXPECT_EQ(rank_from_environment(), 3);
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) ::unsetenv(var);
  EXPECT_EQ(profile_path("/tmp/run", 2), "/tmp/run/tessera_2.prof");
}

}  // namespace
}  // namespace tessera::detail
