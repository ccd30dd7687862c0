// A memory pool: a fixed reservation of one memory kind with byte accounting, and a rank's
// pools, one per memory kind it has.
// Every storage is charged to one pool; an allocation that does not fit raises
// OutOfMemoryError listing what holds the memory. Freed blocks are kept for reuse
// so loops that drop and recreate same-sized temporaries never touch the OS.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "machine/memory_kind.h"

namespace tessera::detail {

/// What a live allocation is for, reported when the pool runs out. The texts are made only
/// when a report is printed, so allocating stays cheap.
struct AllocationInfo {
  const void* owner = nullptr;
  std::string (*describe)(const void* owner) = nullptr;  // e.g. "store of shape (3,) float64 created at f.py:3"
  /// Optional, for the pool's list of live allocations: e.g. "covering elements <0>..<2>, made by 'add' issued at
  /// f.py:5".
  std::string (*detail)(const void* owner) = nullptr;
  /// Where the owner comes in the pool's list of live allocations: the program's order of
  /// making them (a store's creation), whatever order its operations were fused into.
  uint64_t order = 0;
  std::string text() const { return describe ? describe(owner) : std::string("unknown owner"); }
  /// text() followed by the detail, if any.
  std::string report_text() const;
};

class MemoryPool {
 public:
  /// Freed blocks are kept for reuse up to `max_cached_bytes`, the least recently freed
  /// going back to the system first.
  MemoryPool(MemoryKind kind, int64_t capacity_bytes, int64_t max_cached_bytes = int64_t{1} << 30);
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  /// Allocates `bytes` (64-byte aligned); throws OutOfMemoryError naming `what` and `operation`
  /// (e.g. "'add' issued at f.py:3") if it does not fit. An allocation for an owner that
  /// reserved its bytes is granted from the reservation and cannot run out.
  void* allocate(int64_t bytes, const AllocationInfo& what, const std::string& operation);
  /// Returns a block to the pool.
  void release(void* ptr, int64_t bytes);
  /// Blocks `a` and `b` changed owners (their owners swapped memory): the live list follows.
  void swap_owners(void* a, void* b);
  /// Block `block` has a new owner (storages that share it, or the one left of them).
  void reassign(void* block, const AllocationInfo& what);

  /// Claims `bytes` for `what.owner` now, to be allocated later (by a worker that cannot wait
  /// for memory to come back). Runs the reclaim hook and throws OutOfMemoryError, like
  /// allocate(), when the claim does not fit. A second claim for the same owner is a no-op.
  void reserve(int64_t bytes, const AllocationInfo& what, const std::string& operation);
  /// reserve() without the reclaim hook: false, with nothing claimed, when it does not fit.
  bool try_reserve(int64_t bytes, const AllocationInfo& what);
  /// Drops `owner`'s claim (its memory will not be allocated after all).
  void unreserve(const void* owner);

  /// Called before failing an allocation: frees dead storages and waits for pending frees.
  void set_reclaim_hook(std::function<void()> hook) { reclaim_ = std::move(hook); }
  /// Lines appended to every out-of-memory message (what the user can do about it).
  void set_report_hint(std::string hint);

  MemoryKind kind() const { return kind_; }
  int64_t capacity() const { return capacity_; }
  int64_t used() const;       // bytes of live allocations
  int64_t reserved() const;   // bytes claimed and not yet allocated
  int64_t committed() const;  // used() + reserved(): what a new block must fit beside
  int64_t peak() const;       // highest used() so far
  /// Every live allocation and claim in the order their owners were made, one per line, after a
  /// line with the pool's use: "SYSMEM holds 12288 of 16384 bytes (...) in 2 live allocations:".
  std::string live_report() const;
  /// One line for --show-memory-usage: "SYSMEM: peak ..., in use ..., capacity ...".
  std::string usage_summary() const;

 private:
  // Where an entry comes in the report: its owner's AllocationInfo::order (the program's
  // order), then when it came to the pool (a claim keeps its place when it is allocated).
  using Order = std::pair<uint64_t, uint64_t>;
  struct Entry {
    int64_t bytes;
    AllocationInfo what;
    Order order;
  };
  void* try_allocate(int64_t bytes, const AllocationInfo& what);
  void drop_cache_locked();
  // Frees the least recently released cached blocks until `room` more bytes fit the cache's
  // bound and the pool's capacity.
  void evict_cache_locked(int64_t room);
  std::string live_report_locked() const;
  [[noreturn]] void throw_out_of_memory(int64_t bytes, const AllocationInfo& what, const std::string& operation) const;

  MemoryKind kind_;
  int64_t capacity_;
  int64_t max_cached_;
  mutable std::mutex mu_;
  int64_t used_ = 0;      // bytes held by live allocations
  int64_t reserved_ = 0;  // bytes claimed by reserve() and not yet allocated
  int64_t cached_ = 0;    // bytes held by freed blocks kept for reuse
  int64_t peak_ = 0;
  uint64_t arrivals_ = 0;
  // Freed blocks kept for reuse: size -> (release number, block), and release number -> size
  // (oldest first, the eviction order). A loop that frees and allocates blocks of one size
  // keeps reusing them even when blocks of other sizes filled the cache before it.
  using Cache = std::multimap<int64_t, std::pair<uint64_t, void*>>;
  using CacheAge = std::map<uint64_t, int64_t>;
  using Live = std::map<void*, Entry>;
  Cache cache_;
  CacheAge cache_age_;
  uint64_t releases_ = 0;
  Live live_;
  // Nodes taken out of the maps above, kept to be put back with a new key: a program that
  // allocates and frees blocks in a loop makes no allocation of its own in the pool.
  std::vector<Cache::node_type> spare_cache_;
  std::vector<CacheAge::node_type> spare_age_;
  std::vector<Live::node_type> spare_live_;
  std::unordered_map<const void*, Entry> claims_;  // owner -> reserved bytes
  std::function<void()> reclaim_;
  std::string hint_;
};

/// A rank's pools: one per memory kind it reserves, none for the others.
class MemoryPools {
 public:
  MemoryPools() = default;
  /// A pool of `capacity_bytes[kind]` for SYSMEM always and for each other kind given a
  /// capacity; NotImplementedError for a kind this build cannot allocate (FBMEM and ZCMEM
  /// without CUDA).
  explicit MemoryPools(const std::array<int64_t, kMemoryKinds>& capacity_bytes);
  /// The pool of `kind`, or null when the rank has none.
  const std::shared_ptr<MemoryPool>& get(MemoryKind kind) const { return pools_[static_cast<size_t>(kind)]; }
  /// The pools there are, in kind order (SYSMEM first).
  std::vector<std::shared_ptr<MemoryPool>> present() const;

 private:
  std::array<std::shared_ptr<MemoryPool>, kMemoryKinds> pools_;
};

}  // namespace tessera::detail
