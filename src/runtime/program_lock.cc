#include "runtime/program_lock.h"

#include "runtime/body_guard.h"

namespace tessera::detail {
namespace {
std::atomic<WaitHook> g_before{nullptr};
std::atomic<ResumeHook> g_after{nullptr};
std::atomic<uint64_t> g_next_thread{1};
thread_local char t_self;  // its address names the thread
// Levels a task body's thread "took" without the lock: a body must not wait for the lock
// (the thread holding it may be waiting for that very task); the runtime's entry points
// refuse what the body then does, naming the task (body_guard.h).
thread_local int t_body_levels = 0;
}  // namespace

void set_outside_lock_hooks(WaitHook before, ResumeHook after) {
  g_before.store(before);
  g_after.store(after);
}

void* let_go_outside_lock() {
  WaitHook before = g_before.load(std::memory_order_relaxed);
  return before ? before() : nullptr;
}

void take_outside_lock(void* token) {
  if (ResumeHook after = g_after.load(std::memory_order_relaxed)) after(token);
}

uintptr_t ProgramLock::self() { return reinterpret_cast<uintptr_t>(&t_self); }

void ProgramLock::lock() {
  const uintptr_t me = self();
  if (owner_.load(std::memory_order_relaxed) == me) {
    ++depth_;
    return;
  }
  if (BodyScope::current()) {
    ++t_body_levels;
    return;
  }
  // Another thread holds it and may be waiting for the interpreter lock this one holds.
  if (!mu_.try_lock()) without_outside_lock([&] { mu_.lock(); });
  owner_.store(me, std::memory_order_relaxed);
  depth_ = 1;
}

void ProgramLock::unlock() {
  if (t_body_levels > 0 && !held()) {
    --t_body_levels;
    return;
  }
  if (--depth_ > 0) return;
  owner_.store(0, std::memory_order_relaxed);
  mu_.unlock();
}

int ProgramLock::release() {
  if (!held()) return 0;
  const int depth = depth_;
  depth_ = 0;
  owner_.store(0, std::memory_order_relaxed);
  mu_.unlock();
  return depth;
}

void ProgramLock::restore(int depth) {
  if (depth == 0) return;
  mu_.lock();  // the caller holds no outside lock here (it let it go to wait)
  owner_.store(self(), std::memory_order_relaxed);
  depth_ = depth;
}

ProgramLock& program_lock() {
  static ProgramLock lock;
  return lock;
}

uint64_t issuing_thread() {
  thread_local const uint64_t id = g_next_thread.fetch_add(1, std::memory_order_relaxed);
  return id;
}

}  // namespace tessera::detail
