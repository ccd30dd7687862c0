// One recording per runtime session; the file is written once, when the runtime stops.
#include "profile/profiler.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <utility>

#include "profile/recorder.h"

namespace tessera::detail {
namespace {

struct Session {
  Recorder recorder;
  Config config;
  int rank = 0;
};

// Plain pointers, never destroyed at exit: a C++ program's runtime may stop (and write its
// profile) during static destruction. The last finished session is kept because a thread
// that read the observer just before it was cleared may still be inside a hook.
std::mutex g_mu;
Session* g_session = nullptr;
Session* g_retired = nullptr;

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!all.empty() && all.back() == '\0') all.pop_back();
  for (char& c : all)
    if (c == '\0') c = ' ';
  return all;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

}  // namespace

int rank_from_environment() {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* value = std::getenv(var)) {
      char* end = nullptr;
      long rank = std::strtol(value, &end, 10);
      if (end != value && *end == '\0' && rank >= 0) return static_cast<int>(rank);
    }
  return 0;
}

std::string profile_path(const std::string& logdir, int rank) {
  return (std::filesystem::path(logdir.empty() ? "." : logdir) / ("tessera_" + std::to_string(rank) + ".prof"))
      .string();
}

void start_profiling(const Config& config) {
  if (!config.profile) return;
  std::lock_guard lock(g_mu);
  set_observer(nullptr);
  delete g_retired;
  g_retired = nullptr;
  delete g_session;
  g_session = new Session();
  g_session->config = config;
  g_session->rank = rank_from_environment();
  g_session->recorder.thread_started(ThreadRole::Program, 0);
  set_observer(&g_session->recorder);
}

void finish_profiling() {
  std::lock_guard lock(g_mu);
  if (!g_session) return;
  set_observer(nullptr);
  const Config& c = g_session->config;
  Trace trace = g_session->recorder.build(g_session->rank);
  trace.host = host_name();
  trace.meta = {{"command", command_line()},
                {"pid", std::to_string(::getpid())},
                {"cpus", std::to_string(c.cpus)},
                {"utility", std::to_string(c.utility)},
                {"sysmem_mib", std::to_string(c.sysmem_mib)},
                {"window_size", std::to_string(c.window_size)},
                {"min_cpu_chunk", std::to_string(c.min_cpu_chunk)}};
  if (const char* text = std::getenv("TESSERA_CONFIG")) trace.meta.emplace_back("config", text);
  const std::string path = profile_path(c.logdir, g_session->rank);
  g_retired = std::exchange(g_session, nullptr);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::trunc);
  if (out) write_trace(out, trace);
  out.close();
  if (!out) {
    std::cerr << "tessera: could not write the profile to " << path << " (is --logdir a writable directory?)\n";
    return;
  }
  std::cerr << "tessera: profile written to " << path << " (see it with: tessera-prof view " << path << ")\n";
}

}  // namespace tessera::detail
