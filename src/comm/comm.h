// This process's rank in the run and the channel that moves bytes between ranks. With one
// rank there is no MPI at all; with several, MPI (system OpenMPI) is started once per
// process and every MPI call after that is made by the channel thread.
#pragma once

#include <cstdint>
#include <atomic>
#include <functional>
#include <string_view>

namespace tessera::detail {

/// This rank and how many there are (0 and 1 before the runtime starts or without MPI).
int this_rank();
int rank_count();

/// Ends the whole run: writes `message` to the terminal (even from a silenced rank), then
/// aborts every rank through MPI (or exits with `code` when there is no MPI).
[[noreturn]] void abort_run(int code, std::string_view message);

}  // namespace tessera::detail
