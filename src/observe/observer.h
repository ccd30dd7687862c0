// RuntimeObserver: the hooks through which a profiler watches the runtime. The runtime
// calls them only when an observer is installed, behind one predictable branch on a
// global pointer that is null when nothing records (DESIGN §9, §11). It sits below every
// stage that reports to it (machine/'s pools, the runtime's threads and copies) and
// includes none of them.
#pragma once

#include <atomic>
#include <cstdint>

namespace tessera::detail {

class Operation;
class PointTask;
struct AllocationInfo;
enum class MemoryKind;

/// What a runtime thread does; a thread that never says is a program thread (IO lane).
enum class ThreadRole : uint8_t { Program, Worker, Utility };

/// Why the program thread is blocked.
enum class WaitKind : uint8_t { Fence, BackPressure, Reclaim };

class RuntimeObserver {
 public:
  virtual ~RuntimeObserver() = default;

  /// The calling thread is worker or utility thread `index`, from now until it ends.
  virtual void thread_started(ThreadRole role, int index) = 0;

  /// The utility thread starts and ends analysing `op` (tiling and dependences).
  virtual void analysis_begin(const Operation& op) = 0;
  virtual void analysis_end(const Operation& op) = 0;
  /// The analyser made `op` itself, inside another operation's analysis (a copy between
  /// ranks); its tasks follow.
  virtual void operation_made(const Operation& op) = 0;
  /// The analyser made `task` (call after it exists, before any edge to it).
  virtual void task_created(const PointTask& task) = 0;
  /// The analyser made `task` wait for the unfinished `pred`.
  virtual void task_waits(const PointTask& task, const PointTask& pred) = 0;

  /// The calling thread runs `task` (its operation is still attached).
  virtual void task_begin(const PointTask& task) = 0;
  virtual void task_end(const PointTask& task) = 0;
  /// The calling (program) thread runs all of a small `op` itself, without analysis.
  virtual void inline_begin(const Operation& op) = 0;
  virtual void inline_end(const Operation& op) = 0;

  /// The calling thread blocks until the runtime catches up.
  virtual void wait_begin(WaitKind why) = 0;
  virtual void wait_end(WaitKind why) = 0;

  /// A copy of `bytes` between memories or ranks (channel lane); `what` is a static label.
  virtual void copy_begin(int64_t bytes, const char* what) = 0;
  virtual void copy_end(int64_t bytes, const char* what) = 0;

  /// A pool of `kind` granted (`delta` > 0) or took back (`delta` < 0) a block; `used` is
  /// its total after the change. Called under the pool's lock, so `used` is ordered.
  virtual void pool_changed(MemoryKind kind, int64_t delta, int64_t used, int64_t capacity,
                            const AllocationInfo* what) = 0;
};

/// The installed observer; null when nothing records.
inline std::atomic<RuntimeObserver*> g_runtime_observer{nullptr};

/// The installed observer, or null; a single load. Use as `if (auto* o = observer()) o->...;`.
inline RuntimeObserver* observer() { return g_runtime_observer.load(std::memory_order_acquire); }

/// Installs `o` (null uninstalls). Install before the threads it should see start.
inline void set_observer(RuntimeObserver* o) { g_runtime_observer.store(o, std::memory_order_release); }

}  // namespace tessera::detail
