// A memory pool: a fixed reservation of one memory kind with byte accounting.
// Every storage is charged to one pool; an allocation that does not fit raises
// OutOfMemoryError listing what holds the memory. Freed blocks are kept for reuse
// so loops that drop and recreate same-sized temporaries never touch the OS.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace tessera::detail {

enum class MemoryKind { Sysmem, Numamem, Fbmem, Zcmem };
const char* memory_kind_name(MemoryKind k);

/// What a live allocation is for, reported when the pool runs out. The text is made only
/// when a report is printed, so allocating stays cheap.
struct AllocationInfo {
  const void* owner = nullptr;
  std::string (*describe)(const void* owner) = nullptr;  // e.g. "store of shape (3,) float64, created at f.py:3"
  std::string text() const { return describe ? describe(owner) : std::string("unknown owner"); }
};

class MemoryPool {
 public:
  MemoryPool(MemoryKind kind, int64_t capacity_bytes);
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  /// Allocates `bytes` (64-byte aligned); throws OutOfMemoryError naming `what` if it does not fit.
  void* allocate(int64_t bytes, const AllocationInfo& what, const std::string& operation);
  /// Returns a block to the pool.
  void release(void* ptr, int64_t bytes);
  /// Called before failing an allocation: frees dead storages and waits for pending frees.
  void set_reclaim_hook(std::function<void()> hook) { reclaim_ = std::move(hook); }

  MemoryKind kind() const { return kind_; }
  int64_t capacity() const { return capacity_; }
  int64_t used() const;
  int64_t peak() const;
  /// A report of every live allocation (size and owner), one per line.
  std::string live_report() const;

 private:
  void* try_allocate(int64_t bytes, const AllocationInfo& what);
  void drop_cache_locked();

  MemoryKind kind_;
  int64_t capacity_;
  mutable std::mutex mu_;
  int64_t used_ = 0;    // bytes held by live allocations
  int64_t cached_ = 0;  // bytes held by freed blocks kept for reuse
  int64_t peak_ = 0;
  std::multimap<int64_t, void*> cache_;  // size -> free block
  std::map<void*, std::pair<int64_t, AllocationInfo>> live_;
  std::function<void()> reclaim_;
};

}  // namespace tessera::detail
