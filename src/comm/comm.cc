#include "comm/comm.h"

#include <mpi.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "comm/rank_setup.h"

namespace tessera::detail {

namespace {
std::atomic<int> g_rank{0}, g_ranks{1};
}  // namespace

int this_rank() { return g_rank.load(std::memory_order_relaxed); }
int rank_count() { return g_ranks.load(std::memory_order_relaxed); }

void abort_run(int code, std::string_view message) {
  std::string text(message);
  if (!text.empty() && text.back() != '\n') text += '\n';
  write_to_terminal(text);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace tessera::detail
