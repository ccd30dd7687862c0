// detect_machine: the cores, RAM and NUMA nodes that auto-configuration sizes the
// reservation against, seen through the process's CPU binding and cgroup memory limit, the
// instruction sets --simd chooses among, and the GPUs of a build with CUDA.
#include <hwloc.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>

#include "build_config.h"
#include "config/instruction_sets.h"
#include "machine/machine_info.h"

namespace tessera {
namespace {

// The limit in one cgroup memory file, or 0 for none ("max", or v1's huge number).
int64_t read_memory_limit(const std::string& path) {
  std::ifstream file(path);
  std::string text;
  if (!(file >> text) || text == "max") return 0;
  try {
    int64_t limit = std::stoll(text);
    return limit > 0 && limit < (int64_t{1} << 60) ? limit : 0;
  } catch (const std::exception&) {
    return 0;  // an unreadable limit is no limit
  }
}

// The tightest memory limit on the process's cgroup and its ancestors (v2 and v1, as
// listed in /proc/self/cgroup), or 0 when there is none. Batch systems such as SLURM
// confine a job's memory this way.
int64_t cgroup_memory_limit() {
  int64_t tightest = 0;
  std::ifstream cgroups("/proc/self/cgroup");
  for (std::string line; std::getline(cgroups, line);) {
    // Lines read "id:controllers:path"; v2 has empty controllers.
    size_t first = line.find(':');
    size_t second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    std::string controllers = line.substr(first + 1, second - first - 1);
    std::string root, file;
    if (controllers.empty()) {
      root = "/sys/fs/cgroup";
      file = "/memory.max";
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      root = "/sys/fs/cgroup/memory";
      file = "/memory.limit_in_bytes";
    } else {
      continue;
    }
    if (line.compare(second + 1, 1, "/") != 0) continue;
    for (std::string path = line.substr(second + 1);; path.resize(path.rfind('/'))) {
      if (path == "/") path.clear();
      int64_t limit = read_memory_limit(root + path + file);
      if (limit > 0 && (tightest == 0 || limit < tightest)) tightest = limit;
      if (path.empty()) break;
    }
  }
  return tightest;
}

// The RAM the operating system manages. Preferred to hwloc's sum over NUMA nodes, which
// misses memory that some virtual machines add outside any node.
int64_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? int64_t{pages} * page_size : 0;
}

// Cores, and whether the process may run on all of them.
struct CoreCount {
  int bound = 0;
  bool narrowed = false;
};

CoreCount count_cores(hwloc_topology_t topology) {
  hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topology);
  hwloc_bitmap_t binding = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topology, binding, 0) != 0) hwloc_bitmap_copy(binding, allowed);
  hwloc_bitmap_and(binding, binding, allowed);

  // Count cores, not hyperthreads: a worker per hyperthread slows dense kernels down.
  hwloc_obj_type_t unit = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  CoreCount count;
  const int units = hwloc_get_nbobjs_by_type(topology, unit);
  for (int i = 0; i < units; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topology, unit, i);
    if (!hwloc_bitmap_intersects(obj->cpuset, allowed)) continue;
    if (hwloc_bitmap_intersects(obj->cpuset, binding)) {
      ++count.bound;
    } else {
      count.narrowed = true;
    }
  }
  hwloc_bitmap_free(binding);
  return count;
}

}  // namespace

MachineInfo detect_machine(int local_ranks) {
  local_ranks = std::max(1, local_ranks);
  MachineInfo machine;
  machine.local_ranks = local_ranks;
  hwloc_topology_t topology;
  bool narrowed = false;
  machine.memory_bytes = physical_memory();
  const bool have_topology = hwloc_topology_init(&topology) == 0;
  if (have_topology && hwloc_topology_load(topology) == 0) {
    CoreCount cores = count_cores(topology);
    machine.cores = std::max(1, cores.bound);
    narrowed = cores.narrowed;
    machine.numa_nodes = std::max(1, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE));
    if (machine.memory_bytes == 0) {
      machine.memory_bytes = static_cast<int64_t>(hwloc_get_root_obj(topology)->total_memory);
    }
  } else {
    machine.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  if (have_topology) hwloc_topology_destroy(topology);
  if (int64_t limit = cgroup_memory_limit(); limit > 0 && limit < machine.memory_bytes) {
    machine.memory_bytes = limit;
  }
  // Ranks that the launcher bound to their own cores already see only those; ranks that
  // share the whole node split it, so that together they do not ask for more than it has.
  if (!narrowed) machine.cores = std::max(1, machine.cores / local_ranks);
  machine.memory_bytes /= local_ranks;
  machine.instruction_sets = supported_instruction_sets();
  machine.gpu_build = kCudaBuild;
  if constexpr (kCudaBuild) machine.gpus = detail::cuda_devices();
  return machine;
}

int MachineInfo::processors(ProcessorKind kind) const {
  switch (kind) {
    case ProcessorKind::CPU: return cores;
    case ProcessorKind::GPU: return static_cast<int>(gpus.size());
    case ProcessorKind::OMP: return 0;
  }
  return 0;
}

}  // namespace tessera
