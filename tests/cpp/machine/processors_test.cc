// The machine described per processor kind: cpu cores from hwloc, GPUs from the CUDA
// runtime in a build with CUDA (none here: this build has no CUDA, or the machine no GPU),
// and no thread teams; --gpus is refused while no GPU runs tasks.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "machine/machine_info.h"

namespace tessera {
namespace {

TEST(ProcessorsTest, TheMachineIsDescribedPerKind) {
  const MachineInfo machine = detect_machine();
  EXPECT_GE(machine.cores, 1);
  EXPECT_EQ(machine.processors(ProcessorKind::CPU), machine.cores);
  EXPECT_EQ(machine.processors(ProcessorKind::GPU), static_cast<int>(machine.gpus.size()));
  EXPECT_EQ(machine.processors(ProcessorKind::OMP), 0);
  if (!machine.gpu_build) {
    EXPECT_TRUE(machine.gpus.empty());
  }
  for (const GpuInfo& gpu : machine.gpus) {
    EXPECT_FALSE(gpu.name.empty());
    EXPECT_GT(gpu.memory_bytes, 0);
  }
}

TEST(ProcessorsTest, AskingForGpusIsRefusedNamingWhatTheBuildHas) {
  MachineInfo machine{4, int64_t{1} << 30, 1};
  try {
    parse_config("--gpus=1", machine);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--gpus=1 asks for GPUs, but this build of tessera has no GPU support"),
              std::string::npos)
        << e.what();
  }
  machine.gpu_build = true;
  machine.gpus = {GpuInfo{0, "a GPU", int64_t{16} << 30}};
  try {
    parse_config("--gpus=1", machine);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("finds 1 GPU here but runs every task on the cpu workers"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tessera
