// apply_bindings: each rank takes its entry of the binding lists in TESSERA_BIND (the one at
// its local rank) and binds itself: CPUs and NUMA memory through hwloc, GPUs and network
// interfaces through the variables that CUDA, Open MPI and UCX read when they start.
#include <hwloc.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "comm/rank_setup.h"
#include "config/binding_lists.h"
#include "config/config.h"

namespace tessera::detail {
namespace {

// Where an entry came from, for messages: "--cpu-bind entry '0-3' of rank 1 (local rank 1)".
struct EntryContext {
  std::string kind;
  std::string entry;
  const RankPlacement* placement;

  [[noreturn]] void fail(const std::string& problem) const {
    std::string who = "rank " + std::to_string(placement->rank);
    if (placement->local_rank != placement->rank) {
      who += " (local rank " + std::to_string(placement->local_rank) + ")";
    }
    throw ConfigError("tessera: cannot apply --" + kind + "-bind entry '" + entry + "' on " + who + ": " + problem);
  }
};

struct Topology {
  hwloc_topology_t handle = nullptr;
  Topology() {
    if (hwloc_topology_init(&handle) != 0 || hwloc_topology_load(handle) != 0) {
      throw ConfigError("tessera: cannot bind: hwloc could not read this machine's topology");
    }
  }
  ~Topology() { hwloc_topology_destroy(handle); }
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;
};

struct Bitmap {
  hwloc_bitmap_t bits = hwloc_bitmap_alloc();
  ~Bitmap() { hwloc_bitmap_free(bits); }
  Bitmap() = default;
  Bitmap(const Bitmap&) = delete;
  Bitmap& operator=(const Bitmap&) = delete;
};

std::string list_of(hwloc_const_bitmap_t bits) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bits) < 0 || text == nullptr) return "?";
  std::string result(text);
  std::free(text);
  return result;
}

// The entry's index list as a bitmap, checked against what this machine offers.
void fill_bitmap(const EntryContext& context, hwloc_const_bitmap_t offered, const char* what, Bitmap& out) {
  const std::vector<IndexRange> ranges = parse_index_list(context.entry).value();
  for (const IndexRange& range : ranges) {
    for (int64_t index = range.first; index <= range.last; ++index) {
      if (!hwloc_bitmap_isset(offered, static_cast<unsigned>(index))) {
        context.fail(std::string(what) + " " + std::to_string(index) + " is not available here (this machine offers " +
                     what + "s " + list_of(offered) + ")");
      }
    }
    hwloc_bitmap_set_range(out.bits, static_cast<unsigned>(range.first), static_cast<int>(range.last));
  }
}

void bind_cpus(const EntryContext& context, Topology& topology) {
  Bitmap cpus;
  fill_bitmap(context, hwloc_topology_get_allowed_cpuset(topology.handle), "CPU", cpus);
  // Every thread of the process, including any a library started before the runtime.
  if (hwloc_set_cpubind(topology.handle, cpus.bits, HWLOC_CPUBIND_PROCESS) != 0) {
    context.fail(std::string("binding the process failed: ") + std::strerror(errno));
  }
}

void bind_memory(const EntryContext& context, Topology& topology) {
  Bitmap offered;
  hwloc_obj_t node = nullptr;
  while ((node = hwloc_get_next_obj_by_type(topology.handle, HWLOC_OBJ_NUMANODE, node))) {
    hwloc_bitmap_set(offered.bits, node->os_index);
  }
  Bitmap nodes;
  fill_bitmap(context, offered.bits, "NUMA node", nodes);
  // Linux binds memory per thread: threads started after this call inherit the policy.
  if (hwloc_set_membind(topology.handle, nodes.bits, HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_BYNODESET) == 0) {
    return;
  }
  const int error = errno;
  // With one NUMA node all memory is already there; some containers forbid the call.
  if (hwloc_bitmap_isequal(nodes.bits, offered.bits)) return;
  context.fail(std::string("binding memory failed: ") + std::strerror(error));
}

bool path_exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  for (size_t start = 0;;) {
    size_t comma = list.find(',', start);
    names.push_back(list.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

void bind_network(const EntryContext& context) {
  std::string tcp_interfaces;
  for (const std::string& name : split_names(context.entry)) {
    const std::string device = name.substr(0, name.find(':'));  // UCX's mlx5_0:1 names a port
    const bool interface = name == device && path_exists("/sys/class/net/" + name);
    if (interface) {
      tcp_interfaces += (tcp_interfaces.empty() ? "" : ",") + name;
    } else if (!path_exists("/sys/class/infiniband/" + device)) {
      context.fail("no network interface or RDMA device '" + name + "' on this machine");
    }
  }
  // Read by MPI and UCX when MPI starts, which is after this call.
  ::setenv("UCX_NET_DEVICES", context.entry.c_str(), 1);
  if (!tcp_interfaces.empty()) {
    ::setenv("OMPI_MCA_btl_tcp_if_include", tcp_interfaces.c_str(), 1);
    ::unsetenv("OMPI_MCA_btl_tcp_if_exclude");  // Open MPI refuses both at once
  }
}

}  // namespace

void apply_bindings(const RankPlacement& placement) {
  const char* text = std::getenv(kBindVariable);
  if (text == nullptr || *text == '\0') return;
  const BindingLists lists = decode_bindings(text);
  std::unique_ptr<Topology> topology;
  for (std::string_view kind : kBindingKinds) {
    auto it = lists.find(std::string(kind));
    if (it == lists.end()) continue;
    const std::vector<std::string>& entries = it->second;
    if (placement.local_rank >= static_cast<int>(entries.size())) {
      throw ConfigError("tessera: --" + std::string(kind) + "-bind has " + std::to_string(entries.size()) +
                        " /-separated entries, none for rank " + std::to_string(placement.rank) + " (local rank " +
                        std::to_string(placement.local_rank) + " of " + std::to_string(placement.local_ranks) +
                        " on its node): give one entry per rank on a node");
    }
    const EntryContext context{std::string(kind), entries[placement.local_rank], &placement};
    if (kind == "gpu") {
      ::setenv("CUDA_VISIBLE_DEVICES", context.entry.c_str(), 1);
    } else if (kind == "nic") {
      bind_network(context);
    } else {
      if (!topology) topology = std::make_unique<Topology>();
      if (kind == "cpu") {
        bind_cpus(context, *topology);
      } else {
        bind_memory(context, *topology);
      }
    }
  }
}

}  // namespace tessera::detail
