// The machine one rank runs on, described per processor kind: its cpu cores (hwloc), the
// GPUs the CUDA runtime finds (a build with CUDA only; none otherwise), RAM and NUMA nodes.
// Auto-configuration (config/config.h) sizes the reservation against it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/processor.h"

namespace tessera {

/// One GPU the CUDA runtime reports.
struct GpuInfo {
  int device = 0;  // the CUDA device number
  std::string name;
  int64_t memory_bytes = 0;  // framebuffer memory
};

/// What one rank may use of the machine it runs on.
struct MachineInfo {
  int cores = 1;             // physical cores (PUs when hwloc sees no cores)
  int64_t memory_bytes = 0;  // RAM, capped by a cgroup memory limit
  int numa_nodes = 1;
  int local_ranks = 1;  // ranks sharing this node's cores and memory (1: the rank has them all)
  // The --simd instruction sets the CPU runs, widest first (instruction_sets.h).
  std::vector<std::string> instruction_sets = {"scalar"};
  // The GPUs this rank sees; always empty in a build without CUDA.
  std::vector<GpuInfo> gpus;
  // Whether this build can run GPU code (it was built with CUDA), whatever the machine has.
  bool gpu_build = false;

  /// How many processors of `kind` the machine has for this rank: cores for cpu, GPUs for
  /// gpu, and no thread teams (this runtime has no omp workers).
  int processors(ProcessorKind kind) const;
};

/// Detects this rank's share of the machine with hwloc: cores in the process's CPU
/// binding, total RAM and NUMA nodes; an unbound process shares them with `local_ranks`;
/// the CPU's instruction sets (Highway); and, in a build with CUDA, the GPUs.
MachineInfo detect_machine(int local_ranks = 1);

namespace detail {
/// The GPUs the CUDA runtime reports (machine/gpu/devices.cu; a build with CUDA only).
std::vector<GpuInfo> cuda_devices();
}  // namespace detail

}  // namespace tessera
