// apply_bindings: a rank applies its entry of TESSERA_BIND (the one at its local rank), and
// an entry this machine cannot honour is an error that names the flag and the rank.
#include <gtest/gtest.h>
#include <sched.h>

#include <filesystem>
#include <set>
#include <string>

#include "comm/rank_setup.h"
#include "config/config.h"
#include "scoped_environment.h"

namespace tessera::detail {
namespace {

using testing::ScopedEnvironment;

std::set<int> affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(::sched_getaffinity(0, sizeof set, &set), 0);
  std::set<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.insert(cpu);
  }
  return cpus;
}

// Puts the CPU affinity of every thread back as this thread's was: a binding applies to
// the whole process, the other tests' worker threads included.
class AffinityGuard {
 public:
  AffinityGuard() { ::sched_getaffinity(0, sizeof saved_, &saved_); }
  ~AffinityGuard() {
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      ::sched_setaffinity(std::stoi(task.path().filename().string()), sizeof saved_, &saved_);
    }
  }

 private:
  cpu_set_t saved_;
};

RankPlacement local_rank(int local, int locals) {
  RankPlacement p;
  p.rank = local + 2;  // a rank on a second node, so messages show both numbers
  p.ranks = 2 * locals;
  p.local_rank = local;
  p.local_ranks = locals;
  p.launched = true;
  p.source = "OpenMPI";
  return p;
}

std::string binding_error(const RankPlacement& placement) {
  try {
    apply_bindings(placement);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(RankBindingTest, NothingToApplyWithoutTesseraBind) {
  ScopedEnvironment environment;
  const std::set<int> before = affinity();
  apply_bindings(local_rank(1, 2));
  EXPECT_EQ(affinity(), before);
  EXPECT_FALSE(ScopedEnvironment::get("CUDA_VISIBLE_DEVICES"));
}

TEST(RankBindingTest, CpuEntryOfTheLocalRankBindsTheProcess) {
  const std::set<int> available = affinity();
  if (available.size() < 2) GTEST_SKIP() << "needs two CPUs to tell the entries apart";
  const int first = *available.begin();
  const int last = *available.rbegin();
  ScopedEnvironment environment;
  AffinityGuard guard;
  environment.set("TESSERA_BIND", "cpu=" + std::to_string(first) + "/" + std::to_string(last));
  apply_bindings(local_rank(1, 2));
  EXPECT_EQ(affinity(), std::set<int>{last});
  // Auto-configuration then counts only the bound cores, without splitting them again.
  EXPECT_EQ(detect_machine(2).cores, 1);
  apply_bindings(local_rank(0, 2));
  EXPECT_EQ(affinity(), std::set<int>{first});
}

TEST(RankBindingTest, GpuAndNicEntriesSetTheVariablesLibrariesRead) {
  ScopedEnvironment environment;
  environment.set("TESSERA_BIND", "gpu=0,1/2,3;nic=lo/lo").set("OMPI_MCA_btl_tcp_if_exclude", "docker0");
  apply_bindings(local_rank(1, 2));
  EXPECT_EQ(ScopedEnvironment::get("CUDA_VISIBLE_DEVICES"), "2,3");
  EXPECT_EQ(ScopedEnvironment::get("UCX_NET_DEVICES"), "lo");
  EXPECT_EQ(ScopedEnvironment::get("OMPI_MCA_btl_tcp_if_include"), "lo");
  EXPECT_FALSE(ScopedEnvironment::get("OMPI_MCA_btl_tcp_if_exclude"));  // both is an error
}

TEST(RankBindingTest, MemoryEntryOnNodeZero) {
  ScopedEnvironment environment;
  environment.set("TESSERA_BIND", "mem=0/0");
  EXPECT_EQ(binding_error(local_rank(1, 2)), "");
}

TEST(RankBindingTest, EntriesThisMachineLacksNameTheFlagAndTheRank) {
  ScopedEnvironment environment;
  AffinityGuard guard;
  environment.set("TESSERA_BIND", "cpu=0/100000");
  const std::string cpu = binding_error(local_rank(1, 2));
  EXPECT_EQ(cpu.rfind("tessera: cannot apply --cpu-bind entry '100000' on rank 3 (local rank 1): "
                      "CPU 100000 is not available here (this machine offers CPUs ",
                      0),
            0u)
      << cpu;
  environment.set("TESSERA_BIND", "mem=0/4000");
  EXPECT_EQ(binding_error(local_rank(1, 2))
                .rfind("tessera: cannot apply --mem-bind entry '4000' on rank 3 (local rank 1): NUMA "
                       "node 4000 is not available here (this machine offers NUMA nodes ",
                       0),
            0u);
  environment.set("TESSERA_BIND", "nic=lo/no_such_nic0");
  EXPECT_EQ(binding_error(local_rank(1, 2)),
            "tessera: cannot apply --nic-bind entry 'no_such_nic0' on rank 3 (local rank 1): no "
            "network interface or RDMA device 'no_such_nic0' on this machine");
}

TEST(RankBindingTest, ARankWithoutAnEntryIsAnError) {
  ScopedEnvironment environment;
  environment.set("TESSERA_BIND", "gpu=0/1");
  EXPECT_EQ(binding_error(local_rank(2, 3)),
            "tessera: --gpu-bind has 2 /-separated entries, none for rank 4 (local rank 2 of 3 on "
            "its node): give one entry per rank on a node");
}

TEST(RankBindingTest, MalformedTesseraBindIsAnError) {
  ScopedEnvironment environment;
  environment.set("TESSERA_BIND", "cpus=0/1");
  EXPECT_NE(binding_error(local_rank(0, 2)).find("TESSERA_BIND: cannot read 'cpus=0/1'"), std::string::npos);
  environment.set("TESSERA_BIND", "cpu=0/x");
  EXPECT_NE(binding_error(local_rank(0, 2)).find("TESSERA_BIND: invalid value '0/x' for --cpu-bind"),
            std::string::npos);
}

}  // namespace
}  // namespace tessera::detail
