// The runtime's life: starting it (the rank's placement and bindings, its configuration,
// --help), the constructor that starts the pools, workers and utility threads, finishing
// it, and the provenance attached to the operations the program issues.
#include "runtime/runtime.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <system_error>
#include <utility>

#include "comm/rank_setup.h"
#include "config/instruction_sets.h"
#include "observe/observer.h"
#include "profile/profiler.h"
#include "runtime/body_guard.h"
#include "runtime/libraries.h"
#include "tessera/errors.h"

namespace tessera::detail {

namespace {
std::mutex g_start_mu;
std::unique_ptr<Runtime> g_runtime;
std::atomic<Runtime*> g_current{nullptr};
thread_local std::string t_provenance;
std::atomic<Runtime::ProvenanceSource> g_provenance_source{nullptr};
thread_local bool t_utility_thread = false;
}  // namespace

Runtime& Runtime::get() {
  Runtime* rt = g_current.load(std::memory_order_acquire);
  return rt ? *rt : start();
}

Runtime& Runtime::start() {
  std::lock_guard lock(g_start_mu);
  if (!g_runtime) {
    const RankPlacement placement = placement_from_environment();
    apply_bindings(placement);  // before any thread starts, so they all inherit it
    Config config = config_from_environment();
    if (config.help) {
      std::cout << config_help();
      std::cout.flush();
      std::exit(0);
    }
    setup_rank_output(config.show_all_ranks, placement);
    restrict_instruction_sets(config.simd);  // before any loop is looked up
    start_ranks(placement);
    g_runtime = std::make_unique<Runtime>(config);
    if (config.show_config) std::cerr << describe_config(config);
    g_current.store(g_runtime.get(), std::memory_order_release);
  }
  return *g_runtime;
}

void Runtime::finish() {
  refuse_inside_body("called finish()");
  ProgramScope program;
  std::lock_guard lock(g_start_mu);
  if (!g_runtime) return;
  if (g_runtime->ranks_ > 1) {
    g_runtime->finish_ranks();
  } else {
    try {
      g_runtime->drop_unread_results();
      g_runtime->fence();
    } catch (...) {
    }
  }
  if (g_runtime->config_.show_memory_usage) {
    std::string usage = "tessera memory usage at exit:\n";
    for (const auto& pool : g_runtime->pools()) usage += "  " + pool->usage_summary() + "\n";
    std::cerr << usage << std::flush;
  }
  g_current.store(nullptr, std::memory_order_release);
  g_runtime.reset();
  finish_rank_output();
}

bool Runtime::running() { return g_current.load(std::memory_order_acquire) != nullptr; }

void Runtime::set_provenance(std::string where) { t_provenance = std::move(where); }
void Runtime::set_provenance_source(ProvenanceSource source) { g_provenance_source.store(source); }

std::string Runtime::provenance() {
  Runtime* rt = g_current.load(std::memory_order_acquire);
  if (rt && rt->config_.provenance)
    if (ProvenanceSource source = g_provenance_source.load(std::memory_order_relaxed)) {
      std::string where = source();
      if (!where.empty()) return where;
    }
  return t_provenance;
}

Runtime::Runtime(const Config& config) : config_(config) {
  start_profiling(config_);  // before the threads start, so they are all observed
  try {
    start_threads();
  } catch (...) {
    stop_threads();  // the threads started so far, or destroying them terminates the process
    throw;
  }
}

void Runtime::start_threads() {
  constexpr int64_t kMiB = int64_t{1} << 20;
  pools_ = MemoryPools(
      {config_.sysmem_mib * kMiB, config_.numamem_mib * kMiB, config_.fbmem_mib * kMiB, config_.zcmem_mib * kMiB});
  sysmem_ = pools_.get(MemoryKind::Sysmem);
  scheduler_ = std::make_unique<Scheduler>(std::max(1, config_.cpus));
  // The threads that run tasks: the workers plus the program thread, which runs tasks while it
  // waits at sync points and under back-pressure. Only for how much may be in flight: how
  // operations are cut into tiles depends on the data alone (partition/tiling.h).
  pieces_ = std::max(1, config_.cpus) + 1;
  rank_ = this_rank();
  ranks_ = rank_count();
  if (ranks_ > 1) {
    // Every rank must cut operations into the same tiles and the window after the same
    // operations: the settings that shape the window and the tiles must match. (The ranks'
    // thread counts are evened out to the largest, so that they allow as much in flight.)
    std::vector<int64_t> lowest, highest;
    agree(lowest, highest, {pieces_, config_.min_cpu_chunk, config_.window_size, config_.test ? 1 : 0});
    pieces_ = static_cast<int>(highest[0]);
    const char* names[] = {"", "--min-cpu-chunk", "--window-size", "test mode (TESSERA_TEST)"};
    for (size_t i = 1; i < lowest.size(); ++i)
      if (lowest[i] != highest[i])
        throw ConfigError(std::string("tessera: every rank needs the same ") + names[i] + ", but the ranks have " +
                          std::to_string(lowest[i]) + " to " + std::to_string(highest[i]) +
                          ": give it in TESSERA_CONFIG for all of them");
    channel_ = std::make_unique<Channel>();
    channel_->watch_exits([this](int rank, int64_t operations) { note_exit(rank, operations); });
  }
  max_in_flight_ = std::max<int64_t>(64, 16 * int64_t{pieces_} * std::max(1, config_.window_size));
  sysmem_->set_reclaim_hook([this] {
    // A worker cannot wait for the tasks in flight (it is one of them): its allocation fails
    // and the error surfaces at the next sync point.
    if (Scheduler::inside_task() || t_utility_thread) return;  // the analysis cannot wait for itself
    if (auto* o = observer()) o->wait_begin(WaitKind::Reclaim);
    blocking([&] { wait_for_work(); });  // pending tasks may hold the last references to dead storages
    if (auto* o = observer()) o->wait_end(WaitKind::Reclaim);
  });
  // What the program can do about an out-of-memory error, after the pool's report.
  std::string hint;
  if (!config_.provenance)
    hint +=
        "Run with --provenance (TESSERA_CONFIG=\"--provenance\") to see where each store was created and "
        "which line issued each operation.\n";
  hint +=
      "Free arrays that are no longer needed (del in Python), or give SYSMEM more room (--sysmem=MiB in "
      "TESSERA_CONFIG, now " +
      std::to_string(config_.sysmem_mib) + ").\n";
  sysmem_->set_report_hint(std::move(hint));
  Libraries::get().start(RuntimeInfo{rank_, ranks_, config_.cpus, config_.simd, config_.min_cpu_chunk});
  const int utility = std::max(1, config_.utility);
  try {
    for (int i = 0; i < utility; ++i)
      utility_.emplace_back([this, i] {
        if (auto* o = observer()) o->thread_started(ThreadRole::Utility, i);
        t_utility_thread = true;
        utility_loop();
      });
  } catch (const std::system_error& e) {
    // The system refused a thread (too many, or too little memory for their stacks).
    const int started = static_cast<int>(utility_.size());
    throw ConfigError("tessera: could not start utility thread " + std::to_string(started + 1) + " of " +
                      std::to_string(utility) + " (" + e.what() + "): give fewer --utility in TESSERA_CONFIG");
  }
}

Runtime::~Runtime() { stop_threads(); }

void Runtime::stop_threads() {
  if (sysmem_) sysmem_->set_reclaim_hook(nullptr);
  {
    std::lock_guard lock(queue_mu_);
    stop_ = true;
  }
  queue_cv_.notify_all();
  for (auto& t : utility_) t.join();
  utility_.clear();
  channel_.reset();  // every message delivered (the tasks that post them have run)
  scheduler_.reset();
  finish_profiling();  // every thread that recorded has stopped
}

std::shared_ptr<MemoryPool> Runtime::pool(MemoryKind kind) const { return pools_.get(kind); }

std::vector<std::shared_ptr<MemoryPool>> Runtime::pools() const { return pools_.present(); }

}  // namespace tessera::detail
