// The program lock: the threads of a program issue operations one call at a time, as
// NumPy's calls are atomic under Python's interpreter lock. Whoever holds it may issue,
// flush and fence; a thread waiting for work lets go of it, so other threads issue
// meanwhile. Recursive: a call that makes other calls holds it once.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace tessera::detail {

class ProgramLock {
 public:
  /// Takes the lock, letting the interpreter lock go while it waits for another thread
  /// (through the runtime's wait hooks), so a thread holding this lock and waiting for the
  /// interpreter lock can go on.
  void lock();
  void unlock();
  bool held() const { return owner_.load(std::memory_order_relaxed) == self(); }
  /// Lets go of every level this thread holds (none: returns 0); restore() takes them back.
  int release();
  void restore(int depth);

 private:
  static uintptr_t self();
  std::mutex mu_;
  std::atomic<uintptr_t> owner_{0};
  int depth_ = 0;  // levels the owner holds
};

/// Hooks around a wait on another thread: `before` lets go of a lock the caller holds
/// outside the runtime (the Python module's: the interpreter lock) and returns a token that
/// `after` gets back to take it again. Runtime::set_wait_hooks installs them.
using WaitHook = void* (*)();
using ResumeHook = void (*)(void*);
void set_outside_lock_hooks(WaitHook before, ResumeHook after);
/// Runs `wait` with the outside lock let go.
template <class F>
void without_outside_lock(F&& wait);
void* let_go_outside_lock();
void take_outside_lock(void* token);

/// The process's program lock (every runtime of the process shares it).
ProgramLock& program_lock();

/// Holds the program lock for a scope.
class ProgramScope {
 public:
  ProgramScope() { program_lock().lock(); }
  ~ProgramScope() { program_lock().unlock(); }
  ProgramScope(const ProgramScope&) = delete;
  ProgramScope& operator=(const ProgramScope&) = delete;
};

/// An identity for the thread that issues an operation (its errors are raised to it).
uint64_t issuing_thread();

template <class F>
void without_outside_lock(F&& wait) {
  void* token = let_go_outside_lock();
  try {
    wait();
  } catch (...) {
    take_outside_lock(token);
    throw;
  }
  take_outside_lock(token);
}

}  // namespace tessera::detail
