// What a rank learns about itself before the runtime starts: its place in the run (from
// the environment mpirun, srun or another MPI launcher sets), the binding the `tessera`
// launcher asked for, and where its output goes (only rank 0 reaches the terminal unless
// --show-all-ranks asks for every rank, with a prefix).
#pragma once

#include <string>
#include <string_view>

namespace tessera::detail {

/// This process's place in the run, read from the launcher's environment.
struct RankPlacement {
  int rank = 0;
  int ranks = 1;
  int local_rank = 0;  // among the ranks on this node
  int local_ranks = 1;
  bool launched = false;  // started by an MPI or SLURM launcher (even with one rank)
  // Only PMIx named this rank and nothing said how many there are: `ranks` is then a lower
  // bound (rank + 1) and MPI_Comm_size gives the count.
  bool ranks_from_mpi = false;
  std::string source;  // "OpenMPI", "MPICH", "PMIx", "SLURM"; empty when not launched
};

/// Reads OpenMPI (OMPI_COMM_WORLD_*), MPICH/Hydra (PMI_RANK, PMI_SIZE, MPI_LOCALRANKID,
/// MPI_LOCALNRANKS), PMIx (PMIX_RANK) and SLURM job-step (SLURM_PROCID, SLURM_NTASKS,
/// SLURM_LOCALID, SLURM_*TASKS_PER_NODE with SLURM_NODEID) variables, in that order; SLURM
/// fills in what an MPI launcher leaves out. SLURM counts only inside a job step (srun sets
/// SLURM_STEP_ID), not in a batch script or salloc shell. Throws ConfigError naming a
/// malformed or inconsistent variable.
RankPlacement placement_from_environment();

/// Applies this rank's entry of the binding lists the launcher passed in TESSERA_BIND
/// (config/binding_lists.h): cpu → the process's CPU binding, mem → its NUMA memory
/// binding, gpu → CUDA_VISIBLE_DEVICES, nic → OMPI_MCA_btl_tcp_if_include and
/// UCX_NET_DEVICES. Call before any thread or MPI starts. Throws ConfigError naming the flag
/// and the rank for an entry that cannot be applied on this machine.
void apply_bindings(const RankPlacement& placement);

/// Points this rank's stdout/stderr where they belong: rank 0 (or every rank with
/// `show_all`, each line prefixed "[rank N] ") to the terminal, other ranks nowhere.
/// Changes nothing with one rank. Idempotent; registers finish_rank_output() to run at exit.
void setup_rank_output(bool show_all, const RankPlacement& placement);
/// Flushes what the program wrote, forwards the last prefixed lines and stops forwarding
/// (at exit; safe to call more than once). A silenced rank stays silenced.
void finish_rank_output();
/// Writes `message` to the terminal's stderr even when this rank's output is silenced, after
/// the lines this rank wrote before it.
void write_to_terminal(std::string_view message);

}  // namespace tessera::detail
