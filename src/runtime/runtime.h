// The runtime: configuration, memory pools, the window of issued operations,
// the utility thread that partitions and analyses them, and the workers.
// One per process; started on first use or by tessera::start(). Defined by concept in
// lifecycle.cc, window.cc, memory_claims.cc, analysis.cc and rank_analysis.cc.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "comm/comm.h"
#include "config/config.h"
#include "machine/memory_pool.h"
#include "machine/scheduler.h"
#include "partition/solver.h"
#include "runtime/dependence.h"
#include "runtime/operation.h"
#include "runtime/program_lock.h"
#include "runtime/thread_errors.h"

namespace tessera::detail {

class Runtime {
 public:
  /// The process's runtime, started from TESSERA_CONFIG on first use.
  static Runtime& get();
  /// Starts the runtime if it is not running (throws ConfigError for a bad configuration).
  static Runtime& start();
  /// Waits for all work and stops the threads; the runtime can be started again.
  static void finish();
  static bool running();

  const Config& config() const { return config_; }
  MemoryPool& sysmem() { return *sysmem_; }
  const std::shared_ptr<MemoryPool>& sysmem_ptr() const { return sysmem_; }
  /// The pool of memory `kind`, or null when this machine has none (only SYSMEM here).
  std::shared_ptr<MemoryPool> pool(MemoryKind kind) const;
  /// Every pool of this rank, SYSMEM first.
  std::vector<std::shared_ptr<MemoryPool>> pools() const;

  /// Issues an operation: it runs later, in program order as far as data is concerned.
  /// Any thread may issue: each call holds the program lock (program_lock.h), and an
  /// operation's error is raised at a sync point of the thread that issued it.
  void submit(OperationPtr op);
  /// Blocks until every issued operation has run; re-raises the first task error.
  void fence();
  /// Sends the window's operations to analysis.
  void flush() { flush(Defer::None); }
  /// fence(), and then the values of `store` are on this rank too (with several ranks, the
  /// parts other ranks computed are copied here first). Call before reading or writing a
  /// store's memory on the program thread.
  void acquire(const StorePtr& store);
  /// acquire() for a read that writes nothing back (a scalar, a copy to the host): results
  /// the program has not asked for yet may stay in the window.
  void acquire_to_read(const StorePtr& store);
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  /// Operations flushed but not analysed yet (tests wait for it to reach 0).
  int64_t unanalysed() const { return queued_.load(); }
  /// Provenance attached to operations issued by this thread from now on.
  static void set_provenance(std::string where);
  /// The user's `file:line` for an operation issued now: from the installed source (the
  /// Python module installs one that reads the interpreter's frame) when --provenance is
  /// on, else what set_provenance() last said.
  static std::string provenance();
  using ProvenanceSource = std::string (*)();
  static void set_provenance_source(ProvenanceSource source);

  /// Every rank's `mine`, in rank order (a collective: every rank calls it at the same point
  /// of the program, on the program thread). One rank: just `mine`.
  std::vector<std::string> exchange(const std::string& mine);

  /// Hooks around the waits the program thread makes inside submit() (back-pressure, memory
  /// reclaim): `before` returns a token that `after` gets back. The Python module installs a
  /// pair that lets go of the interpreter lock meanwhile, so task bodies written in Python
  /// can run on the workers.
  using WaitHook = detail::WaitHook;
  using ResumeHook = detail::ResumeHook;
  static void set_wait_hooks(WaitHook before, ResumeHook after);
  int pieces() const { return pieces_; }
  int64_t min_chunk() const { return config_.min_cpu_chunk; }

  explicit Runtime(const Config& config);
  ~Runtime();

 private:
  /// Starts the pool, the workers and the utility threads (the constructor's work).
  void start_threads();
  /// Stops and joins every thread and ends profiling (the destructor, and a failed start).
  void stop_threads();
  void utility_loop();
  void analyse(const OperationPtr& op);
  /// Solves `op`'s constraints into a launch: tiled by the data (`pieces` 0), or of at most `pieces` points.
  std::shared_ptr<const Launch> partition(Operation& op, int pieces);
  bool read_image(const Operation& op, int arg, const Rect& rect, bool ranges, int64_t& lo, int64_t& hi);
  /// `cover`: widen this rank's memory of each storage to what the points touch (not for
  /// local operations, which touch only what the rank holds).
  void analyse_points(const OperationPtr& op, const std::shared_ptr<const Launch>& launch,
                      const std::vector<int>& points, bool cover = true);
  void analyse_on_ranks(const OperationPtr& op, const std::shared_ptr<const Launch>& launch);
  /// With several ranks: this rank's memory of `storage` covers `box` (storage coordinates)
  /// from now on — growing it, after the tasks in flight finish, when it is allocated already.
  void cover(Storage& storage, const Rect& box);
  /// cover() for every box the points `points` of `launch` touch.
  void cover_points(const Operation& op, const Launch& launch, const std::vector<int>& points);
  /// acquire() for a read: the libraries' write hooks, fence, and the values here — memory a
  /// lazy copy shares stays shared.
  void gather(const StorePtr& store);
  void transfer(const std::shared_ptr<Storage>& storage, const Rect& box, int source, int dest,
                const Operation& reader);
  bool replicated(const Operation& op, size_t tiles) const;
  bool writes_small(const Operation& op) const;
  bool writes_split(const Operation& op) const;
  int block_owner(const Storage& storage, const Rect& box) const;
  /// The rank whose part of `storage` holds row `row` of its axis 0 (rank_cuts' split).
  int row_owner(const Storage& storage, int64_t row) const;
  std::vector<int64_t> rank_cuts(const OpArg& a) const;
  std::vector<int> tile_owners(const Operation& op, const Launch& launch) const;
  bool held_everywhere(const Operation& op) const;
  void note_written_everywhere(const Operation& op);
  void allocate_outputs(const Operation& op);
  void run_inline(const OperationPtr& op);
  int64_t unclaimed_bytes(const Operation& op) const;
  /// How many operations at the end of the window form the chain of fusible operations that ends it
  /// (the fusible operations whose results the last one or a reader still to come needs).
  size_t chain_at_end() const;
  /// What a flush may leave in the window: nothing (a fence), results nothing reads yet that
  /// have not waited before (a full window), or every result the read of a storage does not
  /// need (a read of values).
  enum class Defer { None, Fresh, Unread };
  void flush(Defer defer, const Storage* reading = nullptr);
  /// Drops the results still waiting in the window that nothing can read any more (at the
  /// end of the program): tessera's own memory, read by nothing after them.
  void drop_unread_results();
  std::exception_ptr claim_memory(std::vector<OperationPtr>& ops);
  void enqueue(std::vector<OperationPtr>& ops);
  void wait_for_work();
  void wait_for_flushed();
  void blocking(const std::function<void()>& wait, bool others_issue = false);
  std::exception_ptr take_error();
  void rethrow_task_error();
  void agree_on_errors();

  Config config_;
  MemoryPools pools_;  // one per memory kind the rank reserves
  std::shared_ptr<MemoryPool> sysmem_;
  std::unique_ptr<Scheduler> scheduler_;
  DependenceAnalyzer analyzer_;
  std::vector<OperationPtr> window_;
  int window_count_ = 0;      // operations issued since the window was last flushed
  bool window_small_ = true;  // every operation in the window is a single small tile
  int64_t window_need_ = 0;   // bytes the window's operations will write into new storages
  int pieces_ = 1;
  int rank_ = 0, ranks_ = 1;
  // Operations issued (every rank issues the same ones), and the fewest another rank
  // announced when it ended the program: issuing more means the ranks took different paths.
  std::atomic<int64_t> issued_{0};
  std::atomic<int64_t> exit_limit_{INT64_MAX};
  std::atomic<int> exited_rank_{-1};
  void note_exit(int rank, int64_t operations);
  [[noreturn]] void diverged(int rank, int64_t operations);
  void finish_ranks();
  std::unique_ptr<Channel> channel_;  // with several ranks
  int64_t max_in_flight_ = 256;

  std::mutex analysis_mu_;
  std::mutex queue_mu_;
  std::condition_variable queue_cv_;
  std::deque<OperationPtr> queue_;
  std::atomic<int64_t> queued_{0};
  bool stop_ = false;
  ThreadErrors analysis_errors_;  // by the thread that issued the operation
  std::vector<std::thread> utility_;
};

}  // namespace tessera::detail
