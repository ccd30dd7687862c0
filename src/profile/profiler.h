// Profiling sessions: --profile installs a Recorder when the runtime starts, and the
// runtime's finish writes `<logdir>/tessera_<rank>.prof` (DESIGN §9).
#pragma once

#include <string>

#include "config/config.h"

namespace tessera::detail {

/// Starts recording when `config.profile` is set: installs a Recorder as the runtime's
/// observer and names the calling thread the program thread. Call before the runtime's
/// threads start.
void start_profiling(const Config& config);

/// Stops recording and writes the trace file (no-op when not recording). A file that cannot
/// be written is reported on stderr, never thrown: the program's results come first.
void finish_profiling();

/// This process's rank: OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID, else 0.
int rank_from_environment();

/// `<logdir>/tessera_<rank>.prof`.
std::string profile_path(const std::string& logdir, int rank);

}  // namespace tessera::detail
