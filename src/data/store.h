// Store: a logical N-D array of one dtype, seen through a view transform
// (offset + strides over a storage). Slices with any step, transposes,
// broadcasts, new axes and compatible reshapes are stores sharing one storage.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/rect.h"
#include "data/storage.h"

namespace tessera::detail {

class Store;
using StorePtr = std::shared_ptr<Store>;

class Store : public std::enable_shared_from_this<Store> {
 public:
  /// A new store with its own (not yet allocated) storage in `pool` (the runtime's SYSMEM
  /// pool: runtime/stores.h's new_store).
  static StorePtr create(DType dtype, const Shape& shape, std::shared_ptr<MemoryPool> pool, std::string creation = {});

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return storage_layout_ ? storage_->shape() : shape_; }
  // in elements; 0 for broadcast axes
  const Shape& strides() const { return storage_layout_ ? storage_->strides() : strides_; }
  int64_t offset() const { return offset_; }
  int ndim() const { return static_cast<int>(shape().size()); }
  int64_t size() const { return volume(shape()); }
  const std::shared_ptr<Storage>& storage() const { return storage_; }

  /// True when this store covers its whole storage in C order.
  bool is_whole() const;
  bool is_c_contiguous() const;
  /// Same storage, same offset, strides and shape.
  bool same_view(const Store& o) const;

  // View transforms: each returns a new store sharing the storage.
  StorePtr slice(int dim, int64_t start, int64_t stop, int64_t step) const;
  StorePtr index(int dim, int64_t i) const;  // drops `dim`
  StorePtr new_axis(int pos) const;
  StorePtr transpose(const std::vector<int>& perm) const;
  StorePtr broadcast_to(const Shape& shape) const;  // shape already checked
  /// A view with `shape`, or nullptr when the data cannot be viewed that way.
  StorePtr reshape_view(const Shape& shape) const;

  /// Declares that stencils will read `low[d]` elements below and `high[d]` above this array
  /// along each dimension d (ValueError unless one non-negative extent per dimension, on an
  /// array that owns its data). The storage is allocated now, with room for the halo where
  /// a rank holds only part of the array, so the slices and the whole array that follow
  /// share that one allocation (and an out-of-memory error comes at the hint). On one rank
  /// the storage already covers the whole array: the halo, outside the array, takes nothing.
  /// The allocation is attributed to `provenance`, the line that gave the hint.
  void stencil_hint(const Shape& low, const Shape& high, const std::string& provenance);

  /// The rect of the storage touched by `rect` of this store (a bounding box).
  Rect storage_rect(const Rect& rect) const;
  /// Address of element `idx` (storage must be allocated).
  char* ptr(const Shape& idx) const;
  char* base_ptr() const { return storage_->data() + offset_ * itemsize(dtype_); }

  /// NumPy's WRITEABLE flag. Operations that would write a store that is not writeable
  /// raise ValueError("assignment destination is read-only") when they are issued; views
  /// made from a read-only store are read-only.
  bool writeable() const { return writeable_; }
  /// Sets the flag. Making a store writeable fails (ValueError, NumPy's message) when it is
  /// locked read-only or a view of a store that is not writeable now.
  void set_writeable(bool writeable);
  /// Read-only for good: set_writeable(true) will refuse (broadcasts, NumPy's read-only views).
  void lock_read_only() {
    writeable_ = false;
    locked_ = true;
  }
  /// Raises NumPy's ValueError when the store is not writeable.
  void require_writeable() const;
  /// The store whose storage this view shares (the one Store::create made), or null for it.
  const StorePtr& base() const { return base_; }
  /// The same elements seen with another dtype of the same item size (NumPy's view(dtype)).
  StorePtr reinterpret(DType dtype) const;
  /// The real (`part` 0) or imaginary (1) components of a complex store, as a view of its
  /// floating-point dtype (NumPy's `a.real` / `a.imag`).
  StorePtr component(int part) const;
  /// A view of the same storage at `offset` with `shape` and `strides` (storage elements);
  /// the caller checked that every element lies inside the storage.
  StorePtr strided(int64_t offset, const Shape& shape, const Shape& strides) const;

  /// Handles held by the program (Python or C++ ndarray objects); 0 means a temporary.
  std::atomic<int> user_refs{0};

  Store(DType dtype, Shape shape, Shape strides, int64_t offset, std::vector<int> dim_map,
        std::shared_ptr<Storage> storage);

 private:
  DType dtype_;
  Shape shape_, strides_;
  int64_t offset_;
  // For each dim, the storage dim it walks (-1: none, a broadcast or new axis;
  // -2: unknown, after a reshape — rects then come from linear extents).
  std::vector<int> dim_map_;
  // The store Store::create made sees its storage as it is: shape, strides and dims are the
  // storage's, read from there (shape_, strides_ and dim_map_ stay empty), so that making a
  // store allocates no copies of them.
  bool storage_layout_ = false;
  std::shared_ptr<Storage> storage_;
  StorePtr base_;  // the owning store (null: this one owns the storage)
  bool writeable_ = true;
  bool locked_ = false;

  // The storage dim that dim `j` walks, and all of them.
  int dim_of(int j) const { return storage_layout_ ? j : dim_map_[static_cast<size_t>(j)]; }
  std::vector<int> dim_map() const;
  // A view of this store: shares the storage, records the owner, inherits read-only-ness.
  StorePtr derive(DType dtype, Shape shape, Shape strides, int64_t offset, std::vector<int> dim_map) const;
};

}  // namespace tessera::detail
