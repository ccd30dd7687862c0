// Placeholder until rank placement, binding and output control land.
#include "comm/rank_setup.h"

#include <unistd.h>

#include <cstdlib>

namespace tessera::detail {

namespace {
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}
}  // namespace

RankPlacement placement_from_environment() {
  RankPlacement p;
  if (std::getenv("OMPI_COMM_WORLD_SIZE")) {
    p.launched = true;
    p.rank = env_int("OMPI_COMM_WORLD_RANK", 0);
    p.ranks = env_int("OMPI_COMM_WORLD_SIZE", 1);
    p.local_rank = env_int("OMPI_COMM_WORLD_LOCAL_RANK", 0);
    p.local_ranks = env_int("OMPI_COMM_WORLD_LOCAL_SIZE", 1);
  }
  return p;
}

void apply_bindings(const RankPlacement&) {}
void setup_rank_output(bool, const RankPlacement&) {}
void finish_rank_output() {}
void write_to_terminal(std::string_view message) {
  ssize_t ignored = ::write(2, message.data(), message.size());
  (void)ignored;
}

}  // namespace tessera::detail
