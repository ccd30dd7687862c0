// What a rank learns about itself before the runtime starts: its place in the run (from
// the environment mpirun, srun or another MPI launcher sets), the binding the `tessera`
// launcher asked for, and where its output goes (only rank 0 reaches the terminal unless
// --show-all-ranks asks for every rank, with a prefix).
#pragma once

#include <string_view>

namespace tessera::detail {

/// This process's place in the run, read from the launcher's environment.
struct RankPlacement {
  int rank = 0;
  int ranks = 1;
  int local_rank = 0;   // among the ranks on this node
  int local_ranks = 1;
  bool launched = false;  // started by an MPI or SLURM launcher (even with one rank)
};

/// Reads OpenMPI (OMPI_COMM_WORLD_*), PMIx (PMIX_RANK), SLURM (SLURM_PROCID, SLURM_NTASKS,
/// SLURM_LOCALID) and MPICH/Hydra (PMI_RANK, PMI_SIZE, MPI_LOCALRANKID) variables.
RankPlacement placement_from_environment();

/// Applies this rank's entry of the binding lists the launcher passed (cpu, memory, GPU,
/// NIC); call before any thread or MPI starts. Throws ConfigError for an entry that cannot
/// be applied on this machine.
void apply_bindings(const RankPlacement& placement);

/// Points this rank's stdout/stderr where they belong: rank 0 (or every rank with
/// `show_all`, each line prefixed "[rank N] ") to the terminal, other ranks nowhere.
/// Idempotent.
void setup_rank_output(bool show_all, const RankPlacement& placement);
/// Flushes and restores what setup_rank_output() changed (at exit).
void finish_rank_output();
/// Writes `message` to the terminal's stderr even when this rank's output is silenced.
void write_to_terminal(std::string_view message);

}  // namespace tessera::detail
