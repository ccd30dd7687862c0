// Storage: the memory behind a store on this rank, one C-ordered allocation
// from a pool. Its room is claimed when the first operation that writes it is
// flushed and allocated when that operation runs; returned to the pool when the
// last store and task referring to it are gone. Storages that are copies of one
// another may share one allocation until one of them is written (copy-on-write,
// runtime/copy_on_write.h).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "data/rect.h"
#include "machine/memory_pool.h"
#include "tessera/dtype.h"

namespace tessera::detail {

/// State a higher layer keeps per storage (the runtime's dependence and residency records,
/// runtime/storage_state.h); data/ only holds it and never looks inside.
class StorageExtension {
 public:
  virtual ~StorageExtension() = default;
};

class SharedBlock;
class CopyGroup;

class Storage {
 public:
  Storage(DType dtype, Shape shape, std::shared_ptr<MemoryPool> pool, std::string creation);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }  // in elements, C order
  int64_t elements() const { return elements_; }
  int64_t bytes() const { return elements_ * itemsize(dtype_); }
  const std::string& creation() const { return creation_; }
  MemoryKind kind() const { return pool_->kind(); }
  /// "store of shape (3,) float64 created at f.py:3" for reports.
  std::string describe() const;
  /// What the pool's report adds: "covering elements <0>..<2>, made by 'add' issued at f.py:5".
  std::string allocation_detail() const;
  /// The operation that claimed or allocated the memory ("'add' issued at f.py:5"), or "".
  std::string made_by() const;

  bool allocated() const { return data() != nullptr; }
  /// Reserves the memory (once; safe from several threads), from the claim if one was made;
  /// throws OutOfMemoryError naming `operation` (issued at `provenance`) if the pool is full.
  void allocate(const std::string& operation, const std::string& provenance);
  /// For allocations made where the store is created (empty, array): the operation is
  /// issued at the store's creation site.
  void allocate(const std::string& operation) { allocate(operation, creation_); }
  /// The address of element 0 in C order: element i is at data() + i * itemsize. With several
  /// ranks the memory may cover only a range of the elements (see cover()); then data() is
  /// where element 0 would be, and only the covered elements may be touched.
  char* data() const { return data_.load(std::memory_order_acquire); }

  /// With several ranks a storage covers only what its rank touches: the runtime makes a
  /// storage it analyses before anything allocated it partial (its range starts empty) and
  /// widens the range, as elements [lo, hi) of C order, to every box a task of this rank
  /// touches. Before allocation that only sizes the allocation to come; after it, cover()
  /// returns false when the range must grow, and the caller grows it with grow() once no task
  /// uses the storage. A storage that is not partial covers every element.
  bool make_partial();
  bool partial() const { return partial_.load(std::memory_order_acquire); }
  /// Another library's memory (from_dlpack): never partial.
  bool adopted() const { return external_ != nullptr; }
  /// Its address was handed out (a DLPack export, ctypes): the memory must stay where it is.
  void pin() { pinned_.store(true, std::memory_order_release); }
  bool pinned() const { return pinned_.load(std::memory_order_acquire); }
  /// Whether the memory may be exchanged with another storage's (swap_memory): not while
  /// another storage uses it too.
  bool movable() const { return !pinned() && !adopted() && !partial() && !shares_memory(); }
  /// Whether storage renaming may give it another storage's memory: movable, or split across
  /// the ranks (partial), when each rank exchanges the part it holds (can_swap()).
  bool renamable() const { return !pinned() && !adopted() && !shares_memory(); }
  /// Whether swap_memory(o) may run now: both allocated and renamable, and either both whole
  /// or both partial over the same range.
  bool can_swap(const Storage& o) const;
  /// With several ranks: when this storage is made partial and allocated, it covers at least
  /// what `twin` covers then, and nothing more when what it touches lies within that (a
  /// temporary that will exchange memory with `twin`: renaming needs the same range).
  void set_twin(const std::shared_ptr<Storage>& twin);
  /// Exchanges the memory (and the values in it) with `o`, a storage of the same dtype and
  /// size; both allocated, movable and in the same pool. No task may use either meanwhile.
  void swap_memory(Storage& o);
  bool cover(int64_t lo, int64_t hi);
  /// Reallocates to cover [lo, hi) too, keeping the values of the old range. No task may use
  /// the storage meanwhile (the caller waits for the tasks in flight). Memory lazy copies
  /// share grows for all of them (they hold the same values), so no task may use any of them.
  void grow(int64_t lo, int64_t hi);
  /// The covered elements [range_lo, range_hi), and the bytes actually held.
  int64_t range_lo() const { return range_lo_; }
  int64_t range_hi() const { return range_hi_; }
  int64_t held_bytes() const { return (range_hi_ - range_lo_) * itemsize(dtype_); }

  /// Claims the pool room for this storage now (the runtime does it on the program thread
  /// when it flushes the first writer), so the worker that allocates it later cannot run
  /// out. False, with nothing claimed, when it does not fit. Allocated or claimed: true.
  bool try_reserve(const std::string& operation, const std::string& provenance);
  /// try_reserve() that first lets the pool reclaim memory (it waits for work in flight) and
  /// throws OutOfMemoryError with the pool's report when the room is still not there.
  void reserve(const std::string& operation, const std::string& provenance);
  /// Drops the claim (the writer will not run).
  void unreserve();
  bool reserved() const { return reserved_.load(std::memory_order_acquire); }
  /// Marks that the operation writing it could not get memory: readers fail instead of
  /// reading memory that does not exist. A later successful allocation clears it.
  void mark_failed() { failed_.store(true, std::memory_order_release); }
  bool failed() const { return failed_.load(std::memory_order_acquire); }

  /// The halo a stencil_hint asked for, per dimension below and above (empty: none). On one
  /// rank the storage covers the whole array, so the halo lies outside the array and holds
  /// nothing; ranks that own a part of the array size their storage with it.
  void set_halo(Shape low, Shape high);
  Shape halo_low() const;
  Shape halo_high() const;

  /// Makes `data` — memory tessera did not allocate (another library's buffer, C-ordered,
  /// bytes() long) — this storage's memory; `keep` keeps it alive until the storage goes. It
  /// is not charged to the pool. Only for a storage that has no memory yet.
  void adopt(char* data, std::shared_ptr<void> keep);

  /// Moves the data to `pool` (another memory kind): allocates there, copies, frees here.
  /// No task may use the storage meanwhile (the caller fences first).
  void move_to(std::shared_ptr<MemoryPool> pool);

  // Copy-on-write (runtime/copy_on_write.h). Two records, each for its own time:
  // - as issued (program thread): the storages whose values are lazy copies of one another's
  //   and that no write has separated yet — their *copy group*. A write to a member that has
  //   others in its group must first be preceded by an unshare operation.
  // - as executed (workers, in dependence order): the storages that use one pool block — a
  //   SharedBlock, charged to the pool once and returned when its last user goes.
  /// Its memory will come from another storage's, when the operation that shares it runs:
  /// until then allocate() does nothing and no room is claimed for it.
  void await_memory() { awaiting_.store(true, std::memory_order_release); }
  bool awaiting_memory() const { return awaiting_.load(std::memory_order_acquire); }
  /// Joins `source`'s copy group (program thread, when a lazy copy of it is issued).
  void join_copies_of(Storage& source);
  /// Leaves its copy group (program thread, before an operation that writes it is issued):
  /// true when another storage of the group has not left it (it may share this one's memory;
  /// one that went away still counts, so that what is issued never depends on timing).
  bool leave_copies();
  bool in_copy_group() const { return copies_ != nullptr; }
  /// Makes this storage (awaiting its memory) use `source`'s — a storage of its dtype and
  /// shape: both use one block from then on; with several ranks this one covers what
  /// `source` covers. When they cannot share (another pool or memory kind, another library's
  /// memory, a pinned address, a covered range `source` does not hold), it gets memory of its
  /// own with a copy of `source`'s values instead. No task may write either meanwhile.
  void take_memory_of(Storage& source, const std::string& operation, const std::string& provenance);
  /// Whether another storage uses its memory too.
  bool shares_memory() const { return sharing_.load(std::memory_order_acquire); }
  /// A storage that shares its memory takes fresh memory with a copy of its values; the
  /// others keep the old memory. Nothing when it shares with no other. No task may use this
  /// storage meanwhile (other users of the memory may read it). When the pool has no room,
  /// the storage lets go of the shared memory anyway (marked failed: its values are lost)
  /// and OutOfMemoryError is thrown.
  void unshare_memory(const std::string& operation, const std::string& provenance);
  const std::shared_ptr<MemoryPool>& pool() const { return pool_; }

  /// The runtime's records for this storage (made on first use by runtime/storage_state.h's
  /// state_of; touched only by the analyser).
  std::unique_ptr<StorageExtension> runtime_state;
  /// How many operations writing this storage were submitted: a summary derived from its
  /// values (a sparse matrix's column ranges) is current while the count is unchanged.
  std::atomic<uint64_t> writes{0};

 private:
  AllocationInfo allocation_info() const;
  bool note_maker(const std::string& text);  // records what made it, unless something did
  // Takes sole ownership of a shared block it alone still uses (alloc_mu_ held; no task
  // uses the storage). False when others use it.
  bool own_block_locked();
  // Stops using the shared block (alloc_mu_ held): the next user, if any, stays with it.
  void leave_block_locked();

  DType dtype_;
  Shape shape_, strides_;
  int64_t elements_;
  std::shared_ptr<MemoryPool> pool_;  // outlives the runtime while storages live
  std::string creation_;
  uint64_t seq_;  // the order storages were made in (AllocationInfo::order)
  std::atomic<char*> data_{nullptr};
  char* block_ = nullptr;  // the pool's block (data_ is block_ - range_lo_ elements)
  std::atomic<bool> partial_{false};
  std::atomic<bool> pinned_{false};
  int64_t range_lo_ = 0, range_hi_ = 0;  // covered elements (all of them unless partial)
  std::shared_ptr<void> external_;       // keeps adopted memory alive
  std::shared_ptr<SharedBlock> shared_;  // the block it uses with other storages (then not block_'s owner)
  std::atomic<bool> sharing_{false};     // another storage uses shared_ too
  std::atomic<bool> awaiting_{false};
  std::shared_ptr<CopyGroup> copies_;  // its copy group, as issued (program thread)
  std::atomic<bool> reserved_{false};
  std::atomic<bool> failed_{false};
  mutable std::mutex alloc_mu_;
  // What reports read, possibly from another thread while the pool is locked: a leaf lock.
  mutable std::mutex info_mu_;
  std::string made_by_;
  Shape halo_low_, halo_high_;
  std::weak_ptr<Storage> twin_;  // set_twin (alloc_mu_)
};

}  // namespace tessera::detail
