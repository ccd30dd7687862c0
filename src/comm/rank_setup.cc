// placement_from_environment: which rank this process is, as the launcher that started it
// says. Every MPI launcher writes its own variables; SLURM's fill in what they leave out.
#include "comm/rank_setup.h"

#include <charconv>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>

#include "config/config.h"

namespace tessera::detail {
namespace {

std::string described(const char* name) { return std::string(name) + "='" + std::getenv(name) + "'"; }

// The whole number in environment variable `name`, at least `minimum`; nullopt when unset.
std::optional<int> read_number(const char* name, int minimum) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  const std::string_view text(value);
  int number = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || number < minimum) {
    throw ConfigError(
        "tessera: " + described(name) + " is not a " +
        (minimum == 0 ? "rank: expected a whole number from 0" : "count: expected a whole number from 1") +
        " (the launcher that started this process sets it)");
  }
  return number;
}

std::optional<int> first_number(std::initializer_list<const char*> names, int minimum) {
  for (const char* name : names) {
    if (auto number = read_number(name, minimum)) return number;
  }
  return std::nullopt;
}

int required_number(const char* name, int minimum, const char* because) {
  if (auto number = read_number(name, minimum)) return *number;
  throw ConfigError(std::string("tessera: ") + because + " is set but " + name +
                    " is not: cannot tell this process's place in the run");
}

// srun sets SLURM_STEP_ID for the tasks of a job step; a batch script or an salloc shell
// has SLURM_PROCID too, but is not one rank of a parallel run.
bool in_slurm_step() {
  return (std::getenv("SLURM_STEP_ID") != nullptr || std::getenv("SLURM_STEPID") != nullptr) &&
         std::getenv("SLURM_PROCID") != nullptr;
}

// How many tasks of the step run on this node: the first of SLURM's per-node lists, at
// this node's index (SLURM_NODEID) when the list differs from node to node.
std::optional<int> slurm_local_ranks() {
  for (const char* name : {"SLURM_STEP_TASKS_PER_NODE", "SLURM_NTASKS_PER_NODE", "SLURM_TASKS_PER_NODE"}) {
    const char* value = std::getenv(name);
    if (value == nullptr) continue;
    std::optional<std::vector<int>> counts = parse_task_counts(value);
    if (!counts) {
      throw ConfigError("tessera: " + described(name) + " is not a list of task counts: expected e.g. 2 or 2(x3),1");
    }
    if (counts->size() == 1) return counts->front();
    const int node = read_number("SLURM_NODEID", 0).value_or(0);
    if (node >= static_cast<int>(counts->size())) {
      throw ConfigError("tessera: " + described("SLURM_NODEID") + " but " + described(name) + " lists only " +
                        std::to_string(counts->size()) + " nodes");
    }
    return (*counts)[static_cast<size_t>(node)];
  }
  return std::nullopt;
}

void check_consistent(const RankPlacement& p) {
  auto fail = [&](const std::string& what) {
    throw ConfigError("tessera: the " + p.source + " launcher's variables disagree: " + what);
  };
  if (!p.ranks_from_mpi && p.rank >= p.ranks) {
    fail("rank " + std::to_string(p.rank) + " of only " + std::to_string(p.ranks) + " ranks");
  }
  if (p.local_rank >= p.local_ranks) {
    fail("local rank " + std::to_string(p.local_rank) + " of only " + std::to_string(p.local_ranks) +
         " ranks on this node");
  }
  if (!p.ranks_from_mpi && p.local_ranks > p.ranks) {
    fail(std::to_string(p.local_ranks) + " ranks on this node but " + std::to_string(p.ranks) + " in all");
  }
}

}  // namespace

RankPlacement placement_from_environment() {
  RankPlacement p;
  std::optional<int> local_rank, local_ranks;
  const bool slurm_step = in_slurm_step();
  if (auto size = read_number("OMPI_COMM_WORLD_SIZE", 1)) {
    p.source = "OpenMPI";
    p.ranks = *size;
    p.rank = required_number("OMPI_COMM_WORLD_RANK", 0, "OMPI_COMM_WORLD_SIZE");
    local_rank = read_number("OMPI_COMM_WORLD_LOCAL_RANK", 0);
    local_ranks = read_number("OMPI_COMM_WORLD_LOCAL_SIZE", 1);
  } else if (auto rank = read_number("PMI_RANK", 0)) {
    p.source = "MPICH";
    p.rank = *rank;
    std::optional<int> size = read_number("PMI_SIZE", 1);
    if (!size && slurm_step) size = first_number({"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}, 1);
    p.ranks = size.value_or(p.rank + 1);
    p.ranks_from_mpi = !size;
    local_rank = read_number("MPI_LOCALRANKID", 0);
    local_ranks = read_number("MPI_LOCALNRANKS", 1);
  } else if (auto pmix_rank = read_number("PMIX_RANK", 0)) {
    p.source = "PMIx";
    p.rank = *pmix_rank;
    std::optional<int> size;
    if (slurm_step) size = first_number({"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}, 1);
    p.ranks = size.value_or(p.rank + 1);
    p.ranks_from_mpi = !size;
  } else if (slurm_step) {
    p.source = "SLURM";
    p.rank = required_number("SLURM_PROCID", 0, "SLURM_STEP_ID");
    std::optional<int> size = first_number({"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}, 1);
    if (!size) {
      throw ConfigError(
          "tessera: SLURM_STEP_ID is set but neither SLURM_STEP_NUM_TASKS nor SLURM_NTASKS "
          "is: cannot tell how many ranks the run has");
    }
    p.ranks = *size;
  } else {
    return p;
  }
  p.launched = true;
  if (slurm_step) {
    if (!local_rank) local_rank = read_number("SLURM_LOCALID", 0);
    if (!local_ranks) local_ranks = slurm_local_ranks();
  }
  p.local_rank = local_rank.value_or(0);
  // A launcher that names the local rank but not the count gives at least this many.
  p.local_ranks = local_ranks.value_or(p.local_rank + 1);
  check_consistent(p);
  return p;
}

}  // namespace tessera::detail
